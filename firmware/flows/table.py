# The table between events: the hand in progress (totals with this hand's points so far, the
# last event and one-key undo; in Sichuan, another winner on the discard just won on).
from firmware.ui import texts as T
from firmware.compat import const
from firmware.flows import parts

# this flow's texts (firmware/ui/texts.py)
_MAIN_TITLE = const(0)
_MAIN_HINT = const(1)
_UNDO_LINE = const(2)
_REDO_LINE = const(3)
_ALSO_WON_LINE = const(4)
_CANNOT_REDO = const(5)
_EV_WIN = const(6)
_EV_KONG = const(7)
_EV_DECLARE = const(8)
_EV_PENALTY = const(9)
_EV_OTHER = const(10)
_MAIN_TITLE_UNTIMED = const(11)
_TX = T.Table(
    "第%d/%d盘 %s风 %d分|Hand %d/%d %s %dmin|"  # _MAIN_TITLE
    "A和 B杠 C罚 D更多|A win B kong C pen D|"  # _MAIN_HINT
    "*撤销: %s|* undo: %s|"  # _UNDO_LINE
    "已撤销%s #恢复|# redo %s|"  # _REDO_LINE
    "1-4: 同一张另一家和|1-4: another won it too|"  # _ALSO_WON_LINE
    "不能恢复|Cannot redo that|"  # _CANNOT_REDO
    "%s 和牌|%s's win|"  # _EV_WIN
    "%s 的杠|%s's kong|"  # _EV_KONG
    "%s 错和|%s's false win|"  # _EV_DECLARE
    "%s 受罚|%s's penalty|"  # _EV_PENALTY
    "上一项|the last entry|"  # _EV_OTHER
    "第%d/%d盘 %s风|Hand %d/%d %s|"  # _MAIN_TITLE_UNTIMED: a session without a time limit
)


def _t(app, i):
    return _TX.get(i, app.lang)


def describe(app, ev):
    """A confirmed event in a few words (what undo would take back)."""
    s = app.session
    if "win" in ev:
        return _t(app, _EV_WIN) % s.who(ev["win"])
    if "kong" in ev:
        return _t(app, _EV_KONG) % s.who(ev["seat"])
    if "penalty" in ev:
        return _t(app, _EV_PENALTY) % s.who(ev["seat"])
    if "declare" in ev:
        return _t(app, _EV_DECLARE) % s.who(ev["declare"])
    return _t(app, _EV_OTHER)


def open_discard(app):
    """The discarder of a discard win that more winners may still join (Sichuan), or None."""
    h = app.hand
    if h is None or not app.events or app.session.rules != "sichuan":
        return None
    ev = app.events[-1]
    if "win" in ev and ev.get("from") is not None:
        return ev["from"]
    return None


# ---- main ----
def s_main(app):
    s = app.session
    sv = s.survival            # a survival table: the hand's multiplier and the survival scores
    if sv:
        title = sv.title(app)
        tot = sv.scores
    else:
        left = s.time_left_ms(app.clock(), app.epoch)
        wind = app.tx(T.WIND_E + s.prevalent)
        if left is None:
            title = _t(app, _MAIN_TITLE_UNTIMED) % (s.hand, s.hands, wind)
        else:
            title = _t(app, _MAIN_TITLE) % (s.hand, s.hands, wind, left // 60000)
        tot = s.totals
    run = app.running()
    cells = []
    for c in range(4):
        cells.append("" if c == s.empty else "%s %s\t%d" % (parts.wind(app, c), s.who(c), tot[s.chairs[c]] + run[c]))
    lines = [(cells[0], cells[1], True), (cells[2], cells[3], True)]   # all four on two rows
    if app.d.get("redo") is not None:
        lines.append(_t(app, _REDO_LINE) % describe(app, app.d["redo"]))
    elif open_discard(app) is not None:
        lines.append(_t(app, _ALSO_WON_LINE))
    elif app.events:
        lines.append(_t(app, _UNDO_LINE) % describe(app, app.events[-1]))
    return title, lines, _t(app, _MAIN_HINT)


def k_main(app, key):
    if key == "A":
        app.go("win_who")
    elif key == "B":
        app.go("kong_who")
    elif key == "C":
        app.go("pen_who")
    elif key == "D":
        app.go("more")
    elif key == "*" and app.events:
        ev = app.book.undo()
        app.d = {"redo": ev}   # the main screen says what went and that # puts it back
    elif key == "#" and app.d.get("redo") is not None:
        ev = app.d.pop("redo")
        pay, err = app.book.preview(ev)
        if err:
            app.show(_t(app, _CANNOT_REDO))
            return
        app.confirm(ev)
    else:
        c = parts.seat_key(key)
        src = open_discard(app)
        if c is not None and src is not None and c != src and not app.hand.out[c]:
            # another winner on the same discard (一炮多响)
            from firmware.flows import win
            win.begin_tiles(app, c, src, same=True)


HANDLERS = (
    ("main", s_main, k_main, None),
)
