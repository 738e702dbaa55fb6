"""Absolute times: every time limit, lateness and "who reached it first" is measured on one clock
for the whole hall (epoch seconds), never from when a table's own box started.

* Time limits: seed 000 §三.1.4 每局16盘120分钟...裁判长宣布比赛时间到时立即停牌，此时未结束的牌局无效;
  seed 004 §四 预赛.2 每局50分钟...未结束的牌局只记录已经发生的杠牌. The head referee calls time for
  the hall, so a session ends at its official start + the limit (``deadline``) at every table:
  a table that started 10 minutes late (waiting for a late player) does not play 10 minutes
  longer. The box gets the deadline in its config (docs/survival.md) and times out on it.
* Lateness: seed 000 §一.4.1 / seed 003 §五.1 / seed 004 §三.1 count minutes late from 比赛开始,
  the session's official start (``minutes_late``).
* Survival multipliers count from the event's start to each hand's dice roll
  (``rules_min.survival.hand_multiplier``).
* 单盘最大番 最先达到 (seed 000 奖项): the hands' absolute times (``awards.HandRecord.at``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Mapping

from .model import TournamentError


def _epoch(t: Any, what: str) -> int:
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise TournamentError("%s must be epoch seconds, not %r" % (what, t))
    return t


def deadline(official_start: Any, minutes: Any) -> int:
    """When time is called for a session: its official start plus the limit, in epoch seconds."""
    start = _epoch(official_start, "the session's official start")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0:
        raise TournamentError("the time limit must be a positive number of minutes, not %r" % (minutes,))
    return start + 60 * minutes


def minutes_late(official_start: Any, arrival: Any) -> Fraction:
    """Minutes a player arrived after the session's official start (0 when on time), exact."""
    a = _epoch(arrival, "the arrival")
    s = _epoch(official_start, "the session's official start")
    return Fraction(max(0, a - s), 60)


@dataclass(frozen=True)
class TimeCheck:
    """void: hand numbers that started at or after the deadline (they do not count);
    keyed_late: hands that started before it but were keyed more than ``grace`` seconds after
    (the referee checks that they ended before time was called); problems: both, in words."""

    void: tuple[int, ...]
    keyed_late: tuple[int, ...]
    problems: tuple[str, ...]


def check_time_limit(hands: Iterable[Mapping[str, Any]], ends_at: Any, grace: int = 300) -> TimeCheck:
    """Hands of one table (records with ``hand``, ``hand_start`` and ``time``, epoch seconds)
    against the session's deadline. A hand without a hand_start is judged by its time alone.

    DECISION: a hand keyed within ``grace`` seconds after time was called (the winner's tiles
    are tapped after the win was declared) is not listed; later ones are, for the referee."""
    end = _epoch(ends_at, "the deadline")
    void, late, problems = [], [], []
    for h in hands:
        n, start, keyed = h.get("hand"), h.get("hand_start"), h.get("time")
        if h.get("time_out"):
            continue  # the box recorded the hand in progress at time-out as such
        if isinstance(start, int) and not isinstance(start, bool) and start >= end:
            void.append(n)
            problems.append("hand %s started %d s after time was called: it does not count" % (n, start - end))
        elif isinstance(keyed, int) and not isinstance(keyed, bool) and keyed > end + grace:
            late.append(n)
            problems.append("hand %s was keyed %d s after time was called: did it end before?" % (n, keyed - end))
    return TimeCheck(tuple(void), tuple(late), tuple(problems))
