"""host_tools/server/results/versions.py without a server: which copy of a hand counts when
several sources recorded it, and what waits for a referee (issue 18.3). The server tests
(test_recovered_records.py) run the same through uploads and rulings; these cover the cases
they do not reach: three copies, a referee changing their mind between two accepted versions,
a copy with another problem, a rejected first copy."""
from host_tools.server.results import versions
from host_tools.server.results.integrity import Verdict
from host_tools.server.results.snapshot import HandRow

SEATS = ("A", "B", "C", "D")
WIN_A = (24, -8, -8, -8)
WIN_B = (-8, 24, -8, -8)


def copy(hid, rid, deltas, winner, device="box1", manual=False):
    return HandRow(hid, None if manual else rid, None if manual else device, None if manual else rid, 1, 1, 3, "mcr", SEATS, deltas, deltas,
                   2, (winner,), None, 8, 0, (0, 0, 0, 0), manual)


def judge(hands, rulings=None, problems=None):
    v = Verdict()
    for rid, text in (problems or {}).items():
        v.add(rid, text)
    versions.judge(hands, rulings or {}, v)
    return v


def test_identical_copies_count_once_and_wait_for_nobody():
    v = judge([copy(1, 10, WIN_A, 0), copy(2, 11, WIN_A, 0, "box2"), copy(3, 12, WIN_A, 0, "box3")])
    assert v.excluded == {11, 12} and set(v.duplicates) == {11, 12} and not v.problems and not v.shown
    assert "box box1 record 10" in v.duplicates[11]


def test_a_different_copy_waits_with_both_versions_and_the_first_counts():
    v = judge([copy(1, 10, WIN_A, 0), copy(2, 11, WIN_B, 1, "box2"), copy(3, 12, WIN_A, 0, "box3")])
    assert list(v.problems) == [11] and "differ (points, winners)" in v.problems[11][0]
    assert [x["record"] for x in v.shown[11]] == [10, 11] and v.shown[11][1]["winners"] == ["B"]
    assert set(v.duplicates) == {12} and 10 not in v.excluded


def test_the_latest_accept_decides_between_versions():
    hands = [copy(1, 10, WIN_A, 0), copy(2, 11, WIN_B, 1, "box2"), copy(3, 12, (-8, -8, 24, -8), 2, "box3")]
    v = judge(hands, {11: "accept", 12: "accept"})  # 12 accepted last
    assert set(v.set_aside) == {10, 11} and 12 not in v.excluded and list(v.problems) == [12]
    v = judge(hands, {12: "accept", 11: "accept"})  # 11 accepted last
    assert set(v.set_aside) == {10, 12} and 11 not in v.excluded


def test_a_referee_hand_counts_first_and_is_dropped_only_by_an_accept():
    v = judge([copy(1, 10, WIN_B, 1), copy(2, None, WIN_A, 0, manual=True)])
    assert list(v.problems) == [10] and v.shown[10][0]["source"] == "entered by a referee" and not v.dropped_hands
    v = judge([copy(1, 10, WIN_B, 1), copy(2, None, WIN_A, 0, manual=True)], {10: "accept"})
    assert list(v.dropped_hands) == [2] and 10 not in v.excluded


def test_a_copy_with_another_problem_does_not_count_first():
    v = judge([copy(1, 10, WIN_B, 1), copy(2, 11, WIN_A, 0, "box2")], problems={10: "box box1 was not bound here"})
    assert "differ" in v.problems[10][-1] and "box box2 record 11 counts" in v.problems[10][-1] and 11 not in v.problems


def test_a_rejected_copy_takes_no_part():
    v = judge([copy(1, 10, WIN_B, 1), copy(2, 11, WIN_A, 0, "box2")], {10: "reject"})
    assert not v.problems and not v.duplicates and not v.set_aside
