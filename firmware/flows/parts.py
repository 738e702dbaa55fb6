# Screen parts the flows share: seats to pick, points by player, fan lines, tiles. Each returns
# lines for firmware/layout.py (str, or a pair of cells that share a row when they fit).
from firmware import texts as T
from firmware.entry import compact


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
    return "%d %s %s" % (c + 1, wind(app, c), app.session.player_at(c))


def seat_lines(app, skip=-1):
    """The four seats to pick from, two a row (skip: a chair that cannot be picked)."""
    cells = [("" if c == skip else seat_label(app, c)) for c in range(4)]
    return [(cells[0], cells[1]), (cells[2], cells[3])]


def signed(n):
    """+38, -8, and 0 with no sign."""
    return "%+d" % n if n else "0"


def points_lines(app, pts, by_key=True):
    """Points per chair labelled by player ("1 101\t+38"), two a row."""
    s = app.session
    cells = []
    for c in range(4):
        label = ("%d " % (c + 1) if by_key else wind(app, c)) + s.player_at(c)
        cells.append("%s\t%s" % (label, signed(pts[c])))
    return [(cells[0], cells[1]), (cells[2], cells[3])]


def fan_lines(app, rules, fans, total):
    """One line a fan, its points on the right, then the total: a player can add them up."""
    from firmware import names
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
