# The session is over: places, points and (MCR) standard scores, under headings on every page.
from firmware.ui import texts as T
from firmware.compat import const

# this flow's texts (firmware/ui/texts.py)
_ENDED_TITLE = const(0)
_END_HEAD = const(1)
_END_HEAD_STD = const(2)
_ENDED_HINT = const(3)
_TX = T.Table(
    "对局结束|Session over|"  # _ENDED_TITLE
    "名次 选手\t得分|Place Player\tPoints|"  # _END_HEAD
    "名次 选手\t得分 标准分|# Player\tPoints Std|"  # _END_HEAD_STD
    "D新对局 4裁判|D new 4 ref|"  # _ENDED_HINT
)


def _t(app, i):
    return _TX.get(i, app.lang)


# ---- the end ----
def places(totals):
    """Place (1-based, ties share) of each player by points."""
    out = []
    for p in range(len(totals)):
        out.append(1 + sum(1 for q in totals if q > totals[p]))
    return out


def s_ended(app):
    s = app.session
    std = s.standard_scores()
    ps = [p for p in range(4) if p != s.empty]     # a three-player table: the three
    pl = places([s.totals[p] for p in ps])
    order = sorted(range(len(ps)), key=lambda i: (pl[i], ps[i]))
    lines = []
    for i in order:
        p = ps[i]
        right = "%d" % s.totals[p]
        if std:
            right += "  %d.%d" % (std[p] // 10, std[p] % 10)
        lines.append("%d  %s\t%s" % (pl[p], s.shown(s.players[p]), right))
    head = _t(app, _END_HEAD_STD if std else _END_HEAD)
    return _t(app, _ENDED_TITLE), lines, _t(app, _ENDED_HINT), head


def k_ended(app, key):
    if key == "D":
        app.session = None
        app.go("idle")
    elif key == "4":
        app.go("pin")


HANDLERS = (
    ("ended", s_ended, k_ended, None),
)
