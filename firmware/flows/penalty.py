# A penalty: C, who, which, what the penalty needs, then its consequence (a warning, points, a
# player barred, a flag for the referee) and # records it. The list is the rule set's, from the
# rules core (rules_min/keyed.py kinds() and bar_reasons(), read as the session starts into
# session.keyed; what each kind takes and costs is its row of rules_min/penalties.py KINDS); this
# flow only words them for the screen and asks what the kind needs:
#   late           the minutes                    C, who, kind, digits, #
#   keyed points   who was wronged, the points    C, who, kind, victim, digits, #
#   (exposing another's tiles: MCR 5-60, Guangdong 1-16)
#   points or bar  barred? then the points        C, who, kind, 1/0, digits, #  (MCR information)
#   anything else  nothing                        C, who, kind, #
# The last entry of the list bars the player (停和陪打): its reasons, then #.
from firmware.ui import texts as T
from firmware.compat import const
from firmware.flows import parts

# rules_min.keyed (only for the name of a kind the box has no word for) goes with this flow
USES = ("rules_min.keyed",)

# this flow's texts (firmware/ui/texts.py)
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
_P_CALL_WORDS = const(15)
_P_EXPOSED = const(16)
_P_PASSING = const(17)
_P_BAR = const(18)
_B_WRONG_CALL = const(19)
_B_WRONG_COUNT = const(20)
_B_WRONG_DRAW = const(21)
_B_FALSE_DECL = const(22)
_B_EXPOSED_OWN = const(23)
_B_INTERFERING = const(24)
_B_DELAYING = const(25)
_VICTIM_Q = const(26)
_POINTS_Q = const(27)
_BAR_Q = const(28)
_BAR_YES = const(29)
_BAR_NO = const(30)
_REASON_Q = const(31)
_NO_POINTS_OK = const(32)
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
    "非法信息|information|"  # _P_INFORMATION
    "毁牌墙|wall|"  # _P_WALL
    "%s 迟到几分钟?|%s late: minutes?|"  # _MINUTES_Q
    "%d分钟|%d min|"  # _MINUTES_N
    "报牌不规范|call words|"  # _P_CALL_WORDS
    "暴露他人牌|exposed tiles|"  # _P_EXPOSED
    "传递信息|passing info|"  # _P_PASSING
    "停和陪打|barred|"  # _P_BAR
    "错吃碰杠|wrong call|"  # _B_WRONG_CALL
    "相公|wrong count|"  # _B_WRONG_COUNT
    "抓错牌|wrong draw|"  # _B_WRONG_DRAW
    "错报和|false call|"  # _B_FALSE_DECL
    "亮牌|own tiles shown|"  # _B_EXPOSED_OWN
    "干扰赛场|interfering|"  # _B_INTERFERING
    "拖延出牌|delaying|"  # _B_DELAYING
    "%s 暴露了谁的牌?|%s showed whose?|"  # _VICTIM_Q
    "罚几分? %d-%d|Points? %d-%d|"  # _POINTS_Q
    "%s 同时停和陪打?|Bar %s as well?|"  # _BAR_Q
    "1 是|1 yes|"  # _BAR_YES
    "0 不停和|0 no|"  # _BAR_NO
    "%s 停和陪打, 因为:|%s barred for:|"  # _REASON_Q
    "# 不罚分|# no points|"  # _NO_POINTS_OK
)


def _t(app, i):
    return _TX.get(i, app.lang)


# the screen's word for each penalty kind and bar reason of rules_min/keyed.py: "key text" pairs
# (one string, not a dict of objects); "key/rules" is a kind's word in one rule set only
_WORDS = (
    "information/guangdong %d empty_call %d early_draw %d slow_claim %d call_words %d late %d "
    "exposed_tiles %d information %d false_win %d wall %d tier1 %d tier2 %d tier3 %d tier4 %d" % (
        _P_PASSING, _P_EMPTY_CALL, _P_EARLY_DRAW, _P_SLOW_CLAIM, _P_CALL_WORDS, _P_LATE, _P_EXPOSED,
        _P_INFORMATION, _P_FALSE_WIN, _P_WALL, _P_TIER1, _P_TIER2, _P_TIER3, _P_TIER4)
)
_REASONS = (
    "wrong_call %d wrong_count %d wrong_draw %d false_declaration %d exposed_own %d information %d "
    "interfering %d delaying %d" % (
        _B_WRONG_CALL, _B_WRONG_COUNT, _B_WRONG_DRAW, _B_FALSE_DECL, _B_EXPOSED_OWN, _P_INFORMATION,
        _B_INTERFERING, _B_DELAYING)
)
BAR = "bar"   # the list's last entry: bar the player (停和陪打)


def _word(table, key):
    # the text number after key in a _WORDS-like string, or -1
    i = table.find(key + " ")
    while i > 0 and table[i - 1] != " ":
        i = table.find(key + " ", i + 1)
    if i < 0:
        return -1
    i += len(key) + 1
    j = table.find(" ", i)
    return int(table[i:j if j > 0 else len(table)])


def kinds(app):
    """The penalty kinds of the session's rule set (rules_min.keyed), then BAR."""
    return app.session.keyed_list(1) + [BAR]


def reasons(app):
    return app.session.keyed_list(2)


def _full_name(app, table, key):
    # a kind or reason the rules core added that the box has no word for: the core's own name
    from rules_min import keyed
    return keyed.name(table, key, app.session.rules, "en" if app.lang == "en" else "zh")


def kind_name(app, kind):
    if kind == BAR:
        return _t(app, _P_BAR)
    i = _word(_WORDS, kind + "/" + app.session.rules)
    if i < 0:
        i = _word(_WORDS, kind)
    return _t(app, i) if i >= 0 else _full_name(app, "kinds", kind)


def reason_name(app, reason):
    i = _word(_REASONS, reason)
    return _t(app, i) if i >= 0 else _full_name(app, "bars", reason)


def _numbered(app, names):
    cells = ["%d %s" % (i + 1, names[i]) for i in range(len(names))]
    lines = []
    for i in range(0, len(cells), 2):
        lines.append((cells[i], cells[i + 1] if i + 1 < len(cells) else ""))
    return lines


def _pick(key, n):
    # the 1-based entry of a digit key, or 0
    if len(key) == 1 and key in "123456789" and int(key) <= n:
        return int(key)
    return 0


# ---- who ----
def s_pen_who(app):
    return _t(app, _WHO_PENALISED), parts.seat_lines(app), app.tx(T.BACK_HINT)


def k_pen_who(app, key):
    if key == "*":
        app.home()
        return
    c = parts.seat_key(key)
    if c is not None:
        app.go("pen_kind", seat=c)


# ---- which ----
def s_pen_kind(app):
    names = [kind_name(app, k) for k in kinds(app)]
    return _t(app, _WHICH_PENALTY) % app.session.who(app.d["seat"]), _numbered(app, names), \
        app.tx(T.BACK_HINT)


def k_pen_kind(app, key):
    if key == "*":
        app.go("pen_who")
        return
    ks = kinds(app)
    n = _pick(key, len(ks))
    if not n:
        return
    kind = ks[n - 1]
    d = app.d
    d["kind"] = kind
    d["event"] = d["pay"] = None
    d.pop("victim", None)
    d.pop("bar", None)
    app.num = ""
    if kind == BAR:
        app.to("pen_reason")
        return
    from rules_min import penalties as P   # held by the rules core all session
    f = P.find(P.KINDS, kind, app.session.rules)[1]
    how, lo, hi = int(f[2]) & 15, int(f[3]), int(f[4])
    d["need"] = None
    if how == P.LATE:
        d["need"] = ("minutes", 1, 999)
        app.to("pen_value")
    elif how == P.KEYED:
        d["need"] = ("points", lo, hi)
        app.to("pen_victim")
    elif how == P.CHOICE:
        d["need"] = ("points", lo, hi)
        app.to("pen_bar")
    else:
        _preview(app, _event(app))


def _event(app):
    d = app.d
    ev = {"penalty": d["kind"], "seat": d["seat"]}
    if "victim" in d:
        ev["victim"] = d["victim"]
    if d.get("bar"):
        ev["bar"] = True
    if d.get("need") is not None and app.num:
        ev[d["need"][0]] = int(app.num)
    return ev


def _preview(app, ev):
    pay, err = app.book.preview(ev)
    if err:
        app.say(T.REFUSAL.get(err[0], T.REFUSED_GENERIC))
        return
    app.d["event"] = ev
    app.d["pay"] = pay
    app.to("pen_ok")


# ---- who was wronged (exposed tiles) ----
def s_pen_victim(app):
    c = app.d["seat"]
    return _t(app, _VICTIM_Q) % app.session.who(c), parts.seat_lines(app, c), app.tx(T.BACK_HINT)


def k_pen_victim(app, key):
    d = app.d
    if key == "*":
        app.go("pen_kind", seat=d["seat"])
        return
    c = parts.seat_key(key)
    if c is not None and c != d["seat"]:
        d["victim"] = c
        app.to("pen_value")


# ---- barred as well? (points or a bar, as the referee keys it) ----
def s_pen_bar(app):
    return _t(app, _BAR_Q) % app.session.who(app.d["seat"]), [_t(app, _BAR_YES), _t(app, _BAR_NO)], \
        app.tx(T.BACK_HINT)


def k_pen_bar(app, key):
    d = app.d
    if key == "*":
        app.go("pen_kind", seat=d["seat"])
    elif len(key) == 1 and key in "10":
        d["bar"] = key == "1"
        app.to("pen_value")
        if d["bar"]:   # barred: points are optional, # records the bar alone
            _value_preview(app)


# ---- a number: the minutes late, the points keyed ----
def s_pen_value(app):
    d = app.d
    field, lo, hi = d["need"]
    who = app.session.who(d["seat"])
    if field == "minutes":
        title = _t(app, _MINUTES_Q) % who
    else:
        title = kind_name(app, d["kind"]) + " " + who
    lines = [(_t(app, _POINTS_Q) % (lo, hi) + " " if field == "points" else "") + app.num + "_"]
    if d.get("pay") is not None:   # what the number keyed so far would do
        lines += parts.consequence(app, d["seat"], d["pay"])
        if not app.num:
            lines.append(_t(app, _NO_POINTS_OK))
    return title, lines, app.tx(T.OK_HINT)


def k_pen_value(app, key):
    d = app.d
    lo, hi = d["need"][1], d["need"][2]
    if key == "*":
        if app.num:
            app.num = app.num[:-1]
        else:
            if "victim" in d or "bar" in d:
                if app.book.tentative is not None:
                    app.book.rebuild()
                d["pay"] = None
                app.to("pen_victim" if "victim" in d else "pen_bar")
            else:
                app.go("pen_kind", seat=d["seat"])
            return
    elif key in "0123456789" and len(key) == 1:
        if int(app.num + key) <= hi:
            app.num += key
    elif key == "#" and d.get("pay") is not None:
        app.confirm(d["event"])
        return
    else:
        return
    _value_preview(app)


def _value_preview(app):
    d = app.d
    lo = d["need"][1]
    d["pay"] = None
    if app.book.tentative is not None:
        app.book.rebuild()   # the number changed: the last preview goes
    if (app.num and int(app.num) >= lo) or (not app.num and d.get("bar")):
        ev = _event(app)
        pay, err = app.book.preview(ev)
        if err:
            app.say(T.REFUSAL.get(err[0], T.REFUSED_GENERIC))
            return
        d["event"] = ev
        d["pay"] = pay


# ---- barred: why ----
def s_pen_reason(app):
    names = [reason_name(app, r) for r in reasons(app)]
    return _t(app, _REASON_Q) % app.session.who(app.d["seat"]), _numbered(app, names), \
        app.tx(T.BACK_HINT)


def k_pen_reason(app, key):
    d = app.d
    if key == "*":
        app.go("pen_kind", seat=d["seat"])
        return
    rs = reasons(app)
    n = _pick(key, len(rs))
    if n:
        _preview(app, {"bar": d["seat"], "reason": rs[n - 1]})


# ---- its consequence ----
def s_pen_ok(app):
    d = app.d
    ev = d["event"]
    who = app.session.who(ev["seat"] if "seat" in ev else ev["bar"])
    if "reason" in ev:
        title = _t(app, _P_BAR) + " " + who
        lines = [reason_name(app, ev["reason"])]
        s = ev["bar"]
    else:
        title = kind_name(app, ev["penalty"]) + " " + who
        if "minutes" in ev:
            title += " " + _t(app, _MINUTES_N) % ev["minutes"]
        lines = []
        s = ev["seat"]
    return title, lines + parts.consequence(app, s, d["pay"]), app.tx(T.OK_HINT)


def k_pen_ok(app, key):
    if key == "*":
        app.go("pen_kind", seat=app.d["seat"])
    elif key == "#":
        app.confirm(app.d["event"])


HANDLERS = (
    ("pen_who", s_pen_who, k_pen_who, None),
    ("pen_kind", s_pen_kind, k_pen_kind, None),
    ("pen_victim", s_pen_victim, k_pen_victim, None),
    ("pen_bar", s_pen_bar, k_pen_bar, None),
    ("pen_value", s_pen_value, k_pen_value, None),
    ("pen_reason", s_pen_reason, k_pen_reason, None),
    ("pen_ok", s_pen_ok, k_pen_ok, None),
)
