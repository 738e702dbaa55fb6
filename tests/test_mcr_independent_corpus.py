"""The independent MCR corpus of the chip benchmark (bench/gen_independent_corpus.py, issue 21):
hands built from random melds, pairs and the special shapes without the project's generator,
kept only when PyMahjongGB scores them at 8 fans or more. Our scorer must agree with MahjongGB on
every one, and the committed corpus must be the one the seeded generator writes (so the chip's
figures measure hands that were checked here)."""
import collections
import json

import pytest

from bench import gen_independent_corpus as gen

RARE = ("九莲宝灯", "十三幺", "七星不靠", "全不靠", "组合龙", "连七对", "七对", "绿一色", "四杠", "三杠",
        "抢杠和", "杠上开花", "海底捞月", "妙手回春", "和绝张", "字一色", "清一色", "碰碰和")


@pytest.fixture(scope="module")
def rows():
    return gen.generate()


def test_the_committed_corpus_is_the_generators(rows):
    with open(gen.PATH, encoding="utf-8") as f:
        committed = [json.loads(ln) for ln in f]
    want = []
    for i, (shape, req, _fans) in enumerate(rows):
        line = {"id": i, "shape": shape}
        line.update(req)
        want.append(line)
    assert committed == want


def test_every_hand_scores_as_mahjonggb(rows):
    bad = [(shape, req["hand"], why) for shape, req, fans in rows for why in [gen.compare(req, fans)] if why]
    assert not bad, "%d of %d hands differ: %s" % (len(bad), len(rows), bad[:10])


def test_every_shape_and_rare_fan_is_in_the_corpus(rows):
    shapes = collections.Counter(shape for shape, _req, _fans in rows)
    assert set(shapes) == set(name for name, _fn in gen.SHAPES)
    assert set(shapes.values()) == {gen.PER_SHAPE}
    seen = collections.Counter(cn for _s, _r, fans in rows for _p, _k, cn, _en in fans)
    missing = [n for n in RARE if not seen[n]]
    assert not missing, missing
    for flag in ("self_drawn", "last_of_kind", "last_tile", "kong"):
        assert sum(1 for _s, req, _f in rows if req[flag]) >= 10, flag
    assert sum(1 for _s, req, _f in rows if "[" in req["hand"]) >= 50


def test_compare_reports_a_wrong_score(rows):
    # the comparison itself can fail: MahjongGB's fans with one removed must differ from ours
    _shape, req, fans = rows[0]
    assert gen.compare(req, fans[1:]) is not None
    assert gen.compare(dict(req, hand=req["hand"][:-1] + ("E" if req["hand"][-1] != "E" else "S")), fans)
