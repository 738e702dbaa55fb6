# A kong: B, who konged, then how: 0 concealed (暗杠), 5 added to a claimed pung (加杠), or the
# key of the player who gave the tile (明杠); the payments (Sichuan, Guangdong) and # records it.
from firmware.ui import texts as T
from firmware.compat import const
from firmware.flows import parts

# this flow's texts (firmware/ui/texts.py)
_WHO_KONGED = const(0)
_KONG_HOW_Q = const(1)
_KONG_CONCEALED_0 = const(2)
_KONG_ADDED_5 = const(3)
_KONG_FROM_HINT = const(4)
_KONG_NOT_SELF = const(5)
_KONG_TITLE = const(6)
_KONG_C = const(7)
_KONG_A = const(8)
_KONG_D = const(9)
_FROM_PLAYER = const(10)
_KONG_NO_POINTS = const(11)
_TX = T.Table(
    "谁开杠? 1-4|Who konged? 1-4|"  # _WHO_KONGED
    "%s 的杠|%s's kong|"  # _KONG_HOW_Q
    "0 暗杠|0 concealed|"  # _KONG_CONCEALED_0
    "5 加杠|5 added|"  # _KONG_ADDED_5
    "1-4 放杠者 *返回|1-4 gave it  * back|"  # _KONG_FROM_HINT
    "不能自己放杠|Not from oneself|"  # _KONG_NOT_SELF
    "%s 杠|%s kongs|"  # _KONG_TITLE
    "暗杠|concealed|"  # _KONG_C
    "加杠|added|"  # _KONG_A
    "明杠|direct|"  # _KONG_D
    "%s 放|from %s|"  # _FROM_PLAYER
    "国标杠不当场计分|MCR kongs pay nothing now|"  # _KONG_NO_POINTS
)
_KONG_KIND = {"concealed": _KONG_C, "added": _KONG_A, "direct": _KONG_D}


def _t(app, i):
    return _TX.get(i, app.lang)



def s_kong_who(app):
    return _t(app, _WHO_KONGED), parts.seat_lines(app), app.tx(T.BACK_HINT)


def k_kong_who(app, key):
    if key == "*":
        app.home()
        return
    c = parts.seat_key(key)
    if c is not None:
        if app.hand.out[c]:
            app.say(T.ALREADY_WON, app.session.who(c))
            return
        app.go("kong_how", seat=c)


def s_kong_how(app):
    c = app.d["seat"]
    lines = [(_t(app, _KONG_CONCEALED_0), _t(app, _KONG_ADDED_5))] + parts.seat_lines(app, c)
    return _t(app, _KONG_HOW_Q) % app.session.who(c), lines, _t(app, _KONG_FROM_HINT)


def k_kong_how(app, key):
    d = app.d
    if key == "*":
        app.go("kong_who")
        return
    if key == "0":
        ev = {"kong": "concealed", "seat": d["seat"]}
    elif key == "5":
        ev = {"kong": "added", "seat": d["seat"]}
    else:
        c = parts.seat_key(key)
        if c is None:
            return
        if c == d["seat"]:
            app.show(_t(app, _KONG_NOT_SELF))
            return
        ev = {"kong": "direct", "seat": d["seat"], "from": c}
    pay, err = app.book.preview(ev)
    if err:
        app.say(T.REFUSAL.get(err[0], T.REFUSED_GENERIC))
        return
    d["event"] = ev
    d["pay"] = pay
    app.to("kong_ok")


def s_kong_ok(app):
    d = app.d
    ev = d["event"]
    s = app.session
    what = _t(app, _KONG_KIND[ev["kong"]])
    if ev["kong"] == "direct":
        what += " " + _t(app, _FROM_PLAYER) % s.who(ev["from"])
    lines = [what]
    if any(d["pay"]):
        lines += parts.points_lines(app, d["pay"])
    else:
        lines.append(_t(app, _KONG_NO_POINTS))
    return _t(app, _KONG_TITLE) % s.who(ev["seat"]), lines, app.tx(T.OK_HINT)


def k_kong_ok(app, key):
    if key == "*":
        app.go("kong_how", seat=app.d["seat"])
    elif key == "#":
        app.confirm(app.d["event"])


HANDLERS = (
    ("kong_who", s_kong_who, k_kong_who, None),
    ("kong_how", s_kong_how, k_kong_how, None),
    ("kong_ok", s_kong_ok, k_kong_ok, None),
)
