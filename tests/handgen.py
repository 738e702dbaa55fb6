"""Random Chinese Official (MCR) hands for differential tests against the reference calculator.

CPython only (used by the pytest suites, never by the device build).

    random_win(rng)        -> score request dict for a random legal winning hand
    random_near_miss(rng)  -> score request dict for a legal 14-tile hand that is NOT a win
    to_mahjonggb(req)      -> positional args of MahjongGB.MahjongFanCalculator (without verbose)
    parse_hand(notation)   -> (melds, tiles) parsed from our notation

`rng` is a `random.Random(seed)`; the same seed always gives the same hands.

Tiles are ints 0..33 internally: 0-8 1m-9m, 9-17 1s-9s, 18-26 1p-9p, 27-30 E S W N,
31-33 C F P (red, green, white), the same order as rules_min/tiles.py, but nothing here is
imported from the project: the notation writer and the parser are written independently on purpose,
so that the oracle cross-checks the project's own parser.
"""

import random

SUITS = "msp"
HONOURS = "ESWNCFP"
WINDS = "ESWN"
MGB = (
    ["W%d" % i for i in range(1, 10)]      # characters (m)
    + ["T%d" % i for i in range(1, 10)]    # bamboo (s)
    + ["B%d" % i for i in range(1, 10)]    # dots (p)
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]  # E S W N, red C, green F, white P
)

ALL = tuple(range(34))
SUITED = tuple(range(27))
HONOUR_TILES = tuple(range(27, 34))
WIND_TILES = (27, 28, 29, 30)
DRAGON_TILES = (31, 32, 33)
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def tile(s, r):
    """Suit index 0..2 (m s p), rank 1..9 -> tile."""
    return s * 9 + r - 1


def rank(t):
    return t % 9 + 1 if t < 27 else 0


def suit(t):
    return t // 9 if t < 27 else 3


def tile_name(t):
    return HONOURS[t - 27] if t >= 27 else "%d%s" % (t % 9 + 1, SUITS[t // 9])


def _perms3():
    out = []
    for a in range(3):
        for b in range(3):
            for c in range(3):
                if len({a, b, c}) == 3:
                    out.append((a, b, c))
    return out


PERMS3 = _perms3()
# the six knitted straights: suit order (x, y, z) takes 147 / 258 / 369
KNITTED = [tuple(sorted([tile(x, 1), tile(x, 4), tile(x, 7), tile(y, 2), tile(y, 5), tile(y, 8),
                         tile(z, 3), tile(z, 6), tile(z, 9)])) for (x, y, z) in PERMS3]

GREEN = frozenset([tile(1, 2), tile(1, 3), tile(1, 4), tile(1, 6), tile(1, 8), 32])
REVERSIBLE = frozenset([tile(2, r) for r in (1, 2, 3, 4, 5, 8, 9)]
                       + [tile(1, r) for r in (2, 4, 5, 6, 8, 9)] + [33])


# ---------------------------------------------------------------- themes
# A theme is (chow lows, pung tiles, pair tiles); a set is ('c', lowest tile) / ('p', t) / ('k', t).

def _theme_from_tiles(ok):
    chows = [t for t in SUITED if rank(t) <= 7 and ok(t) and ok(t + 1) and ok(t + 2)]
    pungs = [t for t in ALL if ok(t)]
    return (chows, pungs, list(pungs))


def _build_themes():
    th = {}
    th["any"] = _theme_from_tiles(lambda t: True)
    for s in range(3):
        th["flush" + SUITS[s]] = _theme_from_tiles(lambda t, s=s: suit(t) == s)
        th["half" + SUITS[s]] = _theme_from_tiles(lambda t, s=s: suit(t) in (s, 3))
        th["void" + SUITS[s]] = _theme_from_tiles(lambda t, s=s: suit(t) != s)
    th["honours"] = _theme_from_tiles(lambda t: t >= 27)
    th["terminals"] = _theme_from_tiles(lambda t: t < 27 and rank(t) in (1, 9))
    th["termhon"] = _theme_from_tiles(lambda t: t >= 27 or rank(t) in (1, 9))
    th["green"] = _theme_from_tiles(lambda t: t in GREEN)
    th["reversible"] = _theme_from_tiles(lambda t: t in REVERSIBLE)
    th["upper"] = _theme_from_tiles(lambda t: t < 27 and rank(t) >= 7)
    th["middle"] = _theme_from_tiles(lambda t: t < 27 and 4 <= rank(t) <= 6)
    th["lower"] = _theme_from_tiles(lambda t: t < 27 and rank(t) <= 3)
    th["upper4"] = _theme_from_tiles(lambda t: t < 27 and rank(t) >= 6)
    th["lower4"] = _theme_from_tiles(lambda t: t < 27 and rank(t) <= 4)
    th["simples"] = _theme_from_tiles(lambda t: t < 27 and 2 <= rank(t) <= 8)
    th["nohonours"] = _theme_from_tiles(lambda t: t < 27)
    # set-wise themes
    th["five"] = ([t for t in SUITED if rank(t) in (3, 4, 5)],
                  [t for t in SUITED if rank(t) == 5], [t for t in SUITED if rank(t) == 5])
    outside_tiles = [t for t in ALL if t >= 27 or rank(t) in (1, 9)]
    th["outside"] = ([t for t in SUITED if rank(t) in (1, 7)], outside_tiles, list(outside_tiles))
    evens = [t for t in SUITED if rank(t) in (2, 4, 6, 8)]
    th["evenpungs"] = ([], evens, list(evens))
    # chows anywhere, pungs only of honours: dragon / wind pungs, seat and prevalent wind
    th["honourmix"] = (list(th["any"][0]), list(HONOUR_TILES), list(ALL))
    th["winds"] = (list(th["any"][0]), list(WIND_TILES), list(ALL))
    th["dragons"] = (list(th["any"][0]), list(DRAGON_TILES), list(ALL))
    return th


THEMES = _build_themes()
THEMED = ["flushm", "flushs", "flushp", "halfm", "halfs", "halfp", "voidm", "voids", "voidp",
          "honours", "terminals", "termhon", "green", "reversible", "upper", "middle", "lower",
          "upper4", "lower4", "simples", "nohonours", "five", "outside", "evenpungs",
          "honourmix", "winds", "dragons"]
# chow probability per theme (default 0.55)
THEME_CHOW_P = {"termhon": 0.0, "honours": 0.0, "terminals": 0.0, "evenpungs": 0.0,
                "outside": 0.5, "honourmix": 0.45, "winds": 0.4, "dragons": 0.4}


def _set_tiles(s):
    k, t = s
    if k == "c":
        return (t, t + 1, t + 2)
    if k == "p":
        return (t, t, t)
    return (t, t, t, t)


def _add(counts, s):
    tl = _set_tiles(s)
    for x in tl:
        counts[x] += 1
    if any(counts[x] > 4 for x in tl):
        for x in tl:
            counts[x] -= 1
        return False
    return True


def _counts_of(sets, pair=None):
    c = [0] * 34
    for s in sets:
        for x in _set_tiles(s):
            c[x] += 1
    if pair is not None:
        c[pair] += 2
    return c


def _fill(rng, sets, theme="any", chow_p=None, n=4):
    """Complete `sets` to n sets drawn from a theme; None when the tiles run out."""
    chows, pungs, _ = THEMES[theme]
    if chow_p is None:
        chow_p = THEME_CHOW_P.get(theme, 0.55)
    counts = _counts_of(sets)
    if any(x > 4 for x in counts):
        return None
    sets = list(sets)
    tries = 0
    while len(sets) < n:
        tries += 1
        if tries > 40:
            return None
        if chows and (not pungs or rng.random() < chow_p):
            s = ("c", rng.choice(chows))
        else:
            s = ("p", rng.choice(pungs))
        if _add(counts, s):
            sets.append(s)
    return sets


def _pick_pair(rng, sets, theme="any", fixed=None):
    counts = _counts_of(sets)
    if fixed is not None:
        return fixed if counts[fixed] <= 2 else None
    cands = [t for t in THEMES[theme][2] if counts[t] <= 2]
    return rng.choice(cands) if cands else None


# ---------------------------------------------------------------- turning sets into a hand

MELD_COUNT_WEIGHTS = (38, 22, 17, 13, 10)


def _compose(rng, sets, pair, n_melded=None, kong_p=0.06, n_kongs=None):
    """sets + pair -> (melds, concealed, win). Melds are (kind, tile, digit); digit None = concealed kong."""
    counts = _counts_of(sets, pair)
    if any(x > 4 for x in counts):
        return None
    sets = list(sets)
    pung_idx = [i for i, s in enumerate(sets) if s[0] == "p" and counts[s[1]] == 3]
    if n_kongs is None:
        chosen = [i for i in pung_idx if rng.random() < kong_p]
    else:
        if len(pung_idx) < n_kongs:
            return None
        chosen = rng.sample(pung_idx, n_kongs)
    for i in chosen:
        sets[i] = ("k", sets[i][1])
    if n_melded is None:
        n_melded = rng.choices(range(5), MELD_COUNT_WEIGHTS)[0]
    order = list(range(4))
    rng.shuffle(order)
    melded = set(order[:n_melded])
    melds = []
    concealed = [pair, pair]
    for i, s in enumerate(sets):
        k, t = s
        if i in melded:
            if k == "k" and rng.random() < 0.3:
                d = rng.randint(5, 7)  # promoted from a pung
            else:
                d = rng.randint(1, 3)
            melds.append((k, t, d))
        elif k == "k":
            melds.append((k, t, None))  # concealed kong
        else:
            concealed.extend(_set_tiles(s))
    rng.shuffle(melds)
    win = concealed.pop(rng.randrange(len(concealed)))
    return melds, concealed, win


def _meld_tiles(melds):
    out = []
    for k, t, _ in melds:
        out.extend(_set_tiles((k, t)))
    return out


def _flags(rng, melds, concealed, win, p_self=0.5):
    self_drawn = rng.random() < p_self
    meld_tiles = _meld_tiles(melds)
    in_melds = meld_tiles.count(win)
    in_hand = concealed.count(win)
    has_kong = any(k == "k" for k, _, _ in melds)
    kong = False
    if self_drawn:
        # 杠上开花: the winning tile is the replacement drawn after a kong of one's own
        if has_kong and rng.random() < 0.3:
            kong = True
    else:
        # 抢杠和: the tile was being added to someone else's pung, so the winner holds no other copy
        if in_melds == 0 and in_hand == 0 and rng.random() < 0.12:
            kong = True
    # no kong may be declared on the last tile of the wall
    last_tile = (not kong) and rng.random() < 0.07
    if in_melds == 3:
        last_of_kind = True  # the other three copies are in the winner's own melds
    elif kong and not self_drawn:
        last_of_kind = rng.random() < 0.7  # the other three are in the robbed kong
    elif in_hand == 0:
        last_of_kind = rng.random() < 0.12
    else:
        last_of_kind = False  # a copy in the concealed hand: it cannot be the last one
    return {"self_drawn": self_drawn, "last_of_kind": last_of_kind,
            "last_tile": last_tile, "kong": kong}


# ---------------------------------------------------------------- notation writer

def _fmt(tiles, shared=True):
    out = []
    pending = ""
    cur = None
    for t in sorted(tiles):
        s = suit(t)
        if s == 3:
            if pending:
                out.append(pending + SUITS[cur])
                pending = ""
            out.append(HONOURS[t - 27])
            cur = None
            continue
        if not shared:
            out.append(tile_name(t))
            continue
        if cur is not None and s != cur and pending:
            out.append(pending + SUITS[cur])
            pending = ""
        cur = s
        pending += str(rank(t))
    if pending:
        out.append(pending + SUITS[cur])
    return "".join(out)


def notation(melds, concealed, win, rng=None):
    parts = []
    for k, t, d in melds:
        body = _fmt(_set_tiles((k, t)))
        if d is None:
            parts.append("[%s]" % body)
        elif rng is not None and rng.random() < 0.15:
            parts.append("[%s,%d]" % (body, d))
        else:
            parts.append("[%s%d]" % (body, d))
    shared = rng is None or rng.random() >= 0.05
    parts.append(_fmt(concealed, shared))
    parts.append(tile_name(win))
    return "".join(parts)


def _request(rng, hand, flags=None):
    melds, concealed, win = hand
    f = _flags(rng, melds, concealed, win) if flags is None else dict(flags)
    if _meld_tiles(melds).count(win) == 3:
        f["last_of_kind"] = True  # the other three copies are in the winner's own melds
    req = {"hand": notation(melds, concealed, win, rng)}
    req.update(f)
    req["seat_wind"] = rng.choice(WINDS)
    req["prevalent_wind"] = rng.choice(WINDS)
    req["flowers"] = 0 if rng.random() < 0.45 else rng.randint(1, 8)
    return req


# ---------------------------------------------------------------- strategies
# Each returns (melds, concealed, win) or None (retry), optionally with fixed flags.

def _s_plain(rng):
    sets = _fill(rng, [], "any", chow_p=rng.choice((0.3, 0.6, 0.8)))
    if sets is None:
        return None
    pair = _pick_pair(rng, sets)
    return None if pair is None else _compose(rng, sets, pair)


def _s_themed(rng):
    theme = rng.choice(THEMED)
    sets = _fill(rng, [], theme)
    if sets is None:
        return None
    pt = theme if theme not in ("honourmix", "winds", "dragons") else rng.choice(("any", "honours"))
    pair = _pick_pair(rng, sets, pt)
    return None if pair is None else _compose(rng, sets, pair)


def _chow_pattern(rng):
    """Sets for chow-based fans (some with their pair)."""
    s = rng.randrange(3)
    p = rng.choice(PERMS3)
    kind = rng.randrange(11)
    if kind == 0:  # 一色四同顺
        t = tile(s, rng.randint(1, 7))
        return [("c", t)] * 4, None
    if kind == 1:  # 一色三同顺
        t = tile(s, rng.randint(1, 7))
        return [("c", t)] * 3, None
    if kind == 2:  # 一色四步高
        st = rng.choice((1, 1, 2))
        r = rng.randint(1, 7 - 3 * st)
        return [("c", tile(s, r + i * st)) for i in range(4)], None
    if kind == 3:  # 一色三步高
        st = rng.choice((1, 2))
        r = rng.randint(1, 7 - 2 * st)
        return [("c", tile(s, r + i * st)) for i in range(3)], None
    if kind == 4:  # 清龙
        return [("c", tile(s, 1)), ("c", tile(s, 4)), ("c", tile(s, 7))], None
    if kind == 5:  # 花龙
        return [("c", tile(p[0], 1)), ("c", tile(p[1], 4)), ("c", tile(p[2], 7))], None
    if kind == 6:  # 三色三同顺
        r = rng.randint(1, 7)
        return [("c", tile(x, r)) for x in range(3)], None
    if kind == 7:  # 三色三步高
        r = rng.randint(1, 5)
        return [("c", tile(p[i], r + i)) for i in range(3)], None
    if kind == 8:  # 一色双龙会
        return [("c", tile(s, 1)), ("c", tile(s, 1)), ("c", tile(s, 7)), ("c", tile(s, 7))], tile(s, 5)
    if kind == 9:  # 三色双龙会
        return [("c", tile(p[0], 1)), ("c", tile(p[0], 7)), ("c", tile(p[1], 1)),
                ("c", tile(p[1], 7))], tile(p[2], 5)
    # two chows: 一般高 / 喜相逢 / 连六 / 老少副
    r = rng.randint(1, 7)
    return rng.choice([
        [("c", tile(s, r))] * 2,
        [("c", tile(p[0], r)), ("c", tile(p[1], r))],
        [("c", tile(s, 1)), ("c", tile(s, 7))],
        [("c", tile(s, min(r, 4))), ("c", tile(s, min(r, 4) + 3))],
    ]), None


def _pung_pattern(rng):
    s = rng.randrange(3)
    p = rng.choice(PERMS3)
    kind = rng.randrange(12)
    winds = list(WIND_TILES)
    rng.shuffle(winds)
    dragons = list(DRAGON_TILES)
    rng.shuffle(dragons)
    if kind == 0:  # 一色四节高
        r = rng.randint(1, 6)
        return [("p", tile(s, r + i)) for i in range(4)], None
    if kind == 1:  # 一色三节高
        r = rng.randint(1, 7)
        return [("p", tile(s, r + i)) for i in range(3)], None
    if kind == 2:  # 三色三节高
        r = rng.randint(1, 7)
        return [("p", tile(p[i], r + i)) for i in range(3)], None
    if kind == 3:  # 三同刻
        r = rng.randint(1, 9)
        return [("p", tile(x, r)) for x in range(3)], None
    if kind == 4:  # 双同刻
        r = rng.randint(1, 9)
        return [("p", tile(p[0], r)), ("p", tile(p[1], r))], None
    if kind == 5:  # 大四喜
        return [("p", w) for w in WIND_TILES], None
    if kind == 6:  # 小四喜
        return [("p", w) for w in winds[:3]], winds[3]
    if kind == 7:  # 三风刻
        return [("p", w) for w in winds[:3]], None
    if kind == 8:  # 大三元
        return [("p", d) for d in DRAGON_TILES], None
    if kind == 9:  # 小三元
        return [("p", d) for d in dragons[:2]], dragons[2]
    if kind == 10:  # 双箭刻
        return [("p", d) for d in dragons[:2]], None
    return [("p", winds[0]), ("p", dragons[0])], None


def _s_pattern(rng):
    base, pair = (_chow_pattern if rng.random() < 0.5 else _pung_pattern)(rng)
    r = rng.random()
    theme = "any" if r < 0.6 else ("honourmix" if r < 0.75 else rng.choice(THEMED))
    sets = _fill(rng, base, theme)
    if sets is None:
        return None
    pair = _pick_pair(rng, sets, "any" if theme == "honourmix" else theme, pair)
    return None if pair is None else _compose(rng, sets, pair)


def _s_kongs(rng):
    n = rng.choice((1, 2, 2, 3, 3, 4, 4))
    base = _fill(rng, [], rng.choice(("any", "any", "honourmix", "nohonours")), chow_p=0.0, n=n)
    if base is None:
        return None
    sets = _fill(rng, base, "any", chow_p=0.5)
    if sets is None:
        return None
    pair = _pick_pair(rng, sets)
    if pair is None:
        return None
    # _compose turns pungs into kongs; pungs come first, so pick among all pungs
    return _compose(rng, sets, pair, n_melded=rng.randint(0, 4), n_kongs=n)


def _s_all_pungs(rng):
    theme = rng.choice(("any", "any", "nohonours", "honourmix", "simples", "termhon"))
    sets = _fill(rng, [], theme, chow_p=rng.choice((0.0, 0.0, 0.25)))
    if sets is None:
        return None
    pair = _pick_pair(rng, sets, "any")
    if pair is None:
        return None
    return _compose(rng, sets, pair, n_melded=rng.choice((0, 0, 0, 1, 2, 4)), kong_p=0.1)


def _s_chicken(rng):
    # three suits, simples only, an honour pair, something claimed, won on a discard:
    # mostly chicken hands (无番和) once the oracle has looked for fans
    sets = []
    suits = [0, 1, 2, rng.randrange(3)]
    rng.shuffle(suits)
    counts = [0] * 34
    for s in suits:
        for _ in range(10):
            st = ("c", tile(s, rng.randint(2, 6))) if rng.random() < 0.7 else ("p", tile(s, rng.randint(2, 8)))
            if _add(counts, st):
                sets.append(st)
                break
        else:
            return None
    pair = rng.choice(HONOUR_TILES)
    hand = _compose(rng, sets, pair, n_melded=rng.randint(1, 3), kong_p=0.0)
    if hand is None:
        return None
    return hand, {"self_drawn": False, "last_of_kind": False, "last_tile": False, "kong": False}


def _s_seven_pairs(rng):
    theme = rng.choice(["any", "any", "any", "flushm", "flushs", "flushp", "halfm", "halfs",
                        "halfp", "honours", "termhon", "green", "reversible", "simples",
                        "middle", "upper4", "lower4", "voidm", "nohonours"])
    pool = list(THEMES[theme][1])
    n_dup = rng.choice((0, 0, 0, 1, 1, 2))
    n_dup = max(n_dup, 7 - len(pool))
    if 7 - n_dup > len(pool) or n_dup > 7 - n_dup:
        return None
    kinds = rng.sample(pool, 7 - n_dup)
    pairs = kinds + rng.sample(kinds, n_dup)
    tiles = [t for t in pairs for _ in (0, 1)]
    win = tiles.pop(rng.randrange(14))
    return [], tiles, win


def _s_shifted_pairs(rng):
    s = rng.randrange(3)
    r = rng.randint(1, 3)
    tiles = [tile(s, r + i) for i in range(7) for _ in (0, 1)]
    win = tiles.pop(rng.randrange(14))
    return [], tiles, win


def _s_orphans(rng):
    tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    win = tiles.pop(rng.randrange(14))
    return [], tiles, win


def _s_honours_knitted(rng):
    ks = rng.choice(KNITTED)
    n_hon = rng.choice((7, 7, 6, 5, 5))  # 7 honours: 七星不靠; 5 honours: 9 knitted tiles -> 组合龙 too
    tiles = rng.sample(list(HONOUR_TILES), n_hon) + rng.sample(list(ks), 14 - n_hon)
    win = tiles.pop(rng.randrange(14))
    return [], tiles, win


def _s_knitted_straight(rng):
    ks = list(rng.choice(KNITTED))
    r = rng.random()
    theme = "any" if r < 0.6 else ("honourmix" if r < 0.8 else "nohonours")
    counts = [0] * 34
    for t in ks:
        counts[t] += 1
    chows, pungs, _ = THEMES[theme]
    for _ in range(20):
        st = ("c", rng.choice(chows)) if rng.random() < 0.5 else ("p", rng.choice(pungs))
        if _add(counts, st):
            break
    else:
        return None
    cands = [t for t in ALL if counts[t] <= 2]
    pair = rng.choice(cands)
    if rng.random() < 0.35:  # the set claimed (the only meld allowed with a knitted straight)
        if st[0] == "p" and counts[st[1]] == 3 and rng.random() < 0.3:
            st = ("k", st[1])
        melds = [(st[0], st[1], rng.randint(1, 3))]
        concealed = ks + [pair, pair]
    else:
        melds = []
        concealed = ks + [pair, pair] + list(_set_tiles(st))
    win = concealed.pop(rng.randrange(len(concealed)))
    return melds, concealed, win


def _s_nine_gates(rng):
    s = rng.randrange(3)
    tiles = [tile(s, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    win = tile(s, rng.randint(1, 9))  # the 14th tile is the winning one: the 13 standing are the gates
    return [], tiles, win


def _s_melded(rng):
    # 全求人 and heavily claimed hands
    sets = _fill(rng, [], rng.choice(("any", "any", "honourmix") + tuple(THEMED)))
    if sets is None:
        return None
    pair = _pick_pair(rng, sets)
    return None if pair is None else _compose(rng, sets, pair, n_melded=rng.choice((3, 4, 4)))


STRATEGIES = [
    (_s_plain, 30),
    (_s_themed, 22),
    (_s_pattern, 20),
    (_s_kongs, 7),
    (_s_all_pungs, 5),
    (_s_chicken, 3),
    (_s_seven_pairs, 5),
    (_s_shifted_pairs, 1),
    (_s_orphans, 1),
    (_s_honours_knitted, 2),
    (_s_knitted_straight, 2),
    (_s_nine_gates, 1),
    (_s_melded, 3),
]
_FUNCS = [f for f, _ in STRATEGIES]
_CUM = []
_acc = 0
for _f, _w in STRATEGIES:
    _acc += _w
    _CUM.append(_acc)


def _random_hand(rng):
    while True:
        f = rng.choices(_FUNCS, cum_weights=_CUM)[0]
        out = f(rng)
        if out is None:
            continue
        if len(out) == 2:
            return out[0], out[1]
        return out, None


def random_win(rng):
    """A score request for a random legal winning hand (no "id")."""
    hand, flags = _random_hand(rng)
    return _request(rng, hand, flags)


# ---------------------------------------------------------------- win check (independent of MahjongGB)

def _sets_only(c, i=0):
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_only(c, i)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _sets_only(c, i)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def _regular(c):
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets_only(c)
            c[p] += 2
            if ok:
                return True
    return False


def is_win_counts(c, n_melds):
    """c: counts of the concealed tiles plus the winning tile (14 - 3 * n_melds of them)."""
    c = list(c)
    if sum(c) != 14 - 3 * n_melds:
        return False
    if _regular(c):
        return True
    if n_melds == 0:
        if all(x % 2 == 0 for x in c):
            return True  # seven pairs; four of a kind counts as two pairs
        if all(c[t] >= 1 for t in ORPHANS) and sum(c[t] for t in ORPHANS) == 14:
            return True
        if max(c) == 1:
            for ks in KNITTED:
                if all(c[t] == 0 for t in SUITED if t not in ks):
                    return True  # honours and knitted tiles
    if n_melds <= 1:
        for ks in KNITTED:
            if all(c[t] for t in ks):
                for t in ks:
                    c[t] -= 1
                ok = _regular(c)
                for t in ks:
                    c[t] += 1
                if ok:
                    return True
    return False


# ---------------------------------------------------------------- near misses

def random_near_miss(rng):
    """A legal hand (14 tiles counting kongs as 3, never a fifth copy) that is no win."""
    while True:
        (melds, concealed, win), _ = _random_hand(rng)
        tiles = concealed + [win]
        counts = [0] * 34
        for t in tiles + _meld_tiles(melds):
            counts[t] += 1
        for _ in range(12):
            i = rng.randrange(len(tiles))
            old = tiles[i]
            new = rng.randrange(34)
            if new == old or counts[new] >= 4:
                continue
            c = [0] * 34
            for t in tiles:
                c[t] += 1
            c[old] -= 1
            c[new] += 1
            if is_win_counts(c, len(melds)):
                continue
            tiles[i] = new
            hand = (melds, tiles[:-1], tiles[-1])
            flags = {"self_drawn": rng.random() < 0.5, "last_of_kind": False,
                     "last_tile": False, "kong": False}
            return _request(rng, hand, flags)


# ---------------------------------------------------------------- notation parser -> MahjongGB

def _parse_tiles(text):
    out = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            if ch == "0":
                raise ValueError("no tile 0 in %r" % text)
            digits += ch
        elif ch in SUITS:
            if not digits:
                raise ValueError("suit letter without digits in %r" % text)
            out.extend(SUITS.index(ch) * 9 + int(d) - 1 for d in digits)
            digits = ""
        elif ch in HONOURS:
            if digits:
                raise ValueError("digits before an honour in %r" % text)
            out.append(27 + HONOURS.index(ch))
        else:
            raise ValueError("unexpected %r in %r" % (ch, text))
    if digits:
        raise ValueError("digits without a suit in %r" % text)
    return out


def _parse_meld(body):
    if "," in body:
        tiles_txt, digit_txt = body.split(",", 1)
    else:
        j = len(body)
        while j > 0 and body[j - 1].isdigit():
            j -= 1
        tiles_txt, digit_txt = body[:j], body[j:]
    digit = int(digit_txt) if digit_txt else None
    tl = sorted(_parse_tiles(tiles_txt))
    if len(tl) == 4 and len(set(tl)) == 1:
        kind = "GANG"
        if digit is None:
            offer = 0
        elif 1 <= digit <= 3:
            offer = digit
        elif 5 <= digit <= 7:
            offer = digit - 4  # promoted kong: still melded, supplier of the original pung
        else:
            raise ValueError("bad kong digit in [%s]" % body)
        return kind, tl[0], offer
    if len(tl) == 3 and len(set(tl)) == 1:
        kind = "PENG"
    elif len(tl) == 3 and tl[0] < 27 and tl[0] // 9 == tl[2] // 9 and tl[1] == tl[0] + 1 and tl[2] == tl[0] + 2:
        kind = "CHI"
    else:
        raise ValueError("not a meld: [%s]" % body)
    if digit is None or not 1 <= digit <= 3:
        raise ValueError("claimed meld needs a digit 1-3: [%s]" % body)
    return kind, (tl[1] if kind == "CHI" else tl[0]), digit


def parse_hand(s):
    """Notation -> (melds as (kind, tile, offer) with MahjongGB kinds/offers, list of tiles)."""
    s = "".join(s.split())
    melds = []
    i = 0
    while i < len(s) and s[i] == "[":
        j = s.index("]", i)
        melds.append(_parse_meld(s[i + 1:j]))
        i = j + 1
    rest = s[i:]
    if "[" in rest or "]" in rest:
        raise ValueError("melds must come first: %r" % s)
    return melds, _parse_tiles(rest)


def mgb_packs(melds):
    return tuple((k, MGB[t], o) for k, t, o in melds)


def to_mahjonggb(req):
    """Positional args for MahjongGB.MahjongFanCalculator (verbose excluded), from the notation."""
    melds, tiles = parse_hand(req["hand"])
    if not tiles:
        raise ValueError("no winning tile")
    return (
        mgb_packs(melds),
        tuple(MGB[t] for t in tiles[:-1]),
        MGB[tiles[-1]],
        int(req.get("flowers", 0)),
        bool(req.get("self_drawn", False)),
        bool(req.get("last_of_kind", False)),
        bool(req.get("kong", False)),
        bool(req.get("last_tile", False)),
        WINDS.index(req.get("seat_wind", "E")),
        WINDS.index(req.get("prevalent_wind", "E")),
    )


def tile_counts(hand):
    """Copies of each tile in a notation string (melds, concealed tiles and winning tile)."""
    melds, tiles = parse_hand(hand)
    c = [0] * 34
    for k, t, _ in melds:
        if k == "CHI":
            for x in (t - 1, t, t + 1):
                c[x] += 1
        else:
            c[t] += 4 if k == "GANG" else 3
    for t in tiles:
        c[t] += 1
    return c


if __name__ == "__main__":
    r = random.Random(1)
    for _ in range(10):
        print(random_win(r))
