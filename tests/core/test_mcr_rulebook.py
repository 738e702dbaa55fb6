# The 132 example hands of the fan definitions score as the rulebook says. 喜相逢 / 连六 / 老少副
# are equal-point labels of the same pairing (docs/rules.md), so they are compared as one group.
import rulebook
from rules_min import mcr
from rules_min.mcr_table import name
from rules_min.notation import parse
from rules_min.tiles import parse_tile
from rules_min.win import Win

_RELABEL = ("喜相逢", "连六", "老少副")


def _norm(fans):
    d = {}
    pairings = 0
    for n, k in fans:
        if n in _RELABEL:
            pairings += k
        else:
            d[n] = d.get(n, 0) + k
    return d, pairings


def _score(ex):
    melds, counts, win, _ = parse(ex["hand"])
    ft = bytearray(mcr.NUM_FANS)
    total = mcr.score(Win(melds, counts, win, self_drawn=ex["self_drawn"], seat_wind=parse_tile(ex["seat_wind"]),
                          prevalent_wind=parse_tile(ex["prevalent_wind"])), ft)
    if total < 0:
        return None, 0
    return [(name(f), ft[f]) for f in range(len(ft)) if ft[f]], total


def test_all_132_examples_score_as_the_book():
    exs = rulebook.examples()
    assert len(exs) == 132
    wrong = []
    for ex in exs:
        fans, total = _score(ex)
        if fans is None or total != ex["total"] or _norm(fans) != _norm(ex["expected"]):
            wrong.append((ex["hand"], ex["expected"], fans, total))
    for w in wrong:
        print("rulebook mismatch:", w)
    assert not wrong


def test_relabel_grouping_still_catches_a_wrong_count():
    # the comparison itself must be able to fail
    assert _norm([("连六", 1), ("平和", 1)]) != _norm([("连六", 2), ("平和", 1)])
    assert _norm([("连六", 1)]) == _norm([("喜相逢", 1)])
