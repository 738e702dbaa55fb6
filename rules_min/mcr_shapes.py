# Winning shapes of a Chinese Official hand: decompositions into sets and a pair, and the
# special shapes (seven pairs, thirteen orphans, honours and knitted, knitted straight).
#
# Counts are bytearray(34) (tiles.py codes). Functions may change counts while they search but
# always restore them. A count of 5 is allowed: the formal wait test adds a tile the hand already
# holds four of (seed 000 §二.10 counts such waits).
#
# Sets are written to two bytearrays: kinds[i], tiles[i] for i = first..3, the pair in tiles[4].
import sys

from rules_min.tiles import const  # MicroPython's, or a stand-in on CPython

CHOW = const(0)
PUNG = const(1)
KONG = const(2)
KNIT = const(3)  # three "sets" made of a knitted straight 147/258/369 in three suits

# The six knitted straights: suit of 147, suit of 258, suit of 369.
KNITTED = (
    b"\x00\x03\x06\x0a\x0d\x10\x14\x17\x1a",  # m147 s258 p369
    b"\x00\x03\x06\x13\x16\x19\x0b\x0e\x11",  # m147 p258 s369
    b"\x09\x0c\x0f\x01\x04\x07\x14\x17\x1a",  # s147 m258 p369
    b"\x09\x0c\x0f\x13\x16\x19\x02\x05\x08",  # s147 p258 m369
    b"\x12\x15\x18\x01\x04\x07\x0b\x0e\x11",  # p147 m258 s369
    b"\x12\x15\x18\x0a\x0d\x10\x02\x05\x08",  # p147 s258 m369
)
ORPHANS = b"\x00\x08\x09\x11\x12\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21"
# KNIT_MASK[t]: bit k set when suited tile t belongs to KNITTED[k]
KNIT_MASK = bytearray(27)
_R = bytearray(4)  # tiles per group mod 3 (_mods)
for _k in range(6):
    for _t in KNITTED[_k]:
        KNIT_MASK[_t] |= 1 << _k


# decompose() state, in module globals so that the recursion's frames stay small (MicroPython
# puts a frame of up to 11 words on the C stack and allocates a bigger one on the heap).
_dc = None    # the counts being split
_dk = None    # kinds of the sets
_dt = None    # their tiles, the pair in [4]
_dcb = None   # called at every split
_dn = 0       # splits found


def _sets(i, t, nopung):
    # Fill sets i..3 from the tiles left in _dc, lowest tile first so each split is found once
    # (a pung at t is never tried after a chow at t: same sets, other order).
    global _dn
    if i == 4:
        _dn += 1
        _dcb()
        return
    c = _dc
    while c[t] == 0:
        t += 1
    if c[t] >= 3 and t != nopung:
        c[t] -= 3
        _dk[i] = PUNG
        _dt[i] = t
        _sets(i + 1, t, 255)
        c[t] += 3
    if t < 27 and t % 9 < 7 and c[t + 1] and c[t + 2]:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        _dk[i] = CHOW
        _dt[i] = t
        _sets(i + 1, t, t)
        c[t] += 1
        c[t + 1] += 1
        c[t + 2] += 1


def decompose(c, first, kinds, tiles, cb):
    """Call cb() for every split of c into sets first..3 plus a pair. c must hold 14 - 3*first
    tiles. Returns how many splits there were."""
    global _dc, _dk, _dt, _dcb, _dn
    g = _pair_group(c)
    if g < 0:
        return 0
    if g == 3:
        p = 27
        end = 34
        step = 1
    else:
        # the pair's rank is fixed mod 3 by the suit's rank sum (see _pair_sets)
        p = 9 * g + _pair_rank(c, 9 * g)
        end = 9 * g + 9
        step = 3
    _dc = c
    _dk = kinds
    _dt = tiles
    _dcb = cb
    _dn = 0
    while p < end:
        if c[p] >= 2:
            c[p] -= 2
            tiles[4] = p
            if first == 4:
                # only the pair was left: it is the whole rest when the count matches
                _dn += 1
                cb()
            else:
                _sets(first, 0, 255)
            c[p] += 2
        p += step
    _dc = _dk = _dt = _dcb = None
    return _dn


# ---- kernels: loops over the counts ----
# Every function of this section has a native twin in mcr_viper.py (same name, same results),
# which replaces it at the end of this module where that compiles for the board; these are the
# portable versions (CPython, the unix port, boards without MPY_ARCH). Change both together.
#
# A set lies in one suit (or the honours) and holds 0 tiles mod 3, so in a split of sets and
# one pair exactly one group holds 2 mod 3 tiles: the pair's. A suit without the pair splits
# into sets by a greedy pass (at the lowest rank left, count mod 3 chows must start there; three
# chows from one rank are three pungs). Each set's ranks sum to 0 mod 3, so the pair's rank p
# has 2p = the suit's rank sum mod 3: at most three ranks to try.

def _sets_only(c, b):
    # the suit at c[b..b+8] splits into sets
    s1 = 0  # chows begun one rank below
    s2 = 0  # chows begun two ranks below
    for t in range(b, b + 7):
        a = c[t] - s1 - s2
        if a < 0:
            return False
        s2 = s1
        s1 = a % 3
    a = c[b + 7] - s1 - s2
    if a < 0 or a % 3:
        return False
    a = c[b + 8] - s1
    return a >= 0 and a % 3 == 0


def _pair_rank(c, b):
    # the lowest rank (0..2) the pair of the suit at c[b..b+8] can have; then +3, +6
    w = 0
    for r in range(1, 9):
        w += r * c[b + r]
    return 2 * w % 3


def _pair_sets(c, b):
    # the suit at c[b..b+8] splits into sets and one pair
    p = b + _pair_rank(c, b)
    while p < b + 9:
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets_only(c, b)
            c[p] += 2
            if ok:
                return True
        p += 3
    return False


def _honours_ok(c, pairs):
    # the honours are pungs and `pairs` pairs (a count of 5 is a pung and a pair)
    n = 0
    for t in range(27, 34):
        x = c[t]
        if x == 2 or x == 5:
            n += 1
        elif x and x != 3:
            return False
    return n == pairs


def _group_ok(c, g, pair):
    # group g (0 m, 1 s, 2 p, 3 honours) splits into sets, with one pair if pair (0/1)
    if g == 3:
        return _honours_ok(c, pair)
    if pair:
        return _pair_sets(c, 9 * g)
    return _sets_only(c, 9 * g)


def _mods(c):
    # _R[g] = tiles of group g mod 3
    for g in range(3):
        n = 0
        for t in range(9 * g, 9 * g + 9):
            n += c[t]
        _R[g] = n % 3
    n = 0
    for t in range(27, 34):
        n += c[t]
    _R[3] = n % 3


def _pair_group(c):
    # The group that must hold the pair of a split of c (3n + 2 tiles) into sets and a pair,
    # or -1 when there is none: the counts mod 3 are wrong or a group without the pair is no
    # sets. The pair's own group is not checked here.
    _mods(c)
    pg = -1
    for g in range(4):
        m = _R[g]
        if m == 1:
            return -1
        if m == 2:
            if pg >= 0:
                return -1
            pg = g
    if pg < 0:
        return -1
    for g in range(4):
        if g != pg and not _group_ok(c, g, 0):
            return -1
    return pg


def _near(c, t):
    # t is held, or a suited tile within two ranks of a held one: only such a tile can join a
    # set or the pair
    if c[t]:
        return True
    if t >= 27:
        return False
    r = t % 9
    return bool((r > 0 and c[t - 1]) or (r > 1 and c[t - 2]) or (r < 8 and c[t + 1])
                or (r < 7 and c[t + 2]))


def _completes(c, g, skip, pair):
    # some tile of group g other than skip makes the group sets (with one pair if pair)
    t = 9 * g
    end = 34 if g == 3 else t + 9
    while t < end:
        if t != skip and _near(c, t):
            c[t] += 1
            ok = _group_ok(c, g, pair)
            c[t] -= 1
            if ok:
                return True
        t += 1
    return False


def _regular_wait(c, skip):
    # Some tile other than skip makes c (3n + 1 tiles) sets and a pair. The tile goes to a
    # group holding 1 mod 3 (which then has the pair), or, with two groups at 2 mod 3, to one of
    # them while the other has the pair; the groups at 0 mod 3 must be sets as they are.
    _mods(c)
    one = -1
    two = -1
    two2 = -1
    for g in range(4):
        m = _R[g]
        if m == 1:
            if one >= 0:
                return False
            one = g
        elif m == 2:
            if two2 >= 0:
                return False
            if two >= 0:
                two2 = g
            else:
                two = g
    for g in range(4):
        if _R[g] == 0 and not _group_ok(c, g, 0):
            return False
    if one >= 0:
        return two < 0 and _completes(c, one, skip, 1)
    if two2 < 0:
        return False
    return ((_group_ok(c, two2, 1) and _completes(c, two, skip, 0))
            or (_group_ok(c, two, 1) and _completes(c, two2, skip, 0)))


def _odd_tile(c):
    # the one tile held an odd number of times; -1 for none, 99 for several
    odd = -1
    for t in range(34):
        if c[t] & 1:
            if odd >= 0:
                return 99
            odd = t
    return odd


def seven_pairs(c):
    for t in range(34):
        if c[t] & 1:
            return False
    return True


def _orphan_count(c):
    # tiles held that are terminals or honours
    n = 0
    for t in ORPHANS:
        n += c[t]
    return n


def thirteen_orphans(c):
    pair = 0
    for t in ORPHANS:
        if c[t] == 0:
            return False
        if c[t] == 2:
            pair += 1
    return pair == 1


def knitted_of(c):
    # index into KNITTED of the knitted straight c holds in full, or -1
    for k in range(6):
        kt = KNITTED[k]
        for t in kt:
            if c[t] == 0:
                break
        else:
            return k
    return -1


def _knit_close(c):
    # bit k set when c holds all of KNITTED[k] but at most one tile
    mask = 0
    for k in range(6):
        miss = 0
        for t in KNITTED[k]:
            if c[t] == 0:
                miss += 1
        if miss <= 1:
            mask |= 1 << k
    return mask


def _knit_mask(c):
    # no tile twice: the knitted straights (KNIT_MASK bits) that hold every suited tile of c;
    # else 0
    mask = 0x3F
    for t in range(34):
        if c[t] > 1:
            return 0
        if c[t] and t < 27:
            mask &= KNIT_MASK[t]
    return mask


# ---- built on the kernels ----

def honours_knitted(c):
    # 全不靠: 14 different tiles, honours plus tiles of one knitted straight
    return _knit_mask(c) != 0


def regular(c, nsets):
    # nsets concealed sets plus a pair (c holds 3*nsets + 2 tiles)
    g = _pair_group(c)
    return g >= 0 and _group_ok(c, g, 1)


def _special_wait(c, skip, nmelds):
    # Some tile other than skip makes c (13 - 3*nmelds tiles) thirteen orphans, honours and
    # knitted (nmelds 0) or a knitted straight (nmelds <= 1).
    if nmelds == 0:
        if _orphan_count(c) == 13:
            for t in ORPHANS:
                if t != skip:
                    c[t] += 1
                    ok = thirteen_orphans(c)
                    c[t] -= 1
                    if ok:
                        return True
        # honours and knitted: 13 different tiles of honours and one knitted straight's;
        # any other tile of those completes it
        mask = _knit_mask(c)
        if mask:
            for t in range(34):
                if t != skip and not c[t] and (t >= 27 or KNIT_MASK[t] & mask):
                    return True
    close = _knit_close(c)
    for k in range(6):
        if not close >> k & 1:
            continue
        kt = KNITTED[k]
        miss = 255
        for t in kt:
            if c[t] == 0:
                if miss != 255:
                    miss = 254
                    break
                miss = t
        if miss == 254 or miss == skip:
            continue
        if miss != 255:
            c[miss] += 1
        for t in kt:
            c[t] -= 1
        if miss == 255:
            ok = _regular_wait(c, skip)
        else:
            ok = regular(c, 1 - nmelds)
        for t in kt:
            c[t] += 1
        if miss != 255:
            c[miss] -= 1
        if ok:
            return True
    return False


def other_wait(c, skip, nmelds):
    """Some tile other than skip completes the 13 - 3*nmelds concealed tiles c to a win in any
    shape (seed 000 §二.10: waits are formal, a tile of which the hand holds four included)."""
    if _regular_wait(c, skip):
        return True
    if nmelds == 0:
        odd = _odd_tile(c)  # seven pairs: the single beside six pairs
        if 0 <= odd < 34 and odd != skip:
            return True
    return nmelds <= 1 and _special_wait(c, skip, nmelds)


_sk = bytearray(5)
_st = bytearray(5)
_first = 0
_bits = 0


def _note_split():
    global _bits
    chows = 0
    for i in range(_first, 4):
        if _sk[i] == CHOW:
            chows += 1
    _bits |= 4 | (1 if chows == 4 - _first and _first == 0 else 0) | (2 if chows == 0 else 0)


def split_shapes(melds, c):
    """Over every split of a hand into sets and a pair: bit 0 some split is four concealed chows,
    bit 1 some split has no chow at all (melds are pungs or kongs), bit 2 there is a split."""
    global _first, _bits
    _first = len(melds) // 3
    _bits = 0
    for i in range(_first):
        _sk[i] = melds[3 * i]
        _st[i] = melds[3 * i + 1]
    decompose(c, _first, _sk, _st, _note_split)
    return _bits


# Native kernels where this board's build compiled them: mcr_viper.py needs @micropython.viper.
# Not tried on CPython (see tiles.py on `micropython`); on a port without a native emitter its
# compile fails (SyntaxError), a .mpy for another architecture will not load (ValueError).
_nv = None
if sys.implementation.name == "micropython":
    try:
        from rules_min import mcr_viper as _nv
    except (ImportError, SyntaxError, ValueError):
        _nv = None
if _nv is not None:
    _sets_only = _nv.sets_only
    _pair_rank = _nv.pair_rank
    _pair_sets = _nv.pair_sets
    _honours_ok = _nv.honours_ok
    _group_ok = _nv.group_ok
    _mods = _nv.mods
    _pair_group = _nv.pair_group
    _near = _nv.near
    _completes = _nv.completes
    _regular_wait = _nv.regular_wait
    _odd_tile = _nv.odd_tile
    seven_pairs = _nv.seven_pairs
    _orphan_count = _nv.orphan_count
    thirteen_orphans = _nv.thirteen_orphans
    knitted_of = _nv.knitted_of
    _knit_mask = _nv.knit_mask
    _knit_close = _nv.knit_close
