# Sichuan 血战到底 hand scoring (seed 003 §四, docs/rules.md "Sichuan"): 108 tiles, no honours, no
# chows claimed, a winning hand holds at most two suits and none of its declared missing suit.
# Fans: 平胡 1, 对对胡 2, 清一色 3, 七对 3, 龙七对 / 清七对 3 outright; +1 each for 自摸, 杠上开花,
# 抢杠胡, 海底捞月; optional 根 +1 per set of four. Total capped at 3; value = 10 * 2^total.
from rules_min import mcr_shapes as sh
from rules_min.tiles import fields, field
from rules_min.win import Win

BASE = 10
CAP = 3

PING_HU = 0
DUI_DUI = 1
QING_YI_SE = 2
QI_DUI = 3
LONG_QI_DUI = 4
QING_QI_DUI = 5
ZI_MO = 6
GANG_KAI = 7
QIANG_GANG = 8
HAI_DI = 9
GEN = 10
NUM_FANS = 11

POINTS = b"\x01\x02\x03\x03\x03\x03\x01\x01\x01\x01\x01"
# Names as UTF-8 bytes with their offsets (tiles.fields): no walk through a str per lookup.
CN = "平胡|对对胡|清一色|七对|龙七对|清七对|自摸|杠上开花|抢杠胡|海底捞月|根".encode()
EN = (b"All Chows|All Pungs|Full Flush|Seven Pairs|Dragon Seven Pairs|Pure Seven Pairs|Self-Drawn|"
      b"Out on a Replacement Tile|Robbing the Kong|Last Tile Draw|Root")
_CN_AT = fields(CN)
_EN_AT = fields(EN)

_all = bytearray(34)
_held = bytearray(34)


def name(f, en=False):
    return field(EN, _EN_AT, f) if en else field(CN, _CN_AT, f)


def value(total):
    return BASE << total


def check_tiles(melds, counts, missing):
    """Error message when the tiles break Sichuan's rules, else None. missing: 0-2 or None."""
    for i in range(0, len(melds), 3):
        if melds[i] == 0:
            return "no chows are claimed in Sichuan"
        if melds[i + 1] >= 27:
            return "Sichuan uses 108 tiles: no honours"
    for t in range(27, 34):
        if counts[t]:
            return "Sichuan uses 108 tiles: no honours"
    if missing is not None:
        for i in range(0, len(melds), 3):
            if melds[i + 1] // 9 == missing:
                return "the hand holds its missing suit"
        for t in range(missing * 9, missing * 9 + 9):
            if counts[t]:
                return "the hand holds its missing suit"
    return None


def suits_of(melds, counts):
    m = 0
    for i in range(0, len(melds), 3):
        m |= 1 << (melds[i + 1] // 9)
    for t in range(27):
        if counts[t]:
            m |= 1 << (t // 9)
    return m


def held(melds, counts, out):
    """Every tile of the hand, melds included (kongs as four), into out."""
    for t in range(34):
        out[t] = counts[t]
    for i in range(0, len(melds), 3):
        t = melds[i + 1]
        if melds[i] == 0:
            out[t + 1] += 1
            out[t + 2] += 1
            out[t] += 1
        else:
            out[t] += 4 if melds[i] == 2 else 3
    return out


def score(p, f, gen=False):
    """The fans of the win p (rules_min/win.py's Win; tiles that passed check_tiles) into f, the
    caller's bytearray(NUM_FANS), one count per fan; returns the total, capped at CAP, or -1 (f
    all zeros) when it is no win: not a win shape, or three suits. gen: the table counts 根."""
    melds = p.melds
    counts = p.counts
    nm = len(melds) // 3
    m = suits_of(melds, counts)
    for i in range(NUM_FANS):
        f[i] = 0
    if m == 7:
        return -1
    shape = sh.split_shapes(melds, counts)
    pairs = nm == 0 and sh.seven_pairs(counts)
    if not shape and not pairs:
        return -1
    one_suit = m in (1, 2, 4)
    if pairs:
        four = False
        for t in range(27):
            if counts[t] == 4:
                four = True
        if four:
            f[LONG_QI_DUI] = 1
        elif one_suit:
            f[QING_QI_DUI] = 1
        else:
            f[QI_DUI] = 1
    else:
        if shape & 2:
            f[DUI_DUI] = 1
        elif shape & 1:
            f[PING_HU] = 1   # seed 003 §十一.1: all chows, no kong, no pung
        if one_suit:
            f[QING_YI_SE] = 1
    if p.self_drawn:
        f[ZI_MO] = 1
        if p.kong:
            f[GANG_KAI] = 1
        if p.last_tile:
            f[HAI_DI] = 1
    elif p.kong:
        f[QIANG_GANG] = 1
    if gen:
        a = held(melds, counts, _all)
        for t in range(27):
            if a[t] == 4:
                f[GEN] += 1
    total = 0
    for i in range(NUM_FANS):
        total += POINTS[i] * f[i]
    return min(total, CAP)


def best_value(melds, counts13, missing):
    """查大叫: the highest value over the tiles a 13-tile hand waits on, each scored as a discard
    win with no bonus flags; 0 when the hand is not ready. A tile of which the hand holds all
    four cannot come and is no wait."""
    best = 0
    h = held(melds, counts13, _held)
    p = Win(melds, counts13, 0)
    f = bytearray(NUM_FANS)
    for t in range(27):
        if (missing is not None and t // 9 == missing) or h[t] >= 4:
            continue
        counts13[t] += 1
        p.tile = t
        total = score(p, f)
        counts13[t] -= 1
        if total >= 0 and value(total) > best:
            best = value(total)
    return best
