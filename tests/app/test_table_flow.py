"""The key paths meet issue 11's goals (bench/table_flow.py measures them for make bench): a
discard win or self-draw <= 4 keys besides the tiles, a claimed meld <= 2, a kong or a penalty
<= 4, undo 1; each path plays as written."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import table_flow  # noqa: E402


def test_every_common_hand_meets_its_goal():
    rows = table_flow.measure()
    assert len(rows) >= 10
    for r in rows:
        assert r["played"], r
        assert r["met"], r
    by = {r["hand"]: r for r in rows}
    melds = by["MCR discard win, two claimed melds"]["keys"] - by["MCR discard win, no melds"]["keys"]
    assert melds <= 2 * 2
    assert by["MCR self-draw with two flowers"]["taps"] == 16
    assert all(r["confirm"] == 4 for r in rows if "win" in r["hand"] or "self-draw" in r["hand"])
