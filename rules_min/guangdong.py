# Guangdong 推倒胡 hand scoring (seed 004, docs/rules.md "Guangdong"): 136 tiles, no chows claimed, no
# flowers. The hand table is configuration: HAND_TABLE rows (Chinese name, English name,
# multiplier of the base 2); the highest applying row counts, no stacking. 鸡和 applies when no
# other row does and wins only by self-draw.
from rules_min import mcr_shapes as sh

BASE = 2

# Each row: name, English name, multiplier. The names are the keys the scorer knows how to test.
HAND_TABLE = (
    ("鸡和", "Chicken Hand", 1),
    ("平和", "All Chows", 1),
    ("混一色", "Half Flush", 1),
    ("碰碰和", "All Pungs", 2),
    ("七对", "Seven Pairs", 2),
    ("清一色", "Full Flush", 4),
    ("幺九", "Terminals and Honours", 6),
    ("字一色", "All Honours", 8),
    ("十三幺", "Thirteen Orphans", 8),
)
CHICKEN = "鸡和"
# The names _applies can test: a configured row with any other name would never apply.
KNOWN = ("鸡和", "平和", "混一色", "碰碰和", "七对", "清一色", "幺九", "字一色", "十三幺")

# Horses (买马): by the winner's place counted from the dealer, the ranks and wind that hit.
_HORSE_RANKS = ((1, 5, 9), (2, 6), (3, 7), (4, 8))



def table_error(table):
    """Why a configured hand table cannot be used, or None (rows: name, English name, multiplier)."""
    for r in table:
        if r[0] not in KNOWN:
            return "hand_table: unknown hand %s; the known ones are %s" % (r[0], " ".join(KNOWN))
    return None


def check_tiles(melds, flowers):
    for i in range(0, len(melds), 3):
        if melds[i] == 0:
            return "no chows are claimed in Guangdong"
    if flowers:
        return "Guangdong is played without flowers"
    return None


def _applies(key, m, nm, counts, shape):
    if key == "十三幺":
        return nm == 0 and sh.thirteen_orphans(counts)
    if key == "七对":
        return nm == 0 and sh.seven_pairs(counts)
    if key == "碰碰和":
        return bool(shape & 2)
    if key == "平和":
        return bool(shape & 1)
    suits = m & 7
    honours = m & 8
    if key == "字一色":
        return suits == 0
    if key == "清一色":
        return suits in (1, 2, 4) and not honours
    if key == "混一色":
        return suits in (1, 2, 4) and bool(honours)
    if key == "幺九":
        return not m & 16 and bool(suits)   # every suited tile a 1 or 9
    return False


def score(p, table=HAND_TABLE):
    """Index of the row of table that the win p (rules_min/win.py's Win) scores, or -1 when the
    tiles are no win. Nothing else of p counts: no row depends on how the hand was won (a
    chicken hand on a discard is the caller's refusal)."""
    melds = p.melds
    counts = p.counts
    nm = len(melds) // 3
    shape = sh.split_shapes(melds, counts)
    special = nm == 0 and (sh.seven_pairs(counts) or sh.thirteen_orphans(counts))
    if not shape and not special:
        return -1
    # m: bits 0-2 suits held, bit 3 honours, bit 4 a suited tile that is not a 1 or 9
    m = 0
    for i in range(0, len(melds), 3):
        t = melds[i + 1]
        m |= _bits(t) | (_bits(t + 2) if melds[i] == 0 else 0)
    for t in range(34):
        if counts[t]:
            m |= _bits(t)
    best = -1
    chicken = -1
    for i in range(len(table)):
        key = table[i][0]
        if key == CHICKEN:
            chicken = i
        elif _applies(key, m, nm, counts, shape) and (best < 0 or table[i][2] > table[best][2]):
            best = i
    return best if best >= 0 else chicken


def _bits(t):
    if t >= 27:
        return 8
    b = 1 << (t // 9)
    r = t % 9
    return b | (0 if r == 0 or r == 8 else 16)


def horse_hits(horses, place):
    """How many horse tiles hit for the winner at place (its seat counted from the dealer, 0-3:
    its seat wind): dealer 1/5/9/E, dealer's right 2/6/S, opposite 3/7/W, dealer's left
    4/8/N; dragons never hit."""
    hits = 0
    for t in horses:
        if t >= 27:
            if t - 27 == place:
                hits += 1
        elif t % 9 + 1 in _HORSE_RANKS[place]:
            hits += 1
    return hits


def horse_factor(hits, adding=False):
    # Each hit doubles the win settlement; docs/rules.md's option: times (1 + hits) instead.
    return 1 + hits if adding else 1 << hits
