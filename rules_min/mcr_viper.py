# Native (viper) twins of the counting kernels of mcr_shapes.py and mcr.py: the same names
# without the underscore, the same results, about ten times faster on the Pico, and they run on
# the C stack, so a call allocates nothing. mcr_shapes / mcr use them where this module imports:
# on a board whose build compiles it with mpy-cross -march (board_configs MPY_ARCH: armv6m on
# the RP2040, xtensawin on the ESP32-S3). Elsewhere (CPython, the unix port, CircuitPython) its
# import fails and the portable versions run. Read the portable version for what a function
# means; this file only says where it differs in form. Change both together: the Pico
# benchmark (bench/pico_score.py) checks every reply against CPython's.
#
# Counts arrive as Python objects (bytearray/bytes) and are read through ptr8; calls between
# these functions pass the objects on.
import micropython

from rules_min.mcr_shapes import KNITTED, ORPHANS, KNIT_MASK, _R
from rules_min.mcr_table import ORDER, POINTS, EXCL, EXCL_AT, NUM_FANS


@micropython.viper
def sets_only(c, b: int) -> bool:
    p = ptr8(c)
    s1 = 0
    s2 = 0
    for t in range(b, b + 7):
        a = int(p[t]) - s1 - s2
        if a < 0:
            return False
        s2 = s1
        s1 = a % 3
    a = int(p[b + 7]) - s1 - s2
    if a < 0 or a % 3 != 0:
        return False
    a = int(p[b + 8]) - s1
    if a < 0 or a % 3 != 0:
        return False
    return True


@micropython.viper
def pair_rank(c, b: int) -> int:
    p = ptr8(c)
    w = 0
    for r in range(1, 9):
        w += r * int(p[b + r])
    return 2 * w % 3


@micropython.viper
def pair_sets(c, b: int) -> bool:
    p = ptr8(c)
    w = 0
    for r in range(1, 9):
        w += r * int(p[b + r])
    t = b + 2 * w % 3
    while t < b + 9:
        if int(p[t]) >= 2:
            p[t] = int(p[t]) - 2
            ok = sets_only(c, b)
            p[t] = int(p[t]) + 2
            if ok:
                return True
        t += 3
    return False


@micropython.viper
def honours_ok(c, pairs: int) -> bool:
    p = ptr8(c)
    n = 0
    for t in range(27, 34):
        x = int(p[t])
        if x == 2 or x == 5:
            n += 1
        elif x != 0 and x != 3:
            return False
    return n == pairs


@micropython.viper
def group_ok(c, g: int, pair: int) -> bool:
    if g == 3:
        return bool(honours_ok(c, pair))
    if pair != 0:
        return bool(pair_sets(c, 9 * g))
    return bool(sets_only(c, 9 * g))


@micropython.viper
def mods(c):
    p = ptr8(c)
    r = ptr8(_R)
    for g in range(3):
        n = 0
        for t in range(9 * g, 9 * g + 9):
            n += int(p[t])
        r[g] = n % 3
    n = 0
    for t in range(27, 34):
        n += int(p[t])
    r[3] = n % 3


@micropython.viper
def pair_group(c) -> int:
    mods(c)
    r = ptr8(_R)
    pg = -1
    for g in range(4):
        m = int(r[g])
        if m == 1:
            return -1
        if m == 2:
            if pg >= 0:
                return -1
            pg = g
    if pg < 0:
        return -1
    for g in range(4):
        if g != pg and not group_ok(c, g, 0):
            return -1
    return pg


@micropython.viper
def near(c, t: int) -> bool:
    p = ptr8(c)
    if p[t] != 0:
        return True
    if t >= 27:
        return False
    r = t % 9
    if r > 0 and p[t - 1] != 0:
        return True
    if r > 1 and p[t - 2] != 0:
        return True
    if r < 8 and p[t + 1] != 0:
        return True
    if r < 7 and p[t + 2] != 0:
        return True
    return False


@micropython.viper
def completes(c, g: int, skip: int, pair: int) -> bool:
    p = ptr8(c)
    t = 9 * g
    end = t + 9
    if g == 3:
        end = 34
    while t < end:
        if t != skip and near(c, t):
            p[t] = int(p[t]) + 1
            ok = group_ok(c, g, pair)
            p[t] = int(p[t]) - 1
            if ok:
                return True
        t += 1
    return False


@micropython.viper
def regular_wait(c, skip: int) -> bool:
    mods(c)
    r = ptr8(_R)
    one = -1
    two = -1
    two2 = -1
    for g in range(4):
        m = int(r[g])
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
        if int(r[g]) == 0 and not group_ok(c, g, 0):
            return False
    if one >= 0:
        if two >= 0:
            return False
        return bool(completes(c, one, skip, 1))
    if two2 < 0:
        return False
    if group_ok(c, two2, 1) and completes(c, two, skip, 0):
        return True
    if group_ok(c, two, 1) and completes(c, two2, skip, 0):
        return True
    return False


@micropython.viper
def odd_tile(c) -> int:
    p = ptr8(c)
    odd = -1
    for t in range(34):
        if int(p[t]) & 1:
            if odd >= 0:
                return 99
            odd = t
    return odd


@micropython.viper
def seven_pairs(c) -> bool:
    p = ptr8(c)
    for t in range(34):
        if int(p[t]) & 1:
            return False
    return True


@micropython.viper
def orphan_count(c) -> int:
    p = ptr8(c)
    o = ptr8(ORPHANS)
    n = 0
    for i in range(13):
        n += int(p[o[i]])
    return n


@micropython.viper
def thirteen_orphans(c) -> bool:
    p = ptr8(c)
    o = ptr8(ORPHANS)
    pair = 0
    for i in range(13):
        x = int(p[o[i]])
        if x == 0:
            return False
        if x == 2:
            pair += 1
    return pair == 1


@micropython.viper
def knitted_of(c) -> int:
    p = ptr8(c)
    for k in range(6):
        kt = ptr8(KNITTED[k])
        i = 0
        while i < 9 and p[kt[i]] != 0:
            i += 1
        if i == 9:
            return k
    return -1


@micropython.viper
def knit_close(c) -> int:
    p = ptr8(c)
    mask = 0
    for k in range(6):
        kt = ptr8(KNITTED[k])
        miss = 0
        for i in range(9):
            if p[kt[i]] == 0:
                miss += 1
        if miss <= 1:
            mask |= 1 << k
    return mask


@micropython.viper
def knit_mask(c) -> int:
    p = ptr8(c)
    km = ptr8(KNIT_MASK)
    mask = 0x3F
    for t in range(34):
        x = int(p[t])
        if x > 1:
            return 0
        if x != 0 and t < 27:
            mask &= int(km[t])
    return mask


# ---- mcr.py ----

@micropython.viper
def tile_census(allc, bits) -> int:
    # mcr._tile_census: bits is mcr._TILE_BITS as bytes, two (little-endian) a tile
    p = ptr8(allc)
    w = ptr8(bits)
    held = 0
    every = 0xC000
    hog = 0
    for t in range(34):
        x = int(p[t])
        if x != 0:
            v = int(w[2 * t]) | int(w[2 * t + 1]) << 8
            held |= v
            every &= v
            if x == 4:
                hog += 1
    return (held & 0x3FFF) | (every & 0xC000) | hog << 16


@micropython.viper
def exclude_total(ft, mark) -> int:
    # mcr._exclude_total
    f8 = ptr8(ft)
    m = ptr8(mark)
    order = ptr8(ORDER)
    pts = ptr8(POINTS)
    ex = ptr8(EXCL)
    at = ptr8(EXCL_AT)
    nf = int(NUM_FANS)
    g = int(m[nf]) + 1
    if g > 255:
        g = 1
        for f in range(nf):
            m[f] = 0
    m[nf] = g
    tot = 0
    for i in range(nf):
        f = int(order[i])
        n = int(f8[f])
        if n != 0:
            if int(m[f]) == g:
                f8[f] = 0
            else:
                tot += int(pts[f]) * n
                for k in range(int(at[f]), int(at[f + 1])):
                    m[ex[k]] = g
    return tot


@micropython.viper
def fans_in_order(ft, out) -> int:
    # mcr.fans_in_order
    f8 = ptr8(ft)
    o = ptr8(out)
    order = ptr8(ORDER)
    n = 0
    for i in range(int(NUM_FANS)):
        f = order[i]
        if f8[f] != 0:
            o[n] = f
            n += 1
    return n
