"""Seed 004 (Guangdong): sessions with short tables, standings, final with the carry ratio. Worked by hand."""
from fractions import Fraction as F

import pytest

from host_tools.tournament.formats.guangdong_004 import (
    MissingCarryRatio,
    carry_ratio_value,
    gd_final_standings,
    gd_late,
    gd_session,
    gd_standings,
)
from host_tools.tournament.model import TableResult, TournamentError
from host_tools.tournament.seating import final_seating


def match(result):
    return {p: s.match for p, s in result.items()}


def test_short_tables_get_averages():
    session = [
        {"a": 30, "b": 10, "c": -15, "d": -25},  # top two 30, 10
        {"e": 50, "f": 5, "g": -20, "h": -35},  # top two 50, 5
        TableResult({"i": 0, "j": 0}, forfeits=("k", "l")),
        TableResult({"m": 0}, forfeits=("n", "o", "p")),
        TableResult({"q": 24, "r": 0, "s": -24}, forfeits=("t",)),  # three players play on: top two 24, 0
    ]
    r = gd_session(session)
    # two players: (30 + 10 + 50 + 5 + 24 + 0) / 6 = 119/6 each
    assert r["i"].match == F(119, 6) and r["j"].match == F(119, 6)
    # one player: winners (30 + 50 + 24) / 3 = 104/3
    assert r["m"].match == F(104, 3)
    assert all(r[p].match == 0 and r[p].forfeit for p in "klnopt")
    assert (r["q"].match, r["q"].place, r["s"].place) == (24, 1, 3)
    assert r["a"].standard is None and r["k"].standard is None


def test_short_table_average_can_be_an_integer():
    r = gd_session([{"a": 30, "b": 10, "c": -15, "d": -25}, TableResult({"x": 0}, forfeits=("y", "z"))])
    assert r["x"].match == 30 and isinstance(r["x"].match, int)


def test_short_table_without_any_played_table_is_refused():
    with pytest.raises(TournamentError):
        gd_session([TableResult({"a": 0, "b": 0}, forfeits=("c", "d"))])


def test_late_seed_004():
    assert (gd_late(0).penalty, gd_late(0).forfeit) == (0, False)
    assert (gd_late(10).penalty, gd_late(10).forfeit) == (-8, False)
    assert gd_late(10.5).forfeit


# a [80, 20, 0, 0] = 100   b [70, 30, 0, 0] = 100   c [40, 30, -10, -10] = 50   d [40, 20, 0, -10] = 50
# e [10, 0, 0, -10] = 0    f [0, 10, -10, 0] = 0    g [-100, -50, 10, 10] = -130   h [-140, -60, 10, 10] = -180
PRELIM = [
    [{"a": 80, "b": 70, "g": -100, "h": -140}, {"c": 40, "d": 40, "e": 10, "f": 0}],
    [{"a": 20, "c": 30, "e": 0, "g": -50}, {"b": 30, "d": 20, "f": 10, "h": -60}],
    [{"a": 0, "d": 0, "f": -10, "g": 10}, {"b": 0, "c": -10, "e": 0, "h": 10}],
    [{"a": 0, "b": 0, "c": -10, "d": -10}, {"e": -10, "f": 0, "g": 10, "h": 10}],
]


def test_preliminary_standings_by_hand():
    st = gd_standings(PRELIM)
    # a, b tie on 100: best session 80 > 70. c, d tie on 50: best 40 = 40, second 30 > 20.
    # e, f: sessions sorted (10, 0, 0, -10) both: shared rank, listed by id.
    assert [(s.rank, s.player, s.match) for s in st] == [
        (1, "a", 100),
        (2, "b", 100),
        (3, "c", 50),
        (4, "d", 50),
        (5, "e", 0),
        (5, "f", 0),
        (7, "g", -130),
        (8, "h", -180),
    ]
    assert st[0].standard is None
    assert final_seating(st).players == ("a", "b", "c", "d")  # E S W N by preliminary rank


def test_final_refuses_without_the_ratio():
    with pytest.raises(MissingCarryRatio, match="ratio"):
        gd_final_standings(PRELIM, {"a": 0, "b": 0, "c": 0, "d": 0}, None)
    with pytest.raises(TournamentError):
        gd_final_standings(PRELIM, {"a": 0, "b": 0, "c": 0, "d": 0}, -1)
    with pytest.raises(TournamentError):
        gd_final_standings(PRELIM, {"a": 0, "b": 0, "c": 0, "e": 0}, F(1, 2))  # e did not qualify


def test_final_with_half_ratio_and_tie():
    final = {"a": -20, "b": 30, "c": 5, "d": -20}
    # carried x 1/2: a 50, b 50, c 25, d 25 -> a 30, b 80, c 30, d 5
    # a and c tie on 30: raw sessions a (80, 20, 0, 0, -20), c (40, 30, 5, -10, -10): a first
    st = gd_final_standings(PRELIM, final, F(1, 2))
    assert [(s.rank, s.player, s.match) for s in st] == [
        (1, "b", 80),
        (2, "a", 30),
        (3, "c", 30),
        (4, "d", 5),
        (5, "e", 0),
        (5, "f", 0),
        (7, "g", -130),
        (8, "h", -180),
    ]
    assert len(st[0].sessions) == 5


def test_final_with_decimal_ratio():
    final = {"a": -20, "b": 30, "c": 5, "d": -20}
    # 0.3: a 30 - 20 = 10, b 30 + 30 = 60, c 15 + 5 = 20, d 15 - 20 = -5
    for ratio in (0.3, "0.3", "3/10", F(3, 10)):
        st = gd_final_standings(PRELIM, final, ratio)
        assert [(s.player, s.match) for s in st[:4]] == [("b", 60), ("c", 20), ("a", 10), ("d", -5)]
    # 1/3: a 100/3 - 20 = 40/3, b 100/3 + 30 = 190/3, c 50/3 + 5 = 65/3, d 50/3 - 20 = -10/3
    st = gd_final_standings(PRELIM, final, "1/3")
    assert [(s.player, s.match) for s in st[:4]] == [("b", F(190, 3)), ("c", F(65, 3)), ("a", F(40, 3)), ("d", F(-10, 3))]


def test_carry_ratio_values():
    assert carry_ratio_value(0.1) == F(1, 10)
    assert carry_ratio_value(1) == 1
    with pytest.raises(TournamentError):
        carry_ratio_value("half")
    with pytest.raises(TournamentError):
        carry_ratio_value(True)
