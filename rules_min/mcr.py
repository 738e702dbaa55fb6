# Chinese Official (MCR) fan counting: every decomposition of the hand is scored and the best
# one kept (seed 001 §三.4 就高不就低). Rules cited as seed 000 §二.n (2016 supplement, binding)
# and seed 001 §三 (combination principles).
#
# score(p, ft): one win in (rules_min/win.py's Win), its fans out in the caller's table; the
# work is done in module buffers allocated once, so scoring allocates nothing.
from rules_min.tiles import const  # MicroPython's, or a stand-in on CPython

import sys

_heap_lock = None
if sys.implementation.name == "micropython":  # not on CPython: see tiles.py on `micropython`
    from micropython import heap_lock as _heap_lock, heap_unlock as _heap_unlock

from rules_min import mcr_shapes as sh
from rules_min.mcr_table import (
    POINTS, ORDER, EXCL, EXCL_AT, NUM_FANS,
    BIG_FOUR_WINDS, BIG_THREE_DRAGONS, ALL_GREEN, NINE_GATES, FOUR_KONGS, SEVEN_SHIFTED_PAIRS,
    THIRTEEN_ORPHANS, ALL_TERMINALS, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, ALL_HONORS,
    FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS, QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS,
    FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS, ALL_TERMINALS_AND_HONORS, SEVEN_PAIRS,
    GREATER_HONORS_KNITTED, ALL_EVEN_PUNGS, FULL_FLUSH, PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS,
    UPPER_TILES, MIDDLE_TILES, LOWER_TILES, PURE_STRAIGHT, THREE_SUITED_TERMINAL_CHOWS,
    PURE_SHIFTED_CHOWS, ALL_FIVE, TRIPLE_PUNG, THREE_CONCEALED_PUNGS, LESSER_HONORS_KNITTED,
    KNITTED_STRAIGHT, UPPER_FOUR, LOWER_FOUR, BIG_THREE_WINDS, MIXED_STRAIGHT, REVERSIBLE_TILES,
    MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS, CHICKEN_HAND, LAST_TILE_DRAW, LAST_TILE_CLAIM,
    OUT_WITH_REPLACEMENT, ROBBING_THE_KONG, ALL_PUNGS, HALF_FLUSH, MIXED_SHIFTED_CHOWS, ALL_TYPES,
    MELDED_HAND, TWO_CONCEALED_KONGS, TWO_DRAGON_PUNGS, OUTSIDE_HAND, FULLY_CONCEALED,
    TWO_MELDED_KONGS, LAST_TILE, DRAGON_PUNG, PREVALENT_WIND, SEAT_WIND, CONCEALED_HAND, ALL_CHOWS,
    TILE_HOG, DOUBLE_PUNG, TWO_CONCEALED_PUNGS, CONCEALED_KONG, ALL_SIMPLES, PURE_DOUBLE_CHOW,
    MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS, PUNG_OF_TERMINALS, MELDED_KONG,
    ONE_VOIDED_SUIT, NO_HONORS, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT, SELF_DRAWN,
    CONCEALED_AND_MELDED_KONG,
)

_CHOW = const(0)
_PUNG = const(1)
_KONG = const(2)
_KNIT = const(3)
_NONE = const(255)

# Per tile code: bit 0 = tile of 绿一色 (23468s, green dragon), bit 1 = tile of 推不倒
# (1234589p, 245689s, white dragon). Bytes, not int bitmaps: 34 bits would be a big int on a MCU.
_SHAPE_BITS = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # m
    b"\x00\x03\x01\x03\x02\x03\x00\x03\x02"  # s
    b"\x02\x02\x02\x02\x02\x00\x00\x02\x02"  # p
    b"\x00\x00\x00\x00\x00\x01\x02"  # E S W N C F P
)

# Per tile code, two bytes (little-endian) for _tile_census to or/and over the tiles held:
# bits 0-8 its rank (suited), 9-11 its suit m s p, 12 wind, 13 dragon, 14 and 15 _SHAPE_BITS.
_TILE_BITS = bytearray(68)
for _t in range(34):
    _f = ((1 << _t % 9 | 512 << _t // 9 if _t < 27 else (0x1000 if _t < 31 else 0x2000))
          | _SHAPE_BITS[_t] << 14)
    _TILE_BITS[2 * _t] = _f & 255
    _TILE_BITS[2 * _t + 1] = _f >> 8
_TILE_BITS = bytes(_TILE_BITS)

# Fans that seven pairs may add (seed 000 §二.2); everything else is dropped for that shape.
_PAIRS_MAY_ADD = bytearray(NUM_FANS)
for _f in bytes((
    ALL_GREEN, ALL_TERMINALS, ALL_HONORS, ALL_TERMINALS_AND_HONORS, FULL_FLUSH, UPPER_TILES,
    MIDDLE_TILES, LOWER_TILES, UPPER_FOUR, LOWER_FOUR, REVERSIBLE_TILES, LAST_TILE_DRAW,
    LAST_TILE_CLAIM, HALF_FLUSH, ALL_TYPES, TILE_HOG, ALL_SIMPLES, ONE_VOIDED_SUIT, NO_HONORS,
    SELF_DRAWN, SEVEN_PAIRS, SEVEN_SHIFTED_PAIRS,
)):
    _PAIRS_MAY_ADD[_f] = 1

# Working state, allocated once.
_kinds = bytearray(5)
_tiles = bytearray(5)
_open = bytearray(5)   # set i was claimed (melded); concealed kongs and hand sets are 0
_base = bytearray(NUM_FANS)  # fans that do not depend on the decomposition
_cur = bytearray(NUM_FANS)
_best = bytearray(NUM_FANS)
_alt = bytearray(NUM_FANS)   # a tied split that the tie rule may still prefer
_work = bytearray(34)
_full = bytearray(34)  # the concealed tiles, untouched while decompositions are searched
_ch = bytearray(4)
_pg = bytearray(4)
_mark = bytearray(NUM_FANS + 1)  # see _exclude_total
_ZERO = bytes(NUM_FANS)
_ZERO1 = bytes(NUM_FANS + 1)

# Per-hand facts the decomposition callback reads (module globals: no closure allocation).
_g_win = 0
_g_self = False
_g_nmelds = 0
_g_nopen = 0
_g_seat = 27
_g_prev = 27
_g_best_total = -1
_g_best_key = 0
_g_alt_key = -1
_g_pairs_tie = False
_g_unique = -1   # -1 unknown, 0 several waits, 1 the winning tile is the only wait
_g_nm = 0        # melds of the hand (_g_nmelds is larger while a knitted straight is scored)


# ---- kernels: loops over counts and fans (native twins in mcr_viper.py: change both) ----

def _exclude_total(ft, mark):
    # Drop the fans that a present fan rules out (不计), higher points first, and return the
    # points left. One pass in ORDER: a fan is ruled out only by fans before it in ORDER except
    # 一色三节高 / 一色三同顺, which rule out each other, so when the later one is reached the
    # earlier one is absent or has already ruled it out. mark[f] holds the number of the pass
    # that ruled f out (kept in mark[NUM_FANS]), so it never needs clearing.
    g = mark[NUM_FANS] + 1
    if g > 255:
        g = 1
        mark[:] = _ZERO1
    mark[NUM_FANS] = g
    tot = 0
    for f in ORDER:
        n = ft[f]
        if n:
            if mark[f] == g:
                ft[f] = 0
            else:
                tot += POINTS[f] * n
                for k in range(EXCL_AT[f], EXCL_AT[f + 1]):
                    mark[EXCL[k]] = g
    return tot


def fans_in_order(ft, out):
    """The fans present in ft into out (bytearray(NUM_FANS)), in ORDER (points descending);
    returns how many."""
    n = 0
    for f in ORDER:
        if ft[f]:
            out[n] = f
            n += 1
    return n


def _tile_census(allc, bits):
    # Over the tiles held: their _TILE_BITS or-ed (bits 0-13), and-ed (bits 14, 15), and
    # how many are held four times (bits 16 up).
    held = 0
    every = 0xC000
    hog = 0
    for t in range(34):
        x = allc[t]
        if x:
            w = bits[2 * t] | bits[2 * t + 1] << 8
            held |= w
            every &= w
            if x == 4:
                hog += 1
    return (held & 0x3FFF) | (every & 0xC000) | hog << 16


def _unique_wait():
    # Seed 000 §二.10: edge/closed/single count only when the hand formally waits on one tile,
    # tiles of which all four are in sight included.
    global _g_unique
    if _g_unique < 0:
        c = _full
        win = _g_win
        c[win] -= 1
        other = sh.other_wait(c, win, _g_nm)
        c[win] += 1
        _g_unique = 0 if other else 1
    return _g_unique


# ---- chow and pung combinations (seed 001 §三.2-.5) ----

def _mixed(a, b, c):
    # three sets in three different suits: 1 same rank, 2 ranks in a row, 3 ranks 1-4-7 (as
    # lowest tiles), 0 none of these; -1 when the suits are not all different
    if a >= 27 or b >= 27 or c >= 27:
        return -1
    sa = a // 9
    sb = b // 9
    sc = c // 9
    if sa == sb or sb == sc or sa == sc:
        return -1
    a %= 9
    b %= 9
    c %= 9
    if a == b == c:
        return 1
    lo = min(a, b, c)
    hi = max(a, b, c)
    mid = a + b + c - lo - hi
    if mid == lo + 1 and hi == lo + 2:
        return 2
    if lo == 0 and mid == 3 and hi == 6:
        return 3
    return 0


def _chow3(a, b, c):
    # a <= b <= c
    if a // 9 == b // 9 == c // 9:
        if a == b == c:
            return PURE_TRIPLE_CHOW
        if b - a == c - b and (b - a == 1 or b - a == 2):
            return PURE_SHIFTED_CHOWS
        if b - a == 3 and c - b == 3:
            return PURE_STRAIGHT
        return _NONE
    m = _mixed(a, b, c)
    if m == 1:
        return MIXED_TRIPLE_CHOW
    if m == 2:
        return MIXED_SHIFTED_CHOWS
    if m == 3:
        return MIXED_STRAIGHT
    return _NONE


def _pung3(a, b, c):
    if c < 27 and a // 9 == b // 9 == c // 9:
        return PURE_SHIFTED_PUNGS if b == a + 1 and c == b + 1 else _NONE
    m = _mixed(a, b, c)
    if m == 1:
        return TRIPLE_PUNG
    if m == 2:
        return MIXED_SHIFTED_PUNGS
    return _NONE


# Two-set fans of the pairs of sets, in the order (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) of the
# sorted sets (fewer sets: the first pairs of that order that exist). _WITH[3*s..3*s+2]: the
# pairs of four sets that hold set s.
_PF = bytearray(6)
_WITH = b"\x00\x01\x02\x00\x03\x04\x01\x03\x05\x02\x04\x05"


def _pair_fans(v, n, chows):
    # _PF for the n sorted sets v (lowest tiles of chows, or pung tiles); returns how many
    # pairs have a fan
    k = 0
    hits = 0
    for i in range(n - 1):
        a = v[i]
        for j in range(i + 1, n):
            b = v[j]
            f = _NONE
            if a // 9 == b // 9:
                if chows:
                    if a == b:
                        f = PURE_DOUBLE_CHOW
                    elif b - a == 3:
                        f = SHORT_STRAIGHT
                    elif b - a == 6:
                        f = TWO_TERMINAL_CHOWS
            elif a % 9 == b % 9 and b < 27:
                f = MIXED_DOUBLE_CHOW if chows else DOUBLE_PUNG
            _PF[k] = f
            if f != _NONE:
                hits += 1
            k += 1
    return hits


def _two_set_fans(ft, npairs, limit):
    # No fan of three or four sets: every pair of sets may score its two-set fan (_PF), but
    # 套算一次 (seed 001 §三.5) allows at most `limit` of them; the surplus is cut from the most
    # repeated label first, 老少副 before 连六 before 喜相逢 before 一般高 (不得相同, §三.3).
    cnt = 0
    for k in range(npairs):
        f = _PF[k]
        if f != _NONE:
            ft[f] += 1
            cnt += 1
    keep = 1
    while cnt > limit and keep >= 0:
        f = TWO_TERMINAL_CHOWS
        while cnt > limit and f >= PURE_DOUBLE_CHOW:
            while ft[f] > keep and cnt > limit:
                ft[f] -= 1
                cnt -= 1
            f -= 1
        keep -= 1


def _combos(ft, v, n, chows):
    # Fans of combinations of the n sorted chows (or pungs) v (seed 001 §三.2-.5).
    if n < 2:
        return
    hits = _pair_fans(v, n, chows)
    if n == 4:
        f = _chow4(v) if chows else _pung4(v)
        if f != _NONE:
            ft[f] += 1
            return
        # a fan of three sets; the fourth set then combines once more (套算一次)
        bestf = _NONE
        bestx = _NONE
        bestp = -1
        for skip in (3, 2, 1, 0):
            a = v[0] if skip else v[1]
            b = v[1] if skip > 1 else v[2]
            c = v[3] if skip < 3 else v[2]
            f = _chow3(a, b, c) if chows else _pung3(a, b, c)
            if f == _NONE or POINTS[f] <= bestp:
                continue
            bestp = POINTS[f]
            bestf = f
            # lowest id first: 一般高, 喜相逢, 连六, 老少副
            bestx = min(_PF[_WITH[3 * skip]], _PF[_WITH[3 * skip + 1]], _PF[_WITH[3 * skip + 2]])
        if bestf != _NONE:
            ft[bestf] += 1
            if bestx != _NONE:
                ft[bestx] += 1
            return
        if chows:
            if hits:
                # sets that make a two-set fan with none of the others do not count
                iso = 0
                for s in range(4):
                    if (_PF[_WITH[3 * s]] == _NONE and _PF[_WITH[3 * s + 1]] == _NONE
                            and _PF[_WITH[3 * s + 2]] == _NONE):
                        iso += 1
                if iso < 3:
                    _two_set_fans(ft, 6, 3 - iso)
            return
    elif n == 3:
        f = _chow3(v[0], v[1], v[2]) if chows else _pung3(v[0], v[1], v[2])
        if f != _NONE:
            ft[f] += 1
            return
    if hits:
        # pungs: every pair counts (two 双同刻 at most); chows: at most n - 1
        _two_set_fans(ft, n * (n - 1) // 2, n - 1 if chows else 6)


def _chow4(v):
    a = v[0]
    d = v[3]
    if a // 9 == d // 9:
        if a == d:
            return QUADRUPLE_CHOW
        s = v[1] - a
        if (s == 1 or s == 2) and v[2] - v[1] == s and d - v[2] == s:
            return FOUR_PURE_SHIFTED_CHOWS
    return _NONE


def _pung4(v):
    a = v[0]
    d = v[3]
    if d < 27 and a // 9 == d // 9 and d - a == 3:
        return FOUR_PURE_SHIFTED_PUNGS
    return _NONE


def _sort4(v, n):
    for i in range(1, n):
        x = v[i]
        j = i - 1
        while j >= 0 and v[j] > x:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = x


def _terminal_chows(ft, pair):
    # 一色双龙会 / 三色双龙会: 123 and 789 chows twice and a pair of 5s (four chows, pair 5)
    lo = 0  # 2 bits a suit: how many 123 chows
    hi = 0  # same for 789
    for i in range(4):
        r = _ch[i] % 9
        sh2 = _ch[i] // 9 * 2
        if r == 0:
            lo += 1 << sh2
        elif r == 6:
            hi += 1 << sh2
        else:
            return False
    if lo != hi:
        return False
    ps = pair // 9 * 2
    if lo == 2 << ps:
        ft[PURE_TERMINAL_CHOWS] = 1
        return True
    if lo & (3 << ps) == 0 and lo in (0b000101, 0b010001, 0b010100):
        ft[THREE_SUITED_TERMINAL_CHOWS] = 1
        return True
    return False


# ---- one decomposition ----

def _eval():
    """Fans of the decomposition in _kinds/_tiles/_open (sets 0..3, pair in _tiles[4]) into
    _cur; returns the total."""
    ft = _cur
    ft[:] = _base
    win = _g_win
    self_drawn = _g_self
    pair = _tiles[4]
    first = _g_nmelds
    # Where the winning tile sits in the concealed chows: bit 0 at an end, bit 1 in the middle
    # (bit 2, the pair, below). A discarded winning tile that fits no concealed chow completed
    # a pung: that pung counts as claimed (seed 001 §三 明杠 note).
    pos = 0
    for i in range(first, 4):
        t = _tiles[i]
        if _kinds[i] == _CHOW and win // 9 == t // 9:
            if win == t + 1:
                pos |= 2
            elif win == t or win == t + 2:
                pos |= 1
    in_chow = pos != 0
    nchow = 0
    npung = 0
    nknit = 0
    cp = 0   # concealed pungs, concealed kongs included
    mk = 0
    ck = 0
    wind_p = 0
    drag_p = 0
    yj = 0   # 幺九刻 candidates
    outside = pair >= 27 or pair % 9 in (0, 8)
    five = pair < 27 and pair % 9 == 4
    even = pair < 27 and pair % 9 % 2 == 1
    for i in range(4):
        k = _kinds[i]
        t = _tiles[i]
        if k == _KNIT:
            nknit += 1
            outside = False
            five = False
            even = False
            continue
        if k == _CHOW:
            _ch[nchow] = t
            nchow += 1
            r = t % 9
            if r != 0 and r != 6:
                outside = False
            if r < 2 or r > 4:
                five = False
            even = False
            continue
        _pg[npung] = t
        npung += 1
        if k == _KONG:
            if _open[i]:
                mk += 1
            else:
                ck += 1
                cp += 1
        elif not _open[i] and not (i >= first and t == win and not self_drawn and not in_chow):
            cp += 1
        if t >= 27:
            five = False
            even = False
            if t >= 31:
                drag_p += 1
            else:
                wind_p += 1
                if t != _g_seat and t != _g_prev:
                    yj += 1
                if t == _g_seat:
                    ft[SEAT_WIND] += 1
                if t == _g_prev:
                    ft[PREVALENT_WIND] += 1
        else:
            r = t % 9
            if r == 0 or r == 8:
                yj += 1
            else:
                outside = False
            if r != 4:
                five = False
            if r % 2 == 0:
                even = False

    # winds and dragons (seed 000 §二.7: the pungs inside these fans are no 幺九刻)
    if wind_p == 4:
        ft[BIG_FOUR_WINDS] = 1
    elif wind_p == 3:
        if 27 <= pair <= 30:
            ft[LITTLE_FOUR_WINDS] = 1
        else:
            ft[BIG_THREE_WINDS] = 1
    if wind_p >= 3:
        for i in range(npung):
            t = _pg[i]
            if 27 <= t <= 30 and t != _g_seat and t != _g_prev:
                yj -= 1
    if drag_p == 3:
        ft[BIG_THREE_DRAGONS] = 1
    elif drag_p == 2:
        if pair >= 31:
            ft[LITTLE_THREE_DRAGONS] = 1
        else:
            ft[TWO_DRAGON_PUNGS] = 1
    elif drag_p == 1:
        ft[DRAGON_PUNG] = 1
    if ft[ALL_TERMINALS] or ft[ALL_HONORS] or ft[ALL_TERMINALS_AND_HONORS]:
        yj = 0
    if ft[NINE_GATES] and yj:
        yj -= 1   # seed 000 §二.11
    if yj > 0:
        ft[PUNG_OF_TERMINALS] = yj

    # kongs and concealed pungs: one fan of each family (seed 000 §二.4-5)
    nk = mk + ck
    if nk == 4:
        ft[FOUR_KONGS] = 1
    elif nk == 3:
        ft[THREE_KONGS] = 1
    elif nk == 2:
        if ck == 2:
            ft[TWO_CONCEALED_KONGS] = 1
        elif ck == 1:
            ft[CONCEALED_AND_MELDED_KONG] = 1
        else:
            ft[TWO_MELDED_KONGS] = 1
    elif nk == 1:
        ft[CONCEALED_KONG if ck else MELDED_KONG] = 1
    if cp == 4:
        ft[FOUR_CONCEALED_PUNGS] = 1
    elif cp == 3:
        ft[THREE_CONCEALED_PUNGS] = 1
    elif cp == 2:
        ft[TWO_CONCEALED_PUNGS] = 1

    if npung == 4:
        ft[ALL_PUNGS] = 1
        if even:
            ft[ALL_EVEN_PUNGS] = 1
    if nchow + nknit == 4 and pair < 27:
        ft[ALL_CHOWS] = 1   # seed 000 §二.9: also with a knitted straight
    if outside and nknit == 0:
        ft[OUTSIDE_HAND] = 1
    if five and nknit == 0:
        ft[ALL_FIVE] = 1

    if nknit:
        ft[KNITTED_STRAIGHT] = 1

    # combinations of chows and of pungs
    if not (nchow == 4 and pair < 27 and pair % 9 == 4 and _terminal_chows(ft, pair)):
        if nchow > 1:
            _sort4(_ch, nchow)
            _combos(ft, _ch, nchow, True)
    if npung > 1:
        _sort4(_pg, npung)
        _combos(ft, _pg, npung, False)

    # concealment
    if _g_nopen == 0:
        ft[FULLY_CONCEALED if self_drawn else CONCEALED_HAND] = 1
    elif _g_nopen == 4 and not self_drawn:
        ft[MELDED_HAND] = 1

    # the wait (seed 000 §二.9-10): only for a unique wait; one of the three, edge first
    if pair == win:
        pos |= 4
    if pos and not ft[FOUR_KONGS] and _unique_wait():
        if pos & 1:
            ft[EDGE_WAIT] = 1
        elif pos & 2:
            ft[CLOSED_WAIT] = 1
        else:
            ft[SINGLE_WAIT] = 1
    if ft[MELDED_HAND]:
        ft[SINGLE_WAIT] = 0

    tot = _exclude_total(ft, _mark)
    if tot == 0:
        ft[CHICKEN_HAND] = 1
        tot = 8
    return tot


def _key():
    # Order in which the reference calculator meets this split: its concealed sets sorted,
    # a pung before a chow of the same tile, compared as a number.
    k = 0
    for i in range(_g_nmelds, 4):
        k = k * 68 + _tiles[i] * 2 + (_kinds[i] == _CHOW)
    return k


def _keep(tot):
    # 就高不就低 (seed 001 §三.4) picks the highest total. Equal totals are left open by the
    # seeds, so they go as in the reference calculator: the first split in its order (_key),
    # unless a later one has 一色三同顺 or 三同刻, or seven pairs tied: then the last such one.
    global _g_best_total, _g_best_key, _g_alt_key
    key = _key()
    cond = _cur[PURE_TRIPLE_CHOW] or _cur[TRIPLE_PUNG] or _g_pairs_tie
    if tot > _g_best_total:
        _g_best_total = tot
        _g_best_key = key
        _copy(_best, _cur)
        _g_alt_key = key if cond else -1
        if cond:
            _copy(_alt, _cur)
        return
    if tot == _g_best_total:
        if key < _g_best_key:
            _g_best_key = key
            _copy(_best, _cur)
        if cond and key > _g_alt_key:
            _g_alt_key = key
            _copy(_alt, _cur)


def _copy(dst, src):
    dst[:] = src


def _on_split():
    _keep(_eval())


def _tile_fans(ft, allc, p, kong):
    # Fans fixed by which tiles the hand holds and by the win flags.
    melds = p.melds
    counts = p.counts
    win = p.tile
    self_drawn = p.self_drawn
    held = _tile_census(allc, _TILE_BITS)
    every = held & 0xC000   # and-ed: green, reversible
    hog = held >> 16        # 四归一: four of a tile that are not a kong
    ranks = held & 0x1FF
    suits = held >> 9 & 7
    honours = held & 0x3000
    nsuits = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1)
    if every & 0x4000:
        ft[ALL_GREEN] = 1
    if nsuits == 0:
        ft[ALL_HONORS] = 1
    elif ranks & 0xFE == 0:  # terminals and honours only
        if honours:
            ft[ALL_TERMINALS_AND_HONORS] = 1
        else:
            ft[ALL_TERMINALS] = 1
    if nsuits == 1:
        ft[FULL_FLUSH if honours == 0 else HALF_FLUSH] = 1
    elif nsuits == 2:
        ft[ONE_VOIDED_SUIT] = 1
    elif nsuits == 3 and held & 0x1000 and held & 0x2000:
        ft[ALL_TYPES] = 1
    if honours == 0:
        ft[NO_HONORS] = 1
        if ranks & 0x3F == 0:      # 7-9 only
            ft[UPPER_TILES] = 1
        elif ranks & 0x1F == 0:    # 6-9
            ft[UPPER_FOUR] = 1
        if ranks & 0x1F8 == 0:     # 1-3
            ft[LOWER_TILES] = 1
        elif ranks & 0x1F0 == 0:   # 1-4
            ft[LOWER_FOUR] = 1
        if ranks & 0x1C7 == 0:     # 4-6
            ft[MIDDLE_TILES] = 1
        if ranks & 0x101 == 0:
            ft[ALL_SIMPLES] = 1
    if every & 0x8000:
        ft[REVERSIBLE_TILES] = 1
    for i in range(0, len(melds), 3):
        if melds[i] == _KONG:
            hog -= 1
    if hog:
        ft[TILE_HOG] = hog
    # 九莲宝灯: the 13 tiles before the winning one are 1112345678999 of one suit
    if not melds and win < 27:
        b = win // 9 * 9
        counts[win] -= 1
        nine = True
        for r in range(9):
            if counts[b + r] != (3 if r == 0 or r == 8 else 1):
                nine = False
                break
        counts[win] += 1
        if nine:
            ft[NINE_GATES] = 1
    if self_drawn:
        ft[SELF_DRAWN] = 1
    if p.last_tile:
        ft[LAST_TILE_DRAW if self_drawn else LAST_TILE_CLAIM] = 1
    if kong:
        ft[OUT_WITH_REPLACEMENT if self_drawn else ROBBING_THE_KONG] = 1
    # 和绝张: declared, or the three other copies lie in the hand's own melds
    inmelds = allc[win] - counts[win]
    if (p.last_of_kind and counts[win] == 1) or inmelds == 3:
        ft[LAST_TILE] = 1


def check_flags(p):
    """Refuse flags the tiles of the win p make impossible; returns an error message or None."""
    melds = p.melds
    counts = p.counts
    win = p.tile
    self_drawn = p.self_drawn
    kong = p.kong
    held = 0
    for i in range(0, len(melds), 3):
        k = melds[i]
        t = melds[i + 1]
        if k == _CHOW:
            if t <= win <= t + 2 and win // 9 == t // 9:
                held += 1
        elif t == win:
            held += 4 if k == _KONG else 3
    if kong and not self_drawn and (held or counts[win] > 1):
        return "robbing a kong: the hand holds another copy of the winning tile"
    if kong and self_drawn:
        for i in range(0, len(melds), 3):
            if melds[i] == _KONG:
                break
        else:
            return "out on a replacement tile needs a kong in the hand"
    if p.last_of_kind and counts[win] > 1 and held < 3:
        return "last of its kind: the hand holds another copy of the winning tile"
    return None


def score(p, ft):
    """The best fans of the win p (rules_min/win.py's Win, its hand as notation.parse gives it)
    into ft, the caller's bytearray(NUM_FANS): one count per fan id. Returns their points,
    flowers not counted, or -1 (ft all zeros) when the tiles are no winning hand. Allocates
    nothing: tests/core/test_speed.py and bench/pico_score.py run it with the heap locked."""
    if _heap_lock is None:
        total = _score(p)
    else:
        # With the heap locked MicroPython puts every call's frame on the C stack (a frame over
        # 11 words is otherwise taken from the heap and given back: ~10% of the time on the
        # Pico). The scorer allocates nothing else (bench/pico_score.py runs every corpus hand
        # locked); should it ever, the MemoryError is caught and the hand scored unlocked.
        total = None
        _heap_lock()
        try:
            total = _score(p)
        except MemoryError:
            pass
        finally:
            _heap_unlock()
        if total is None:
            total = _score(p)
    if total < 0:
        ft[:] = _ZERO
    else:
        ft[:] = _alt if _g_alt_key > _g_best_key else _best
    return total


def _score(p):
    # score() into _best (or _alt, see _keep): returns the total, -1 for no win
    global _g_win, _g_self, _g_nmelds, _g_nopen, _g_seat, _g_prev, _g_best_total, _g_unique
    global _g_nm, _g_alt_key, _g_best_key, _g_pairs_tie
    melds = p.melds
    counts = p.counts
    nm = len(melds) // 3
    allc = _work
    nopen = 0
    allc[:] = counts
    for i in range(nm):
        k = melds[3 * i]
        t = melds[3 * i + 1]
        o = melds[3 * i + 2]
        _kinds[i] = k
        _tiles[i] = t
        _open[i] = 0 if (k == _KONG and o == 0) else 1
        nopen += _open[i]
        if k == _CHOW:
            allc[t] += 1
            allc[t + 1] += 1
            allc[t + 2] += 1
        else:
            allc[t] += 4 if k == _KONG else 3
    for i in range(nm, 5):
        _open[i] = 0
    _g_win = p.tile
    _g_self = bool(p.self_drawn)
    _g_nmelds = nm
    _g_nopen = nopen
    _g_seat = p.seat_wind
    _g_prev = p.prevalent_wind
    _g_best_total = -1
    _g_unique = -1
    _g_nm = nm
    _full[:] = counts
    _base[:] = _ZERO
    _best[:] = _ZERO
    # seed 000 §二.14: out on a kong's replacement that was a flower is no 杠上开花
    _tile_fans(_base, allc, p, p.kong and not p.flower)
    if p.mixed:   # seed 000 §一.2.8: no 边张, 嵌张, 单钓 (as if several waits), 和绝张, 九莲宝灯
        _base[NINE_GATES] = 0
        _base[LAST_TILE] = 0
        _g_unique = 0

    _g_alt_key = -1
    _g_best_key = 0
    _g_pairs_tie = False
    special = -1  # total of seven pairs, which a regular split beats on a tie
    if nm == 0:
        if sh.seven_pairs(counts):
            special = _special(SEVEN_PAIRS)
            if _best[SEVEN_SHIFTED_PAIRS]:
                return special
            _g_pairs_tie = True
            _g_best_key = 0x3FFFFFFF  # any regular split that ties comes later and wins
        elif sh.thirteen_orphans(counts):
            return _special(THIRTEEN_ORPHANS)
        elif sh.honours_knitted(counts):
            return _special(LESSER_HONORS_KNITTED)
    _g_best_total = special

    sh.decompose(counts, nm, _kinds, _tiles, _on_split)

    if nm <= 1:
        k = sh.knitted_of(counts)
        if k >= 0:
            kt = sh.KNITTED[k]
            for t in kt:
                counts[t] -= 1
            if nm == 1:  # the claimed set goes after the knitted straight
                _kinds[3] = _kinds[0]
                _tiles[3] = _tiles[0]
                _open[3] = _open[0]
                _open[0] = 0
            for i in range(3):
                _kinds[i] = _KNIT
            _g_nmelds = 3 + nm
            sh.decompose(counts, 3 + nm, _kinds, _tiles, _on_split)
            _g_nmelds = nm
            for t in kt:
                counts[t] += 1

    return _g_best_total


def _special(shape):
    # Seven pairs, thirteen orphans, honours and knitted: fans of the shape, the tiles and the
    # win flags only (seed 000 §二.1-2). Written straight to _best.
    ft = _best
    for f in range(NUM_FANS):
        ft[f] = _base[f]
    c = _full
    if shape == SEVEN_PAIRS:
        ft[SEVEN_PAIRS] = 1
        for b in (0, 9, 18):
            for s in range(3):
                for r in range(7):
                    if c[b + s + r] != 2:
                        break
                else:
                    ft[SEVEN_SHIFTED_PAIRS] = 1
        for f in range(NUM_FANS):
            if ft[f] and not _PAIRS_MAY_ADD[f]:
                ft[f] = 0
    elif shape == THIRTEEN_ORPHANS:
        ft[THIRTEEN_ORPHANS] = 1
    else:
        honours = 0
        for t in range(27, 34):
            honours += c[t]
        ft[GREATER_HONORS_KNITTED if honours == 7 else LESSER_HONORS_KNITTED] = 1
        if sh.knitted_of(c) >= 0:
            ft[KNITTED_STRAIGHT] = 1
    tot = _exclude_total(ft, _mark)
    if tot == 0:
        ft[CHICKEN_HAND] = 1
        tot = 8
    return tot


# Native kernels where this board's build compiled them (see mcr_shapes.py's end).
_nv = sh._nv
if _nv is not None:
    _exclude_total = _nv.exclude_total
    _tile_census = _nv.tile_census
    fans_in_order = _nv.fans_in_order
