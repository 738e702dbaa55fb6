# The rarer steps of a win, loaded only when a table needs one: the flags screen (D on the
# result: last tile, kong, ... the rows of firmware/flows/win.py WIN_FLAGS), a hand the rules
# refused (under 8 fans, a chicken hand on a discard, ...) with what to do (fix the tiles, or
# key it as a false win), Sichuan's question when the discarder konged this hand (杠上炮?),
# MCR's question when 杠上开花 is claimed (was the replacement a flower?), and Guangdong's
# question whether another player won on the same discard.
from firmware.ui import texts as T
from firmware.compat import const
from firmware.flows import parts, win

# this flow's texts (firmware/ui/texts.py)
_NOT_A_WIN = const(0)
_UNDER_8 = const(1)
_REFUSED_HINT = const(2)
_FLAGS_TITLE = const(3)
_FLOWERS_TAPPED = const(4)
_ON = const(5)
_OFF = const(6)
_FLAGS_HINT = const(7)
_KONG_DISCARD_Q = const(8)
_KONG_DISCARD_1 = const(9)
_KONG_DISCARD_0 = const(10)
_ANOTHER_Q = const(11)
_NO_ONE = const(12)
_KONG_FLOWER_Q = const(13)
_KONG_FLOWER_1 = const(14)
_KONG_FLOWER_0 = const(15)
_F_LAST_OF_KIND = const(16)
_F_LAST_TILE = const(17)
_F_KONG = const(18)
_F_FLOWERS = const(19)
_TX = T.Table(
    "不能和牌|Not a win|"  # _NOT_A_WIN
    "只有%d番: 不够8番|Only %d pts: a win needs 8|"  # _UNDER_8
    "*改牌 D错和|* fix  D false win|"  # _REFUSED_HINT
    "标记|Flags|"  # _FLAGS_TITLE
    "花牌已拍|Flowers were tapped|"  # _FLOWERS_TAPPED
    "●|●|"  # _ON
    "○|○|"  # _OFF
    "1-%d 改  D完成|1-%d, D done|"  # _FLAGS_HINT
    "%s杠后打出的?|Right after %s's kong?|"  # _KONG_DISCARD_Q
    "1 是: 杠上炮 杠钱转移|1 yes: its pay passes on|"  # _KONG_DISCARD_1
    "0 不是|0 no|"  # _KONG_DISCARD_0
    "同一张还有人和?|Another winner?|"  # _ANOTHER_Q
    "# 没有了|# no one|"  # _NO_ONE
    "杠后补到的是花牌?|Kong drew a flower?|"  # _KONG_FLOWER_Q
    "1 是: 不算杠上开花|1 yes: no kong bonus|"  # _KONG_FLOWER_1
    "0 不是|0 no|"  # _KONG_FLOWER_0
    "和绝张|last of kind|"  # _F_LAST_OF_KIND
    "海底|last tile|"  # _F_LAST_TILE
    "杠上/抢杠|kong|"  # _F_KONG
    "花|flowers|"  # _F_FLOWERS
)


def _t(app, i):
    return _TX.get(i, app.lang)


FLOWERS_MAX = 8
# The flags screen: field of the win event, its text (None: firmware/flows/win.py NAMED's),
# kind, condition (None: always).
#   toggle  key flips it;  count  key adds one, up to FLOWERS_MAX, then 0 (the flowers: a
#   number, not one of rules_min/keyed.py's flags; win.FLOWER_RULES);
#   ask     asked (1 yes, 0 no) when its condition comes to hold: kong_discard as the discarder
#           is keyed (firmware/flows/win.py), replacement_flower as the kong flag is set
# A row is on the screen while its condition holds and the rule set takes the flag
# (session.keyed, from rules_min/keyed.py); the rows with a condition come last, so the keys of
# the others never move.
WIN_FLAGS = (
    ("last_of_kind", _F_LAST_OF_KIND, "toggle", None),
    ("last_tile", _F_LAST_TILE, "toggle", None),
    ("kong", _F_KONG, "toggle", None),
    ("flowers", _F_FLOWERS, "count", None),
    ("win_tile_mixed", None, "toggle", None),
    ("replacement_flower", None, "ask", "kong_self_drawn"),
    ("misnamed", None, "toggle", "discard"),
    ("kong_discard", None, "ask", "discarder_konged"),
)


def holds(app, cond):
    """Whether the condition of a WIN_FLAGS row holds for the win being keyed."""
    d = app.d
    if cond is None:
        return True
    if cond == "discard":
        return d.get("src") is not None
    if cond == "kong_self_drawn":
        return d.get("src") is None and bool(d["flags"].get("kong"))
    if cond == "discarder_konged":
        return win.discarder_konged(app, d.get("src"))
    return False


def takes(app, row):
    """Whether the session's rule set has the flag of a WIN_FLAGS row at all."""
    s = app.session
    if row[2] == "count":
        return s.rules in win.FLOWER_RULES
    return row[0] in s.keyed_list(0)


def flag_rows(app):
    """The rows of WIN_FLAGS this win can have now."""
    return [row for row in WIN_FLAGS if takes(app, row) and holds(app, row[3])]


def _word(app, row):
    return _t(app, row[1]) if row[1] is not None else win.named(app, row[0])


# ---- refused ----
def s_refused(app):
    d = app.d
    code, detail = d["err"]
    lines = [app.tx(T.REFUSAL.get(code, T.REFUSED_GENERIC))]
    if code == "not_win" and app.session.rules == "mcr":
        n = _mcr_points(app)
        if n:
            lines = [_t(app, _UNDER_8) % n]
    lines += parts.hand_lines(d["entry"])
    return _t(app, _NOT_A_WIN), lines, _t(app, _REFUSED_HINT)


def _mcr_points(app):
    # the fans a hand under 8 has, for the message (settle refuses it without the number)
    from rules_min.notation import parse
    from rules_min import mcr
    from rules_min.mcr_table import NUM_FANS
    from rules_min.win import Win
    d = app.d
    s = app.session
    ev = win.event(app)
    try:
        melds, counts, w, _ = parse(ev["hand"])
    except ValueError:
        return 0
    p = Win(melds, counts, w, ev["from"] is None, ev.get("last_of_kind", False), ev.get("last_tile", False),
            ev.get("kong", False), seat_wind=27 + (ev["win"] - s.dealer) % 4, prevalent_wind=27 + s.prevalent)
    return max(mcr.score(p, bytearray(NUM_FANS)), 0)


def k_refused(app, key):
    d = app.d
    if key == "*":
        d["entry"].undo()
        app.to("tiles")
    elif key == "D":
        from firmware.flows import declare
        declare.preview(app, d["winner"], d["entry"])


# ---- flags ----
def s_flags(app):
    f = app.d["flags"]
    cells = []
    rows = flag_rows(app)
    for i in range(len(rows)):
        row = rows[i]
        if row[2] == "count":
            n = len(app.d["flowers"]) or f.get(row[0], 0)
            cells.append("%d %s %d" % (i + 1, _word(app, row), n))
        else:
            cells.append("%d %s%s" % (i + 1, _word(app, row), _t(app, _ON if f.get(row[0]) else _OFF)))
    lines = []
    for i in range(0, len(cells), 2):
        lines.append((cells[i], cells[i + 1] if i + 1 < len(cells) else ""))
    return _t(app, _FLAGS_TITLE), lines, _t(app, _FLAGS_HINT) % len(rows)


def k_flags(app, key):
    f = app.d["flags"]
    rows = flag_rows(app)
    if key in "*D" and len(key) == 1:   # back to the result, scored again with the flags
        _drop_stale(app)
        win.preview(app)
        return
    if key in "123456789" and len(key) == 1 and int(key) <= len(rows):
        row = rows[int(key) - 1]
        if row[2] == "count":
            if app.d["flowers"]:
                app.show(_t(app, _FLOWERS_TAPPED))
                return
            f[row[0]] = (f.get(row[0], 0) + 1) % (FLOWERS_MAX + 1)
        else:
            f[row[0]] = not f.get(row[0], False)
            if row[0] == "kong" and f["kong"] and _asks(app, "replacement_flower"):
                app.to("kong_flower")


def _asks(app, field):
    for row in WIN_FLAGS:
        if row[0] == field:
            return row[2] == "ask" and takes(app, row) and holds(app, row[3])
    return False


def _drop_stale(app):
    # a flag whose condition no longer holds (replacement_flower once kong is off) goes, so the
    # win event (win.event: every true flag) carries only what this win can have
    f = app.d["flags"]
    live = [row[0] for row in flag_rows(app)]
    for k in list(f):
        if f[k] is True and k not in live and k != "same_discard":
            del f[k]


# ---- MCR: 杠上开花 claimed: was the kong's replacement a flower (seed 000 §二.14)? ----
def s_kong_flower(app):
    return _t(app, _KONG_FLOWER_Q), [_t(app, _KONG_FLOWER_1), _t(app, _KONG_FLOWER_0)], app.tx(T.BACK_HINT)


def k_kong_flower(app, key):
    if key == "*" or (len(key) == 1 and key in "10"):
        app.d["flags"]["replacement_flower"] = key == "1"
        app.to("flags")


# ---- Sichuan: the discard right after the discarder's kong? ----
def s_kong_discard(app):
    src = app.session.who(app.d["src"])
    return _t(app, _KONG_DISCARD_Q) % src, [_t(app, _KONG_DISCARD_1), _t(app, _KONG_DISCARD_0)], app.tx(T.BACK_HINT)


def k_kong_discard(app, key):
    if key == "*":
        app.to("win_from")
    elif key in "10" and len(key) == 1:
        win.begin_tiles(app, app.d["winner"], app.d["src"], kong_discard=key == "1")


# ---- Guangdong: more winners on one discard ----
def s_another(app):
    d = app.d
    won = app.hand.winners
    cells = ["" if (c == d["src"] or c in won) else parts.seat_label(app, c) for c in range(4)]
    return _t(app, _ANOTHER_Q), [(cells[0], cells[1]), (cells[2], cells[3]), _t(app, _NO_ONE)], app.tx(T.OK_HINT)


def k_another(app, key):
    d = app.d
    if key == "#":
        app.hand.finish()
        app.commit_hand()
        return
    c = parts.seat_key(key)
    if c is not None and c != d["src"] and c not in app.hand.winners:
        win.begin_tiles(app, c, d["src"], same=True)


HANDLERS = (
    ("refused", s_refused, k_refused, None),
    ("flags", s_flags, k_flags, None),
    ("kong_discard", s_kong_discard, k_kong_discard, None),
    ("kong_flower", s_kong_flower, k_kong_flower, None),
    ("another", s_another, k_another, None),
)
