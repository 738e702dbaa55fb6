# Screen parts the flows share: seats to pick, points by player, fan lines, tiles. Each returns
# lines for firmware/ui/layout.py (str, or a pair of cells that share a row when they fit).
from firmware.ui import texts as T
from firmware.compat import const
from firmware.entry import compact

# the texts of what an event does beyond points (firmware/ui/texts.py): flags of rules_min/settle.py
_BARRED = const(0)
_FL_WARNING = const(1)
_FL_FORFEIT = const(2)
_FL_DISQUALIFIED = const(3)
_FL_ROUND_CANCELLED = const(4)
_FL_FALSE_DECL = const(5)
_FL_INTENTIONAL = const(6)
_FL_FALSE_WIN = const(7)
_FLAG_OTHER = const(8)
_NOT_COUNTED = const(9)
_TX = T.Table(
    "%s 本盘不能和|%s may not win now|"  # _BARRED
    "%s: 警告|%s: a warning|"  # _FL_WARNING
    "%s 判负: 叫裁判|%s forfeits: referee|"  # _FL_FORFEIT
    "%s 取消资格: 叫裁判|%s out: call the referee|"  # _FL_DISQUALIFIED
    "本盘作废: 叫裁判|Hand void: call referee|"  # _FL_ROUND_CANCELLED
    "%s 报和未亮牌|%s declared, not shown|"  # _FL_FALSE_DECL
    "%s 有意诈和? 叫裁判|%s: on purpose? referee|"  # _FL_INTENTIONAL
    "%s 诈和 本盘不能和|%s false win: barred|"  # _FL_FALSE_WIN
    "%s: 叫裁判|%s: call the referee|"  # _FLAG_OTHER
    "作废:|Voided:|"  # _NOT_COUNTED
)
_FLAG_TEXT = {"warning": _FL_WARNING, "forfeit": _FL_FORFEIT, "disqualified": _FL_DISQUALIFIED,
              "round_cancelled": _FL_ROUND_CANCELLED, "false_declaration": _FL_FALSE_DECL,
              "intentional_false_win": _FL_INTENTIONAL, "false_win": _FL_FALSE_WIN}


def _t(app, i):
    return _TX.get(i, app.lang)


def seat_key(key, zero=False):
    """Chair 0-3 of a key 1-4; -1 for 0 when zero is allowed; None for any other key."""
    if key in "1234" and len(key) == 1:
        return int(key) - 1
    if zero and key == "0":
        return -1
    return None


def wind(app, c):
    return app.tx(T.WIND_E + "ESWN".find(app.session.seat_wind(c)))


def seat_label(app, c):
    """"1 东 101": the key, the seat wind, the player."""
    return "%d %s %s" % (c + 1, wind(app, c), app.session.who(c))


def seat_lines(app, skip=-1):
    """The four seats to pick from, two a row (skip: a chair that cannot be picked)."""
    e = app.session.empty
    cells = [("" if c == skip or c == e else seat_label(app, c)) for c in range(4)]
    return [(cells[0], cells[1]), (cells[2], cells[3])]


def signed(n):
    """+38, -8, and 0 with no sign."""
    return "%+d" % n if n else "0"


def points_lines(app, pts, by_key=True):
    """Points per chair labelled by player ("1 101\t+38"), two a row."""
    s = app.session
    cells = []
    for c in range(4):
        label = ("%d " % (c + 1) if by_key else wind(app, c)) + s.who(c)
        cells.append("%s\t%s" % (label, signed(pts[c])))
    return [(cells[0], cells[1]), (cells[2], cells[3])]


def fan_lines(app, rules, fans, total):
    """One line a fan, its points on the right, then the total: a player can add them up."""
    from firmware.ui import fan_names as names
    out = []
    for fid, n in fans:
        nm, pts = names.fan(rules, fid, app.lang)
        if rules == "mcr":
            right = "%d" % (pts * n) if n == 1 or fid == names.FLOWERS else "%dx%d" % (pts, n)
        elif rules == "sichuan":
            right = "%d" % (pts * n)
        else:
            right = "x%d" % pts
        out.append(nm + "\t" + right)
    out.append(app.tx(T.TOTAL) + "\t" + app.tx(T.TOTAL_UNIT[rules]) % total)
    return out


def hand_lines(e):
    """The tiles of an entry so far: claimed melds in brackets, then the open tiles."""
    s = " ".join("[" + compact(m[1]) + "]" for m in e.melds)
    if e.current:
        s += (" " if s else "") + compact(e.current)
    return [s] if s else []


def confirm_hint(app, ok):
    """Which seats have confirmed: "1-4 OK: 1 _ 3 _"."""
    marks = " ".join(str(c + 1) if ok[c] else "_" for c in range(4))
    return app.tx(T.CONFIRM_HINT) % marks


def say(app, err):
    """An entry's refusal (text, argument or None) as the message."""
    if err[1] is None:
        app.say(err[0])
    else:
        app.say(err[0], err[1])


def consequence(app, seat, pay):
    """What a previewed event (a penalty, a false win) does, in words: points by player, a
    warning, a flag for the referee, a player barred from winning."""
    s = app.session
    h = app.hand
    nflags, barred = app.book.tentative
    lines = []
    if any(pay):
        lines += points_lines(app, pay)
    for f in h.flags[nflags:]:
        if f["kind"] != "barred":   # the line below says it
            lines.append(_t(app, _FLAG_TEXT.get(f["kind"], _FLAG_OTHER)) % s.who(f["seat"]))
    if h.barred[seat] and not barred[seat]:
        lines.append(_t(app, _BARRED) % s.who(seat))
    return lines or [app.tx(T.NO_POINTS)]


def cut_off(app):
    """The hand in progress cut off as the rule set's time-out says (rules_min/settle_*.py
    time_out), previewed: (event, points per chair of what was keyed that no longer counts), or
    (None, None) when nothing was keyed in it. The preview stands for the step's # to confirm."""
    book = app.book
    if not book.events:
        return None, None
    ev = {"time_out": True}
    pay, err = book.preview(ev)
    if err:
        return None, None
    return ev, [-p for p in pay]


def not_counted_line(app, lost):
    """"Voided: 2 -20": the chairs (keys 1-4) whose points in the unfinished hand go."""
    out = _t(app, _NOT_COUNTED)
    for c in range(4):
        if lost[c]:
            out += " %d %s" % (c + 1, signed(lost[c]))
    return out
