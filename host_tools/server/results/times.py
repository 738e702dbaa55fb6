"""Time limits on the hall's clock: the hands of a session against its deadline (its official
start plus the format's limit, ``tournaments.clock``, plus the minutes a referee gave the table
or the whole session), for the referee. The records' own times are absolute (epoch seconds); a
table that started late gets no extra minutes unless a referee gives them."""
from __future__ import annotations

from host_tools.server.tournaments import formats
from host_tools.tournament import timing
from host_tools.tournament.model import TournamentError

GRACE_S = 300  # timing.check_time_limit's grace


def limit_problems(snap, tables) -> list:
    """Hands keyed more than the grace after time was called (did they end before it?).
    DECISION: they still count; the referee decides (a correction, or entering the table's
    result by hand), since the box records when a hand was keyed, not when its win was called."""
    minutes = formats.get(snap.tournament["format"]).minutes(snap.tournament["settings"])
    if not snap.starts_at or minutes is None:
        return []
    out = []
    for (s, t), tb in sorted(tables.items()):
        start = snap.starts_at.get(s)
        if start is None or not tb.n_hands:
            continue
        try:
            end = timing.deadline(start, minutes) + 60 * (snap.extra_minutes.get((s, t), 0) + snap.extra_minutes.get((s, None), 0))
        except TournamentError:
            continue
        if tb.end is not None and tb.end.time <= end + GRACE_S:
            continue  # closed in time: no hand of it was keyed later (its single hands stay unread)
        check = timing.check_time_limit([{"hand": h.number, "time": h.time} for h in tb.hands if not h.manual], end, GRACE_S)
        out.extend("session %d table %d: %s" % (s, t, p) for p in check.problems)
    return out
