"""boxes/invariants.py, the one check every way a result enters goes through (no server needed),
and the referee's two paths through it: a hand entered by hand (settled by rules_min) and a
correction by player name (tests/server/test_record_invariants.py has the box's paths)."""
import pytest

from host_tools.server.boxes import contract, contract_v1, invariants, placement
from host_tools.server.errors import BadRecord
from protocol.record import POINTS_MAX


def test_a_hand_adds_up_or_is_refused():
    invariants.hand([24, -8, -8, -8], [[1, 0, 8, 0], [2, 0, 8, 0], [3, 0, 8, 0]])
    invariants.hand([-5, 0, 0, 0], [[0, None, 5, 0]])  # a penalty paid to nobody: the sum goes below 0
    invariants.hand([30, -30, -10, -10], deductions=[0, 20, 0, 0])  # v1 Sichuan: its tier penalties are deductions
    for deltas, transfers, why in (
            ([1000000, 0, 0, 0], [[None, 0, 1000000, 0]], "from nobody"),
            ([24, -8, -8, -8], [[1, 0, 8, 0], [2, 0, 8, 0]], "not the sum"),
            ([8, -8, 0, 0], [[1, 0, 8, 0], [1, 1, 5, 0]], "from one seat to another"),
            ([POINTS_MAX + 1, 0, 0, -POINTS_MAX - 1], [[3, 0, POINTS_MAX + 1, 0]], "between"),
            ([1, 2, 3], [], "4 numbers"),
            ([True, 0, 0, 0], [], "whole number")):
        with pytest.raises(invariants.Unbalanced, match=why):
            invariants.hand(deltas, transfers)
    with pytest.raises(invariants.Unbalanced, match="sum to 8"):
        invariants.hand([24, -8, -8, 0], deductions=[0, 0, 0, 0])
    with pytest.raises(invariants.Unbalanced, match="sum to -20"):
        invariants.hand([30, -30, -10, -10], deductions=[0, 0, 0, 0])  # deductions that are not there


def test_a_correction_never_credits_from_nobody():
    invariants.correction([8, -8, 0, 0])
    invariants.correction([0, -5, 0, 0])  # it may carry a deduction
    invariants.correction([10, -10, -3, 0], deductions=[0, 0, 3, 0])
    with pytest.raises(invariants.Unbalanced, match="sum to 4000000"):
        invariants.correction([1000000] * 4)
    with pytest.raises(invariants.Unbalanced, match="sum to -3"):
        invariants.correction([10, -10, -3, 0], deductions=[0, 0, 0, 0])


def test_the_contract_holds_both_versions_to_it():
    v2 = {"v": 2, "kind": "correction", "corrects": {"device": "b", "seq": 2}, "seats": ["a", "b", "c", "d"], "deltas": [9, 0, 0, 0],
          "was": [0, 0, 0, 0], "reason": "", "referee": "r", "time": 5}
    with pytest.raises(BadRecord, match="sum to 9"):
        invariants.balanced(v2)
    v1 = {"v": 1, "kind": "hand", "tournament": "T", "session": 1, "table": 1, "hand": 1, "rules": "mcr", "seats": ["a", "b", "c", "d"],
          "dealer": 0, "prevalent_wind": "E", "events": [], "deltas": [POINTS_MAX * 10, 0, 0, 0], "fans": None, "winners": [], "discarder": None,
          "time": 1}
    with pytest.raises(BadRecord):
        contract_v1.check(v1)
    with pytest.raises(BadRecord, match="sum to 8"):
        contract_v1.check(dict(v1, deltas=[24, -8, -8, 0]))
    contract_v1.check(dict(v1, deltas=[24, -8, -8, -8]))


@pytest.mark.parametrize("text", [b"1e-10000000", b"0.5", b"-0.0", b"1E3", b"9223372036854775808", b"-9223372036854775808", b"1" * 5000])
def test_numbers_no_database_stores_are_refused(text):
    with pytest.raises(BadRecord, match="number"):
        contract.parse_json(b'{"a": [' + text + b"]}")
    assert contract.parse_json(b'{"a": [9223372036854775807, -9223372036854775807, 0]}') == {"a": [2**63 - 1, -(2**63 - 1), 0]}


def test_the_box_and_the_door_agree_on_a_clock_reading():
    from firmware.link import requests as link_requests

    assert placement.CLOCK_MIN == link_requests.CLOCK_MIN


SETTLED_FROM_NOBODY = r"""
import sys
from host_tools.server.main import setup
setup("sqlite:///" + sys.argv[1])  # settings only: nothing here touches the database
import rules_min.settle_request as sr
from host_tools.server.boxes import rescore
from host_tools.server.errors import Invalid

class Credited:  # what a settle that went wrong would give: a player credited from nobody
    rules = "mcr"
    def deltas(self):
        return [1000000, 0, 0, 0]
    def settled(self):
        return [[None, 0, 1000000, 0]]

sr.settle = lambda request, rules: Credited()
try:
    rescore.settle_keyed("mcr", ["A", "B", "C", "D"], 0, "E", [], {})
except Invalid as e:
    print("refused:", e)
else:
    print("taken")
"""


def test_a_hand_keyed_by_a_referee_passes_the_same_door(tmp_path):
    """Every hand a referee keys (entered on a table's page or by the API, or re-scored by its
    tiles) is settled by ``rescore.settle_keyed``, which holds what settle gives to the
    invariants: a settle that credited from nobody is refused, not stored. Run in a child
    process: Django's settings are set up there only."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", SETTLED_FROM_NOBODY, str(tmp_path / "unused.db")], cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("refused: the hand does not add up") and "from nobody" in out.stdout, out.stdout
