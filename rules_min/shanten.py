# Shanten (distance to ready) and waits for Chinese Official mahjong, over every winning shape.
#
#   shanten(counts, melds)         -> int   0 = ready, 1 = one tile from ready, ...; -1 = complete
#   waits(counts, melds)           -> list  tile codes that complete a ready hand, ascending
#   waits_into(counts, melds, out) -> int   the same as flags out[t] = 0/1 in a caller's
#                                           bytearray(34); returns how many; allocates nothing
#   is_complete(counts, melds)     -> bool  the 14 - 3*melds tile hand is a winning shape
#
# counts: bytearray(34) or list of the concealed tiles (codes as in tiles.py), each 0..4;
# melds: number of declared chows/pungs/kongs (0..4), a kong counting as one set.
# shanten() takes 13 - 3*melds tiles (a hand waiting for its 14th tile) or 14 - 3*melds tiles
# (a hand that has just drawn: -1 if it is complete, else its shanten after the best discard).
# waits() and waits_into() take 13 - 3*melds tiles. shanten(), waits() and waits_into() raise
# ValueError for melds outside 0..4, a count outside 0..4 or a wrong number of tiles;
# is_complete() returns False for those. The caller's counts are never modified.
#
# Winning shapes (shanten is the minimum over the shapes the melds allow):
#   regular            4 sets (melds + concealed chows/pungs) + 1 pair            any melds
#   seven pairs 七对    7 pairs; a four of a kind counts as two pairs: Chinese
#                      Official allows it (the hand then also scores 四归一)     melds == 0
#   thirteen orphans 十三幺  the 13 terminals and honours + a 14th of them      melds == 0
#   honours and knitted tiles 全不靠 (七星不靠 when all 7 honours): 14 different
#                      tiles from one knitted triple (147, 258, 369 in three
#                      different suits) and the 7 honours                       melds == 0
#   knitted straight 组合龙  147, 258, 369 in three different suits (9 tiles)
#                      + 1 set (may be the declared meld) + 1 pair              melds <= 1
#
# The shanten is the formal one, defined as in the reference calculator MahjongGB
# (ChineseOfficialMahjongHelper's shanten.cpp):
#   regular            8 - 2*sets - partials - pair, melds counting as sets and partials
#                      capped at 4 - sets, minimised EXACTLY over all decompositions of the
#                      concealed tiles into pungs, chows, a pair, partial pungs, two-sided or
#                      edge partials, closed partials and isolated tiles
#   seven pairs        6 - pairs (a four of a kind giving 2)
#   thirteen orphans   13 - kinds of terminals/honours held - (1 if one of them is paired)
#   honours & knitted  13 - different tiles held that fit one knitted triple or are honours
#   knitted straight   tiles of the 9 missing + regular shanten of the remaining tiles,
#                      which need 1 - melds sets and a pair
# "Formal": a tile of which the hand holds all four still counts as the tile a partial waits
# for, and as a wait. The rules count waits formally ("包括已经使用的4张的牌"), so waits() lists
# such a tile (adding it is checked as a fifth copy) and callers filter availability.
#
# Written for MicroPython on a microcontroller: no classes, all working state in module-level
# bytearrays, tables as bytes constants, and every function keeps its frame (arguments +
# locals + value stack) within the 11 machine words that MicroPython places on the C stack:
# a bigger frame is heap-allocated at every call. shanten(), waits_into(), is_complete() and
# shape_shanten() allocate nothing; waits() allocates only its result list. The shared
# working state makes the functions non-reentrant: call them from one thread/task at a time.
from rules_min.tiles import const  # MicroPython's, or a stand-in on CPython

_END = const(255)  # sentinel after the last tile of the group in _S

# Working copy of the caller's hand.
_H = bytearray(34)
# The group (one suit or the honours) being decomposed. A suit sits at 0..8 followed by zeros
# at 9, 10 and _END at 11; the 7 honours sit at 0, 3, ..., 18 with zeros between and _END at
# 21. So neither a chow nor a chow partial can run past a suit's 9 or join honours, and the
# recursions need no bounds checks.
_S = bytearray(22)
# Regular-shape tables, indexed by 8*pair + sets: _T[16*g + i] = 1 + most partials with that
# (pair, sets) in group g (0: impossible); _C, _D: the fold of the groups.
_T = bytearray(64)
_C = bytearray(16)
_D = bytearray(16)
# _G[0]: tiles in the current group; _G[1]: sets still needed (4 - melds, 1 - melds for the
# rest of a knitted straight); _G[2]: offset of the current group in _T.
_G = bytearray(3)
# Pruning state of the search in the current group, cleared 256 bytes at a time (_regular):
#   _M[8*pair + sets] (bytes 0..15) = 1: no leaf with at least that pair and those sets can
#     raise the group's table any more (see _resat);
#   bits 128 + 50*(25*position + 5*count there + next count) + 25*pair + 5*sets + partials
#     (positions 0..8, counts 0..4, sets 0..4, partials 0..4): that state has been visited.
# 1423 bytes used, rounded up to whole _MZ: no second 1.4K block of zeros to clear it from, which
# a long session's fragmented heap may not have when settle first imports this module.
_M = bytearray(1536)
_MZ = bytes(256)
_MV = memoryview(_M)
_MC = (_MV[0:256], _MV[256:512], _MV[512:768], _MV[768:1024], _MV[1024:1280], _MV[1280:1536])
# s (8*(8*pair + sets) + partials) -> 128 + 25*pair + 5*sets + partials (255: never used).
_SX = (
    b"\x80\x81\x82\x83\x84\xff\xff\xff\x85\x86\x87\x88\x89\xff\xff\xff"
    b"\x8a\x8b\x8c\x8d\x8e\xff\xff\xff\x8f\x90\x91\x92\x93\xff\xff\xff"
    b"\x94\x95\x96\x97\x98\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\x99\x9a\x9b\x9c\x9d\xff\xff\xff\x9e\x9f\xa0\xa1\xa2\xff\xff\xff"
    b"\xa3\xa4\xa5\xa6\xa7\xff\xff\xff\xa8\xa9\xaa\xab\xac\xff\xff\xff"
    b"\xad\xae\xaf\xb0\xb1\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
)
# Tiles per group (0 m, 1 s, 2 p, 3 honours), and "these tiles as they stand are sets, with a
# pair if their number is 2 mod 3" per group, for waits().
_N = bytearray(4)
_OK = bytearray(4)
# Knitted census: _KP[3*suit + r] = how many of ranks r+1, r+4, r+7 of that suit are held.
_KP = bytearray(9)
# Waits found.
_W = bytearray(34)
# Which tiles of a knitted triple _take() removed, for _put().
_MK = bytearray(9)

# The 6 knitted triples, 9 tile codes each: 147m258s369p, 147m369s258p, 258m147s369p,
# 258m369s147p, 369m147s258p, 369m258s147p.
_KT = (
    b"\x00\x03\x06\x0a\x0d\x10\x14\x17\x1a"
    b"\x00\x03\x06\x0b\x0e\x11\x13\x16\x19"
    b"\x01\x04\x07\x09\x0c\x0f\x14\x17\x1a"
    b"\x01\x04\x07\x0b\x0e\x11\x12\x15\x18"
    b"\x02\x05\x08\x09\x0c\x0f\x13\x16\x19"
    b"\x02\x05\x08\x0a\x0d\x10\x12\x15\x18"
)
# Residue (rank - 1) % 3 of suits m, s, p in each triple, to read the census _KP.
_PERM = b"\x00\x01\x02\x00\x02\x01\x01\x00\x02\x01\x02\x00\x02\x00\x01\x02\x01\x00"
# 1m 9m 1s 9s 1p 9p E S W N C F P
_ORPH = b"\x00\x08\x09\x11\x12\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21"


def _load(counts):
    # Copy counts into _H; return the number of tiles, or -1 if a count is outside 0..4.
    n = 0
    for i in range(34):
        c = counts[i]
        if c < 0 or c > 4:
            return -1
        _H[i] = c
        n += c
    return n


def _check(counts, melds, extra):
    # _load and validate; extra = 0: 13 - 3*melds tiles, 1: 14 - 3*melds, 2: either.
    if melds < 0 or melds > 4:
        raise ValueError("melds must be 0..4")
    n = _load(counts) + 3 * melds - 13
    if n < 0 or n > 1 or (extra < 2 and n != extra):
        raise ValueError("wrong tile count or a count outside 0..4")


def _group(g):
    # Copy group g of _H (0 m, 1 s, 2 p, 3 honours) into _S, closed by _END; return its tiles.
    s = _S
    n = 0
    if g < 3:
        g *= 9
        for i in range(9):
            s[i] = _H[g + i]
            n += s[i]
        s[9] = 0
        s[10] = 0
        s[11] = _END
        s[20] = 0  # read as s[-2], s[-1] by the wait filter
        s[21] = 0
    else:
        for i in range(21):
            s[i] = 0
        for i in range(7):
            s[3 * i] = _H[27 + i]
            n += s[3 * i]
        s[21] = _END
    return n


# ---------------------------------------------------------------- regular shape: shanten


def _dfs(i, k, s):
    # Visit every decomposition of the group in _S from position i on and record, for each
    # (pair, sets), the most partials in _T. s packs partials (bits 0-2), sets (bits 3-5) and
    # the pair (bit 6). Blocks are always taken at the lowest tile left, in the fixed order
    # pung, chow, pair, partial pung, adjacent partial, closed partial, isolated (k = first
    # kind still allowed at this position), so each multiset of blocks is visited once.
    # Isolating the tiles left at a position is just moving on: blocks only reach forward, so
    # the recursion depth is the number of blocks. Partials are not tried once sets + partials
    # reach the sets needed: isolating their tiles instead leaves more tiles and gives the
    # same capped shanten, so this loses nothing.
    h = _S
    while True:
        if _M[s >> 3]:
            return
        c = h[i]
        if c == 0:
            i += 1
            c = h[i]
            while c == 0:
                i += 1
                c = h[i]
            k = 0
        if c == _END:
            i = s >> 3
            c = _G[1] - (i & 7)  # partials beyond the sets still needed do not count
            if (s & 7) < c:
                c = s & 7
            i += _G[2]
            if c >= _T[i]:
                _T[i] = c + 1
                if c + (i & 7) == _G[1]:  # that entry is now at its maximum
                    _resat()
            return
        if k == 0 and i < 9:
            # At a position's start (or after pungs there) the tiles beyond the next one are
            # as dealt, so (position, its count, next count, s) fixes every leaf below:
            # a state seen before has recorded them already.
            k = ((i * 5 + c) * 5 + h[i + 1]) * 50 + _SX[s]
            if _M[k >> 3] & (1 << (k & 7)):
                return
            _M[k >> 3] |= 1 << (k & 7)
            k = 0
        if k == 0 and c > 2:
            h[i] = c - 3
            _dfs(i, 0, s + 8)
            h[i] = c
        if k < 2 and h[i + 1] and h[i + 2]:
            h[i] = c - 1
            h[i + 1] -= 1
            h[i + 2] -= 1
            _dfs(i, 1, s + 8)
            h[i + 1] += 1
            h[i + 2] += 1
            h[i] = c
        if k < 3 and c > 1 and s < 64:
            h[i] = c - 2
            _dfs(i, 2, s + 64)
            h[i] = c
        if (s & 7) + ((s >> 3) & 7) < _G[1]:
            if k < 4 and c > 1:
                h[i] = c - 2
                _dfs(i, 3, s + 1)
                h[i] = c
            if k < 5 and h[i + 1]:
                h[i] = c - 1
                h[i + 1] -= 1
                _dfs(i, 4, s + 1)
                h[i + 1] += 1
                h[i] = c
            if k < 6 and h[i + 2]:
                h[i] = c - 1
                h[i + 2] -= 1
                _dfs(i, 5, s + 1)
                h[i + 2] += 1
                h[i] = c
        i += 1  # isolate the c tiles left here
        k = 0


def _resat():
    # Called when an entry of the current group's table reaches its maximum (1 + sets needed
    # - sets). Sets _M[8*p + m] = 1 when every entry (pair >= p, sets >= m) is at its maximum
    # or out of reach of the group's _G[0] tiles: the search then drops any branch whose
    # leaves could only land there.
    x = 1
    for m in range(7, -1, -1):
        if m <= _G[1] and 3 * m + 2 <= _G[0] and _T[_G[2] + 8 + m] <= _G[1] - m:
            x = 0
        _M[8 + m] = x
    x = 1
    for m in range(7, -1, -1):
        if not _M[8 + m] or (m <= _G[1] and 3 * m <= _G[0] and _T[_G[2] + m] <= _G[1] - m):
            x = 0
        _M[m] = x


def _fold_row(a, b):
    # Combine entry a of _C with every entry of the group table at _T[b:b+16] into _D.
    x = _C[a] - 1
    for j in range(b, b + 16):
        y = _T[j]
        if y and not (a & j & 8):  # at most one pair
            m = (a & 7) + (j & 7)
            if m <= _G[1]:
                y += x
                if y > _G[1] - m + 1:
                    y = _G[1] - m + 1
                m += (a | j) & 8
                if y > _D[m]:
                    _D[m] = y


def _fold(b):
    for j in range(16):
        _D[j] = 0
    for a in range(16):
        if _C[a]:
            _fold_row(a, b)
    for j in range(16):
        _C[j] = _D[j]


def _regular(need):
    # Exact regular-shape shanten of the tiles in _H when `need` sets (and a pair) are wanted.
    _G[1] = need
    for j in range(64):
        _T[j] = 0
    for g in range(4):
        _G[0] = _group(g)
        _G[2] = 16 * g
        for j in range(6):  # views made once: a slice of _M with bounds would be a new object
            _MC[j][:] = _MZ
        _dfs(0, 0, 0)
    for j in range(16):
        _C[j] = _T[j]
    _fold(16)
    _fold(32)
    _fold(48)
    best = 99
    for j in range(16):
        x = _C[j]
        if x:
            x = 2 * (need - (j & 7)) - x + 1 - (j >> 3)
            if x < best:
                best = x
    return best


# ---------------------------------------------------------------- special shapes


def _census():
    # Fill _KP; return the number of kinds of honours held.
    for j in range(9):
        i = 9 * (j // 3) + j % 3
        _KP[j] = (_H[i] > 0) + (_H[i + 3] > 0) + (_H[i + 6] > 0)
    n = 0
    for i in range(27, 34):
        if _H[i]:
            n += 1
    return n


def _held(p):
    # Tiles of knitted triple p held (after _census).
    p *= 3
    return _KP[_PERM[p]] + _KP[3 + _PERM[p + 1]] + _KP[6 + _PERM[p + 2]]


def _seven_pairs():
    n = 0
    for i in range(34):
        n += _H[i] >> 1
    return 6 - n


def _orphans():
    n = 0
    pair = 0
    for i in range(13):
        c = _H[_ORPH[i]]
        if c:
            n += 1
            if c > 1:
                pair = 1
    return 13 - n - pair


def _max_count():
    m = 0
    for i in range(34):
        if _H[i] > m:
            m = _H[i]
    return m


def _take(p):
    # Remove one of each held tile of knitted triple p from _H, remembering which in _MK.
    p *= 9
    for j in range(9):
        t = _KT[p + j]
        x = 1 if _H[t] else 0
        _MK[j] = x
        _H[t] -= x


def _put(p):
    # Undo _take(p).
    p *= 9
    for j in range(9):
        _H[_KT[p + j]] += _MK[j]


def _hk():
    # Honours and knitted tiles shanten (melds 0).
    hon = _census()
    best = 99
    for p in range(6):
        p = 13 - _held(p) - hon
        if p < best:
            best = p
    return best


def _ks(best, melds):
    # min(best, knitted straight shanten) for melds <= 1.
    _census()
    for p in range(6):
        n = _held(p)
        # 9 - n tiles missing, and the rest is at best complete (-1)
        if 8 - n < best:
            _take(p)
            n = 9 - n + _regular(1 - melds)
            _put(p)
            if n < best:
                best = n
    return best


def shanten(counts, melds=0):
    _check(counts, melds, 2)
    best = _regular(4 - melds)
    if melds == 0:
        x = _seven_pairs()
        if x < best:
            best = x
        x = _orphans()
        if x < best:
            best = x
        x = _hk()
        if x < best:
            best = x
    if melds < 2:
        best = _ks(best, melds)
    return best


REGULAR = const(0)
SEVEN_PAIRS = const(1)
THIRTEEN_ORPHANS = const(2)
HONOURS_AND_KNITTED = const(3)
KNITTED_STRAIGHT = const(4)


def shape_shanten(counts, melds, shape):
    # The shanten for one shape (REGULAR ... KNITTED_STRAIGHT), or None if the melds rule the
    # shape out. Same hands as shanten().
    _check(counts, melds, 2)
    if shape == REGULAR:
        return _regular(4 - melds)
    if shape == KNITTED_STRAIGHT:
        return _ks(99, melds) if melds < 2 else None
    if melds:
        return None
    if shape == SEVEN_PAIRS:
        return _seven_pairs()
    if shape == THIRTEEN_ORPHANS:
        return _orphans()
    return _hk()


# ---------------------------------------------------------------- complete hands


def _cmp(i, p):
    # Can the group in _S from position i on be split into sets (and one pair if p)?
    h = _S
    c = h[i]
    while c == 0:
        i += 1
        c = h[i]
    if c == _END:
        return p == 0
    if p and c > 1:
        h[i] = c - 2
        p = _cmp(i, 0)
        h[i] = c
        if p:
            return True
        p = 1
    if c > 2:
        h[i] = c - 3
        if _cmp(i, p):
            h[i] = c
            return True
        h[i] = c
    if h[i + 1] and h[i + 2]:
        h[i] = c - 1
        h[i + 1] -= 1
        h[i + 2] -= 1
        p = _cmp(i, p)
        h[i] = c
        h[i + 1] += 1
        h[i + 2] += 1
        return p
    return False


def _sizes():
    # Fill _N with the tiles per group; return how many groups hold 2 mod 3 tiles, or 9 if
    # one holds 1 mod 3 (then the tiles cannot be sets + one pair).
    for g in range(4):
        _N[g] = 0
    for i in range(34):
        _N[i // 9] += _H[i]  # 27..33 // 9 == 3
    n = 0
    for g in range(4):
        g = _N[g] % 3
        if g == 1:
            return 9
        if g == 2:
            n += 1
    return n


def _reg_complete():
    # Are the tiles in _H sets plus exactly one pair?
    if _sizes() != 1:
        return False
    for g in range(4):
        if _N[g]:
            _group(g)
            if not _cmp(0, _N[g] % 3 == 2):
                return False
    return True


def _complete_knitted(melds):
    # Honours and knitted tiles (melds 0) or knitted straight (melds <= 1), 14 - 3*melds tiles.
    hon = _census()
    for p in range(6):
        n = _held(p)
        if melds == 0 and n + hon == 14 and _max_count() == 1:
            return True  # 14 different tiles, all of the triple or honours
        if n == 9:
            _take(p)
            n = _reg_complete()
            _put(p)
            if n:
                return True
    return False


def _complete(melds):
    # Is the 14 - 3*melds tile hand in _H complete in any shape?
    if _reg_complete():
        return True
    if melds == 0:
        if _seven_pairs() == -1 or _orphans() == -1:
            return True
    if melds < 2:
        return _complete_knitted(melds)
    return False


def is_complete(counts, melds=0):
    if melds < 0 or melds > 4 or _load(counts) != 14 - 3 * melds:
        return False
    return _complete(melds)


# ---------------------------------------------------------------- waits


def _eligible(g):
    # Given the other groups (_N, _OK filled by _reg_waits), can one more tile in group g
    # make the whole sets + one pair? Return 0 (group g then has no pair) or 2 (it has the
    # pair), or 1 for no.
    r = (_N[g] + 1) % 3
    if r == 1:
        return 1
    n = 1 if r == 2 else 0
    for j in range(4):
        if j != g:
            if not _OK[j]:
                return 1
            if _N[j] % 3 == 2:
                n += 1
    return r if n == 1 else 1


def _scan(g, r):
    # Mark in _W the tiles of group g that complete it (with a pair if r).
    _group(g)
    s = _S
    if g < 3:
        g *= 9
        # a wait is held or within 2 of a held tile of its suit (s[-1], s[-2] are 0 at x = 0)
        for x in range(9):
            if s[x] or s[x + 1] or s[x + 2] or s[x - 1] or s[x - 2]:
                s[x] += 1
                if _cmp(0, r):
                    _W[g + x] = 1
                s[x] -= 1
    else:
        for x in range(0, 21, 3):
            if s[x]:  # an honour not held cannot be completed by one tile
                s[x] += 1
                if _cmp(0, r):
                    _W[27 + x // 3] = 1
                s[x] -= 1


def _reg_waits():
    # Mark in _W the tiles that make the tiles of _H (2 mod 3 of them short) sets + one pair.
    _sizes()
    for g in range(4):
        r = _N[g] % 3
        _OK[g] = 0
        if _N[g] == 0:
            _OK[g] = 1
        elif r != 1:
            _group(g)
            _OK[g] = _cmp(0, r == 2)
    for g in range(4):
        r = _eligible(g)
        if r != 1:
            _scan(g, r)


def _waits_special():
    # Seven pairs and thirteen orphans (melds 0, 13 tiles).
    if _seven_pairs() == 0:
        for i in range(34):
            if _H[i] & 1:  # the single (or the third of a pung) left beside 6 pairs
                _W[i] = 1
    if _orphans() == 0:
        n = 0
        for i in range(13):
            if _H[_ORPH[i]]:
                n += 1
        for i in range(13):
            if n == 13 or not _H[_ORPH[i]]:  # 13-sided, or the one missing
                _W[_ORPH[i]] = 1


def _waits_hk(p):
    # 13 different tiles all of knitted triple p or honours: honours and knitted tiles waits
    # on the 3 others of those 16.
    for j in range(9 * p, 9 * p + 9):
        if not _H[_KT[j]]:
            _W[_KT[j]] = 1
    for j in range(27, 34):
        if not _H[j]:
            _W[j] = 1


def _waits_ks(p):
    # 8 or 9 tiles of knitted triple p held: knitted straight. With all 9, the other 4 (or 1)
    # tiles must be ready as sets + pair; with 8, they must already be complete and the wait
    # is the missing tile.
    t = _END
    for j in range(9 * p, 9 * p + 9):
        if not _H[_KT[j]]:
            t = _KT[j]
    _take(p)
    if t == _END:
        _reg_waits()
    elif _reg_complete():
        _W[t] = 1
    _put(p)


def _waits(melds):
    # Mark in _W every tile completing the 13 - 3*melds tile hand in _H.
    for i in range(34):
        _W[i] = 0
    _reg_waits()
    if melds == 0:
        _waits_special()
    if melds < 2:
        hon = _census()
        for p in range(6):
            n = _held(p)
            if melds == 0 and n + hon == 13 and _max_count() == 1:
                _waits_hk(p)
            if n > 7:
                _waits_ks(p)


def waits_into(counts, melds, out):
    _check(counts, melds, 0)
    _waits(melds)
    n = 0
    for i in range(34):
        out[i] = _W[i]
        n += _W[i]
    return n


def waits(counts, melds=0):
    _check(counts, melds, 0)
    _waits(melds)
    return [i for i in range(34) if _W[i]]
