"""Seating: draw / rank / snake, the seed 004 no-repeat schedule over every allowed size, Swiss, chairs, text."""
import random
from itertools import combinations

import pytest

from host_tools.tournament.model import TournamentError
from host_tools.tournament.seating import (
    Table,
    draw_seating,
    mcr_hand_seats,
    mcr_round_chairs,
    opponents,
    preset_schedule,
    rank_seating,
    render_seating,
    schedule_problems,
    snake_seating,
    swiss_seating,
    table_sizes,
)


def independent_check(schedule, n):
    """Written separately from schedule_problems: count meetings of every pair."""
    meets = {}
    for session in schedule:
        seated = sorted(p for t in session for p in t.players)
        assert seated == sorted(str(i) for i in range(1, n + 1))
        for t in session:
            assert len(t.players) == 4
            for a, b in combinations(t.players, 2):
                key = (min(a, b), max(a, b))
                meets[key] = meets.get(key, 0) + 1
    return max(meets.values())


def test_no_repeat_schedule_for_every_size_16_to_400():
    for n in range(16, 401, 4):
        sched = preset_schedule(n)
        assert len(sched) == 3 and all(len(s) == n // 4 for s in sched)
        assert schedule_problems(sched) == [], n
        assert independent_check(sched, n) == 1, n


def test_schedule_session_1_is_draw_order_and_east_rotates():
    sched = preset_schedule(20)
    assert [t.players for t in sched[0][:2]] == [("1", "2", "3", "4"), ("5", "6", "7", "8")]
    east = [{t.players[0] for t in s} for s in sched]
    assert not (east[0] & east[1]) and not (east[1] & east[2]) and not (east[0] & east[2])


def test_schedule_with_player_ids():
    ids = ["p%02d" % i for i in range(24)]
    sched = preset_schedule(ids)
    assert schedule_problems(sched) == []
    assert sched[0][0].players == ("p00", "p01", "p02", "p03")


@pytest.mark.parametrize("n", [4, 8, 12])
def test_schedule_impossible_for_small_fields(n):
    with pytest.raises(TournamentError, match="16 players"):
        preset_schedule(n)


def test_schedule_needs_multiple_of_four():
    with pytest.raises(TournamentError, match="multiple of 4"):
        preset_schedule(18)


def test_checker_finds_repeats():
    bad = [[Table(1, ("a", "b", "c", "d")), Table(2, ("e", "f", "g", "h"))], [Table(1, ("a", "b", "e", "f")), Table(2, ("c", "d", "g", "h"))]]
    problems = schedule_problems(bad)
    assert len(problems) == 4 and "a and b meet in sessions 1 and 2" in problems


def test_four_sessions_for_sixteen_players():
    # 16 players admit up to 5 rounds (the affine plane of order 4); the construction gives 4
    assert schedule_problems(preset_schedule(16, sessions=4)) == []


def test_draw_and_rank_seating():
    assert [t.players for t in draw_seating("abcdefgh")] == [tuple("abcd"), tuple("efgh")]
    assert table_sizes(18) == [4, 4, 4, 3, 3]
    assert [len(t.players) for t in rank_seating([str(i) for i in range(18)])] == [4, 4, 4, 3, 3]
    for n in (1, 2, 5):
        with pytest.raises(TournamentError):
            table_sizes(n)


def test_snake_seating():
    tables, waiting = snake_seating([str(i) for i in range(1, 18)])
    # 4 tables: rows 1-4 -> tables 1..4, 5-8 -> tables 4..1, 9-12 -> 1..4, 13-16 -> 4..1; 17 waits
    assert [t.players for t in tables] == [
        ("1", "8", "9", "16"),
        ("2", "7", "10", "15"),
        ("3", "6", "11", "14"),
        ("4", "5", "12", "13"),
    ]
    assert waiting == ["17"]


def test_mcr_chairs_and_winds():
    rounds = mcr_round_chairs(["a", "b", "c", "d"])
    assert rounds == (("a", "b", "c", "d"), ("b", "a", "d", "c"), ("c", "d", "b", "a"), ("d", "c", "a", "b"))
    for p in "abcd":  # everyone sits in every chair once
        assert sorted(r.index(p) for r in rounds) == [0, 1, 2, 3]
    assert mcr_hand_seats("abcd", 0) == ("E", ("a", "b", "c", "d"))
    assert mcr_hand_seats("abcd", 1) == ("E", ("b", "c", "d", "a"))  # the dealer passes to the South chair
    assert mcr_hand_seats("abcd", 4) == ("S", ("b", "a", "d", "c"))
    assert mcr_hand_seats("abcd", 15) == ("N", ("b", "d", "c", "a"))


def test_render_seating():
    text = render_seating([Table(1, ("7", "2", "9", "4"))], "Session 1", names={"7": "张三"})
    assert text == "Session 1\nTable  Wind  Player\n    1  E     7  张三\n    1  S     2\n    1  W     9\n    1  N     4\n"


# ----------------------------------------------------------------- Swiss

def test_swiss_without_history_is_rank_order():
    s = swiss_seating([str(i) for i in range(8)], {})
    assert [t.players for t in s.tables] == [("0", "1", "2", "3"), ("4", "5", "6", "7")] and s.repeats == 0


def test_swiss_avoids_repeats_by_backtracking():
    ranked = [str(i) for i in range(8)]
    # only 4 and 5 have met: rank order would seat them together, so the first table gives up 3
    # for the next best choice, 4
    s = swiss_seating(ranked, {"4": {"5"}})
    assert [t.players for t in s.tables] == [("0", "1", "2", "4"), ("3", "5", "6", "7")]
    assert s.repeats == 0 and s.minimal


def test_swiss_sixteen_after_one_session():
    ranked = [str(i) for i in range(16)]
    hist = opponents([[ranked[0:4], ranked[4:8], ranked[8:12], ranked[12:16]]])
    s = swiss_seating(ranked, hist)
    assert [t.players for t in s.tables] == [
        ("0", "4", "8", "12"), ("1", "5", "9", "13"), ("2", "6", "10", "14"), ("3", "7", "11", "15"),
    ]
    assert s.repeats == 0


def test_swiss_twelve_after_one_session_needs_three_repeats():
    # a table of four drawn from three groups of four holds two of one group: at least one repeat
    # per table, and 2+1+1 splits achieve it
    ranked = [str(i) for i in range(12)]
    hist = opponents([[ranked[0:4], ranked[4:8], ranked[8:12]]])
    s = swiss_seating(ranked, hist)
    assert s.repeats == 3 and s.minimal
    assert len(s.repeated_pairs) == 3


def test_swiss_unavoidable_repeats_are_minimal_and_reported():
    ranked = list("abcdefgh")
    hist = opponents([[tuple("abcd"), tuple("efgh")]])
    s = swiss_seating(ranked, hist)
    # any two tables of four from two groups of four repeat at least 2 pairs per table
    best = min(
        sum(1 for t in (set(c), set(ranked) - set(c)) for a, b in combinations(sorted(t), 2) if b in hist[a])
        for c in combinations(ranked, 4)
    )
    assert best == 4 and s.repeats == 4
    assert len(s.repeated_pairs) == 4


def test_swiss_many_rounds_without_repeats():
    rng = random.Random(7)
    for n, rounds in ((32, 5), (100, 6)):
        players = [str(i) for i in range(n)]
        past = []
        for _ in range(rounds):
            rng.shuffle(players)  # a new ranking after each session
            s = swiss_seating(players, opponents(past))
            assert s.repeats == 0, (n, len(past))
            past.append(s.tables)
        assert schedule_problems(past) == []
