# The D menu (declared win, wall end, time-out, referee, the language) and the session's time
# running out: the hand in progress is closed as the rule set says.
from firmware.ui import texts as T
from firmware.compat import const

# this flow's texts (firmware/ui/texts.py)
_MORE_TITLE = const(0)
_MORE_1 = const(1)
_MORE_2 = const(2)
_MORE_3 = const(3)
_MORE_4 = const(4)
_LANG_EN = const(5)
_LANG_CN = const(6)
_TIMEOUT_TITLE = const(7)
_TIMEOUT_MCR = const(8)
_TIMEOUT_KEEP = const(9)
_TX = T.Table(
    "更多|More|"  # _MORE_TITLE
    "1 错和|1 false win|"  # _MORE_1
    "2 流局|2 wall end|"  # _MORE_2
    "3 时间到|3 time up|"  # _MORE_3
    "4 裁判|4 referee|"  # _MORE_4
    "5 English|5 English|"  # _LANG_EN
    "5 中文|5 中文|"  # _LANG_CN
    "时间到|Time is up|"  # _TIMEOUT_TITLE
    "本盘不计分|This hand counts nothing|"  # _TIMEOUT_MCR
    "已结算的杠保留|Settled kongs stand|"  # _TIMEOUT_KEEP
)


def _t(app, i):
    return _TX.get(i, app.lang)


# ---- the D menu ----
def s_more(app):
    other = _LANG_EN if app.lang == "cn" else _LANG_CN
    lines = [(_t(app, _MORE_1), _t(app, _MORE_2)), (_t(app, _MORE_3), _t(app, _MORE_4)), _t(app, other)]
    return _t(app, _MORE_TITLE), lines, app.tx(T.BACK_HINT)


def k_more(app, key):
    if key == "*":
        app.home()
    elif key == "1":
        app.go("decl_who")
    elif key == "2":
        from firmware.flows import wall
        wall.begin(app)
    elif key == "3":
        app.go("timeout")
    elif key == "4":
        app.go("pin")
    elif key == "5":
        app.lang = "en" if app.lang == "cn" else "cn"
        app.home()


# ---- time out ----
def s_timeout(app):
    s = app.session
    d = app.d
    if "pay" not in d:   # once a step: what the cut-off takes away, said before # ends the session
        from firmware.flows import parts
        d["event"], d["pay"] = parts.cut_off(app)
    lines = [_t(app, _TIMEOUT_MCR if s.rules == "mcr" else _TIMEOUT_KEEP)]
    if d["pay"] is not None and any(d["pay"]):
        from firmware.flows import parts
        lines.append(parts.not_counted_line(app, d["pay"]))
    return _t(app, _TIMEOUT_TITLE), lines, app.tx(T.OK_HINT)


def k_timeout(app, key):
    if key == "*":
        app.home()
    elif key == "#":
        ev = {"time_out": True}
        pay, err = app.book.preview(ev)
        if err:
            app.say(T.REFUSED_GENERIC)
            return
        app.confirm(ev, time_out=True)


HANDLERS = (
    ("more", s_more, k_more, None),
    ("timeout", s_timeout, k_timeout, None),
)
