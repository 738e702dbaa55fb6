# A declared win that fails (错和 / 诈和): D 1, who declared, the tiles shown; the box works out
# the charge (ready or not: rules_min/settle.py) and each seat confirms. A win the box refused
# (under 8 fans, ...) comes here with its tiles already in (firmware/flows/win.py, key D).
from firmware.ui import texts as T
from firmware.compat import const
from firmware.entry import Entry
from firmware.flows import load, parts

# this flow's texts (firmware/ui/texts.py)
_DECLARED_LINE = const(0)
_WHO_DECLARED = const(1)
_FALSE_WIN_TITLE = const(2)
_TX = T.Table(
    "%s 报和的牌|%s's declared hand|"  # _DECLARED_LINE
    "谁报和? 1-4|Who declared? 1-4|"  # _WHO_DECLARED
    "%s 错和|%s false win|"  # _FALSE_WIN_TITLE
)


def _t(app, i):
    return _TX.get(i, app.lang)



def s_decl_who(app):
    return _t(app, _WHO_DECLARED), parts.seat_lines(app), app.tx(T.BACK_HINT)


def k_decl_who(app, key):
    if key == "*":
        app.go("more")
        return
    c = parts.seat_key(key)
    if c is None:
        return
    if app.hand.out[c]:
        app.say(T.ALREADY_WON, app.session.who(c))
        return
    r = app.session.rules
    _shanten()
    load("tiles").begin(app, Entry(14, chows=r == "mcr", honours=r != "sichuan"), _who, _done, _back, seat=c,
                owner="declare")


def _shanten():
    # the rules core counts how far the declared hand is from ready (错和 or 诈和): load that
    # now, with the heap collected, not after the tiles' garbage
    import gc
    from firmware.scorebook import make_room
    make_room()
    gc.collect()
    import rules_min.shanten  # noqa: F401


def _who(app):
    return _t(app, _DECLARED_LINE) % app.session.who(app.d["seat"])


def _back(app):
    app.go("decl_who")


def _done(app):
    preview(app, app.d["seat"], app.d["entry"])


def preview(app, seat, entry):
    ev = {"declare": seat, "hand": entry.notation()}
    _shanten()
    pay, err = app.book.preview(ev)
    if err:
        if err[0] == "is_a_win":
            app.say(T.IS_A_WIN)
        else:
            app.say(T.REFUSAL.get(err[0], T.REFUSED_GENERIC))
        return
    app.to("decl_ok")
    app.d = {"event": ev, "pay": pay, "entry": entry, "seat": seat, "ok": list(app.session.nobody)}


def s_decl_ok(app):
    d = app.d
    s = app.session
    lines = parts.consequence(app, d["seat"], d["pay"])
    lines += parts.hand_lines(d["entry"])
    return _t(app, _FALSE_WIN_TITLE) % s.who(d["seat"]), lines, parts.confirm_hint(app, d["ok"])


def k_decl_ok(app, key):
    d = app.d
    if key == "*":
        d["entry"].undo()
        load("tiles").begin(app, d["entry"], _who, _done, _back, seat=d["seat"], owner="declare")
        return
    c = parts.seat_key(key)
    if c is None:
        return
    d["ok"][c] = True
    if all(d["ok"]):
        app.confirm(d["event"])


HANDLERS = (
    ("decl_who", s_decl_who, k_decl_who, None),
    ("decl_ok", s_decl_ok, k_decl_ok, None),
)
