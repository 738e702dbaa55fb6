# A win: A, who won, who dealt in (0: self-drawn), the tiles; then the box scores the hand once
# and shows it (fans with points, the total, what each player pays) and each seat confirms with
# its key. Flags (last tile, kong, ...) are on their own screen (D) since most hands have none
# (firmware/flows/win_fix.py, with the screen of a refused hand); flowers and horses are tapped.
# Sichuan asks one more key when the discarder konged this hand: was it the discard right after
# that kong (杠上炮)? MCR asks, when 杠上开花 is claimed, whether the kong's replacement was a
# flower (then it is no 杠上开花, seed 000 §二.14).
#
# The table of a win's flags as the flags screen shows them is firmware/flows/win_fix.py's
# WIN_FLAGS (loaded only for that screen); which flags a rule set takes is the rules core's fact
# (rules_min/keyed.py FLAGS, read once a session into session.keyed). NAMED here: the flags no
# fan shows, which the result names in a line of their own.
from firmware.ui import texts as T
from firmware.compat import const
from firmware.entry import Entry, void_suit
from firmware.flows import load, parts   # the tiles flow: load("tiles"), not resident

# this flow's texts (firmware/ui/texts.py)
_WHO_WON = const(0)
_WHO_DEALT = const(1)
_SELF_DRAWN_0 = const(2)
_WINNER_NOT_DISCARDER = const(3)
_WINNER_LINE = const(4)
_SELF_DRAWN_LINE = const(5)
_HAND_COMPLETE = const(6)
_WIN_TITLE = const(7)
_VOID_LINE = const(8)
_HORSES_LINE = const(9)
_CONFIRM_KEYS = const(10)
_TWO_HORSES = const(11)
_F_KONG_DISCARD = const(12)
_F_MIXED = const(13)
_F_REPLACEMENT_FLOWER = const(14)
_F_MISNAMED = const(15)
_TX = T.Table(
    "谁和牌? 1-4|Who won? 1-4|"  # _WHO_WON
    "%s 和谁的牌?|Who gave %s the tile?|"  # _WHO_DEALT
    "0 自摸|0 self-drawn|"  # _SELF_DRAWN_0
    "和牌者不能点炮|The winner cannot be the discarder|"  # _WINNER_NOT_DISCARDER
    "%s 和 %s 打的|%s wins off %s|"  # _WINNER_LINE
    "%s 自摸|%s self-drawn|"  # _SELF_DRAWN_LINE
    "牌已齐: *改牌|All tiles in: * to fix|"  # _HAND_COMPLETE
    "%s 和 %s|%s wins %s|"  # _WIN_TITLE
    "缺%s|void: %s|"  # _VOID_LINE
    "马: %s|horses: %s|"  # _HORSES_LINE
    "D 标记  * 改牌|D flags  * fix tiles|"  # _CONFIRM_KEYS
    "最多两匹马|Two horses at most|"  # _TWO_HORSES
    "杠上炮|kong discard|"  # _F_KONG_DISCARD
    "和牌张插入|tile mixed in|"  # _F_MIXED
    "杠后补花|kong drew flower|"  # _F_REPLACEMENT_FLOWER
    "报错牌名|misnamed tile|"  # _F_MISNAMED
)


def _t(app, i):
    return _TX.get(i, app.lang)


FLOWER_RULES = ("mcr",)   # flowers are tapped (or counted on the flags screen) in these
# field, its text: the flags no fan shows (a line of their own on the result, and their words on
# the flags screen)
NAMED = (("win_tile_mixed", _F_MIXED), ("replacement_flower", _F_REPLACEMENT_FLOWER), ("misnamed", _F_MISNAMED),
         ("kong_discard", _F_KONG_DISCARD))


def named(app, field):
    """The word of a NAMED flag, or None."""
    for k, i in NAMED:
        if k == field:
            return _t(app, i)
    return None


def discarder_konged(app, src):
    """Whether seat src konged in this hand since the last win (杠上炮 is then possible)."""
    if src is None:
        return False
    for ev in app.events:
        if "win" not in ev and "kong" in ev and ev.get("seat") == src:
            return True
    return False


# ---- who won, who dealt in ----
def s_win_who(app):
    return _t(app, _WHO_WON), parts.seat_lines(app), app.tx(T.BACK_HINT)


def k_win_who(app, key):
    if key == "*":
        app.home()
        return
    c = parts.seat_key(key)
    if c is not None:
        if app.hand.out[c]:
            app.say(T.ALREADY_WON, app.session.who(c))
            return
        app.go("win_from", winner=c)


def s_win_from(app):
    w = app.d["winner"]
    return _t(app, _WHO_DEALT) % app.session.who(w), parts.seat_lines(app, w) + [_t(app, _SELF_DRAWN_0)], \
        app.tx(T.BACK_HINT)


def k_win_from(app, key):
    if key == "*":
        app.go("win_who")
        return
    c = parts.seat_key(key, zero=True)
    if c is None:
        return
    w = app.d["winner"]
    if c == w:
        app.show(_t(app, _WINNER_NOT_DISCARDER))
        return
    src = None if c < 0 else c
    if src is not None and app.hand.out[src]:
        app.say(T.ALREADY_WON, app.session.who(src))
        return
    app.d["src"] = src
    if "kong_discard" in app.session.keyed_list(0) and discarder_konged(app, src):
        app.to("kong_discard")   # Sichuan: 杠上炮? (firmware/flows/win_fix.py)
    else:
        begin_tiles(app, w, src)


def begin_tiles(app, winner, src, same=False, kong_discard=False):
    r = app.session.rules
    flags = {}
    if same:
        flags["same_discard"] = True
        kong_discard = bool(app.events[-1].get("kong_discard"))   # one discard, one answer
    if kong_discard:
        flags["kong_discard"] = True
    load("tiles").begin(app, Entry(14, chows=r == "mcr", honours=r != "sichuan"), _who, _tiles_done, _tiles_back,
                flowers=r in FLOWER_RULES, winner=winner, src=src, same=same, flags=flags, extra=[], owner="win")


def _who(app):
    d = app.d
    s = app.session
    if d["src"] is None:
        return _t(app, _SELF_DRAWN_LINE) % s.who(d["winner"])
    return _t(app, _WINNER_LINE) % (s.who(d["winner"]), s.who(d["src"]))


def _tiles_back(app):
    if app.d.get("same"):
        if app.session.rules == "guangdong":
            app.go("another", src=app.d["src"])
        else:
            app.home()
    else:
        app.go("win_from", winner=app.d["winner"])


def _tiles_done(app):
    preview(app)


# ---- the result, confirmed seat by seat ----
def event(app):
    d = app.d
    f = d["flags"]
    ev = {"win": d["winner"], "from": d["src"], "hand": d["entry"].notation()}
    for k in f:   # the flags screen leaves only flags this win can have
        if f[k] is True:
            ev[k] = True
    n = len(d["flowers"]) or f.get("flowers", 0)
    if n:
        ev["flowers"] = n
    r = app.session.rules
    if r == "sichuan":
        v = void_suit(d["entry"].suits())
        if v is not None:
            ev["missing_suit"] = v
    if d.get("horses"):
        from rules_min.tiles import name
        ev["horses"] = [name(t) for t in d["horses"]]
    return ev


def preview(app):
    """Score the win once; the confirmation screen shows that result and the record keeps it."""
    d = app.d
    ev = event(app)
    pay, err = app.book.preview(ev, finish=app.session.rules != "guangdong", joining=d.get("same", False))
    d["ok"] = list(app.session.nobody)    # an empty chair has nobody to confirm
    if err:
        d["err"] = err
        app.to("refused")
        return
    d["event"] = ev
    d["pay"] = pay
    d["result"] = app.hand.wins[-1]
    app.to("confirm")


def s_confirm(app):
    d = app.d
    s = app.session
    w = d["result"]
    r = s.rules
    title = _t(app, _WIN_TITLE) % (s.who(w[0]), app.tx(T.TOTAL_UNIT[r]) % w[3])
    lines = parts.points_lines(app, d["pay"])
    ev = d["event"]
    if "missing_suit" in ev:
        lines.append(_t(app, _VOID_LINE) % app.tx(T.SUIT_M + "msp".find(ev["missing_suit"])))
    for k, i in NAMED:
        if ev.get(k):
            lines.append(_t(app, i))
    if d.get("horses"):
        lines.append(_t(app, _HORSES_LINE) % " ".join(ev["horses"]))
    lines += parts.fan_lines(app, r, w[2], w[3])
    lines.append(_t(app, _CONFIRM_KEYS))
    return title, lines, parts.confirm_hint(app, d["ok"])


def k_confirm(app, key):
    d = app.d
    if key == "*":
        if d["extra"]:
            kind, t = d["extra"].pop()
            d["horses" if kind == "h" else "flowers"].remove(t)
            preview(app)
        else:
            d["entry"].undo()
            app.to("tiles")
            app.book.rebuild()   # the preview goes
        return
    if key == "D":
        app.to("flags")
        return
    c = parts.seat_key(key)
    if c is None:
        return
    d["ok"][c] = True
    if all(d["ok"]):
        done(app)
    elif d["ok"].count(False) == 1:
        # the next confirmation commits the hand: its record goes to flash on a tidy heap (on the
        # stock build a collection there cost the commit ~25 ms), collected while this screen is up
        app.book.collect_after_draw()


def done(app):
    d = app.d
    ev = d["event"]
    if app.session.rules == "guangdong" and ev["from"] is not None:
        app.confirm(ev, stay=True)
        if app.state == "confirm":
            app.go("another", src=ev["from"])
        return
    app.d = {}                  # nothing of this flow stays referenced: it leaves the heap
    app.later(app.confirm, ev)  # before the hand's record is built


def t_confirm(app, tile, uid):
    """Taps on the result: flowers (MCR), horses (Guangdong); each changes it, so every seat
    confirms again."""
    d = app.d
    r = app.session.rules
    if tile >= 34:
        if load("tiles").flower(app, tile):
            d["extra"].append(("f", tile))
            preview(app)
        return
    if r == "guangdong":
        hs = d.setdefault("horses", [])
        if len(hs) >= 2:
            app.show(_t(app, _TWO_HORSES))
            return
        hs.append(tile)
        d["extra"].append(("h", tile))
        preview(app)
        return
    app.show(_t(app, _HAND_COMPLETE))


HANDLERS = (
    ("win_who", s_win_who, k_win_who, None),
    ("win_from", s_win_from, k_win_from, None),
    ("confirm", s_confirm, k_confirm, t_confirm),
)
