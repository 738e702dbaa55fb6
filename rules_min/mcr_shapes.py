# Winning shapes of a Chinese Official hand: decompositions into sets and a pair, and the
# special shapes (seven pairs, thirteen orphans, honours and knitted, knitted straight).
#
# Counts are bytearray(34) (tiles.py codes). Functions may change counts while they search but
# always restore them. A count of 5 is allowed: the formal wait test adds a tile the hand already
# holds four of (seed 000 §二.10 counts such waits).
#
# Sets are written to two bytearrays: kinds[i], tiles[i] for i = first..3, the pair in tiles[4].
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
for _k in range(6):
    for _t in KNITTED[_k]:
        KNIT_MASK[_t] |= 1 << _k


def _sets(c, i, t, nopung, kinds, tiles, cb):
    # Fill sets i..3 from the tiles left in c, lowest tile first so each split is found once
    # (a pung at t is never tried after a chow at t: same sets, other order).
    if i == 4:
        cb()
        return 1
    while c[t] == 0:
        t += 1
    n = 0
    if c[t] >= 3 and t != nopung:
        c[t] -= 3
        kinds[i] = PUNG
        tiles[i] = t
        n += _sets(c, i + 1, t, 255, kinds, tiles, cb)
        c[t] += 3
    if t < 27 and t % 9 < 7 and c[t + 1] and c[t + 2]:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        kinds[i] = CHOW
        tiles[i] = t
        n += _sets(c, i + 1, t, t, kinds, tiles, cb)
        c[t] += 1
        c[t + 1] += 1
        c[t + 2] += 1
    return n


def decompose(c, first, kinds, tiles, cb):
    """Call cb() for every split of c into sets first..3 plus a pair. c must hold 14 - 3*first
    tiles. Returns how many splits there were."""
    n = 0
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            tiles[4] = p
            if first == 4:
                # only the pair was left: it is the whole rest when the count matches
                cb()
                n += 1
            else:
                n += _sets(c, first, 0, 255, kinds, tiles, cb)
            c[p] += 2
    return n


def _can_sets(c, need, t):
    if need == 0:
        return True
    while c[t] == 0:
        t += 1
    if c[t] >= 3:
        c[t] -= 3
        ok = _can_sets(c, need - 1, t)
        c[t] += 3
        if ok:
            return True
    if t < 27 and t % 9 < 7 and c[t + 1] and c[t + 2]:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        ok = _can_sets(c, need - 1, t)
        c[t] += 1
        c[t + 1] += 1
        c[t + 2] += 1
        return ok
    return False


def regular(c, nsets):
    # nsets concealed sets plus a pair
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = _can_sets(c, nsets, 0) if nsets else True
            c[p] += 2
            if ok:
                return True
    return False


def seven_pairs(c):
    for t in range(34):
        if c[t] & 1:
            return False
    return True


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


def honours_knitted(c):
    # 全不靠: 14 different tiles, honours plus tiles of one knitted straight
    mask = 0x3F
    for t in range(34):
        if c[t] > 1:
            return False
        if c[t] and t < 27:
            mask &= KNIT_MASK[t]
    return mask != 0


def knitted_straight(c, nmelds):
    k = knitted_of(c)
    if k < 0:
        return False
    kt = KNITTED[k]
    for t in kt:
        c[t] -= 1
    ok = regular(c, 1 - nmelds)
    for t in kt:
        c[t] += 1
    return ok


def special_win(c, nmelds):
    # the shapes that can use a tile with no neighbour in the hand
    if nmelds == 0 and (thirteen_orphans(c) or honours_knitted(c)):
        return True
    return nmelds <= 1 and knitted_straight(c, nmelds)


def is_win(c, nmelds):
    """Any winning shape: c holds the 14 - 3*nmelds concealed tiles."""
    if regular(c, 4 - nmelds):
        return True
    if nmelds == 0:
        if seven_pairs(c) or thirteen_orphans(c) or honours_knitted(c):
            return True
    if nmelds <= 1:
        return knitted_straight(c, nmelds)
    return False


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
