"""Seed 003 (Sichuan) stages: ranking, ties by net score, wins, play-off; runners-up; the final."""
import pytest

from host_tools.tournament.formats.sichuan_003 import (
    PlayoffRequired,
    SichuanGame,
    SichuanLine,
    sichuan_final,
    sichuan_lines,
    sichuan_rank_table,
    sichuan_stage2,
    sichuan_top_per_table,
)

L = SichuanLine


def test_stage1_ties_by_net_then_wins():
    t1 = [L("p1", 120, 120, 3), L("p2", 50, 60, 2), L("p3", 50, 50, 3), L("p4", -220, -220, 0)]
    # p2, p3 tie on 50: p2 has the better net score (60: p2 lost 10 to a penalty)
    t2 = [L("q1", 80, 80, 2), L("q2", 80, 80, 3), L("q3", -30, -30, 1), L("q4", -30, -30, 1)]
    # q1, q2 tie on score and net: q2 won more games. q3, q4 tie on everything but only for third: shared
    stage = sichuan_top_per_table([t1, t2])
    assert stage.advancing == ("p1", "p2", "q2", "q1")
    assert [(x.place, x.player) for x in stage.tables[1]] == [(1, "q2"), (2, "q1"), (3, "q3"), (3, "q4")]


def test_tie_across_the_cut_needs_the_playoff():
    t = [L("r1", 100, 100, 3), L("r2", 0, 0, 1), L("r3", 0, 0, 1), L("r4", -100, -100, 0)]
    with pytest.raises(PlayoffRequired) as e:
        sichuan_top_per_table([t])
    assert set(e.value.players) == {"r2", "r3"} and e.value.table == 1
    stage = sichuan_top_per_table([t], playoffs={1: {"r2": -10, "r3": 20}})
    assert stage.advancing == ("r1", "r3")
    assert stage.tables[0][1].playoff == 20


def test_lines_from_games():
    games = [
        {"a": SichuanGame(40, 0, True), "b": SichuanGame(-20), "c": SichuanGame(-20), "d": SichuanGame(0, -20)},
        {"a": {"delta": -10}, "b": {"delta": 30, "won": True}, "c": {"delta": -10}, "d": {"delta": -10}},
    ]
    lines = {l.player: l for l in sichuan_lines(games)}
    assert (lines["a"].score, lines["a"].net, lines["a"].wins) == (30, 30, 1)
    assert (lines["d"].score, lines["d"].net, lines["d"].wins) == (-30, -10, 0)


def test_stage2_winners_and_best_runners_up():
    t1 = [L("a1", 90), L("a2", 40, 30), L("a3", -50), L("a4", -80)]
    t2 = [L("b1", 100), L("b2", 60), L("b3", -60), L("b4", -100)]
    t3 = [L("c1", 70), L("c2", 40, 40), L("c3", -30), L("c4", -80)]
    # quota 5: 3 winners + 2 runners-up; runners-up b2 60, then a2 and c2 tie on 40: c2 has net 40 > 30
    stage = sichuan_stage2([t1, t2, t3], quota=5)
    assert stage.advancing == ("a1", "b1", "c1", "b2", "c2")
    assert [x.player for x in stage.runners_up] == ["b2", "c2", "a2"]


def test_stage2_runner_up_tie_needs_playoff():
    t1 = [L("a1", 90), L("a2", 40, 40, 2), L("a3", -50), L("a4", -80)]
    t2 = [L("b1", 100), L("b2", 40, 40, 2), L("b3", -40), L("b4", -100)]
    with pytest.raises(PlayoffRequired) as e:
        sichuan_stage2([t1, t2], quota=3)
    assert set(e.value.players) == {"a2", "b2"}
    stage = sichuan_stage2([t1, t2], quota=3, runner_up_playoff={"a2": 5, "b2": -5})
    assert stage.advancing == ("a1", "b1", "a2")
    assert sichuan_stage2([t1, t2], quota=4).advancing == ("a1", "b1", "a2", "b2")  # both go: no play-off
    with pytest.raises(ValueError):
        sichuan_stage2([t1, t2], quota=1)


def test_stage2_tie_for_table_winner_needs_playoff():
    t = [L("a1", 50), L("a2", 50), L("a3", -50), L("a4", -50)]
    with pytest.raises(PlayoffRequired):
        sichuan_stage2([t], quota=1)
    assert sichuan_stage2([t], quota=1, playoffs={1: {"a1": 0, "a2": 10}}).advancing == ("a2",)


def test_final_two_extra_games_then_total_net():
    final = [L("w", 100, 100, 4), L("x", 40, 40, 2), L("y", 40, 30, 3), L("z", -180, -170, 0)]
    with pytest.raises(PlayoffRequired) as e:
        sichuan_final(final)
    assert set(e.value.players) == {"x", "y"}
    # x: 40 - 10 = 30, y: 30 + 10 = 40 -> y second
    places = sichuan_final(final, extra_games={"x": -10, "y": 10})
    assert [(p.place, p.player) for p in places] == [(1, "w"), (2, "y"), (3, "x"), (4, "z")]
    # still equal after the extra games: shared place
    places = sichuan_final(final, extra_games={"x": 0, "y": 10})
    assert [(p.place, p.player) for p in places] == [(1, "w"), (2, "x"), (2, "y"), (4, "z")]


def test_rank_table_ignores_input_order():
    t = [L("a", 10, 10, 1), L("b", 10, 10, 2), L("c", 0, 5, 0), L("d", 0, 0, 0)]
    assert sichuan_rank_table(t) == sichuan_rank_table(list(reversed(t)))
