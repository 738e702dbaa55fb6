# The referee: D 4 and the PIN. Correct a hand already recorded (its new points, seat by seat:
# a correction record, the old points kept beside the new), or end the session early: a screen
# asks first, and says what of the unfinished hand does not count. Anything keyed in that hand
# (a penalty) is recorded with it, the hand cut off as the rule set's time-out says (its
# record marked time_out, the session's end record says "referee"), never dropped unseen.
from firmware.ui import texts as T
from firmware.compat import const
from protocol import record

# this flow's texts (firmware/ui/texts.py)
_PIN_Q = const(0)
_WRONG_PIN = const(1)
_REF_TITLE = const(2)
_REF_1 = const(3)
_REF_2 = const(4)
_CORR_HAND_Q = const(5)
_NO_SUCH_HAND = const(6)
_CORR_TITLE = const(7)
_CORR_WAS = const(8)
_CORR_NEW = const(9)
_CORR_HINT = const(10)
_END_Q = const(11)
_END_PLAYED = const(12)
_END_CUT = const(13)
_TX = T.Table(
    "裁判密码|Referee PIN|"  # _PIN_Q
    "密码不对|Wrong PIN|"  # _WRONG_PIN
    "裁判|Referee|"  # _REF_TITLE
    "1 更正某盘|1 correct a hand|"  # _REF_1
    "2 结束对局|2 end the session|"  # _REF_2
    "更正第几盘?|Correct hand no.?|"  # _CORR_HAND_Q
    "没有第%d盘|No hand %d|"  # _NO_SUCH_HAND
    "第%d盘 %d号位|Hand %d seat %d|"  # _CORR_TITLE
    "%s 原 %+d|%s was %+d|"  # _CORR_WAS
    "改为 %s|now %s|"  # _CORR_NEW
    "A正负 #下一 *删|A sign # next * del|"  # _CORR_HINT
    "结束对局?|End the session?|"  # _END_Q
    "已打完%d盘|%d hands played|"  # _END_PLAYED
    "第%d盘按时间到结算|Hand %d: as at time-up|"  # _END_CUT
)


def _t(app, i):
    return _TX.get(i, app.lang)


_DIGITS = "0123456789"


def s_pin(app):
    return _t(app, _PIN_Q), ["*" * len(app.num) + "_"], app.tx(T.DIGITS_HINT)


def k_pin(app, key):
    if key in _DIGITS and len(key) == 1 and len(app.num) < 8:
        app.num += key
    elif key == "*":
        if app.num:
            app.num = app.num[:-1]
        else:
            app.home()
    elif key == "#":
        ok = app.pin_ok(app.num)
        app.num = ""
        if ok:
            app.go("ref")
        else:
            app.show(_t(app, _WRONG_PIN))


def s_ref(app):
    # a survival table's hands are corrected on the server (firmware/survival.py)
    lines = [_t(app, _REF_1)] if app.session.survival is None else []
    if not app.session.ended:
        lines.append(_t(app, _REF_2))
    return _t(app, _REF_TITLE), lines, app.tx(T.BACK_HINT)


def k_ref(app, key):
    if key == "*":
        app.home()
    elif key == "1" and app.session.survival is None:
        app.go("corr_hand")
    elif key == "2" and not app.session.ended:
        app.go("end_ok", event=None, pay=None)
        from firmware.flows import parts
        app.d["event"], app.d["pay"] = parts.cut_off(app)


def s_end_ok(app):
    from firmware.flows import parts
    s = app.session
    d = app.d
    if d["event"] is None:
        lines = [_t(app, _END_PLAYED) % (s.hand - 1)]
    else:   # the hands before it are played: room for the points that go (two rows at most)
        lines = [_t(app, _END_CUT) % s.hand]
        if any(d["pay"]):
            lines.append(parts.not_counted_line(app, d["pay"]))
    return _t(app, _END_Q), lines, app.tx(T.OK_HINT)


def k_end_ok(app, key):
    if key == "*":
        app.go("ref")
    elif key == "#":
        ev = app.d["event"]
        if ev is None:
            app.end_session("referee")
        else:  # the hand with what was keyed in it, then the session's end record
            app.book.confirm(ev, time_out=True, ended="referee")
            app.home()


def s_corr_hand(app):
    return _t(app, _CORR_HAND_Q), [app.num + "_"], app.tx(T.DIGITS_HINT)


def _find(app, n):
    # the hand's record and the latest correction of it: [seq, seats, deltas now]. Only the
    # records that can be it are decoded (a whole session's JSON would leave the heap in pieces).
    # A tight heap is collected first; a roomy one is not (on the frozen build a collection cost
    # this key ~15 ms on its way to the screen)
    from firmware.heap import roomy
    if not roomy():
        import gc
        gc.collect()
    cfg = app.session.cfg
    found = None
    want = b'"hand":%d,' % n
    for seq, data in app.j.records(1, copy=False):
        data = bytes(data)  # the one copy of each record (records() would make another)
        if want not in data and b'"kind":"correction"' not in data:
            continue
        rec = record.decode(data)
        if rec is None:
            continue
        if rec.get("kind") == "hand" and rec.get("hand") == n and rec.get("session") == cfg["session"] \
                and rec.get("table") == cfg["table"]:
            found = [seq, rec["seats"], rec["deltas"]]
        elif rec.get("kind") == "correction" and found and rec["corrects"]["seq"] == found[0]:
            found[2] = rec["deltas"]
    return found


def k_corr_hand(app, key):
    if key in _DIGITS and len(key) == 1 and len(app.num) < 3:
        app.num += key
    elif key == "*":
        if app.num:
            app.num = app.num[:-1]
        else:
            app.go("ref")
    elif key == "#" and app.num:
        n = int(app.num)
        found = _find(app, n)
        app.num = ""
        if found is None:
            app.show(_t(app, _NO_SUCH_HAND), n)
            return
        app.go("corr_delta", seq=found[0], hand=n, seats=found[1], was=found[2], deltas=[], neg=False)
        _skip_empty(app.d)


def _skip_empty(d):
    # the empty chair of a three-player table keeps 0: nobody there to key it for
    c = len(d["deltas"])
    if c < 4 and d["seats"][c] is None:
        d["deltas"].append(0)


def s_corr_delta(app):
    d = app.d
    c = len(d["deltas"])
    lines = [_t(app, _CORR_WAS) % (app.session.shown(d["seats"][c]), d["was"][c]),
             _t(app, _CORR_NEW) % (("-" if d["neg"] else "") + app.num + "_")]
    if d["deltas"]:
        lines.append(" ".join("%+d" % x for x in d["deltas"]))
    return _t(app, _CORR_TITLE) % (d["hand"], c + 1), lines, _t(app, _CORR_HINT)


def k_corr_delta(app, key):
    d = app.d
    if key in _DIGITS and len(key) == 1 and len(app.num) < 4:
        app.num += key
    elif key == "A":
        d["neg"] = not d["neg"]
    elif key == "*":
        if app.num:
            app.num = app.num[:-1]
        elif d["deltas"]:
            d["deltas"].pop()
            if d["deltas"] and d["seats"][len(d["deltas"])] is None:
                d["deltas"].pop()
            elif not d["deltas"] and d["seats"][0] is None:
                app.go("ref")
        else:
            app.go("ref")
    elif key == "#":
        v = int(app.num or "0")
        d["deltas"].append(-v if d["neg"] else v)
        app.num = ""
        d["neg"] = False
        _skip_empty(d)
        if len(d["deltas"]) == 4:
            rec = record.correction(app.device_id, d["seq"], d["seats"], d["deltas"], d["was"],
                                    "corrected at the table", "table PIN", app.now_s())
            app.j.append(record.encode(rec))
            app.book.apply_correction(rec)
            app.home()
            app.say(T.SAVED)


HANDLERS = (
    ("pin", s_pin, k_pin, None),
    ("ref", s_ref, k_ref, None),
    ("end_ok", s_end_ok, k_end_ok, None),
    ("corr_hand", s_corr_hand, k_corr_hand, None),
    ("corr_delta", s_corr_delta, k_corr_delta, None),
)
