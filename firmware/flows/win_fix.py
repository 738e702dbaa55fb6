# A win that needs fixing: the flags screen (D on the result: last tile, kong, ... the rows of
# firmware/flows/win.py WIN_FLAGS) and the screen of a hand the rules refused (under 8 fans, a
# chicken hand on a discard, ...) with what to do: fix the tiles, or key it as a false win.
# Loaded only when a table needs it.
from firmware import texts as T
from firmware.texts import const
from firmware.flows import parts, win

# this flow's texts (firmware/texts.py)
_NOT_A_WIN = const(0)
_UNDER_8 = const(1)
_REFUSED_HINT = const(2)
_FLAGS_TITLE = const(3)
_FLOWERS_TAPPED = const(4)
_ON = const(5)
_OFF = const(6)
_FLAGS_HINT = const(7)
_TX = T.Table(
    "不能和牌|Not a win|"  # _NOT_A_WIN
    "只有%d番: 不够8番|Only %d pts: a win needs 8|"  # _UNDER_8
    "*改牌 D错和|* fix  D false win|"  # _REFUSED_HINT
    "标记|Flags|"  # _FLAGS_TITLE
    "花牌已拍|Flowers were tapped|"  # _FLOWERS_TAPPED
    "●|●|"  # _ON
    "○|○|"  # _OFF
    "1-%d 改  D完成|1-%d set  D done|"  # _FLAGS_HINT
)


def _t(app, i):
    return _TX.get(i, app.lang)


# ---- refused ----
def s_refused(app):
    d = app.d
    code, detail = d["err"]
    lines = [app.tx(T.REFUSAL.get(code, T.REFUSED_GENERIC))]
    if code == "not_win" and app.session.rules == "mcr":
        n = _mcr_points(app)
        if n:
            lines = [_t(app, _UNDER_8) % n]
    lines += parts.hand_lines(d["entry"])
    return _t(app, _NOT_A_WIN), lines, _t(app, _REFUSED_HINT)


def _mcr_points(app):
    # the fans a hand under 8 has, for the message (settle refuses it without the number)
    from rules_min.notation import parse
    from rules_min import mcr
    d = app.d
    s = app.session
    ev = win.event(app)
    try:
        melds, counts, w, _ = parse(ev["hand"])
    except ValueError:
        return 0
    ft, total = mcr.score(melds, counts, w, ev["from"] is None, ev.get("last_of_kind", False),
                          ev.get("last_tile", False), ev.get("kong", False),
                          27 + (ev["win"] - s.dealer) % 4, 27 + s.prevalent)
    return total if ft is not None else 0


def k_refused(app, key):
    d = app.d
    if key == "*":
        d["entry"].undo()
        app.to("tiles")
    elif key == "D":
        from firmware.flows import declare
        declare.preview(app, d["winner"], d["entry"])


# ---- flags ----
def s_flags(app):
    f = app.d["flags"]
    cells = []
    rows = win.flag_rows(app)
    for i in range(len(rows)):
        row = rows[i]
        if row[3] == "count":
            n = len(app.d["flowers"]) or f.get(row[0], 0)
            cells.append("%d %s %d" % (i + 1, win._t(app, row[1]), n))
        else:
            cells.append("%d %s%s" % (i + 1, win._t(app, row[1]), _t(app, _ON if f.get(row[0]) else _OFF)))
    lines = []
    for i in range(0, len(cells), 2):
        lines.append((cells[i], cells[i + 1] if i + 1 < len(cells) else ""))
    return _t(app, _FLAGS_TITLE), lines, _t(app, _FLAGS_HINT) % len(rows)


def k_flags(app, key):
    f = app.d["flags"]
    rows = win.flag_rows(app)
    if key in "*D" and len(key) == 1:   # back to the result, scored again with the flags
        win.preview(app)
        return
    if key in "123456789" and len(key) == 1 and int(key) <= len(rows):
        row = rows[int(key) - 1]
        if row[3] == "count":
            if app.d["flowers"]:
                app.show(_t(app, _FLOWERS_TAPPED))
                return
            f[row[0]] = (f.get(row[0], 0) + 1) % (row[4] + 1)
        else:
            f[row[0]] = not f.get(row[0], False)


HANDLERS = (
    ("refused", s_refused, k_refused, None),
    ("flags", s_flags, k_flags, None),
)
