"""An MCR corpus built without the project's hand generator or decomposition (issue 21): hands
are assembled from random melds and pairs and from the special shapes, each hand's MahjongGB
arguments are built here from the same structure (not by parsing our notation), and a hand is
kept only when PyMahjongGB (`import MahjongGB`) scores it as a win of at least 8 fans (flowers
not counted). Seeded; the output is committed so the chip figures keep measuring the same hands.

    .venv/bin/python -m bench.gen_independent_corpus [--force] [--check]

bench/corpus_pico_mcr_independent.txt  one score request a line, with a "shape" key (the chip
                                       bench strips it before sending)
--check   (re)generate in memory and compare our scorer with MahjongGB on every hand; lists the
          disagreements (the ones docs/rules.md and RULES.md decide are named as such)

Shapes: standard (random chows/pungs, claimed or concealed), one suit, honours and terminals,
green, all pungs/kongs, kongs, seven pairs, seven shifted pairs, thirteen orphans, knitted
straight (with a meld and a pair), lesser and greater honours and knitted, nine gates; with
flowers, self-draw or discard, last tile, last of its kind, out on a kong's replacement and
robbing a kong where the tiles allow them.
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEED = 20261202
PER_SHAPE = 40
PATH = os.path.join(HERE, "corpus_pico_mcr_independent.txt")

# tile t: 0-8 characters (m), 9-17 bamboo (s), 18-26 dots (p), 27-30 E S W N, 31-33 red green white
SUIT_LETTER = "msp"
HONOUR_LETTER = "ESWNCFP"
MGB_NAME = (["W%d" % i for i in range(1, 10)] + ["T%d" % i for i in range(1, 10)]
            + ["B%d" % i for i in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])
WINDS = "ESWN"
TERMINALS_HONOURS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
GREEN = (10, 11, 12, 14, 16, 32)  # 2 3 4 6 8 bamboo, green dragon


class Hand:
    """groups: (kind, tile, offer) with kind chow (tile = lowest) / pung / kong / pair / single;
    offer 0 = concealed; chow 1-3 = which tile was claimed; pung 1-3 = supplier; kong 1-3 melded,
    5-7 promoted from a pung of supplier offer-4."""

    def __init__(self):
        self.groups = []

    def add(self, kind, tile, offer=0):
        self.groups.append((kind, tile, offer))

    def tiles(self):
        out = []
        for kind, t, _o in self.groups:
            if kind == "chow":
                out += [t, t + 1, t + 2]
            else:
                out += [t] * {"pung": 3, "kong": 4, "pair": 2, "single": 1}[kind]
        return out

    def melds(self):
        return [g for g in self.groups if g[0] == "kong" or (g[0] in ("chow", "pung") and g[2])]

    def concealed(self):
        out = []
        for kind, t, o in self.groups:
            if kind == "kong" or (kind in ("chow", "pung") and o):
                continue
            if kind == "chow":
                out += [t, t + 1, t + 2]
            else:
                out += [t] * {"pung": 3, "pair": 2, "single": 1}[kind]
        return sorted(out)


def _tile_text(tiles):
    # tiles sorted; digits share the suit letter that follows them
    out = []
    for s in range(3):
        run = "".join(str(t - 9 * s + 1) for t in tiles if 9 * s <= t < 9 * s + 9)
        if run:
            out.append(run + SUIT_LETTER[s])
    out.append("".join(HONOUR_LETTER[t - 27] for t in tiles if t >= 27))
    return "".join(out)


def _meld_text(kind, t, o):
    if kind == "chow":
        body = _tile_text([t, t + 1, t + 2])
    else:
        body = _tile_text([t] * (4 if kind == "kong" else 3))
    return "[%s%s]" % (body, o if o else "")


def notation(hand, win):
    rest = list(hand.concealed())
    rest.remove(win)
    return "".join(_meld_text(*m) for m in hand.melds()) + _tile_text(rest) + _tile_text([win])


def mgb_args(hand, win, req):
    packs = []
    for kind, t, o in hand.melds():
        if kind == "chow":
            packs.append(("CHI", MGB_NAME[t + 1], o))
        elif kind == "pung":
            packs.append(("PENG", MGB_NAME[t], o))
        else:
            packs.append(("GANG", MGB_NAME[t], o - 4 if o >= 5 else o))
    rest = list(hand.concealed())
    rest.remove(win)
    return (tuple(packs), tuple(MGB_NAME[t] for t in rest), MGB_NAME[win], req["flowers"], req["self_drawn"],
            req["last_of_kind"], req["kong"], req["last_tile"], WINDS.index(req["seat_wind"]),
            WINDS.index(req["prevalent_wind"]))


# ---- the shapes: each returns a Hand (14 tiles, kongs counted as 3) or None ----

def _claim(rng, p):
    return rng.randrange(1, 4) if rng.random() < p else 0


def _set(rng, tiles, chow_p, claim_p, kong_p=0.0):
    """A random chow or pung (or kong) from the tile list."""
    if rng.random() < chow_p:
        starts = [t for t in tiles if t < 27 and t % 9 <= 6 and t + 1 in tiles and t + 2 in tiles]
        if starts:
            return ("chow", rng.choice(starts), _claim(rng, claim_p))
    t = rng.choice(tiles)
    if rng.random() < kong_p:
        r = rng.random()
        return ("kong", t, 0 if r < 0.4 else rng.randrange(1, 4) if r < 0.7 else rng.randrange(5, 8))
    return ("pung", t, _claim(rng, claim_p))


def _four_sets(rng, tiles, chow_p=0.6, claim_p=0.3, kong_p=0.05):
    h = Hand()
    for _ in range(4):
        h.add(*_set(rng, tiles, chow_p, claim_p, kong_p))
    h.add("pair", rng.choice(tiles))
    return h


ALL = tuple(range(34))


def s_standard(rng):
    return _four_sets(rng, ALL)


def s_one_suit(rng):
    s = rng.randrange(3)
    tiles = tuple(range(9 * s, 9 * s + 9))
    if rng.random() < 0.5:  # with honours: half flush
        tiles += tuple(rng.sample(range(27, 34), 3))
    return _four_sets(rng, tiles, chow_p=0.6, claim_p=0.2)


def s_terminals_honours(rng):
    return _four_sets(rng, TERMINALS_HONOURS if rng.random() < 0.5 else tuple(range(27, 34)), chow_p=0.0,
                      claim_p=0.4, kong_p=0.1)


def s_green(rng):
    return _four_sets(rng, GREEN, chow_p=0.5, claim_p=0.3)


def s_all_pungs(rng):
    return _four_sets(rng, ALL, chow_p=0.0, claim_p=0.5, kong_p=0.15)


def s_kongs(rng):
    h = Hand()
    n = rng.randrange(1, 5)
    for i in range(4):
        if i < n:
            r = rng.random()
            h.add("kong", rng.choice(ALL), 0 if r < 0.4 else rng.randrange(1, 4) if r < 0.7 else rng.randrange(5, 8))
        else:
            h.add(*_set(rng, ALL, 0.5, 0.3))
    h.add("pair", rng.choice(ALL))
    return h


def s_seven_pairs(rng):
    h = Hand()
    if rng.random() < 0.6:
        pool = ALL
    else:  # one suit, with or without the honours
        s = 9 * rng.randrange(3)
        pool = tuple(range(s, s + 9)) + (tuple(range(27, 34)) if rng.random() < 0.5 else ())
    k = 6 if rng.random() < 0.15 else 7  # 15%: one tile four times, two of the seven pairs
    ts = rng.sample(pool, k)
    if k == 6:
        ts.append(ts[0])
    for t in ts:
        h.add("pair", t)
    return h


def s_shifted_pairs(rng):
    s = rng.randrange(3)
    b = 9 * s + rng.randrange(3)
    h = Hand()
    for t in range(b, b + 7):
        h.add("pair", t)
    return h


def s_thirteen_orphans(rng):
    h = Hand()
    for t in TERMINALS_HONOURS:
        h.add("single", t)
    h.add("single", rng.choice(TERMINALS_HONOURS))
    return h


def _knitted_suits(rng):
    p = [0, 1, 2]
    rng.shuffle(p)
    # 147 in suit p[0], 258 in p[1], 369 in p[2]
    return [9 * p[k] + k + 3 * j for k in range(3) for j in range(3)]


def s_knitted_straight(rng):
    h = Hand()
    for t in _knitted_suits(rng):
        h.add("single", t)
    h.add(*_set(rng, ALL, 0.5, 0.3))
    h.add("pair", rng.choice(ALL))
    return h


def s_lesser_honours_knitted(rng):
    knit = _knitted_suits(rng)
    n_hon = rng.randrange(5, 7)  # 5 or 6 honours + 9 or 8 knitted tiles
    h = Hand()
    for t in rng.sample(knit, 14 - n_hon) + rng.sample(range(27, 34), n_hon):
        h.add("single", t)
    return h


def s_greater_honours_knitted(rng):
    h = Hand()
    for t in rng.sample(_knitted_suits(rng), 7) + list(range(27, 34)):
        h.add("single", t)
    return h


def s_nine_gates(rng):
    s = 9 * rng.randrange(3)
    h = Hand()
    for d in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8):
        h.add("single", s + d)
    extra = s + rng.randrange(9)
    h.add("single", extra)
    h.extra = extra
    return h


SHAPES = (
    ("standard", s_standard), ("one_suit", s_one_suit), ("terminals_honours", s_terminals_honours),
    ("green", s_green), ("all_pungs", s_all_pungs), ("kongs", s_kongs), ("seven_pairs", s_seven_pairs),
    ("shifted_pairs", s_shifted_pairs), ("thirteen_orphans", s_thirteen_orphans),
    ("knitted_straight", s_knitted_straight), ("lesser_honours_knitted", s_lesser_honours_knitted),
    ("greater_honours_knitted", s_greater_honours_knitted), ("nine_gates", s_nine_gates),
)


def _flags(rng, hand, win):
    """Win flags the tiles allow (RULES.md: impossible flags are refused)."""
    counts = [0] * 34
    for t in hand.tiles():
        counts[t] += 1
    held = sum(1 for t in hand.concealed() if t == win)  # the winning tile and its concealed copies
    has_kong = any(g[0] == "kong" for g in hand.groups)
    self_drawn = rng.random() < 0.4
    kong = False
    if has_kong and self_drawn and rng.random() < 0.3:
        kong = True  # out on a kong's replacement
    elif not self_drawn and counts[win] == 1 and rng.random() < 0.15:
        kong = True  # robbing a kong: the other three copies are the robbed player's
    last_tile = rng.random() < 0.12 and not (kong and not self_drawn)
    last_of_kind = held == 1 and not kong and rng.random() < 0.25
    return {"self_drawn": self_drawn, "last_of_kind": last_of_kind, "last_tile": last_tile, "kong": kong,
            "seat_wind": rng.choice(WINDS), "prevalent_wind": rng.choice(WINDS),
            "flowers": rng.choice((0, 0, 0, 1, 2, 3, 4, 8))}


def candidate(rng, fn):
    """(request, MahjongGB args) of one random hand of the shape, or None when the tiles are
    impossible (a fifth copy)."""
    hand = fn(rng)
    counts = [0] * 34
    for t in hand.tiles():
        counts[t] += 1
    if max(counts) > 4:
        return None
    conc = hand.concealed()
    win = getattr(hand, "extra", None) if rng.random() < 0.8 else None
    if win is None:
        win = rng.choice(conc)
    req = {"hand": notation(hand, win)}
    req.update(_flags(rng, hand, win))
    return req, mgb_args(hand, win, req)


def mgb_fans(args):
    """MahjongGB's verbose fans, or None when it refuses the hand (not a win, bad tiles)."""
    import MahjongGB

    try:
        return MahjongGB.MahjongFanCalculator(*args, verbose=True)
    except TypeError:
        return None


def generate(seed=SEED, per_shape=PER_SHAPE):
    """[(shape, request, MahjongGB's fans)]: per_shape hands of each shape that MahjongGB scores
    at 8 fans or more without flowers."""
    rng = random.Random(seed)
    out = []
    for name, fn in SHAPES:
        n = tries = 0
        while n < per_shape:
            tries += 1
            if tries > 200000:
                raise RuntimeError("shape %s: only %d hands in %d tries" % (name, n, tries))
            c = candidate(rng, fn)
            if c is None:
                continue
            req, args = c
            fans = mgb_fans(args)
            if fans is None:
                continue
            if sum(p * k for p, k, cn, _en in fans if cn != "花牌") < 8:
                continue
            out.append((name, req, fans))
            n += 1
    return out


# MahjongGB calls the three waits 独听・边张 / 独听・嵌张 / 独听・单钓; docs/rules.md's table does not
RENAME = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}
# docs/rules.md: either labelling of these equal-point pairings is correct
RELABEL = ("喜相逢", "连六", "老少副")


def _norm(fans):
    d = {}
    pairings = 0
    for name, count in fans:
        if name in RELABEL:
            pairings += count
        else:
            d[name] = d.get(name, 0) + count
    return d, pairings


def compare(req, fans):
    """None when our score protocol gives the same fans and total as MahjongGB; otherwise a
    description of the difference."""
    sys.path.insert(0, ROOT)
    from rules_min.request import handle_line

    rep = json.loads(handle_line(json.dumps(req, ensure_ascii=False), "mcr"))
    if not rep.get("ok"):
        return "refused by ours: %s" % (rep.get("error"),)
    ref = [(RENAME.get(cn, cn), k) for _p, k, cn, _en in fans]
    ref_total = sum(p * k for p, k, _cn, _en in fans)
    ours = [(f["name"], f["count"]) for f in rep["fans"]]
    if rep["total"] != ref_total or _norm(ours) != _norm(ref):
        return "ours %d %s / MahjongGB %d %s" % (rep["total"], sorted(ours), ref_total, sorted(ref))
    return None


def write(rows, path=PATH):
    with open(path, "w", encoding="utf-8") as f:
        for i, (shape, req, _fans) in enumerate(rows):
            line = {"id": i, "shape": shape}
            line.update(req)
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def main(argv):
    rows = generate()
    if "--check" in argv:
        bad = [(shape, req["hand"], why) for shape, req, fans in rows for why in [compare(req, fans)] if why]
        for b in bad:
            print("DIFFER %s %s: %s" % b)
        print("%d hands, %d differ from MahjongGB" % (len(rows), len(bad)))
        return 1 if bad else 0
    if os.path.exists(PATH) and "--force" not in argv:
        print("%s exists (--force to rewrite)" % os.path.relpath(PATH, ROOT))
        return 0
    write(rows)
    print("wrote %s (%d requests)" % (os.path.relpath(PATH, ROOT), len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
