# Setup: no session yet. The host pushes a config over the link (app.push_config), or the
# table keys one in here: rules, table, session, four player numbers, first dealer, then a look
# at it all before it starts. The keyed-in config goes through the same check as the host's
# (protocol/config.py).
from firmware.ui import texts as T
from firmware.compat import const

# this flow's texts (firmware/ui/texts.py)
_NO_SESSION = const(0)
_BOX = const(1)
_HOST_OR_KEYS = const(2)
_KEYIN_HINT = const(3)
_RULES_Q = const(4)
_RULES_1 = const(5)
_RULES_2 = const(6)
_RULES_3 = const(7)
_TABLE_Q = const(8)
_SESSION_Q = const(9)
_PLAYER_N = const(10)
_DEALER_Q = const(11)
_START_Q = const(12)
_TABLE_SESSION = const(13)
_FIRST_DEALER = const(14)
_START_HINT = const(15)
_PLAYER_TWICE = const(16)
_CONFIG_REFUSED = const(17)
_TX = T.Table(
    "无对局|No session|"  # _NO_SESSION
    "本机 %s|Box %s|"  # _BOX
    "等电脑下发对局|Waiting for the host|"  # _HOST_OR_KEYS
    "D 手动输入对局|D: key in a session|"  # _KEYIN_HINT
    "规则?|Rules?|"  # _RULES_Q
    "1 国标|1 MCR|"  # _RULES_1
    "2 川麻|2 Sichuan|"  # _RULES_2
    "3 广东|3 Guangdong|"  # _RULES_3
    "桌号?|Table number?|"  # _TABLE_Q
    "第几轮?|Session number?|"  # _SESSION_Q
    "%d号位选手编号?|Player at seat %d?|"  # _PLAYER_N
    "首庄 1-4?|First dealer 1-4?|"  # _DEALER_Q
    "开始对局?|Start the session?|"  # _START_Q
    "%d桌 第%d轮|table %d session %d|"  # _TABLE_SESSION
    "首庄 %d号位|first dealer: seat %d|"  # _FIRST_DEALER
    "#开始 *返回|# start  * back|"  # _START_HINT
    "%s 已入座|%s already sits here|"  # _PLAYER_TWICE
    "对局不能开始: %s|Cannot start: %s|"  # _CONFIG_REFUSED
)


def _t(app, i):
    return _TX.get(i, app.lang)


_DIGITS = "0123456789"
_RULES = ("mcr", "sichuan", "guangdong")
# the steps of a keyed-in config, in order
_STEPS = ("rules", "table", "session", "player", "player", "player", "player", "dealer", "check")


def s_idle(app):
    return _t(app, _NO_SESSION), [_t(app, _BOX) % app.device_id, _t(app, _HOST_OR_KEYS)], _t(app, _KEYIN_HINT)


def k_idle(app, key):
    if key == "D":
        app.go("cfg", step=0, cfg={"tournament": "T", "players": [], "lang": app.lang})


def _step(app):
    return _STEPS[app.d["step"]]


def s_cfg(app):
    step = _step(app)
    c = app.d["cfg"]
    hint = app.tx(T.DIGITS_HINT)
    if step == "rules":
        return _t(app, _RULES_Q), [(_t(app, _RULES_1), _t(app, _RULES_2)), _t(app, _RULES_3)], app.tx(T.BACK_HINT)
    if step == "dealer":
        return _t(app, _DEALER_Q), [(c["players"][0], c["players"][1]), (c["players"][2], c["players"][3])], \
            app.tx(T.BACK_HINT)
    if step == "check":
        lines = [app.tx(T.RULES_NAME[c["rules"]]) + "  " + _t(app, _TABLE_SESSION) % (c["table"], c["session"]),
                 " ".join(c["players"]), _t(app, _FIRST_DEALER) % (c["first_dealer"] + 1)]
        return _t(app, _START_Q), lines, _t(app, _START_HINT)
    if step == "player":
        title = _t(app, _PLAYER_N) % (len(c["players"]) + 1)
    else:
        title = _t(app, _TABLE_Q if step == "table" else _SESSION_Q)
    return title, [app.num + "_"], hint


def k_cfg(app, key):
    d = app.d
    step = _step(app)
    c = d["cfg"]
    if key == "*":
        if app.num:
            app.num = app.num[:-1]
        elif d["step"] == 0:
            app.go("idle")
        else:
            d["step"] -= 1
            if _step(app) == "player" and c["players"]:
                c["players"].pop()
        return
    if step == "rules":
        if key in "123":
            c["rules"] = _RULES[int(key) - 1]
            d["step"] += 1
        return
    if step == "dealer":
        if key in "1234":
            c["first_dealer"] = int(key) - 1
            d["step"] += 1
        return
    if step == "check":
        if key == "#":
            err = app.push_config(c)
            if err:
                app.show(_t(app, _CONFIG_REFUSED), err)
        return
    if key in _DIGITS and len(app.num) < 5:
        app.num += key
    elif key == "#" and app.num:
        if step == "player":
            if app.num in c["players"]:
                app.show(_t(app, _PLAYER_TWICE), app.num)
                app.num = ""
                return
            c["players"].append(app.num)
        else:
            n = int(app.num)
            if n < 1 or n > 10000:
                app.say(T.NUMBER_RANGE)
                app.num = ""
                return
            c[step] = n
        app.num = ""
        d["step"] += 1


HANDLERS = (
    ("idle", s_idle, k_idle, None),
    ("cfg", s_cfg, k_cfg, None),
)
