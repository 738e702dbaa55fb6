"""Differential tests of rules_min/shanten.py against the reference calculator MahjongGB
(PyMahjongGB, C++ ChineseOfficialMahjongHelper algorithms). CPython + pytest only.

Reference functions used:
  MahjongShanten(pack, hand)            overall shanten (min over the five shapes)
  RegularShanten(hand) ... KnittedStraightShanten(hand) -> (shanten, useful tiles) per shape;
      at shanten 0 the useful tiles are that shape's waits (RegularShanten includes a tile the
      hand holds four of)
  MahjongFanCalculator(...)             raises TypeError('ERROR_NOT_WIN') unless the hand is a
      winning shape (it does not require 8 points, and it accepts a fifth copy of a tile)
All five shape functions only look at the standing tiles; melds are counted by their number.
Seeds are fixed: every run checks the same hands.
"""

import random

import MahjongGB as M

from rules_min.shanten import (
    HONOURS_AND_KNITTED,
    KNITTED_STRAIGHT,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    is_complete,
    shanten,
    shape_shanten,
    waits,
)

NAMES = (
    ["W%d" % i for i in range(1, 10)]
    + ["T%d" % i for i in range(1, 10)]
    + ["B%d" % i for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED = [
    [9 * s + p[s] + 3 * k for s in range(3) for k in range(3)]
    for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
]
SHAPES = (
    (REGULAR, M.RegularShanten, 4),
    (SEVEN_PAIRS, M.SevenPairsShanten, 0),
    (THIRTEEN_ORPHANS, M.ThirteenOrphansShanten, 0),
    (HONOURS_AND_KNITTED, M.HonorsAndKnittedTilesShanten, 0),
    (KNITTED_STRAIGHT, M.KnittedStraightShanten, 1),
)  # (our shape, reference function, most melds the shape allows)


def names(counts):
    return tuple(NAMES[t] for t in range(34) for _ in range(counts[t]))


def fan_wins(packs, counts, t):
    try:
        M.MahjongFanCalculator(packs, names(counts), NAMES[t], 0, False, False, False, False, 0, 0)
        return True
    except TypeError as exc:
        assert str(exc) == "ERROR_NOT_WIN", exc
        return False


def ref_waits(packs, counts):
    return [t for t in range(34) if fan_wins(packs, counts, t)]


def ref_useful_waits(counts, melds):
    # union of the per-shape useful tiles of the shapes that are at shanten 0
    h = names(counts)
    out = set()
    for _shape, fn, most in SHAPES:
        if melds <= most:
            s, useful = fn(h)
            if s == 0:
                out.update(NAMES.index(x) for x in useful)
    return sorted(out)


def take_meld(rng, wall):
    # a random chow or pung from the wall, removed from it; ("CHI", middle, 1) / ("PENG", t, 1)
    while True:
        t = rng.randrange(34)
        if rng.random() < 0.5:
            if t < 27 and 1 <= t % 9 <= 7 and all(x in wall for x in (t - 1, t, t + 1)):
                for x in (t - 1, t, t + 1):
                    wall.remove(x)
                return ("CHI", NAMES[t], 1)
        elif wall.count(t) >= 3:
            for _ in range(3):
                wall.remove(t)
            return ("PENG", NAMES[t], 1)


def random_hand(rng, melds, extra=0):
    wall = [t for t in range(34) for _ in range(4)]
    packs = tuple(take_meld(rng, wall) for _ in range(melds))
    rng.shuffle(wall)
    counts = bytearray(34)
    for t in wall[: 13 - 3 * melds + extra]:
        counts[t] += 1
    return packs, counts


def compare_shanten(packs, counts, melds, diffs):
    h = names(counts)
    ref = M.MahjongShanten(packs, h)
    ours = shanten(counts, melds)
    if ref != ours:
        diffs.append(("total", packs, h, ref, ours))
    for shape, fn, most in SHAPES:
        s = shape_shanten(counts, melds, shape)
        if melds > most:
            if s is not None:
                diffs.append(("shape allowed", shape, packs, h, s))
        elif fn(h)[0] != s:
            diffs.append(("shape", shape, packs, h, fn(h)[0], s))
    return ours


def test_random_hands_shanten():
    # 6000 concealed 13-tile hands, 2000 each with 1 and 2 melds, 500 each with 3 and 4
    rng = random.Random(20240601)
    diffs = []
    seen = {}
    for melds, n in ((0, 6000), (1, 2000), (2, 2000), (3, 500), (4, 500)):
        for _ in range(n):
            packs, counts = random_hand(rng, melds)
            s = compare_shanten(packs, counts, melds, diffs)
            seen[s] = seen.get(s, 0) + 1
    assert not diffs, diffs[:10]
    assert sum(seen.values()) == 11000
    assert seen[0] > 500 and seen.get(4, 0) > 1000  # a spread of shanten values was checked


def test_random_hands_waits():
    # every 13 - 3*melds tile hand's waits, candidate by candidate through the fan calculator
    # (random hands with few melds are seldom ready: test_random_ready_hands covers those)
    rng = random.Random(77)
    diffs = []
    ready = 0
    for i in range(3000):
        melds = (0, 0, 1, 2, 3, 4)[i % 6]
        packs, counts = random_hand(rng, melds)
        w = waits(counts, melds)
        ref = ref_waits(packs, counts)
        if w != ref or bool(w) != (shanten(counts, melds) == 0):
            diffs.append((packs, names(counts), w, ref))
        ready += bool(w)
    assert not diffs, diffs[:10]
    assert ready > 500


def random_set(rng, avail):
    while True:
        t = rng.randrange(34)
        if rng.random() < 0.6:
            if t < 27 and t % 9 <= 6 and avail[t] and avail[t + 1] and avail[t + 2]:
                for x in (t, t + 1, t + 2):
                    avail[x] -= 1
                return ("CHI", t + 1)
        elif avail[t] >= 3:
            avail[t] -= 3
            return ("PENG", t)


def add_set(counts, st):
    if st[0] == "CHI":
        for x in (st[1] - 1, st[1], st[1] + 1):
            counts[x] += 1
    else:
        counts[st[1]] += 3


def add_pair(rng, counts, avail):
    while True:
        t = rng.randrange(34)
        if avail[t] >= 2:
            avail[t] -= 2
            counts[t] += 2
            return


def random_win(rng):
    # (shape, packs, melds, 14 - 3*melds concealed tiles) for a random winning hand
    avail = [4] * 34
    counts = bytearray(34)
    packs = []
    shape = rng.choice(("regular",) * 6 + ("seven pairs", "orphans", "knitted tiles", "knitted straight"))
    if shape == "regular":
        melds = rng.choice((0, 0, 0, 1, 2, 3, 4))
        for i in range(4):
            st = random_set(rng, avail)
            if i < melds:
                packs.append((st[0], NAMES[st[1]], 1))
            else:
                add_set(counts, st)
        add_pair(rng, counts, avail)
    elif shape == "seven pairs":  # a four of a kind now and then
        melds = 0
        n = 0
        while n < 7:
            t = rng.randrange(34)
            if counts[t] == 0 or (counts[t] == 2 and rng.random() < 0.3):
                counts[t] += 2
                n += 1
    elif shape == "orphans":
        melds = 0
        for t in ORPHANS:
            counts[t] += 1
        counts[rng.choice(ORPHANS)] += 1
    elif shape == "knitted tiles":
        melds = 0
        for t in rng.sample(rng.choice(KNITTED) + list(range(27, 34)), 14):
            counts[t] += 1
    else:
        for t in rng.choice(KNITTED):
            counts[t] += 1
            avail[t] -= 1
        melds = rng.choice((0, 1))
        st = random_set(rng, avail)
        if melds:
            packs.append((st[0], NAMES[st[1]], 1))
        else:
            add_set(counts, st)
        add_pair(rng, counts, avail)
    return shape, tuple(packs), melds, counts


def test_random_ready_hands():
    # 5000 winning hands of every shape; each minus one random tile is a ready hand
    rng = random.Random(4242)
    diffs = []
    shapes = {}
    multi = 0
    for _ in range(5000):
        shape, packs, melds, full = random_win(rng)
        shapes[shape] = shapes.get(shape, 0) + 1
        assert sum(full) == 14 - 3 * melds
        if not is_complete(full, melds) or shanten(full, melds) != -1:
            diffs.append(("complete", shape, packs, names(full)))
        r = rng.choice([t for t in range(34) for _ in range(full[t])])
        if not fan_wins(packs, full_minus(full, r), r):
            diffs.append(("reference says no win", shape, packs, names(full)))
        counts = full_minus(full, r)
        h = names(counts)
        if M.MahjongShanten(packs, h) != 0 or shanten(counts, melds) != 0:
            diffs.append(("ready", shape, packs, h, M.MahjongShanten(packs, h), shanten(counts, melds)))
        w = waits(counts, melds)
        if r not in w or w != ref_waits(packs, counts) or w != ref_useful_waits(counts, melds):
            diffs.append(("waits", shape, packs, h, w, ref_waits(packs, counts)))
        multi += len(w) > 1
        compare_shanten(packs, counts, melds, diffs)
    assert not diffs, diffs[:10]
    assert min(shapes.values()) > 300, shapes
    assert multi > 1000


def full_minus(full, t):
    c = bytearray(full)
    c[t] -= 1
    return c


def test_dense_single_suit_hands():
    # Hands drawn from one suit (sometimes with a few winds): many ready hands with long wait
    # lists, fours of a kind, and waits on a tile the hand holds four of.
    rng = random.Random(31337)
    diffs = []
    ready = held_four_waits = 0
    for i in range(3000):
        melds = (0, 0, 1, 2, 3)[i % 5]
        pool = list(range(9, 18)) + ([27, 28, 29] if i % 3 == 0 else [])
        counts = bytearray(34)
        while sum(counts) < 13 - 3 * melds:
            t = rng.choice(pool)
            if counts[t] < 4:
                counts[t] += 1
        packs = tuple(("PENG", NAMES[t], 1) for t in rng.sample(range(18, 27), melds))
        compare_shanten(packs, counts, melds, diffs)
        w = waits(counts, melds)
        if w != ref_waits(packs, counts) or bool(w) != (shanten(counts, melds) == 0):
            diffs.append(("waits", packs, names(counts), w, ref_waits(packs, counts)))
        if w and w != ref_useful_waits(counts, melds):
            diffs.append(("useful", packs, names(counts), w, ref_useful_waits(counts, melds)))
        ready += bool(w)
        held_four_waits += any(counts[t] == 4 for t in w)
    assert not diffs, diffs[:10]
    assert ready > 500 and held_four_waits > 20


def test_fourteen_tile_hands():
    # A 14 - 3*melds tile hand: -1 if complete, else the best shanten after one discard
    # (reference on each discard). is_complete against the fan calculator.
    rng = random.Random(99)
    diffs = []
    complete = 0
    for i in range(2000):
        melds = (0, 0, 1, 2)[i % 4]
        if i % 4 == 3:
            _shape, packs, melds, counts = random_win(rng)
        else:
            packs, counts = random_hand(rng, melds, 1)
        tiles = [t for t in range(34) if counts[t]]
        win = any(fan_wins(packs, full_minus(counts, t), t) for t in tiles)
        if is_complete(counts, melds) != win:
            diffs.append(("complete", packs, names(counts), win))
        want = -1 if win else min(M.MahjongShanten(packs, names(full_minus(counts, t))) for t in tiles)
        if shanten(counts, melds) != want:
            diffs.append(("shanten", packs, names(counts), want, shanten(counts, melds)))
        complete += win
    assert not diffs, diffs[:10]
    assert complete > 400


def test_shanten_is_a_distance():
    # Independent of the formulas: a hand at shanten s >= 1 has a draw + discard reaching
    # s - 1 and none reaching less (reference shanten of the neighbours; draws may be a fifth
    # copy, as shanten is formal); a hand at shanten 0 has a winning tile (fan calculator).
    rng = random.Random(5)
    diffs = []
    for i in range(600):
        melds = (0, 1, 2)[i % 3]
        packs, counts = random_hand(rng, melds)
        s = shanten(counts, melds)
        if s == 0:
            if not ref_waits(packs, counts):
                diffs.append(("no win", names(counts)))
            continue
        best = 99
        for t in range(34):
            counts[t] += 1
            for d in range(34):
                if counts[d] and d != t:
                    counts[d] -= 1
                    best = min(best, M.MahjongShanten(packs, names(counts)))
                    counts[d] += 1
            counts[t] -= 1
        if best != s - 1:
            diffs.append(("step", packs, names(counts), s, best))
    assert not diffs, diffs[:10]


def compositions(n, parts):
    # every way to hold n tiles of one suit, each count 0..4
    if parts == 1:
        if n <= 4:
            yield (n,)
        return
    for a in range(min(4, n) + 1):
        for rest in compositions(n - a, parts - 1):
            yield (a,) + rest


def test_one_suit_systematic():
    # One-suit hands, where the decomposition search branches most: every hand of 7, 4 and 1
    # tiles (melds 2, 3, 4) and every 8th hand of 13 and 10 tiles (melds 0, 1), in bamboo.
    # Regular shanten against RegularShanten, overall against MahjongShanten, and waits at
    # shanten 0 against the reference's useful tiles.
    diffs = []
    checked = ready = 0
    for melds, stride in ((0, 8), (1, 8), (2, 1), (3, 1), (4, 1)):
        for i, cs in enumerate(compositions(13 - 3 * melds, 9)):
            if i % stride:
                continue
            counts = bytearray(34)
            counts[9:18] = bytes(cs)
            h = names(counts)
            r = M.RegularShanten(h)[0]
            if shape_shanten(counts, melds, REGULAR) != r:
                diffs.append(("regular", melds, h, r, shape_shanten(counts, melds, REGULAR)))
            packs = tuple(("PENG", NAMES[18 + j], 1) for j in range(melds))
            s = shanten(counts, melds)
            if s != M.MahjongShanten(packs, h):
                diffs.append(("total", melds, h, M.MahjongShanten(packs, h), s))
            if s == 0:
                ready += 1
                if waits(counts, melds) != ref_useful_waits(counts, melds):
                    diffs.append(("waits", melds, h, waits(counts, melds), ref_useful_waits(counts, melds)))
            checked += 1
    assert not diffs, diffs[:10]
    assert checked == 93600 // 8 + 32211 // 8 + 1 + 6030 + 495 + 9 and ready > 3000
