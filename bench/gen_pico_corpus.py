"""Writes the fixed corpora of the chip benchmark (bench/pico_score.py). Run once; the outputs
are committed so that the figures keep measuring the same hands when the generators change.

    .venv/bin/python -m bench.gen_pico_corpus [--force]

bench/corpus_pico_mcr.txt       MCR score requests: 300 from tests/handgen.random_win, then 20 of
                                each rare shape forced (seven pairs, seven shifted pairs, thirteen
                                orphans, honours and knitted, knitted straight, nine gates, kongs,
                                all pungs, melded hands, chow/pung patterns): 500 hands
bench/corpus_pico_sichuan.txt   Sichuan score requests (tests/settlegen.sichuan_win), 200 hands
bench/corpus_pico_guangdong.txt Guangdong score requests (tests/settlegen.guangdong_win), 200 hands
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEED = 20261201
PATHS = {rules: os.path.join(HERE, "corpus_pico_%s.txt" % rules) for rules in ("mcr", "sichuan", "guangdong")}


def gen_mcr(rng):
    import handgen

    reqs = [handgen.random_win(rng) for _ in range(300)]
    rare = (handgen._s_seven_pairs, handgen._s_shifted_pairs, handgen._s_orphans, handgen._s_honours_knitted,
            handgen._s_knitted_straight, handgen._s_nine_gates, handgen._s_kongs, handgen._s_all_pungs,
            handgen._s_melded, handgen._s_pattern)
    for strategy in rare:
        n = 0
        while n < 20:
            out = strategy(rng)
            if out is None:
                continue
            hand, flags = (out[0], out[1]) if len(out) == 2 else (out, None)
            reqs.append(handgen._request(rng, hand, flags))
            n += 1
    return reqs


def gen_sichuan(rng):
    import settlegen

    reqs = []
    for _ in range(200):
        missing = rng.randrange(3)
        hand, _h = settlegen.sichuan_win(rng, missing)
        req = {"hand": hand, "self_drawn": rng.random() < 0.4, "missing_suit": "msp"[missing]}
        if rng.random() < 0.1:
            req["kong"] = True
        reqs.append(req)
    return reqs


def gen_guangdong(rng):
    import settlegen

    reqs = []
    for _ in range(200):
        hand, _h = settlegen.guangdong_win(rng)
        reqs.append({"hand": hand, "self_drawn": True})
    return reqs


def main(argv):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    sys.path.insert(0, ROOT)
    force = "--force" in argv
    rng = random.Random(SEED)
    for rules, gen in (("mcr", gen_mcr), ("sichuan", gen_sichuan), ("guangdong", gen_guangdong)):
        reqs = gen(rng)
        path = PATHS[rules]
        if os.path.exists(path) and not force:
            print("%s exists (--force to rewrite)" % os.path.relpath(path, ROOT))
            continue
        with open(path, "w", encoding="utf-8") as f:
            for i, r in enumerate(reqs):
                req = {"id": i}
                req.update(r)
                f.write(json.dumps(req, ensure_ascii=False) + "\n")
        print("wrote %s (%d requests)" % (os.path.relpath(path, ROOT), len(reqs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
