# The score protocol: one JSON request line in, one JSON reply line out. Shared by the host's
# `python -m host_tools score` and the device (firmware/score_stdio.py), so it stays MicroPython
# code. Replies are written by hand rather than json.dumps: the key order is then the same on
# both interpreters and no dict is built per reply.
from rules_min import jsonout as J
from rules_min import mcr
from rules_min import mcr_table as T
from rules_min.notation_quick import parse  # the box reads hands with notation.parse
from rules_min.mcr_pay import MIN_FANS, payments
from rules_min.win import Win
from rules_min.win_flags import check as check_win_flags

MAX_LINE = 2048  # a request is ~250 bytes; longer lines are refused before parsing
_WINDS = "ESWN"
_FLAGS = ("self_drawn", "last_of_kind", "last_tile", "kong", "win_tile_mixed", "replacement_flower", "misnamed")


def _wind(req, key):
    w = req.get(key, "E")
    if not isinstance(w, str) or len(w) != 1 or _WINDS.find(w) < 0:
        raise ValueError("bad_request", key + " must be one of E, S, W, N")
    return 27 + _WINDS.find(w)


def _seat(req, key):
    v = req.get(key)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 3:
        raise ValueError("bad_request", key + " must be a seat 0-3 or null")
    return v


def _mcr(req):
    hand = req.get("hand")
    if not isinstance(hand, str):
        raise ValueError("bad_request", "hand must be a string in the notation of docs/rules.md")
    flags = []
    for k in _FLAGS:
        v = req.get(k, False)
        if not isinstance(v, bool):
            raise ValueError("bad_request", k + " must be true or false")
        flags.append(v)
    self_drawn, last_of_kind, last_tile, kong, mixed, flower, misnamed = flags
    seat = _wind(req, "seat_wind")
    prev = _wind(req, "prevalent_wind")
    fl = req.get("flowers", 0)
    if not isinstance(fl, int) or isinstance(fl, bool) or fl < 0 or fl > 8:
        raise ValueError("bad_request", "flowers must be a number 0-8")
    winner = _seat(req, "winner")
    discarder = _seat(req, "discarder")
    if discarder is not None and winner is None:
        raise ValueError("bad_request", "discarder given without winner")
    if winner is not None:
        if self_drawn and discarder is not None:
            raise ValueError("bad_request", "a self-drawn win has no discarder")
        if not self_drawn and discarder is None:
            raise ValueError("bad_request", "a win on a discard needs the discarder")
        if discarder == winner:
            raise ValueError("bad_request", "the winner cannot be the discarder")
    msg = check_win_flags("mcr", self_drawn, kong, last_tile, mixed, flower, False, misnamed)
    if msg:
        raise ValueError("bad_flags", msg)

    melds, counts, win, letters = parse(hand)
    if letters:
        if fl and fl != letters:
            raise ValueError("bad_request", "flowers %d disagrees with %d flower letters" % (fl, letters))
        fl = letters
    p = _P.reset(melds, counts, win)
    p.self_drawn = self_drawn
    p.last_of_kind = last_of_kind
    p.last_tile = last_tile
    p.kong = kong
    p.flower = flower
    p.mixed = mixed
    p.seat_wind = seat
    p.prevalent_wind = prev
    p.flowers = fl
    msg = mcr.check_flags(p)
    if msg:
        raise ValueError("bad_flags", msg)
    ft = _FT
    total = mcr.score(p, ft)
    if total < 0:
        from rules_min.shanten import shanten
        counts[win] -= 1
        n = shanten(counts, len(melds) // 3)
        return None, n
    out = _fan_list(ft, fl)
    out += b'], "total": %d, "meets_minimum": %s' % (total + fl, b"true" if total >= MIN_FANS else b"false")
    if winner is not None and total >= MIN_FANS:
        p = payments(total + fl, winner, discarder)
        if misnamed and discarder is not None:   # seed 001 §四.8: the caller pays for all three
            for s in range(4):
                p[s] = 0 if s != winner and s != discarder else p[s]
            p[discarder] = -p[winner]
        out += b', "payments": [%d, %d, %d, %d]' % (p[0], p[1], p[2], p[3])
    return str(out, "utf-8"), None


# The hand being scored and its fans, made once (rules_min/win.py: making a Win per request
# costs the Pico more than a quarter of a millisecond). Sichuan's fans use _FT's first counts.
_P = Win(None, None, 0)
_FT = bytearray(T.NUM_FANS)
_PRESENT = bytearray(T.NUM_FANS)


def _fan_list(ft, fl):
    # '"fans": [' and the fans as JSON objects, as bytes: the reply is decoded once. MicroPython
    # looks every new str up among all its interned strings (~0.1 ms on the Pico with .mpy
    # files), bytes not. The names need no JSON escaping (tests/core/test_speed.py).
    b = bytearray(b'"fans": [')
    present = _PRESENT
    for i in range(mcr.fans_in_order(ft, present)):
        f = present[i]
        b += b'%s{"name": "%s", "en": "%s", "points": %d, "count": %d}' % (
            b", " if i else b"", T.name_bytes(f), T.name_bytes(f, True), T.POINTS[f], ft[f])
    if fl:
        b += b'%s{"name": "%s", "en": "%s", "points": 1, "count": %d}' % (
            b", " if len(b) > 9 else b"", T.name_bytes(T.FLOWER_TILES), T.name_bytes(T.FLOWER_TILES, True), fl)
    return b


def _missing(req):
    v = req.get("missing_suit")
    if v is None:
        return None
    if not isinstance(v, str) or len(v) != 1 or "msp".find(v) < 0:
        raise ValueError("bad_request", "missing_suit must be m, s or p")
    return "msp".find(v)


def _flags(req, keys):
    out = []
    for k in keys:
        v = req.get(k, False)
        if not isinstance(v, bool):
            raise ValueError("bad_request", k + " must be true or false")
        out.append(v)
    return out


def _fan(name, en, points, count, first):
    # one format, not a chain of concatenations: each new str costs MicroPython a look-up
    return '%s{"name": %s, "en": %s, "points": %d, "count": %d}' % ("" if first else ", ", J.q(name), J.q(en),
                                                                     points, count)


def _sichuan(req):
    from rules_min import sichuan as S
    hand = req.get("hand")
    if not isinstance(hand, str):
        raise ValueError("bad_request", "hand must be a string in the notation of docs/rules.md")
    self_drawn, kong, last_tile = _flags(req, ("self_drawn", "kong", "last_tile"))
    msg = check_win_flags("sichuan", self_drawn, kong, last_tile)
    if msg:
        raise ValueError("bad_flags", msg)
    missing = _missing(req)
    melds, counts, win, letters = parse(hand)
    msg = "Sichuan is played without flowers" if letters else S.check_tiles(melds, counts, missing)
    if msg:
        raise ValueError("bad_tiles", msg)
    p = _P.reset(melds, counts, win)
    p.self_drawn = self_drawn
    p.kong = kong
    p.last_tile = last_tile
    f = _FT
    total = S.score(p, f, req.get("gen") is True)
    if total < 0:
        from rules_min.shanten import shanten
        counts[win] -= 1
        return None, shanten(counts, len(melds) // 3)
    out = '"fans": ['
    first = True
    for i in range(S.NUM_FANS):
        if f[i]:
            out += _fan(S.name(i), S.name(i, True), S.POINTS[i], f[i], first)
            first = False
    return out + '], "total": %d, "value": %d' % (total, S.value(total)), None


def _guangdong(req):
    from rules_min import guangdong as G
    from rules_min.tiles import parse_tile
    hand = req.get("hand")
    if not isinstance(hand, str):
        raise ValueError("bad_request", "hand must be a string in the notation of docs/rules.md")
    (self_drawn,) = _flags(req, ("self_drawn",))
    dealer = _seat(req, "dealer")
    winner = _seat(req, "winner")
    horses = req.get("horses", [])
    if not isinstance(horses, list) or len(horses) > 2:
        raise ValueError("bad_request", "horses is a list of at most two tiles")
    tiles = []
    for h in horses:
        t = parse_tile(h) if isinstance(h, str) else None
        if t is None:
            raise ValueError("bad_request", "unknown horse tile")
        tiles.append(t)
    if tiles and (dealer is None or winner is None):
        raise ValueError("bad_request", "horses need dealer and winner")
    melds, counts, win, letters = parse(hand)
    msg = G.check_tiles(melds, letters)
    if msg:
        raise ValueError("bad_tiles", msg)
    row = G.score(_P.reset(melds, counts, win))
    if row < 0:
        from rules_min.shanten import shanten
        counts[win] -= 1
        return None, shanten(counts, len(melds) // 3)
    name, en, mult = G.HAND_TABLE[row]
    if name == G.CHICKEN and not self_drawn:
        raise ValueError("chicken_discard", "a chicken hand wins only by self-draw")
    hits = G.horse_hits(tiles, (winner - dealer) % 4) if tiles else 0
    return ('"fans": [' + _fan(name, en, mult, 1, True) + '], "total": %d, "value": %d, "horse_hits": %d'
            % (mult, G.BASE * mult, hits)), None


def _dispatch(req, rules):
    if rules == "mcr":
        fn = _mcr
    elif rules == "sichuan":
        fn = _sichuan
    elif rules == "guangdong":
        fn = _guangdong
    else:
        raise ValueError("unsupported_rules", "rule set %s is not available" % rules)
    body, shanten = fn(req)
    if body is None:
        raise ValueError("not_win", "not a winning hand", None, ', "shanten": %d' % shanten)
    return body


def handle_line(line, rules="mcr"):
    """One request line -> one reply line (no newline). Never raises."""
    return J.run(line, MAX_LINE, lambda req: _dispatch(req, rules))
