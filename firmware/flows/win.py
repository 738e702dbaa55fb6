# A win: A, who won, who dealt in (0: self-drawn), the tiles; then the box scores the hand once
# and shows it (fans with points, the total, what each player pays) and each seat confirms with
# its key. Flags (last tile, kong, ...) are on their own screen (D) since most hands have none
# (firmware/flows/win_fix.py, with the screen of a refused hand); flowers and horses are tapped. Sichuan asks one more key when the discarder konged this hand:
# was it the discard right after that kong (杠上炮)?
#
# WIN_FLAGS is the table of a win's flags: adding one (issue 13: a winning tile mixed into the
# hand, 杠上开花 after a flower replacement) is a row here, a text in firmware/texts.py, and its
# name in protocol/record_check.py's WIN_FLAGS.
from firmware import texts as T
from firmware.texts import const
from firmware.entry import Entry, void_suit
from firmware.flows import parts, tiles

# this flow's texts (firmware/texts.py)
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
_F_LAST_OF_KIND = const(12)
_F_LAST_TILE = const(13)
_F_KONG = const(14)
_F_FLOWERS = const(15)
_F_KONG_DISCARD = const(16)
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
    "和绝张|last of kind|"  # _F_LAST_OF_KIND
    "海底|last tile|"  # _F_LAST_TILE
    "杠上/抢杠|kong|"  # _F_KONG
    "花|flowers|"  # _F_FLOWERS
    "杠上炮|kong discard|"  # _F_KONG_DISCARD
)


def _t(app, i):
    return _TX.get(i, app.lang)


ALL = ("mcr", "sichuan", "guangdong")
# field of the win event, text, rule sets, kind, argument:
#   toggle  key flips it;  count  key adds one, up to the argument, then 0;
#   ask     asked (1 yes, 0 no) when the condition named by the argument holds, and shown as a
#           toggle on the flags screen while it holds
WIN_FLAGS = (
    ("last_of_kind", _F_LAST_OF_KIND, ("mcr",), "toggle", None),
    ("last_tile", _F_LAST_TILE, ("mcr", "sichuan"), "toggle", None),
    ("kong", _F_KONG, ALL, "toggle", None),
    ("flowers", _F_FLOWERS, ("mcr",), "count", 8),
    ("kong_discard", _F_KONG_DISCARD, ("sichuan",), "ask", "discarder_konged"),
)


def _holds(app, cond):
    d = app.d
    if cond == "discarder_konged":
        src = d.get("src")
        if src is None:
            return False
        for ev in app.events:
            if "win" not in ev and "kong" in ev and ev.get("seat") == src:
                return True
        return False
    return False


def flag_rows(app):
    """The rows of WIN_FLAGS this win can have."""
    r = app.session.rules
    return [row for row in WIN_FLAGS if r in row[2] and (row[3] != "ask" or _holds(app, row[4]))]


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
            app.say(T.ALREADY_WON, app.session.player_at(c))
            return
        app.go("win_from", winner=c)


def s_win_from(app):
    w = app.d["winner"]
    return _t(app, _WHO_DEALT) % app.session.player_at(w), parts.seat_lines(app, w) + [_t(app, _SELF_DRAWN_0)], \
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
        app.say(T.ALREADY_WON, app.session.player_at(src))
        return
    app.d["src"] = src
    if any(row[3] == "ask" for row in flag_rows(app)):
        app.to("kong_discard")
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
    tiles.begin(app, Entry(14, chows=r == "mcr", honours=r != "sichuan"), _who, _tiles_done, _tiles_back,
                flowers=r == "mcr", winner=winner, src=src, same=same, flags=flags, extra=[])


def _who(app):
    d = app.d
    s = app.session
    if d["src"] is None:
        return _t(app, _SELF_DRAWN_LINE) % s.player_at(d["winner"])
    return _t(app, _WINNER_LINE) % (s.player_at(d["winner"]), s.player_at(d["src"]))


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
    for row in WIN_FLAGS:
        k = row[0]
        if f.get(k) and row[3] != "count":
            ev[k] = True
    if f.get("same_discard"):
        ev["same_discard"] = True
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
    pay, err = app.preview(ev, finish=app.session.rules != "guangdong", joining=d.get("same", False))
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
    title = _t(app, _WIN_TITLE) % (s.player_at(w[0]), app.tx(T.TOTAL_UNIT[r]) % w[3])
    lines = parts.points_lines(app, d["pay"])
    ev = d["event"]
    if "missing_suit" in ev:
        lines.append(_t(app, _VOID_LINE) % app.tx(T.SUIT_M + "msp".find(ev["missing_suit"])))
    if ev.get("kong_discard"):
        lines.append(_t(app, _F_KONG_DISCARD))
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
            app.rebuild()   # the preview goes
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


def done(app):
    d = app.d
    ev = d["event"]
    if app.session.rules == "guangdong" and ev["from"] is not None:
        app.confirm(ev, stay=True)
        if app.state == "confirm":
            app.go("another", src=ev["from"])
        return
    app.confirm(ev)


def t_confirm(app, tile, uid):
    """Taps on the result: flowers (MCR), horses (Guangdong); each changes it, so every seat
    confirms again."""
    d = app.d
    r = app.session.rules
    if tile >= 34:
        if tiles.flower(app, tile):
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
