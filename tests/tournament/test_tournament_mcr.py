"""Seed 000 (MCR 2016 TMT) and seed 001 (MCR Swiss) scoring; every expected value worked out by hand."""
from fractions import Fraction as F

import pytest

from host_tools.tournament.formats.mcr_000 import mcr_final_standings, mcr_late, mcr_session, mcr_standings, mcr_table
from host_tools.tournament.formats.mcr_swiss_001 import swiss_points, swiss_standings, swiss_table
from host_tools.tournament.model import TableResult, TournamentError


def std(result):
    return {p: s.standard for p, s in result.items()}


# ----------------------------------------------------------------- seed 000 tables

def test_four_players_4_2_1_0():
    r = mcr_table({"a": 50, "b": 20, "c": -20, "d": -50})
    assert std(r) == {"a": 4, "b": 2, "c": 1, "d": 0}
    assert [r[p].place for p in "abcd"] == [1, 2, 3, 4]
    assert r["a"].match == 50


def test_two_tied_first_get_3_each():
    # the seed's own example: two tied first share 4 + 2
    assert std(mcr_table({"a": 30, "b": 30, "c": -30, "d": -30})) == {"a": 3, "b": 3, "c": F(1, 2), "d": F(1, 2)}


def test_three_tied_first_share_seven_thirds():
    r = mcr_table({"a": 10, "b": 10, "c": 10, "d": -30})
    assert std(r) == {"a": F(7, 3), "b": F(7, 3), "c": F(7, 3), "d": 0}
    assert {r[p].place for p in "abc"} == {1}


def test_middle_tie_and_all_tied():
    assert std(mcr_table({"a": 40, "b": -10, "c": -10, "d": -20})) == {"a": 4, "b": F(3, 2), "c": F(3, 2), "d": 0}
    assert std(mcr_table({"a": 0, "b": 0, "c": 0, "d": 0})) == {p: F(7, 4) for p in "abcd"}


def test_forfeit_leaves_three_players_4_2_1():
    r = mcr_table(TableResult({"a": 16, "b": -8, "c": -8}, forfeits=("d",)))
    assert std(r) == {"a": 4, "b": F(3, 2), "c": F(3, 2), "d": 0}
    assert r["d"].forfeit and r["d"].match == 0 and r["d"].place is None
    r = mcr_table({"scores": {"a": 16, "b": 0, "c": -16}, "forfeits": ["d"]})
    assert std(r) == {"a": 4, "b": 2, "c": 1, "d": 0}


def test_two_players_do_not_play_3_each_match_0():
    r = mcr_table(TableResult({"a": -10, "b": 0}, forfeits=("c", "d")))  # a's late penalty lapses
    assert std(r) == {"a": 3, "b": 3, "c": 0, "d": 0}
    assert r["a"].match == 0 and r["b"].match == 0 and not r["a"].played


def test_one_player_gets_4():
    r = mcr_table(TableResult({"a": 0}, forfeits=("b", "c", "d")))
    assert std(r) == {"a": 4, "b": 0, "c": 0, "d": 0}


def test_bad_tables():
    with pytest.raises(TournamentError):
        mcr_table({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})
    with pytest.raises(TournamentError):
        mcr_table({"a": 1.5, "b": 0, "c": 0, "d": 0})
    with pytest.raises(TournamentError):
        TableResult({"a": 1}, forfeits=("a",))
    with pytest.raises(TournamentError):
        mcr_session([{"a": 1, "b": 0, "c": 0, "d": 0}, {"a": 1, "e": 0, "f": 0, "g": 0}])


def test_late_arrival_seed_000():
    assert (mcr_late(0).penalty, mcr_late(0).forfeit) == (0, False)
    assert (mcr_late(5).penalty, mcr_late(5).forfeit) == (-10, False)
    assert (mcr_late(10).penalty, mcr_late(10).forfeit) == (-10, False)
    assert (mcr_late(10.5).penalty, mcr_late(10.5).forfeit) == (-20, False)
    assert (mcr_late(15).penalty, mcr_late(15).forfeit) == (-20, False)
    assert mcr_late(15.01).forfeit and mcr_late(16).forfeit


# ----------------------------------------------------------------- seed 000 standings

S1 = [{"A": 50, "B": 20, "C": -20, "D": -50}, {"E": 30, "F": 30, "G": -30, "H": -30}]
S2 = [{"A": -10, "E": 40, "C": -10, "G": -20}, {"B": 35, "F": 5, "D": -10, "H": -30}]
S3 = [{"A": 0, "F": 0, "D": 0, "H": 0}, {"B": 10, "E": -10, "C": 25, "G": -25}]


def test_standings_three_sessions_by_hand():
    # standard: S1 A4 B2 C1 D0 E3 F3 G1/2 H1/2; S2 E4 A3/2 C3/2 G0 B4 F2 D1 H0; S3 A,F,D,H 7/4, C4 B2 E1 G0
    # A 4+3/2+7/4=29/4 (40)  B 2+4+2=8 (65)  C 1+3/2+4=13/2 (-5)  D 0+1+7/4=11/4 (-60)
    # E 3+4+1=8 (60)  F 3+2+7/4=27/4 (35)  G 1/2 (-75)  H 1/2+0+7/4=9/4 (-60)
    st = mcr_standings([S1, S2, S3])
    assert [(s.rank, s.player, s.standard, s.match) for s in st] == [
        (1, "B", 8, 65),
        (2, "E", 8, 60),  # equal standard, lower match
        (3, "A", F(29, 4), 40),
        (4, "F", F(27, 4), 35),
        (5, "C", F(13, 2), -5),
        (6, "D", F(11, 4), -60),
        (7, "H", F(9, 4), -60),
        (8, "G", F(1, 2), -75),
    ]
    assert st[0].key == (8, 65, 1, 2, 0)


def test_standings_count_tiebreaks_by_hand():
    # Session 1: T1 P 30 (4), Q 15 (2), X1 -20 (1), X2 -25 (0); T2 R 10, Y1 10 (3 each), T -5 (1), Y2 -15 (0)
    # Session 2: T1 Y1 65 (4), Q -15 (2), X2 -20 (1), P -30 (0); T2 T 5, X1 5 (3 each), R -10 (1), Y2 -20 (0; late -20)
    s1 = [{"P": 30, "Q": 15, "X1": -20, "X2": -25}, {"R": 10, "Y1": 10, "T": -5, "Y2": -15}]
    s2 = [{"Y1": 65, "Q": -15, "X2": -20, "P": -30}, {"T": 5, "X1": 5, "R": -10, "Y2": -20}]
    # P 4+0=4, 0, one 4      Q 2+2=4, 0, two 2s     R 3+1=4, 0, one 1     T 1+3=4, 0, one 1
    # X1 1+3=4, -15   Y1 3+4=7, 75   X2 0+1=1, -45   Y2 0
    st = mcr_standings([s1, s2])
    assert [(s.rank, s.player) for s in st] == [(1, "Y1"), (2, "P"), (3, "Q"), (4, "R"), (4, "T"), (6, "X1"), (7, "X2"), (8, "Y2")]
    # fully tied players share the rank; the draw order decides who is listed first
    st = mcr_standings([s1, s2], draw_order=["T", "R", "P", "Q", "X1", "X2", "Y1", "Y2"])
    assert [(s.rank, s.player) for s in st][3:5] == [(4, "T"), (4, "R")]


def test_forfeit_and_missing_session_score_zero():
    s1 = [{"a": 10, "b": 5, "c": -5, "d": -10}]
    s2 = [TableResult({"a": 8, "b": -8, "c": 0}, forfeits=("d",))]
    st = mcr_standings([s1, s2, [{"a": 0, "b": 0}]])  # session 3: a table of two (c, d absent)
    # a 4+4+3=11 (18)  b 2+1+3=6 (-3)  c 1+2=3 (-5)  d 0+0=0 (-10)
    assert [(s.player, s.standard, s.match) for s in st] == [("a", 11, 18), ("b", 6, -3), ("c", 3, -5), ("d", 0, -10)]
    d = st[-1]
    assert d.sessions[1].forfeit and d.sessions[2] is None


def test_final_standings_top_finalists_cumulative():
    prelim = [[{"a": 40, "b": 10, "c": -20, "d": -30}, {"e": 30, "f": 20, "g": -10, "h": -40}]]
    # prelim: a 4 (40), e 4 (30), f 2 (20), b 2 (10), g 1 (-10), c 1 (-20), d 0 (-30), h 0 (-40)
    final = [[{"a": -20, "e": 30, "f": 0, "b": -10}]]
    # top 4: a, e, f, b. finals: e 4 -> 8 (60); f 2 -> 4 (20); b 1 -> 3 (0); a 0 -> 4 (20)
    # a vs f: 4 and 20 each; 4-point results: a 1, f 0 -> a first
    st = mcr_final_standings(prelim, final, finalists=4)
    assert [(s.rank, s.player, s.standard, s.match) for s in st] == [
        (1, "e", 8, 60),
        (2, "a", 4, 20),
        (3, "f", 4, 20),
        (4, "b", 3, 0),
        (5, "g", 1, -10),
        (6, "c", 1, -20),
        (7, "d", 0, -30),
        (8, "h", 0, -40),
    ]
    with pytest.raises(TournamentError):
        mcr_final_standings(prelim, [[{"a": 0, "b": 0, "c": 0, "d": 0}]], finalists=4)  # c, d did not qualify


# ----------------------------------------------------------------- seed 001 Swiss

def test_swiss_points_formula():
    assert swiss_points(4) == (4, 2, 1, 0)
    assert swiss_points(3) == (3, 1, 0)
    assert swiss_points(2) == (2, 0)
    assert swiss_points(1) == (1,)


def test_swiss_table_base_500_and_ties():
    r = swiss_table({"a": 40, "b": 10, "c": -20, "d": -30})
    assert std(r) == {"a": 4, "b": 2, "c": 1, "d": 0}
    assert {p: s.match for p, s in r.items()} == {"a": 540, "b": 510, "c": 480, "d": 470}
    r = swiss_table(TableResult({"a": 0, "b": 0, "c": -5}, forfeits=("d",)))
    # N = 3: 3/1/0, a and b share (3+1)/2 = 2
    assert std(r) == {"a": 2, "b": 2, "c": 0, "d": 0}
    assert r["d"].match == 0 and r["a"].match == 500


def test_swiss_standings_by_hand():
    s1 = [{"A": 40, "B": 10, "C": -20, "D": -30}, TableResult({"E": 20, "F": 0, "G": -20}, forfeits=("H",))]
    s2 = [{"A": 5, "E": 5, "F": -5, "B": -5}, {"C": 10, "D": 10, "G": 10, "H": -30}]
    # S1: A4 B2 C1 D0 (540 510 480 470); N=3: E3 F1 G0 (520 500 480), H 0 (0)
    # S2: A,E 3 each (505); F,B 1/2 each (495); C,D,G 7/3 each (510); H 0 (470)
    # A 7 (1045) E 6 (1025) C 10/3 (990) B 5/2 (1005) G 7/3 (990) D 7/3 (980) F 3/2 (995) H 0 (470)
    st = swiss_standings([s1, s2])
    assert [(s.rank, s.player, s.standard, s.match) for s in st] == [
        (1, "A", 7, 1045),
        (2, "E", 6, 1025),
        (3, "C", F(10, 3), 990),
        (4, "B", F(5, 2), 1005),
        (5, "G", F(7, 3), 990),
        (6, "D", F(7, 3), 980),
        (7, "F", F(3, 2), 995),
        (8, "H", 0, 470),
    ]
