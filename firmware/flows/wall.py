# The wall is used up (流局): D 2. Sichuan first takes the 13 tiles of each player still in
# (查叫: who is ready, who still holds three suits); the void suit is read from the tiles. Then
# the payments, and # records the hand.
from firmware.ui import texts as T
from firmware.compat import const
from firmware.entry import Entry, void_suit
from firmware.flows import load, parts

# this flow's texts (firmware/ui/texts.py)
_WALL_HAND_LINE = const(0)
_WALL_TITLE = const(1)
_TX = T.Table(
    "%s 的13张|%s: 13 tiles|"  # _WALL_HAND_LINE
    "流局|Wall end|"  # _WALL_TITLE
)


def _t(app, i):
    return _TX.get(i, app.lang)



def begin(app):
    if app.session.rules != "sichuan":
        _preview(app, {"wall_end": True}, None)
        return
    still = [c for c in range(4) if not app.hand.out[c]]
    _next_seat(app, still, [], 0)


def _next_seat(app, still, entries, i):
    if i >= len(still):
        ev = {"wall_end": True, "hands": {}, "missing_suit": {}}
        for k in range(len(still)):
            key = str(still[k])
            e = entries[k]
            ev["hands"][key] = e.notation()
            v = void_suit(e.suits())
            if v is not None:
                ev["missing_suit"][key] = v
        _preview(app, ev, (still, entries))
        return
    c = still[i]
    e = entries[i] if i < len(entries) else Entry(13, chows=False, honours=False)
    if i >= len(entries):
        entries.append(e)

    def who(app):
        return _t(app, _WALL_HAND_LINE) % parts.seat_label(app, c)

    def done(app):
        _next_seat(app, still, entries, i + 1)

    def back(app):
        if i == 0:
            app.home()
        else:
            entries[i - 1].undo()
            del entries[i:]
            _next_seat(app, still, entries, i - 1)

    load("tiles").begin(app, e, who, done, back, owner="wall")


def _preview(app, ev, still):
    pay, err = app.book.preview(ev)
    if err:
        app.home()
        app.say(T.REFUSAL.get(err[0], T.REFUSED_GENERIC))
        return
    app.to("wall_ok")
    app.d = {"event": ev, "pay": pay, "still": still}


def s_wall_ok(app):
    d = app.d
    lines = parts.points_lines(app, d["pay"]) if any(d["pay"]) else [app.tx(T.NO_POINTS)]
    return _t(app, _WALL_TITLE), lines, app.tx(T.OK_HINT)


def k_wall_ok(app, key):
    d = app.d
    if key == "#":
        app.confirm(d["event"])
    elif key == "*":
        if d["still"] is None:
            app.home()
        else:
            still, entries = d["still"]
            entries[-1].undo()
            _next_seat(app, still, entries, len(entries) - 1)


HANDLERS = (
    ("wall_ok", s_wall_ok, k_wall_ok, None),
)
