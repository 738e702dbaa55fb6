"""Absolute times (one clock for the hall) for time limits, lateness and 单盘最大番 最先达到. Worked by hand."""
import pytest

from host_tools.tournament.awards import HandRecord as R, biggest_hand
from host_tools.tournament.formats.mcr_000 import mcr_late, mcr_standings
from host_tools.tournament.model import TournamentError
from host_tools.tournament.timing import check_time_limit, deadline, minutes_late

START = 1_760_000_000  # the session's official start (14:00)


def test_deadline_is_the_halls_not_the_tables():
    # seed 000 §三.1.4 每局16盘120分钟...裁判长宣布比赛时间到时立即停牌，此时未结束的牌局无效
    end = deadline(START, 120)
    assert end == START + 7200
    # a table that waited 10 minutes for a late player started at 14:10: time is still called at 16:00
    hands = [
        {"hand": 14, "hand_start": end - 600, "time": end - 60},  # done before 16:00
        {"hand": 15, "hand_start": end - 10, "time": end + 240},  # rolled at 15:59:50, keyed 4 min after: fine
        {"hand": 16, "hand_start": end + 30, "time": end + 500},  # rolled after time was called: void
    ]
    check = check_time_limit(hands, end)
    assert check.void == (16,) and check.keyed_late == ()
    # keyed 10 minutes after time was called: the referee checks it ended before
    check = check_time_limit([{"hand": 15, "hand_start": end - 10, "time": end + 600}], end)
    assert check.void == () and check.keyed_late == (15,)
    # the box's own time-out record is no problem
    assert check_time_limit([{"hand": 9, "hand_start": end - 5, "time": end + 900, "time_out": True}], end).problems == ()
    with pytest.raises(TournamentError):
        deadline(START, 0)


def test_lateness_counts_from_the_official_start():
    # seed 000 §一.4.1 比赛开始时...迟到不超过10分钟，扣10分；10分钟以上，不超过15分钟，扣20分: the player
    # reached a table that itself started 5 minutes late 7 minutes after that table's start: 12
    # minutes after the official start, not 7
    arrival = START + 5 * 60 + 7 * 60
    assert minutes_late(START, arrival) == 12
    assert mcr_late(minutes_late(START, arrival)).penalty == -20
    assert minutes_late(START, START - 30) == 0
    assert minutes_late(START, START + 90) * 2 == 3  # exact: 3/2 minutes


def test_biggest_hand_first_reached_by_absolute_time():
    # 单盘最大番...若出现并列，最先达到该番值的选手胜出. Table 1 started at 14:00, table 2 at 14:10
    # (it waited for a late player). C (table 1) reached 24 fans at 14:25, E (table 2) at 14:30:
    # C was first, although E was only 20 minutes into their table's session and C 25
    prelim = mcr_standings([[{"A": 40, "B": 10, "C": -20, "D": -30}, {"E": 30, "F": 0, "G": -10, "H": -20}]])
    hands = [R(1, 1, 5, "C", None, 24, at=START + 25 * 60), R(1, 2, 3, "E", "F", 24, at=START + 30 * 60)]
    award = biggest_hand(prelim, hands)
    assert award.winner == "C" and award.hand.table == 1
