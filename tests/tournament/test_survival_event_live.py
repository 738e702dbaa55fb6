"""A whole 16-player survival event (seed 000 §三.2 勇者争先赛), live, from the individual event's
preliminary ranking to 冠亚季殿军, every number worked by hand.

Hand records carry the deltas the box settles (unmultiplied: the win's payments plus penalties),
the hand's dice roll (hand_start) and the time it was keyed, as docs/survival.md proposes.
MCR payments: a discard win of f fans gives the winner 24 + f, the discarder pays 8 + f and the
other two 8; a self-draw of f fans gives the winner 3 (8 + f) and each other pays 8 + f.
"""
import pytest

from host_tools.tournament.formats.mcr_000 import mcr_standings
from host_tools.tournament.model import TournamentError
from host_tools.tournament.survival_live import (
    StoredTable,
    SurvivalEvent,
    hand_from_record,
    replay,
    survival_entrants,
    table_config,
)

T0 = 1_760_000_000  # the event's start (比赛开始), epoch seconds


def at(minutes):
    return T0 + minutes * 60


def prelim_32():
    """The individual event: 32 players by draw number, one preliminary session of 8 tables:
    table k (0-7) seats draw numbers 4k+1 .. 4k+4 scoring 40+k, 10+k, -10-k, -40-k."""
    tables = [{str(4 * k + i + 1): s for i, s in enumerate((40 + k, 10 + k, -10 - k, -40 - k))} for k in range(8)]
    return mcr_standings([tables], draw_order=[str(i) for i in range(1, 33)])


# The 16 entrants: the players ranked 17-32, i.e. the third places (1 standard point) by match
# score -10, -11, ... -17 (draw 3, 7, ..., 31), then the fourth places (draw 4, 8, ..., 32).
ENTRANTS = ["3", "7", "11", "15", "19", "23", "27", "31", "4", "8", "12", "16", "20", "24", "28", "32"]


def rec(table, hand, start, end, seats, deltas, winner=None, discarder=None, fans=0):
    """A hand record as the box writes it (protocol/record.py v2 plus the proposed hand_start;
    seats and deltas by chair; times in minutes here)."""
    w = None if winner is None else seats.index(winner)
    d = None if discarder is None else seats.index(discarder)
    wins = [] if w is None else [{"seat": w, "from": d, "total": fans, "fans": []}]
    return {
        "v": 2, "kind": "hand", "tournament": "T-survival", "session": 1, "table": table, "hand": hand,
        "rules": "mcr", "seats": list(seats), "deltas": list(deltas), "wins": wins,
        "winners": [] if w is None else [w], "discarder": d, "hand_start": at(start), "time": at(end),
    }


def test_a_version_1_record_reads_the_same():
    v2 = rec(1, 1, 0, 9, ("a", "b", "c", "d"), [40, -8, -8, -24], "a", "d", 16)
    v1 = dict(v2, v=1, fans={"total": 16})
    del v1["wins"]
    assert hand_from_record(v1) == hand_from_record(v2)
    h = hand_from_record(v2)
    assert (dict(h.deltas), dict(h.penalties), h.winner, h.discarder) == ({"a": 40, "b": -8, "c": -8, "d": -24}, {}, "a", "d")
    with pytest.raises(TournamentError):
        hand_from_record({"seats": ["a"]})


def test_entrants_keep_their_numbers_and_preliminary_order():
    # §三.2.1 未进入个人决赛的选手可参与勇者争先赛。选手编号与个人赛一致
    pre = prelim_32()
    assert survival_entrants(pre, finalists=16) == ENTRANTS
    # only some take part: still in preliminary order
    assert survival_entrants(pre, 16, entered=["32", "3", "8"]) == ["3", "8", "32"]
    with pytest.raises(TournamentError, match="individual final"):
        survival_entrants(pre, 16, entered=["1", "3"])
    with pytest.raises(TournamentError, match="no preliminary result"):
        survival_entrants(pre, 16, entered=["99"])


def test_entrants_refuse_a_shared_rank_across_the_cut():
    # two players level on everything at places 16 and 17: who plays the final is the organizer's call
    pre = mcr_standings([[{"a": 10, "b": 10, "c": -10, "d": -10}]])
    assert [s.rank for s in pre] == [1, 1, 3, 3]
    with pytest.raises(TournamentError, match="finalist cut"):
        survival_entrants(pre, finalists=1)


def test_first_tables_are_the_snake_of_the_preliminary_ranking():
    # §三.2.3 首盘座次根据个人赛预赛成绩蛇形排位: 4 tables, entrant ranks 1 8 9 16 | 2 7 10 15 | ...
    ev = SurvivalEvent(survival_entrants(prelim_32()), T0)
    props = ev.propose()
    assert [p.seats for p in props] == [
        ("3", "31", "4", "32"), ("7", "27", "8", "28"), ("11", "23", "12", "24"), ("15", "19", "16", "20"),
    ]
    assert all(dict(p.scores) == {q: 50 for q in p.seats} and not p.final for p in props)  # 每位选手起始50分


def test_whole_event():
    ev = SurvivalEvent(survival_entrants(prelim_32()), T0)
    for p in ev.propose():
        ev.confirm(p.seats)
    T1, T2, T3, T4 = ("3", "31", "4", "32"), ("7", "27", "8", "28"), ("11", "23", "12", "24"), ("15", "19", "16", "20")
    assert [ev.tables[n].seats for n in (1, 2, 3, 4)] == [T1, T2, T3, T4]

    fed = {}

    def feed(table, *records):
        fed.setdefault(table, []).extend(records)
        return [ev.add_hand(table, hand_from_record(r)) for r in records]

    def scores(*players):
        return [ev.score[p] for p in players]

    # 0:12 table 2: 7 wins 42 fans on 28's discard: 7 +66 = 116, 28 pays 50 -> 0: out (比赛分为0分)
    assert feed(2, rec(2, 1, 0, 12, T2, [66, -8, -8, -50], "7", "28", 42)) == [None]
    assert scores(*T2) == [116, 42, 42, 0]
    assert ev.propose() == []  # three waiting: no table
    assert [(x.place, x.player) for x in ev.ranking()] == [(16, "28")]  # decided at once

    # 0:18 table 1: 3 wins 16 on 32 (3 90, 31 42, 4 42, 32 26); 31 self-draws 18: each pays 26
    # -> 3 64, 31 120, 4 16, 32 0: out. The box keys one more hand after the bust: not counted,
    # listed for the referee, the table stands
    got = feed(1, rec(1, 1, 0, 9, T1, [40, -8, -8, -24], "3", "32", 16),
               rec(1, 2, 10, 18, T1, [-26, 78, -26, -26], "31", None, 18),
               rec(1, 3, 19, 22, T1, [-8, -8, 40, -24], "4", "32", 16))
    assert got[:2] == [None, None] and got[2].code == "after_bust"
    assert scores(*T1) == [64, 120, 16, 0]
    assert [(x.place, x.player) for x in ev.ranking()] == [(15, "32"), (16, "28")]

    # re-tabling at 0:18 (§三.2.3): first finished first (table 2 at 0:12: 7 116, 27 42, 8 42 -> by
    # the extremes 7, 8, 27; 27 and 8 level, 27 ranked better), then table 1 (31 120, 4 16, 3 64).
    # Queue 7 8 27 31 | 4 3: table 5 = 31 7 27 8 by score (每桌选手按照比赛分由高到低依次就座东南西北位)
    (p5,) = ev.propose()
    assert p5.seats == ("31", "7", "27", "8") and dict(p5.scores) == {"31": 120, "7": 116, "27": 42, "8": 42}
    assert not p5.final
    ev.confirm(p5.seats, at(20))
    T5 = p5.seats

    # 0:21-0:29 x1: 27 wins 12 on 8 -> 31 112, 7 108, 27 78, 8 22. The roll at exactly 30:00 is x2
    # (DECISION): 31 wins 8 on 8: (32, -8, -8, -16) x2 -> 31 176, 7 92, 27 62, 8 -10: out at 0:38
    # (fed below, in time order)

    # 0:25 table 3: 12 wins 10 on 11 -> 11 32, 23 42, 12 84, 24 42. Hand 2 rolled at 0:26 and
    # keyed at 0:33: x1 (在进行中 at 30:00, 从下一盘起翻倍): 24 self-draws 24, each pays 32 ->
    # 11 0: out; 23 10, 12 52, 24 138 (at x2, 23 would be out too)
    feed(3, rec(3, 1, 0, 25, T3, [-18, -8, 34, -8], "12", "11", 10),
         rec(3, 2, 26, 33, T3, [-32, -32, -32, 96], "24", None, 24))
    assert [h.multiplier for h in ev.tables[3].result().hands] == [1, 1]
    assert scores(*T3) == [0, 10, 52, 138]

    # queue at 0:33: 3 64, 4 16 (since 0:18), then 24 138, 23 10, 12 52: table 24 3 4 23, 12 waits
    (p6,) = ev.propose()
    assert p6.seats == ("24", "3", "4", "23")
    # the referee swaps 23 for 12 (his call); players who are out or still playing are refused
    with pytest.raises(TournamentError, match="is out"):
        ev.confirm(("24", "3", "4", "32"), at(35))
    with pytest.raises(TournamentError, match="plays at table 5"):
        ev.confirm(("24", "3", "4", "7"), at(35))
    ev.confirm(("24", "3", "12", "4"), at(35))
    T6 = ("24", "3", "12", "4")

    feed(5, rec(5, 1, 21, 29, T5, [-8, -8, 36, -20], "27", "8", 12),
         rec(5, 2, 30, 38, T5, [32, -8, -8, -16], "31", "8", 8))
    assert [h.multiplier for h in ev.tables[5].result().hands] == [1, 2]
    assert scores(*T5) == [176, 92, 62, -10]
    # queue at 0:38: 23 10 (since 0:33), then 31 176, 27 62, 7 92 -> table 7 = 31 7 27 23
    (p7,) = ev.propose()
    assert p7.seats == ("31", "7", "27", "23") and not p7.final
    ev.confirm(p7.seats, at(40))
    T7 = p7.seats

    # 0:36-0:44 x2 table 6: 24 wins 8 on 4: (32, -8, -8, -16) x2 -> 24 202, 3 48, 12 36, 4 -16: out
    feed(6, rec(6, 1, 36, 44, T6, [32, -8, -8, -16], "24", "4", 8))
    assert scores(*T6) == [202, 48, 36, -16]
    assert ev.propose() == []

    # table 4: 15 wins 8 on 16 -> 15 82, 19 42, 16 34, 20 42; at 0:31 (x2) 20 self-draws 8: each
    # pays 16 x 2 -> 15 50, 19 10, 16 2, 20 138; at 0:41 (x2) 16 declares a ready hand on the
    # wrong tile (错和, 10 to each, not multiplied) and 15 wins 8 on 19's discard (32, -16, -8, -8)
    # x2: 15 +74 = 124, 19 -22 = -12, 16 -46 = -44, 20 -6 = 132. Two out at once and one of them
    # dealt in: 若当盘为出局者点炮，则未点炮者列前 -> 16 ranks above 19 although 19 had more (10 > 2)
    feed(4, rec(4, 1, 0, 20, T4, [32, -8, -16, -8], "15", "16", 8),
         rec(4, 2, 31, 40, T4, [-16, -16, -16, 48], "20", None, 8),
         rec(4, 3, 41, 45, T4, [32 + 10, -16 + 10, -8 - 30, -8 + 10], "15", "19", 8))
    assert scores(*T4) == [124, -12, -44, 132]
    assert ev.tables[4].result().eliminated == ("16", "19")
    # 7 out so far, 9 still in: the places of the 7 are decided and never change
    decided = [(x.place, x.player) for x in ev.ranking()]
    assert decided == [(10, "16"), (11, "19"), (12, "4"), (13, "8"), (14, "11"), (15, "32"), (16, "28")]

    # queue at 0:45: 24 202, 12 36, 3 48 (since 0:44), 20 132, 15 124 -> table 8 = 24 20 3 12
    (p8,) = ev.propose()
    assert p8.seats == ("24", "20", "3", "12")
    ev.confirm(p8.seats, at(46))
    T8 = p8.seats
    # the projector: players in by score, where they are; then the decided places
    lines = ev.standings()
    assert [(l.player, l.status, l.table) for l in lines[:3]] == [("24", "playing", 8), ("31", "playing", 7), ("20", "playing", 8)]
    assert [(l.player, l.status) for l in lines if l.status == "waiting"] == [("15", "waiting")]
    assert [l.place for l in lines[9:]] == [10, 11, 12, 13, 14, 15, 16]

    # table 8, 0:47-0:55 x2: 3 self-draws 16: each pays 24 x 2 -> 3 192, 24 154, 20 84, 12 -12: out
    feed(8, rec(8, 1, 47, 55, T8, [-24, -24, 72, -24], "3", None, 16))
    assert scores(*T8) == [154, 84, 192, -12]
    # queue at 0:55: 15 124 (since 0:45), then 3 192, 20 84, 24 154 -> table 9 = 3 24 15 20
    (p9,) = ev.propose()
    assert p9.seats == ("3", "24", "15", "20") and not p9.final  # table 7 still plays
    ev.confirm(p9.seats, at(56))
    T9 = p9.seats

    # table 7 x2: 23 wins 20 on 7: (-8, -28, -8, 44) x2 -> 31 160, 7 36, 27 46, 23 98; 31 self-draws
    # 10: each pays 18 x 2 -> 31 268, 7 0: out, 27 10, 23 62 (0:58)
    feed(7, rec(7, 1, 41, 50, T7, [-8, -28, -8, 44], "23", "7", 20),
         rec(7, 2, 51, 58, T7, [54, -18, -18, -18], "31", None, 10))
    assert scores(*T7) == [268, 0, 10, 62]
    assert ev.propose() == []

    # table 9: 20 wins 12 on 15 x2 -> 3 176, 24 138, 15 84, 20 156; at 1:06 (x4) 3 self-draws 13:
    # each pays 21 x 4 = 84 -> 3 428, 24 54, 15 0: out, 20 72 (1:12)
    feed(9, rec(9, 1, 57, 65, T9, [-8, -8, -20, 36], "20", "15", 12),
         rec(9, 2, 66, 72, T9, [63, -21, -21, -21], "3", None, 13))
    assert [h.multiplier for h in ev.tables[9].result().hands] == [2, 4]
    assert scores(*T9) == [428, 54, 0, 72]
    # queue at 1:12: 31 268, 27 10, 23 62 (since 0:58), then 3 428, 24 54, 20 72 -> table 10 = 3 31 23 27
    (p10,) = ev.propose()
    assert p10.seats == ("3", "31", "23", "27") and not p10.final
    ev.confirm(p10.seats, at(73))
    T10 = p10.seats

    # table 10, 1:14 x4: 3 self-draws 8: each pays 16 x 4 = 64 -> 3 620, 31 204, 23 -2, 27 -54.
    # Two out on a self-draw: 前一盘比赛分高者列前 -> 23 (62 before) above 27 (10)
    feed(10, rec(10, 1, 74, 80, T10, [48, -16, -16, -16], "3", None, 8))
    assert scores(*T10) == [620, 204, -2, -54]
    assert ev.tables[10].result().eliminated == ("23", "27")

    # four are left: 20 72, 24 54 (since 1:12), 3 620, 31 204 (since 1:20): the last table
    (p11,) = ev.propose()
    assert p11.seats == ("3", "31", "20", "24") and p11.final
    ev.confirm(p11.seats, at(81))
    T11 = p11.seats
    cfg = table_config(ev, 11, "T-survival", hall_table=2)
    assert (cfg["players"], cfg["scores"], cfg["event_start"], cfg["final"], cfg["mode"]) == (
        ["3", "31", "20", "24"], [620, 204, 72, 54], T0, True, "survival")
    assert (cfg["session"], cfg["table"]) == (11, 2)  # the event's table 11 at hall table 2
    from protocol import config
    assert config.check(cfg) is None

    # the last table, x4: 31 wins 36 on 3's discard: (-44, 60, -8, -8) x4 -> 3 444, 31 444, 20 40,
    # 24 22. Rolled at 1:29, keyed at 1:36 (x4: in progress at 1:30): 20 wins 8 on 24 (-8, -8, 32,
    # -16) x4 -> 3 412, 31 412, 20 168, 24 -42: out, the event ends.
    feed(11, rec(11, 1, 82, 88, T11, [-44, 60, -8, -8], "31", "3", 36),
         rec(11, 2, 89, 96, T11, [-8, -8, 32, -16], "20", "24", 8))
    assert [h.multiplier for h in ev.tables[11].result().hands] == [4, 4]
    assert scores(*T11) == [412, 412, 168, -42]
    assert ev.ended
    # 冠亚季殿军 (§三.2.5): 3 and 31 level on 412, level before the last hand too (444); one more
    # hand back 31 had 204 against 620: 31 was behind and caught up (追平胜) -> 31 is champion
    final = [(x.place, x.player, x.score) for x in ev.ranking()]
    assert final[:4] == [(1, "31", 412), (2, "3", 412), (3, "20", 168), (4, "24", -42)]
    assert [(pl, p) for pl, p, _ in final[4:]] == [
        (5, "23"), (6, "27"), (7, "15"), (8, "7"), (9, "12"), (10, "16"), (11, "19"), (12, "4"),
        (13, "8"), (14, "11"), (15, "32"), (16, "28"),
    ]
    assert [(pl, p) for pl, p, _ in final[9:]] == decided  # decided places did not move
    # every payment and the 错和 are transfers: the 16 x 50 points are all still there
    assert sum(ev.score.values()) == 16 * 50
    # after the end nothing more is seated, a late hand of the last table is refused
    assert ev.propose() == [] and feed(11, rec(11, 3, 97, 99, T11, [48, -16, -16, -16], "3", None, 8))[0].code == "after_bust"
    with pytest.raises(TournamentError, match="ended"):
        ev.confirm(("3", "31", "20", "23"))

    # the same event rebuilt from what the server stores (confirmed tables + hand records, in any
    # order) gives the same placings
    stored = [StoredTable(n, lt.seats, lt.at, [hand_from_record(r) for r in reversed(fed[n])]) for n, lt in ev.tables.items()]
    again = replay(ENTRANTS, T0, list(reversed(stored)))
    assert again.ranking() == ev.ranking()
    assert again.problems == ["table 1: hand 3 was keyed after the table ended (a player was out after hand 2): it does not count",
                              "table 11: hand 3 was keyed after the table ended (a player was out after hand 2): it does not count"]


def test_a_correction_changes_the_win_and_keeps_the_penalties():
    # a 错和 of seat 2 (10 to each) and seat 0's 8 fans on seat 1's discard: deltas 42, -6, -38, 2.
    # The referee corrects the win to 10 fans: new deltas 44, -8, -38, 2. The 错和 stays as keyed
    # (not multiplied); the win's part becomes 34, -18, -8, -8
    r = rec(1, 1, 0, 9, ("a", "b", "c", "d"), [42, -6, -38, 2], "a", "b", 8)
    h = hand_from_record(r)
    assert (dict(h.deltas), dict(h.penalties)) == ({"a": 32, "b": -16, "c": -8, "d": -8}, {"a": 10, "b": 10, "c": -30, "d": 10})
    h = hand_from_record(r, corrected_deltas=[44, -8, -38, 2])
    assert dict(h.deltas) == {"a": 34, "b": -18, "c": -8, "d": -8} and h.penalties == {"a": 10, "b": 10, "c": -30, "d": 10}


def test_records_that_do_not_count_leave_the_table_alone():
    ev = SurvivalEvent(["a", "b", "c", "d", "e", "f", "g", "h"], T0)
    for p in ev.propose():
        ev.confirm(p.seats)
    seats = ev.tables[1].seats
    assert seats == ("a", "d", "e", "h")  # snake of 8: ranks 1 4 5 8
    good = rec(1, 1, 0, 5, seats, [40, -8, -8, -24], "a", "h", 16)
    assert ev.add_hand(1, hand_from_record(good)) is None
    assert ev.add_hand(1, hand_from_record(good)).code == "duplicate"
    other = rec(1, 2, 6, 9, ("a", "d", "e", "z"), [40, -8, -8, -24], "a", "z", 16)
    assert ev.add_hand(1, hand_from_record(other)).code == "not_at_table"
    undated = dict(rec(1, 3, 6, 9, seats, [40, -8, -8, -24], "a", "h", 16), hand_start=None)
    assert ev.add_hand(1, hand_from_record(undated)).code == "no_start"
    assert ev.add_hand(1, {"start": at(7), "discarder": "a", "hand": 4}).code == "bad_hand"
    assert ev.add_hand(1, {"nonsense": 1}).code == "bad_hand"
    assert [ev.score[p] for p in seats] == [90, 42, 42, 26]
    with pytest.raises(TournamentError):
        ev.add_hand(9, hand_from_record(good))
    # a box clock a little behind the server's: rolled 20 s "before" the event: x1, flagged
    early = rec(2, 1, 0, 5, ev.tables[2].seats, [40, -8, -8, -24], "b", "g", 16)
    early["hand_start"] = T0 - 20
    assert ev.add_hand(2, hand_from_record(early)) is None
    assert ev.tables[2].result().problems == ("hand 1 starts before the event (x1 counts): check the box's clock",)
    # the box showed another multiplier than its own roll gives: the roll's counts, flagged
    shown = dict(rec(2, 2, 31, 35, ev.tables[2].seats, [-8, 32, -8, -16], "c", "g", 8), multiplier=1)
    assert ev.add_hand(2, hand_from_record(shown)) is None
    assert ev.tables[2].result().hands[-1].multiplier == 2
    assert "the box showed x1, its start gives x2 (x2 counts)" in ev.tables[2].result().problems[-1]


def test_replay_lists_a_table_it_cannot_seat():
    tables = [
        StoredTable(1, ("a", "b", "c", "d"), T0, [rec(1, 1, 0, 5, ("a", "b", "c", "d"), [66, -8, -8, -50], "a", "d", 42)]),
        # four entrants: table 1 was the last; two more tables stored by mistake
        StoredTable(2, ("a", "b", "c", "e"), at(6)),
        StoredTable(3, ("a", "b", "c", "f"), at(7)),
    ]
    ev = replay(["a", "b", "c", "d"], T0, [{"number": t.number, "seats": t.seats, "at": t.at,
                                             "hands": [hand_from_record(h) for h in t.hands]} for t in tables])
    assert ev.ended and [x.player for x in ev.ranking()] == ["a", "b", "c", "d"]
    assert ev.problems == ["table 2 not counted: the event has ended", "table 3 not counted: the event has ended"]
    ev = replay(list("abcdefgh"), T0, [StoredTable(1, ("a", "b", "c", "d"), T0), StoredTable(2, ("a", "f", "g", "h"), T0)])
    assert ev.problems == ["table 2 not counted: a plays at table 1: only waiting players can be seated"]


def test_replay_never_raises_on_what_a_table_recorded():
    bad = [{"nonsense": True}, {"start": "noon", "hand": 2}, hand_from_record(rec(1, 3, 0, 5, ("a", "b", "c", "d"), [66, -8, -8, -50], "a", "d", 42))]
    ev = replay(["a", "b", "c", "d"], T0, [StoredTable(1, ("a", "b", "c", "d"), T0, bad)])
    assert ev.ended and ev.ranking()[0].player == "a"
    assert len(ev.problems) == 2 and all(p.startswith("table 1: ") for p in ev.problems)
