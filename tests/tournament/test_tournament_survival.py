"""Seed 000 survival event (勇者争先赛): multipliers, eliminations, tie rules, re-tabling, a whole event."""
import pytest

from host_tools.tournament.model import TournamentError
from host_tools.tournament.survival import (
    SurvivalHand as H,
    Waiting,
    play_survival_table,
    survival_multiplier,
    survival_retable,
)
from host_tools.tournament.survival_live import run_survival_event


def test_multiplier_schedule():
    assert [survival_multiplier(m) for m in (0, 29, 29.99, 30, 59, 60, 89, 90, 120, 150, 180)] == [1, 1, 1, 2, 2, 4, 4, 6, 8, 10, 12]
    with pytest.raises(TournamentError):
        survival_multiplier(-1)


def test_threshold_during_a_hand_applies_from_the_next_hand():
    start = {"A": 50, "B": 50, "C": 50, "D": 50}
    hands = [
        # A self-draws 8 fans: each pays 16 -> A 98, B 34, C 34, D 34
        H(0, {"A": 48, "B": -16, "C": -16, "D": -16}, winner="A", end=10),
        # starts at 29, ends at 33: still x1. B wins 10 fans on C's discard: B +34, C -18, A -8, D -8
        # -> A 90, B 68, C 16, D 26
        H(29, {"B": 34, "C": -18, "A": -8, "D": -8}, winner="B", discarder="C", end=33),
        # starts at 34: x2. D wins 8 fans on A's discard: D +32, A -16, B -8, C -8, doubled
        # -> A 58, B 52, C 0 (out: 0 counts), D 90
        H(34, {"D": 32, "A": -16, "B": -8, "C": -8}, winner="D", discarder="A", end=40),
    ]
    r = play_survival_table(start, hands)
    assert [h.multiplier for h in r.hands] == [1, 1, 2]
    assert dict(r.scores) == {"A": 58, "B": 52, "C": 0, "D": 90}
    assert r.finished and r.finished_at == 40
    assert r.eliminated == ("C",) and r.survivors == ("D", "A", "B")
    assert [(p.place, p.player, p.out) for p in r.order] == [(1, "D", False), (2, "A", False), (3, "B", False), (4, "C", True)]
    # a hand keyed after the bust (hand 3) does not count and does not drop the table: it is
    # listed for the referee and the result stands as of hand 3
    late = play_survival_table(start, hands + [H(41, {"A": 24, "B": -8, "C": -8, "D": -8}, winner="A", discarder=None)])
    assert dict(late.scores) == dict(r.scores) and late.order == r.order and len(late.hands) == 3
    assert [(x.hand, x.code) for x in late.refused] == [(4, "after_bust")]


def test_catch_up_wins_tie_between_survivors():
    start = {"A": 50, "B": 50, "C": 50, "D": 50}
    hands = [
        H(0, {"A": 24, "B": -8, "C": -8, "D": -8}, winner="A"),  # A 74 B 42 C 42 D 42
        H(5, {"B": 32, "A": -8, "C": -8, "D": -16}, winner="B", discarder="D"),  # A 66 B 74 C 34 D 26
        H(10, {"C": 32, "A": -8, "B": -16, "D": -8}, winner="C", discarder="B"),  # A 58 B 58 C 66 D 18
        H(15, {"C": 54, "A": -18, "B": -18, "D": -18}, winner="C"),  # A 40 B 40 C 120 D 0 (out)
    ]
    r = play_survival_table(start, hands)
    # A and B tie on 40 and were level before hand 4 too; before hand 3 A (66) was behind B (74):
    # A caught up, so A ranks first (追平胜)
    assert [p.player for p in r.order] == ["C", "A", "B", "D"]
    assert [p.place for p in r.order] == [1, 2, 3, 4]


def test_identical_history_shares_the_place():
    r = play_survival_table({"A": 50, "B": 50, "C": 50, "D": 20}, [H(0, {"C": 40, "A": -10, "B": -10, "D": -20}, winner="C", discarder="D")])
    assert [(p.place, p.player) for p in r.order] == [(1, "C"), (2, "A"), (2, "B"), (4, "D")]


def test_several_out_self_draw_higher_previous_score_first():
    # D self-draws 8 fans at minute 30 (x2): each pays 16 x 2 = 32
    r = play_survival_table({"A": 60, "B": 20, "C": 25, "D": 100}, [H(30, {"D": 48, "A": -16, "B": -16, "C": -16}, winner="D")])
    # A 28, B -12, C -7, D 196: B and C out; C had 25 before the hand, B 20
    assert [p.player for p in r.order] == ["D", "A", "C", "B"]


def test_several_out_survivor_dealt_in_higher_previous_score_first():
    # minute 60 (x4): D wins 8 fans on A's discard: A -16, B -8, C -8 -> A 36, B -12, C -22
    r = play_survival_table({"A": 100, "B": 20, "C": 10, "D": 100}, [H(60, {"D": 32, "A": -16, "B": -8, "C": -8}, winner="D", discarder="A")])
    assert [p.player for p in r.order] == ["D", "A", "B", "C"]


def test_several_out_eliminated_discarder_ranks_last():
    # minute 60 (x4): D wins 8 fans on B's discard: B -16, A -8, C -8 -> A 28, B -44, C -22, D 228
    r = play_survival_table({"A": 60, "B": 20, "C": 10, "D": 100}, [H(60, {"D": 32, "B": -16, "A": -8, "C": -8}, winner="D", discarder="B")])
    # B had more before the hand (20 > 10) but dealt in: C ranks above B
    assert [p.player for p in r.order] == ["D", "A", "C", "B"]


def test_penalties_are_not_multiplied():
    r = play_survival_table({"A": 50, "B": 50, "C": 50, "D": 50}, [H(95, {}, penalties={"A": -30, "B": 10, "C": 10, "D": 10})])
    assert dict(r.scores) == {"A": 20, "B": 60, "C": 60, "D": 60} and not r.finished


def test_retable_first_finished_first_then_extremes():
    waiting = [
        Waiting("p", 60, 40), Waiting("q", 55, 40), Waiting("r", 45, 40),
        Waiting("s", 90, 50), Waiting("t", 70, 50), Waiting("u", 30, 50), Waiting("v", 20, 50),
    ]
    # queue: group at 40 by extremes p, r, q; group at 50: s, v, t, u -> table p r q s, seated by score
    tables, rest = survival_retable(waiting)
    assert tables == [("s", "p", "q", "r")]
    assert [w.player for w in rest] == ["v", "t", "u"]


def test_retable_simultaneous_lowest_and_highest_together():
    scores = dict(zip("abcdefgh", (100, 90, 80, 70, 60, 50, 40, 30)))
    tables, rest = survival_retable([Waiting(p, s, 75) for p, s in reversed(scores.items())])
    # queue a h b g c f d e
    assert tables == [("a", "b", "g", "h"), ("c", "d", "e", "f")] and rest == []


def test_whole_event_by_hand():
    scripts = {
        # snake of 8: table 1 = ranks 1, 4, 5, 8; table 2 = 2, 3, 6, 7
        1: [H(0, {"1": 66, "4": -8, "5": -8, "8": -50}, winner="1", discarder="8", end=10)],  # 8 out at 10
        2: [H(0, {"2": 66, "3": -8, "6": -8, "7": -50}, winner="2", discarder="7", end=20)],  # 7 out at 20
        # at 20: queue 1, 5, 4 (finished at 10), then 2, 6, 3 -> table 3 = 1, 2, 4, 5 (by score, then rank)
        3: [H(20, {"4": 64, "1": -8, "2": -8, "5": -48}, winner="4", discarder="5", end=25)],  # 5 out at 25
        # at 25: queue 3, 6 (since 20), 1, 4, 2 -> table 4 = 1 (108), 4 (106), 3 (42), 6 (42); 2 waits
        4: [
            H(31, {"1": 32, "4": -8, "3": -8, "6": -16}, winner="1", discarder="6", end=35),  # x2: 1 172, 4 90, 3 26, 6 10
            H(36, {"4": 32, "1": -8, "3": -8, "6": -16}, winner="4", discarder="6", end=40),  # x2: 4 154, 1 156, 3 10, 6 -22
        ],
        # at 40: 2 (108, since 25), then 1, 3, 4 -> the last table: 1 (156), 4 (154), 2 (108), 3 (10)
        5: [H(40, {"2": 32, "1": -8, "4": -8, "3": -16}, winner="2", discarder="3", end=45)],  # x2: 2 172, 1 140, 4 138, 3 -22
    }
    seen = []

    def play(start):
        seen.append((start.number, start.seats, dict(start.scores), start.start, start.last))
        return scripts[start.number]

    result = run_survival_event([str(i) for i in range(1, 9)], play)
    assert seen == [
        (1, ("1", "4", "5", "8"), {"1": 50, "4": 50, "5": 50, "8": 50}, 0, False),
        (2, ("2", "3", "6", "7"), {"2": 50, "3": 50, "6": 50, "7": 50}, 0, False),
        (3, ("1", "2", "4", "5"), {"1": 116, "2": 116, "4": 42, "5": 42}, 20, False),
        (4, ("1", "4", "3", "6"), {"1": 108, "4": 106, "3": 42, "6": 42}, 25, False),
        (5, ("1", "4", "2", "3"), {"1": 156, "4": 154, "2": 108, "3": 10}, 40, True),
    ]
    assert [(p.place, p.player, p.score) for p in result.ranking] == [
        (1, "2", 172), (2, "1", 140), (3, "4", 138), (4, "3", -22),
        (5, "6", -22), (6, "5", -6), (7, "7", 0), (8, "8", 0),
    ]


def test_event_with_simultaneous_eliminations_and_waiting_pairs():
    scripts = {
        1: [  # table 1 = 1, 4, 5, 8
            H(0, {"1": 58, "5": -42, "4": -8, "8": -8}, winner="1", discarder="5", end=2),  # 1 108, 4 42, 5 8, 8 42
            H(3, {"8": 126, "1": -42, "4": -42, "5": -42}, winner="8", end=5),  # 8 168, 1 66, 4 0, 5 -34: 4 and 5 out
        ],
        2: [H(0, {"2": 66, "7": -50, "3": -8, "6": -8}, winner="2", discarder="7", end=9)],  # 2 116, 3 42, 6 42, 7 0
        # at 9: queue 8, 1 (since 5), then 2, 6, 3 -> table 3 = 8, 2, 1, 6 by score; 3 waits
        3: [H(10, {"8": 58, "6": -42, "2": -8, "1": -8}, winner="8", discarder="6", end=12)],  # 8 226, 2 108, 1 58, 6 0
        # at 12: queue 3 (since 9), then 8, 1, 2 -> the last table 8, 2, 1, 3
        4: [H(15, {"3": 74, "1": -58, "8": -8, "2": -8}, winner="3", discarder="1", end=20)],  # 8 218, 3 116, 2 100, 1 0
    }
    seats = []

    def play(start):
        seats.append((start.seats, start.last))
        return scripts[start.number]

    result = run_survival_event([str(i) for i in range(1, 9)], play)
    assert seats == [(("1", "4", "5", "8"), False), (("2", "3", "6", "7"), False), (("8", "2", "1", "6"), False), (("8", "2", "1", "3"), True)]
    # below the last table: 6 (out at 12), 7 (at 9), then 4 and 5 together at 5 (self-draw: 4 had 42, 5 had 8)
    assert [(p.place, p.player) for p in result.ranking] == [
        (1, "8"), (2, "3"), (3, "2"), (4, "1"), (5, "6"), (6, "7"), (7, "4"), (8, "5"),
    ]


def test_event_ends_when_fewer_than_four_remain():
    scripts = {
        # 5 players: table 1 = 1, 2, 3, 4 and 5 waits
        1: [
            H(0, {"1": 32, "4": -16, "2": -8, "3": -8}, winner="1", discarder="4", end=2),  # 1 82, 2 42, 3 42, 4 34
            H(3, {"4": 126, "1": -42, "2": -42, "3": -42}, winner="4", end=6),  # 1 40, 2 0, 3 0, 4 160
        ],
    }
    result = run_survival_event(["1", "2", "3", "4", "5"], lambda s: scripts[s.number])
    # 4, 1 and 5 remain: no table of four can be formed, the event ends; placed by score
    assert [(p.place, p.player, p.score) for p in result.ranking] == [(1, "4", 160), (2, "5", 50), (3, "1", 40), (4, "2", 0), (5, "3", 0)]
    # 2 and 3 were level at every point of the table: the table itself shares their place
    assert [(p.place, p.player) for p in result.tables[0][1].order][2:] == [(3, "2"), (3, "3")]


def test_event_refuses_a_table_nobody_left():
    with pytest.raises(TournamentError):
        run_survival_event(["1", "2", "3", "4"], lambda s: [H(0, {})])
