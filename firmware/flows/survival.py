# A survival table's own steps (勇者争先赛, seed 000 §三.2; firmware/survival.py keeps its
# scores): before each hand the table waits for the dealer's dice roll, one key that fixes the
# hand's start and multiplier; at the first bust the table is over and shows its order, and no
# further hand is taken. Loaded only at survival tables.
from firmware.ui import texts as T
from firmware.compat import const
from firmware.flows import parts

_ROLL_HINT = const(0)
_OVER_TITLE = const(1)
_OVER_HEAD = const(2)
_OUT = const(3)
_OVER_HINT = const(4)
_FINAL_TITLE = const(5)
_TX = T.Table(
    "#开始 4裁判 5文|# start 4 ref 5 lang|"  # _ROLL_HINT
    "本桌结束|Table over|"  # _OVER_TITLE
    "名次 选手\t分|Place Player\tScore|"  # _OVER_HEAD
    "出局|out|"  # _OUT
    "D新对局 4裁判|D new 4 ref|"  # _OVER_HINT
    "最后名次|Final places|"  # _FINAL_TITLE
)


def _t(app, i):
    return _TX.get(i, app.lang)


def _cells(app):
    s = app.session
    sc = s.survival.scores
    cells = []
    for c in range(4):
        cells.append("%s %s\t%d" % (parts.wind(app, c), s.who(c), sc[s.chairs[c]]))
    return [(cells[0], cells[1], True), (cells[2], cells[3], True)]


# ---- waiting for the dice roll ----
def s_roll(app):
    sv = app.session.survival
    # # when the dealer rolls the dice (庄家掷骰起): the hand's start and multiplier
    return sv.title(app), _cells(app) + [sv.next_line(app)], _t(app, _ROLL_HINT)


def k_roll(app, key):
    if key == "#":
        app.session.survival.roll(app.now_s())
        app.home()
    elif key == "4":
        app.go("pin")
    elif key == "5":
        app.lang = "en" if app.lang == "cn" else "cn"


# ---- the table is over ----
def s_sv_end(app):
    s = app.session
    sv = s.survival
    lines = []
    for p, place, out in sv.order():
        right = "%d" % sv.scores[p]
        if out:
            right += " " + _t(app, _OUT)
        lines.append("%d  %s\t%s" % (place, s.shown(s.players[p]), right))
    title = _t(app, _FINAL_TITLE if sv.final else _OVER_TITLE)
    return title, lines, _t(app, _OVER_HINT), _t(app, _OVER_HEAD)


def k_sv_end(app, key):
    if key == "D":
        app.session = None
        app.go("idle")
    elif key == "4":
        app.go("pin")


HANDLERS = (
    ("roll", s_roll, k_roll, None),
    ("sv_end", s_sv_end, k_sv_end, None),
)
