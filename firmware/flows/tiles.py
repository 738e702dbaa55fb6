# Tile entry, shared by the win, the declared win and the end of the wall: taps (or keyed-in
# tiles) go to a firmware/entry.py Entry; # closes the tiles tapped since the last meld as a
# claimed meld (a kong then asks: 0 concealed, # claimed); * takes back the last tile (or
# reopens the last meld, or leaves). The entry is done when its concealed tiles are all there:
# then the flow that started it goes on (d["done"], run by app.later once this flow is dropped,
# so the hand is scored without it in the heap), with no key pressed.
#
#   tiles.begin(app, entry, who, done, back, flowers=False)
#     who     who(app): the line naming whose tiles these are (drawn each time: the language
#             can change while the tiles go in)
#     done    done(app) when the entry is complete; back(app) when * leaves it
#     flowers whether flower tiles count here (MCR wins): d["flowers"] holds the tiles read
#   a flow that is not resident passes owner="its name": it stays loaded while its tiles go in
from firmware.ui import texts as T
from firmware.compat import const
from firmware.entry import KONG
from firmware.flows import parts

# this flow's texts (firmware/ui/texts.py)
_TAP_TILES = const(0)
_TAP_WIN_TILE = const(1)
_TILES_HINT = const(2)
_KEYED_TILE = const(3)
_KEY_HONOUR = const(4)
_KEY_SUIT = const(5)
_KONG_MELD_Q = const(6)
_KONG_MELD_0 = const(7)
_KONG_MELD_HASH = const(8)
_TAP_MELD_FIRST = const(9)
_FLOWERS_N = const(10)
_FLOWER_TWICE = const(11)
_NO_FLOWERS_HERE = const(12)
_TX = T.Table(
    "拍牌 %d/%d|Tap tiles %d/%d|"  # _TAP_TILES
    "拍和的那张 %d/%d|Winning tile %d/%d|"  # _TAP_WIN_TILE
    "#副露完 *删|# meld  * undo|"  # _TILES_HINT
    "牌 %s_ A万B条C筒|tile %s_ A=m B=s C=p|"  # _KEYED_TILE
    "字牌: 0 再按 1-7|Honours: 0 then 1-7|"  # _KEY_HONOUR
    "花色: A万 B条 C筒|Suit: A=m B=s C=p|"  # _KEY_SUIT
    "四张: 什么杠?|Four tiles: a kong?|"  # _KONG_MELD_Q
    "0 暗杠|0 concealed|"  # _KONG_MELD_0
    "# 明杠|# claimed|"  # _KONG_MELD_HASH
    "先拍副露的牌再按#|Tap a meld's tiles, then #|"  # _TAP_MELD_FIRST
    "花牌 %d|flowers %d|"  # _FLOWERS_N
    "这张花刚拍过|That flower was read already|"  # _FLOWER_TWICE
    "%s不计花牌|%s: no flowers|"  # _NO_FLOWERS_HERE
)


def _t(app, i):
    return _TX.get(i, app.lang)


_SUIT_KEYS = "ABC"   # key-in fallback: digit then A/B/C = m/s/p; 0 then 1-7 = E S W N C F P


def begin(app, entry, who, done, back, flowers=False, **more):
    app.go("tiles", entry=entry, who=who, done=done, back=back, take_flowers=flowers, flowers=[], **more)


def flower(app, tile):
    """A flower tile read while the box asks for tiles: counted where the rule set has them."""
    d = app.d
    if not d.get("take_flowers"):
        app.show(_t(app, _NO_FLOWERS_HERE), app.tx(T.RULES_NAME[app.session.rules]))
        return False
    if tile in d["flowers"]:
        app.show(_t(app, _FLOWER_TWICE))
        return False
    d["flowers"].append(tile)
    return True


def s_tiles(app):
    d = app.d
    e = d["entry"]
    have = len(e.current)
    need = e.need()
    if d.get("kong?"):
        return _t(app, _KONG_MELD_Q), [d["who"](app)] + parts.hand_lines(e) + [(_t(app, _KONG_MELD_0),
                                                                         _t(app, _KONG_MELD_HASH))], app.tx(T.BACK_HINT)
    key = _TAP_WIN_TILE if (e.size == 14 and have == need - 1) else _TAP_TILES
    title = _t(app, key) % (e.tiles(), e.size)
    lines = [d["who"](app)] + parts.hand_lines(e)
    if d["flowers"]:
        lines.append(_t(app, _FLOWERS_N) % len(d["flowers"]))
    hint = _t(app, _TILES_HINT)
    if d.get("pend") is not None:
        hint = _t(app, _KEYED_TILE) % d["pend"]
    return title, lines, hint


def _keyed(app, key):
    """Key-in fallback for a tile whose tag fails: a tile code, None (nothing yet), -1 when the
    key is no part of a tile."""
    d = app.d
    p = d.get("pend")
    if p is None:
        if key in "0123456789":
            d["pend"] = key
            return None
        return -1
    d["pend"] = None
    if p == "0":
        if key in "1234567":
            return 27 + int(key) - 1
        app.show(_t(app, _KEY_HONOUR))
        return None
    if key in _SUIT_KEYS:
        return _SUIT_KEYS.find(key) * 9 + int(p) - 1
    app.show(_t(app, _KEY_SUIT))
    return None


def k_tiles(app, key):
    d = app.d
    e = d["entry"]
    if d.get("kong?"):
        d["kong?"] = False
        if key in "0#":
            err = e.close(concealed=key == "0")
            if err:
                parts.say(app, err)
        return
    if key == "*":
        if d.get("pend") is not None:
            d["pend"] = None
        elif not e.undo():
            d["back"](app)
        return
    if key == "#" and d.get("pend") is None:
        if not e.current:
            app.show(_t(app, _TAP_MELD_FIRST))
            return
        if e.kind() == KONG:
            d["kong?"] = True
            return
        err = e.close()
        if err:
            parts.say(app, err)
        return
    t = _keyed(app, key)
    if t is not None and t >= 0:
        t_tiles(app, t, None)


def t_tiles(app, tile, uid):
    d = app.d
    if d.get("kong?"):
        d["kong?"] = False
    if tile >= 34:
        flower(app, tile)
        return
    e = d["entry"]
    err = e.add(tile, uid)
    if err:
        parts.say(app, err)
    elif e.complete():
        app.later(d["done"], app)   # scored once this flow has left the heap
    elif e.size == 14 and len(e.current) == e.need() - 1:
        app.book.collect_after_draw()   # the winning tile is next: its result starts on a tidy heap


HANDLERS = (
    ("tiles", s_tiles, k_tiles, t_tiles),
)
