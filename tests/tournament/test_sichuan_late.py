"""Sichuan lateness (seed 003 第五条.1: 迟到10分钟直接判本局弃权，迟到15分钟取消当场参赛资格) and what it does
to the stage's standings. Worked by hand."""
import pytest

from host_tools.tournament.formats.sichuan_003 import (
    SichuanGame as G,
    SichuanLine as L,
    sichuan_final,
    sichuan_late,
    sichuan_lines,
    sichuan_rank_table,
    sichuan_stage2,
    sichuan_top_per_table,
)
from host_tools.tournament.model import TournamentError


def test_rulings():
    assert (sichuan_late(0).forfeit, sichuan_late(9).forfeit, sichuan_late(9.9).forfeit) == (False, False, False)
    assert sichuan_late(10).forfeit and not sichuan_late(10).stage  # 迟到10分钟: this game
    assert sichuan_late(14.5).forfeit and not sichuan_late(14.5).stage
    assert sichuan_late(15).forfeit and sichuan_late(15).stage  # 迟到15分钟: the stage (当场)
    assert sichuan_late(40).penalty == 0  # no points: the seed names none


GAMES = [
    # game 1: a self-draws 清一色 (3 fans): 80 from each; d was 12 minutes late and the box still
    # keyed d's share: d forfeits this game, so d's -80 does not count
    {"a": G(240, won=True), "b": G(-80), "c": G(-80), "d": G(-80)},
    # game 2: b wins 对对胡 (2 fans, 40) on c's discard; d 一级违规 20
    {"a": G(0), "b": G(40, won=True), "c": G(-40), "d": G(0, -20)},
]


def test_ten_minutes_forfeits_the_game():
    lines = {l.player: l for l in sichuan_lines(GAMES, late={"d": 12})}
    assert (lines["d"].score, lines["d"].net, lines["d"].forfeits, lines["d"].disqualified) == (-20, 0, 1, False)
    assert (lines["a"].score, lines["b"].score, lines["c"].score) == (240, -40, -120)
    # stage 1: the top two advance: a 240, d -20 (d's forfeit cost d nothing it had not lost)
    stage = sichuan_top_per_table([list(lines.values())])
    assert stage.advancing == ("a", "d")


def test_late_for_a_later_game_and_a_player_who_never_played():
    lines = {l.player: l for l in sichuan_lines(GAMES, late={"b": (11, 2)})}
    # b forfeits game 2 (the win of 40 does not count): -80
    assert (lines["b"].score, lines["b"].wins, lines["b"].forfeits) == (-80, 0, 1)
    lines = {l.player: l for l in sichuan_lines(GAMES[:1], late={"e": 10})}
    assert (lines["e"].score, lines["e"].forfeits) == (0, 1)
    with pytest.raises(TournamentError):
        sichuan_lines(GAMES, late={"b": (11, 3)})


def test_fifteen_minutes_loses_the_stage():
    # a 16 minutes late: game 1 forfeited, and a is out of the stage: ranked last, does not advance
    lines = sichuan_lines(GAMES, late={"a": 16})
    places = sichuan_rank_table(lines)
    assert [(p.place, p.player, p.score, p.disqualified) for p in places] == [
        (1, "b", -40, False), (2, "d", -100, False), (3, "c", -120, False), (4, "a", 0, True),
    ]
    assert sichuan_top_per_table([lines]).advancing == ("b", "d")


def test_out_of_the_stage_in_stage_2_and_the_final():
    # stage 2: the table's best is out of the stage: the next is the table winner; runners-up
    # leave out players out of the stage
    t1 = [L("a1", 90, disqualified=True), L("a2", 40), L("a3", -50), L("a4", -80)]
    t2 = [L("b1", 100), L("b2", 60), L("b3", -60), L("b4", -100)]
    stage = sichuan_stage2([t1, t2], quota=3)
    assert stage.advancing == ("a2", "b1", "b2")
    # the final: out of the stage ranks last; two such players level need no extra games
    final = sichuan_final([L("w", 100), L("x", 40), L("y", 50, disqualified=True), L("z", 50, disqualified=True)])
    assert [(p.place, p.player) for p in final] == [(1, "w"), (2, "x"), (3, "y"), (3, "z")]
    # players level among those still in still need the play-off; a tie that only straddles
    # the cut among players out of the stage does not
    t = [L("r1", 100), L("r2", 0, disqualified=True), L("r3", 0, disqualified=True), L("r4", -100)]
    assert sichuan_top_per_table([t]).advancing == ("r1", "r4")
