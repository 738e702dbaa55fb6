# A penalty: C, who, which (the rule set's list), a number where the penalty needs one, then its
# consequence (a warning, points, a flag for the referee) and # records it.
#
# PENALTIES is the table: a new kind (issue 13: exposing tiles, conduct faults, amounts the
# referee keys within bounds) is a row here and a text in firmware/texts.py; the rules core
# (rules_min/penalties.py) says what it costs.
from firmware import texts as T
from firmware.texts import const
from firmware.flows import parts

# this flow's texts (firmware/texts.py)
_WHO_PENALISED = const(0)
_WHICH_PENALTY = const(1)
_P_EMPTY_CALL = const(2)
_P_EARLY_DRAW = const(3)
_P_SLOW_CLAIM = const(4)
_P_TIER1 = const(5)
_P_TIER2 = const(6)
_P_TIER3 = const(7)
_P_TIER4 = const(8)
_P_LATE = const(9)
_P_FALSE_WIN = const(10)
_P_INFORMATION = const(11)
_P_WALL = const(12)
_MINUTES_Q = const(13)
_MINUTES_N = const(14)
_TX = T.Table(
    "罚谁? 1-4|Penalty on? 1-4|"  # _WHO_PENALISED
    "%s 犯规:|%s's fault:|"  # _WHICH_PENALTY
    "空吃碰杠|empty call|"  # _P_EMPTY_CALL
    "抢摸|early draw|"  # _P_EARLY_DRAW
    "碰慢|slow claim|"  # _P_SLOW_CLAIM
    "一级违规|tier 1|"  # _P_TIER1
    "二级违规|tier 2|"  # _P_TIER2
    "三级违规|tier 3|"  # _P_TIER3
    "四级违规|tier 4|"  # _P_TIER4
    "迟到|late|"  # _P_LATE
    "诈和|false win|"  # _P_FALSE_WIN
    "传递信息|information|"  # _P_INFORMATION
    "毁牌墙|wall|"  # _P_WALL
    "%s 迟到几分钟?|%s late: minutes?|"  # _MINUTES_Q
    "%d分钟|%d min|"  # _MINUTES_N
)


def _t(app, i):
    return _TX.get(i, app.lang)


MCR = ("mcr",)
SC = ("sichuan",)
GD = ("guangdong",)
# kind (the settle protocol's name), text, rule sets, the number it needs: None, or (event
# field, text of the question, low, high)
PENALTIES = (
    ("empty_call", _P_EMPTY_CALL, MCR + GD, None),
    ("early_draw", _P_EARLY_DRAW, MCR + GD, None),
    ("slow_claim", _P_SLOW_CLAIM, MCR + GD, None),
    ("tier1", _P_TIER1, SC, None),
    ("tier2", _P_TIER2, SC, None),
    ("tier3", _P_TIER3, SC, None),
    ("tier4", _P_TIER4, SC, None),
    ("late", _P_LATE, MCR + SC + GD, ("minutes", _MINUTES_Q, 1, 999)),
    ("false_win", _P_FALSE_WIN, GD, None),
    ("information", _P_INFORMATION, GD, None),
    ("wall", _P_WALL, GD, None),
)


def kinds(app):
    r = app.session.rules
    return [row for row in PENALTIES if r in row[2]]


def kind_name(app, kind):
    for row in PENALTIES:
        if row[0] == kind:
            return _t(app, row[1])
    return kind


def s_pen_who(app):
    return _t(app, _WHO_PENALISED), parts.seat_lines(app), app.tx(T.BACK_HINT)


def k_pen_who(app, key):
    if key == "*":
        app.home()
        return
    c = parts.seat_key(key)
    if c is not None:
        app.go("pen_kind", seat=c)


def s_pen_kind(app):
    rows = kinds(app)
    cells = ["%d %s" % (i + 1, _t(app, rows[i][1])) for i in range(len(rows))]
    lines = []
    for i in range(0, len(cells), 2):
        lines.append((cells[i], cells[i + 1] if i + 1 < len(cells) else ""))
    return _t(app, _WHICH_PENALTY) % app.session.player_at(app.d["seat"]), lines, app.tx(T.BACK_HINT)


def k_pen_kind(app, key):
    rows = kinds(app)
    if key == "*":
        app.go("pen_who")
        return
    if key in "123456789" and len(key) == 1 and int(key) <= len(rows):
        row = rows[int(key) - 1]
        app.d["row"] = row
        app.num = ""
        if row[3] is None:
            _preview(app)
        else:
            app.to("pen_value")


def _event(app):
    d = app.d
    row = d["row"]
    ev = {"penalty": row[0], "seat": d["seat"]}
    if row[3] is not None:
        ev[row[3][0]] = int(app.num)
    return ev


def _preview(app):
    ev = _event(app)
    pay, err = app.preview(ev)
    if err:
        app.say(T.REFUSAL.get(err[0], T.REFUSED_GENERIC))
        return
    app.d["event"] = ev
    app.d["pay"] = pay
    app.to("pen_ok")


def s_pen_value(app):
    d = app.d
    row = d["row"]
    lines = [app.num + "_"]
    if d.get("pay") is not None:   # what the number keyed so far would do
        lines += parts.consequence(app, d["seat"], d["pay"])
    return _t(app, row[3][1]) % app.session.player_at(d["seat"]), lines, app.tx(T.OK_HINT)


def k_pen_value(app, key):
    d = app.d
    lo, hi = d["row"][3][2], d["row"][3][3]
    if key == "*":
        if app.num:
            app.num = app.num[:-1]
        else:
            app.go("pen_kind", seat=d["seat"])
            return
    elif key in "0123456789" and len(key) == 1:
        if int(app.num + key) <= hi:
            app.num += key
    elif key == "#" and d.get("pay") is not None:
        app.confirm(d["event"])
        return
    d["pay"] = None
    if app.tentative is not None:
        app.rebuild()   # the number changed: the last preview goes
    if app.num and int(app.num) >= lo:
        ev = _event(app)
        pay, err = app.preview(ev)
        if err:
            app.say(T.REFUSAL.get(err[0], T.REFUSED_GENERIC))
            return
        d["event"] = ev
        d["pay"] = pay


def s_pen_ok(app):
    d = app.d
    ev = d["event"]
    title = kind_name(app, ev["penalty"]) + " " + app.session.player_at(ev["seat"])
    if "minutes" in ev:
        title += " " + _t(app, _MINUTES_N) % ev["minutes"]
    return title, parts.consequence(app, ev["seat"], d["pay"]), app.tx(T.OK_HINT)


def k_pen_ok(app, key):
    if key == "*":
        app.go("pen_kind", seat=app.d["seat"])
    elif key == "#":
        app.confirm(app.d["event"])


HANDLERS = (
    ("pen_who", s_pen_who, k_pen_who, None),
    ("pen_kind", s_pen_kind, k_pen_kind, None),
    ("pen_value", s_pen_value, k_pen_value, None),
    ("pen_ok", s_pen_ok, k_pen_ok, None),
)
