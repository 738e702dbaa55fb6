"""One builder of a hand's row (host_tools/server/boxes/hand_row.py): the row of a hand a
referee keys in and rules_min settles is the row the box's own record of that hand gives. The
records are the simulated box's (the firmware writes them, from the shipped scenarios of all
three rule sets); their events are settled again as the referee's path settles them. No server:
the builder is plain data."""
from pathlib import Path

import pytest

from host_tools.server.boxes import hand_row
from protocol import record as precord
from rules_min.settle_request import settle

SCENARIOS = ("mcr_session", "penalties_declare", "sichuan_kongs_chajiao", "guangdong_horses")
# what differs between the two paths by design: the record and its box, and when the row was made
OWN = {"record_id", "device", "time"}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def hands(tmp_path_factory):
    """(scenario, hand record) of every hand the simulated box journals."""
    from simulator import parts
    from simulator.runner import Sim

    out = []
    for name in SCENARIOS:
        sim = Sim(cfg=parts.for_board("sim"), folder=str(tmp_path_factory.mktemp(name)))
        sim.run(str(ROOT / "simulator" / "scenarios" / (name + ".txt")))
        out += [(name, precord.decode(bytes(p))) for _, p in sim.journal.records(1)]
        sim.journal.close()
    return [(n, r) for n, r in out if r["kind"] == "hand"]


def test_the_scenarios_hold_wins_of_every_rule_set(hands):
    seen = {r["rules"] for _, r in hands if r["wins"]}
    assert seen == {"mcr", "sichuan", "guangdong"}, seen
    assert any(len(r["wins"]) > 1 for _, r in hands)  # a Sichuan hand that went on after a win
    assert any(not r["wins"] for _, r in hands)  # a hand nobody won


def test_a_settled_hand_gives_the_row_of_its_box_record(hands):
    for name, rec in hands:
        h = settle({"dealer": rec["dealer"], "prevalent_wind": rec["prevalent_wind"], "events": rec["events"], "options": {}}, rec["rules"])
        assert h.deltas() == rec["deltas"], (name, rec["hand"])  # the same hand, settled again
        box = hand_row.from_record(rec, 7, "box-1")
        ref = hand_row.from_settled(h, rec["tournament"], rec["session"], rec["table"], rec["hand"], rec["seats"], 1)
        assert set(box) == set(ref) == set(hand_row.COLUMNS)
        assert {k: v for k, v in ref.items() if k not in OWN} == {k: v for k, v in box.items() if k not in OWN}, (name, rec["hand"])
        assert (ref["record_id"], ref["device"], box["record_id"], box["device"]) == (None, None, 7, "box-1")


def test_fans_are_the_wins_totals_in_every_rule_set(hands):
    # a Guangdong hand's fans are its multiplier (settle's reason text says "x4", not "4 fans")
    for name, rec in hands:
        row = hand_row.from_record(rec, 1, "box-1")
        assert row["fans"] == max([w["total"] for w in rec["wins"]] or [0])
        assert row["fan_names"] == [w["fans"] for w in rec["wins"]]
        if rec["wins"]:
            assert row["fans"] > 0, (name, rec["hand"])


def test_deductions_are_the_points_paid_to_nobody():
    assert hand_row.deductions([[0, 1, 8, 0], [2, None, 20, 1], [None, 3, 5, 2], [2, None, 10, "late"]]) == [0, 0, 30, 0]
    row = hand_row.from_record({"v": 2, "tournament": "T", "session": 1, "table": 1, "hand": 1, "rules": "sichuan", "seats": ["a", "b", "c", "d"],
                                "deltas": [8, -8, -20, 0], "dealer": 0, "winners": [0], "discarder": 1, "time": 5,
                                "wins": [{"seat": 0, "from": 1, "total": 1, "fans": [[0, 1]]}],
                                "transfers": [[1, 0, 8, 0], [2, None, 20, 1]]}, 3, "box")
    assert row["deductions"] == "0,0,20,0" and row["winners"] == "0" and row["discarder"] == 1
    values = hand_row.insert_values(row)
    assert len(values) == len(hand_row.COLUMNS) and values[hand_row.COLUMNS.index("fan_names")] == "[[[0, 1]]]"


def test_a_version_1_hand_keeps_its_fans():
    v1 = {"v": 1, "kind": "hand", "tournament": "T", "session": 1, "table": 2, "hand": 1, "rules": "sichuan", "seats": ["a", "b", "c", "d"],
          "dealer": 0, "prevalent_wind": "E", "events": [{"penalty": "tier1", "seat": 1}], "deltas": [30, -30, -10, -10],
          "fans": {"seat": 0, "total": 9, "names": ["x", "y"]}, "winners": [0], "discarder": None, "time": 1}
    row = hand_row.from_record(v1, 1, "box")
    assert (row["fans"], row["fan_names"], row["deductions"]) == (9, [["x", "y"]], "0,20,0,0")
