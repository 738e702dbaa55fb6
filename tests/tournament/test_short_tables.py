"""Short tables and absences (seed 000 §一.3 若同桌不足四人, seed 004 §三.1): built from the seating, what
the tables played and who was absent, so that nobody drops out of the standings. Worked by hand."""
from fractions import Fraction as F

import pytest

from host_tools.tournament.attendance import late_events, session_tables
from host_tools.tournament.formats.guangdong_004 import gd_late, gd_session
from host_tools.tournament.formats.mcr_000 import mcr_late, mcr_session, mcr_standings
from host_tools.tournament.model import TournamentError
from host_tools.tournament.seating import Table

SEATING = [
    Table(1, ("a", "b", "c", "d")),  # all four play
    Table(2, ("e", "f", "g", "h")),  # g and h absent: e and f do not play
    Table(3, ("i", "j", "k", "l")),  # only i came
    Table(4, ("m", "n", "o", "p")),  # p absent: three play 15 hands
]
PLAYED = {1: {"a": 40, "b": 10, "c": -20, "d": -30}, 4: {"m": 30, "n": 0, "o": -30}}
ABSENT = ["g", "h", "j", "k", "l", "p"]


def test_seed_000_short_tables_and_tables_that_did_not_play():
    tables, problems = session_tables(SEATING, PLAYED, ABSENT)
    assert problems == []
    s = mcr_session(tables)
    std = {p: x.standard for p, x in s.items()}
    # 若有三人，正常比赛...标准分计4、2、1分; 若有两人，当局不比赛，每人标准分计3分（比赛分0分）; 若只有一人，标准分计4分
    assert std == {"a": 4, "b": 2, "c": 1, "d": 0, "e": 3, "f": 3, "i": 4, "m": 4, "n": 2, "o": 1,
                   "g": 0, "h": 0, "j": 0, "k": 0, "l": 0, "p": 0}
    assert (s["e"].match, s["e"].played, s["i"].match) == (0, False, 0)
    assert s["g"].forfeit and not s["e"].forfeit
    # everyone is in the standings: 16 lines; i (4, match 0) below a (4, 40) and m (4, 30)
    st = mcr_standings([tables])
    assert len(st) == 16
    assert [x.player for x in st[:5]] == ["a", "m", "i", "e", "f"]
    assert st[3].rank == st[4].rank == 4  # e and f level on everything


def test_seed_004_short_tables_get_the_averages():
    tables, _ = session_tables(SEATING, PLAYED, ABSENT)
    s = gd_session(tables)
    # 若有两人...分别为当局每桌前两名比赛分之和的平均分: the tables that played are 1 (40, 10) and
    # 4 (30, 0): (40 + 10 + 30 + 0) / 4 = 20. 若有一人...每桌第一名比赛分的平均分: (40 + 30) / 2 = 35.
    # 此时若有三人，则继续比赛: table 4 scores as played
    assert (s["e"].match, s["f"].match, s["i"].match) == (20, 20, 35)
    assert (s["m"].match, s["n"].match, s["o"].match) == (30, 0, -30)
    assert all(s[p].forfeit and s[p].match == 0 for p in ABSENT)


def test_late_beyond_the_limit_is_absent_even_with_hands():
    # seed 000 §一.4.1 迟到超过15分钟视为当局自动弃权（标准分和比赛分计0分）: d came 16 minutes late
    # and the box still keyed d's hands; d forfeits, the three others score as a three-player table
    assert mcr_late(16).forfeit and not mcr_late(15).forfeit
    tables, problems = session_tables(SEATING[:1], {1: {"a": 40, "b": 10, "c": -20, "d": -30}}, ["d"])
    s = mcr_session(tables)
    assert {p: x.standard for p, x in s.items()} == {"a": 4, "b": 2, "c": 1, "d": 0}
    assert s["d"].forfeit and s["d"].match == 0 and problems == []
    # seed 004 §三.1 迟到10分钟以上视为当局自动弃权
    assert gd_late(11).forfeit and not gd_late(10).forfeit


def test_a_table_with_players_but_no_hand_yet_is_not_scored():
    # three or four present and nothing keyed: not "did not play" but not synced yet
    tables, problems = session_tables([Table(1, ("a", "b", "c", "d"))], {}, ["d"])
    assert tables[0].scores == {} and tables[0].forfeits == ("d",)
    assert problems == ["table 1: 3 players present and no hand yet: no result for a, b, c"]


def test_missing_result_counts_absent_and_is_listed():
    tables, problems = session_tables([Table(1, ("a", "b", "c", "d"))], {1: {"a": 8, "b": 0, "c": -8}})
    assert tables[0].forfeits == ("d",)
    assert problems == ["d has no result at table 1 and is not marked absent: counted absent"]


def test_results_elsewhere_count_where_played():
    seating = [Table(1, ("a", "b", "c", "d")), Table(2, ("e", "f", "g", "h"))]
    # d and e swapped tables without telling the system
    played = {1: {"a": 8, "b": 0, "c": -8, "e": 0}, 2: {"d": 16, "f": 0, "g": -8, "h": -8}}
    tables, problems = session_tables(seating, played)
    assert [sorted(t.scores) for t in tables] == [["a", "b", "c", "e"], ["d", "f", "g", "h"]]
    assert sorted(problems) == ["d is seated at table 1 but played at table 2", "e is seated at table 2 but played at table 1"]
    with pytest.raises(TournamentError):
        session_tables([Table(1, ("a", "b", "c", "d")), Table(2, ("a", "f", "g", "h"))], {})


def test_a_table_not_in_the_seating_is_scored_and_listed():
    # table 9 keyed hands but was never seated: its players count there, and the referee is told
    played = {1: {"a": 8, "b": 0, "c": -8, "d": 0}, 9: {"w": 8, "x": 0, "y": -8, "z": 0}}
    tables, problems = session_tables([Table(1, ("a", "b", "c", "d"))], played)
    assert [t.table for t in tables] == [1, 9] and tables[1].scores == {"w": 8, "x": 0, "y": -8, "z": 0}
    assert tables[1].forfeits == ()
    assert problems[0] == "table 9 played but is not in the seating"
    assert sorted(problems[1:]) == ["%s played at table 9 without a seat in the seating" % p for p in "wxyz"]


def test_late_keyed_at_the_table():
    rec = {"seats": ["a", "b", "c", "d"], "events": [
        {"penalty": "late", "seat": 2, "minutes": 12}, {"penalty": "empty_call", "seat": 1},
        {"penalty": "late", "seat": 2, "minutes": 3}, {"penalty": "late", "seat": 9, "minutes": 30},
        {"penalty": "late", "seat": 0, "minutes": -1}, {"win": 0, "hand": "x"},
    ]}
    assert late_events(rec) == {"c": 12}
