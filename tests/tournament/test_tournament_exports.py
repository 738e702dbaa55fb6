"""CSV exports: standings, hands, EMA results."""
import csv
import io
from fractions import Fraction as F

import pytest

from host_tools.tournament.awards import HandRecord
from host_tools.tournament.exports import EMA_HEADER, EmaPlayer, ema_results_csv, format_score, hands_csv, standings_csv
from host_tools.tournament.formats.guangdong_004 import gd_standings
from host_tools.tournament.formats.mcr_000 import mcr_standings
from host_tools.tournament.model import TableResult, TournamentError


def rows(text):
    return list(csv.reader(io.StringIO(text)))


def test_format_score():
    assert [format_score(x) for x in (4, F(7, 2), F(7, 4), F(7, 3), F(-1, 2), F(10, 1), None)] == ["4", "3.5", "1.75", "2.33", "-0.5", "10", ""]


def test_standings_csv():
    st = mcr_standings([[{"a": 30, "b": 30, "c": -30, "d": -30}], [TableResult({"a": 8, "b": -8, "c": 0}, forfeits=("d",))]])
    # a 3 + 4 = 7 (38); b 3 + 1 = 4 (22); c 1/2 + 2 = 5/2 (-30); d 1/2 + 0 (-30)
    assert rows(standings_csv(st, names={"a": "Ann"})) == [
        ["rank", "player", "name", "standard", "match", "s1_table", "s1_standard", "s1_match", "s1_status", "s2_table", "s2_standard", "s2_match", "s2_status"],
        ["1", "a", "Ann", "7", "38", "1", "3", "30", "", "1", "4", "8", ""],
        ["2", "b", "", "4", "22", "1", "3", "30", "", "1", "1", "-8", ""],
        ["3", "c", "", "2.5", "-30", "1", "0.5", "-30", "", "1", "2", "0", ""],
        ["4", "d", "", "0.5", "-30", "1", "0.5", "-30", "", "1", "0", "0", "forfeit"],
    ]


def test_hands_csv():
    text = hands_csv([HandRecord(1, 2, 3, "a", "b", 12, at=7, scores={"a": 36, "b": -20, "c": -8, "d": -8}), HandRecord(1, 2, 4)])
    assert rows(text) == [
        ["session", "table", "hand", "winner", "discarder", "self_drawn", "fans", "at", "scores"],
        ["1", "2", "3", "a", "b", "0", "12", "7", "a:36;b:-20;c:-8;d:-8"],
        ["1", "2", "4", "", "", "0", "", "", ""],
    ]


def test_ema_results():
    st = mcr_standings([[{"a": 30, "b": 30, "c": -20, "d": -40}]])
    players = {
        "a": EmaPlayer("Martin", "Anna", "FRA", "04010012"),
        "b": {"last_name": "Müller", "first_name": "Ben", "country": "GER", "ema_id": "05990001"},
        "c": EmaPlayer("Li", "Chen", "CHN"),
        "d": EmaPlayer("Dam", "Dirk", "NED", "08000007"),
    }
    out = rows(ema_results_csv(st, players))
    assert out[0] == list(EMA_HEADER)
    assert out[1:] == [
        ["1", "04010012", "Martin", "Anna", "FRA", "3", "30"],
        ["1", "05990001", "Müller", "Ben", "GER", "3", "30"],
        ["3", "", "Li", "Chen", "CHN", "1", "-20"],
        ["4", "08000007", "Dam", "Dirk", "NED", "0", "-40"],
    ]
    with pytest.raises(TournamentError):
        ema_results_csv(st, {"a": players["a"]})
    with pytest.raises(TournamentError):
        ema_results_csv(gd_standings([[{"a": 1, "b": 0, "c": 0, "d": -1}]]), players)
