"""Writes the fixed benchmark corpora. Run ONCE; the outputs are committed so that the benchmark
keeps measuring the same hands even when tests/handgen.py changes.

    .venv/bin/python -m bench.gen_corpus [--force]

bench/corpus_mcr.txt     one MCR score request per line (JSON, the protocol of README.md),
                         2,000 hands from tests/handgen.random_win(random.Random(20240601))
bench/corpus_riichi.txt  one riichi hand per line for the `mahjong` package:
                         {"tiles": [136-format, 14 tiles], "win_tile": t, "dora": [t]}
                         2,000 random closed winning hands (4 sets + pair, some seven pairs),
                         each checked with mahjong.agari.Agari.is_agari and scored without error
                         by HandCalculator under HandConfig(is_tsumo=True) (menzen tsumo = a yaku)
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MCR_PATH = os.path.join(HERE, "corpus_mcr.txt")
RIICHI_PATH = os.path.join(HERE, "corpus_riichi.txt")

MCR_SEED = 20240601
MCR_N = 2000
RIICHI_SEED = 20240602
RIICHI_N = 2000


def gen_mcr():
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import handgen

    rng = random.Random(MCR_SEED)
    lines = []
    for i in range(MCR_N):
        req = {"id": i}
        req.update(handgen.random_win(rng))
        lines.append(json.dumps(req, ensure_ascii=False))
    return lines


def _riichi_hand(rng):
    """A random closed winning hand as counts34, or None."""
    c = [0] * 34
    if rng.random() < 0.05:  # seven pairs: 7 distinct tiles
        for t in rng.sample(range(34), 7):
            c[t] = 2
        return c
    for _ in range(4):
        if rng.random() < 0.6:
            s = rng.randrange(3)
            t = s * 9 + rng.randrange(7)
            for x in (t, t + 1, t + 2):
                c[x] += 1
        else:
            t = rng.randrange(34)
            c[t] += 3
    p = rng.randrange(34)
    c[p] += 2
    if max(c) > 4:
        return None
    return c


def gen_riichi():
    from mahjong.agari import Agari
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    rng = random.Random(RIICHI_SEED)
    calc = HandCalculator()
    config = HandConfig(is_tsumo=True)
    lines = []
    while len(lines) < RIICHI_N:
        c = _riichi_hand(rng)
        if c is None or not Agari.is_agari(c):
            continue
        tiles = []
        for t in range(34):
            copies = rng.sample(range(4), c[t])
            tiles.extend(4 * t + k for k in copies)
        rng.shuffle(tiles)
        win_tile = rng.choice(tiles)
        tiles.sort()
        taken = set(tiles)
        dora = rng.choice([x for x in range(136) if x not in taken])
        res = calc.estimate_hand_value(tiles, win_tile, None, [dora], config)
        if res.error is not None:
            continue
        lines.append(json.dumps({"tiles": tiles, "win_tile": win_tile, "dora": [dora]}))
    return lines


def write(path, lines, force):
    if os.path.exists(path) and not force:
        print("%s exists; keeping it (--force to rewrite)" % os.path.relpath(path, ROOT))
        return
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(line + "\n")
    print("wrote %d lines to %s" % (len(lines), os.path.relpath(path, ROOT)))


def main(argv):
    force = "--force" in argv
    write(MCR_PATH, gen_mcr(), force)
    write(RIICHI_PATH, gen_riichi(), force)


if __name__ == "__main__":
    main(sys.argv[1:])
