"""Where a seated table stands, for the live board and the table's page: its players by chair,
its box (or none), hands so far, time left on the hall's clock (a referee's extensions
included), whether it has ended (its box's session_end, or a referee), and its problems. Read
from the results (``Result``) and the boxes' status: no query per table."""
from __future__ import annotations

import time
from typing import Optional

from django.utils.translation import gettext as _

from host_tools.server.tournaments import formats
from host_tools.tournament import timing
from host_tools.tournament.model import TournamentError

WINDS = "ESWN"


def deadline(res, fmt, session: int, table: int) -> Optional[int]:
    """When time is called at this table (the hall's start + limit + the minutes given); None
    before the session's official start or without a limit."""
    snap = res.snapshot
    minutes = fmt.minutes(snap.tournament["settings"])
    start = snap.starts_at.get(session)
    if start is None or minutes is None:
        return None
    try:
        return timing.deadline(start, minutes) + 60 * extra(res, session, table)
    except TournamentError:
        return None


def extra(res, session: int, table: int) -> int:
    given = res.snapshot.extra_minutes
    return given.get((session, table), 0) + given.get((session, None), 0)


def status(t, res, session: int, table: int, players: list, box: Optional[dict], now: Optional[int] = None, flag_no_box: bool = True) -> dict:
    """``players``: the table's in the published seating (chair order; empty when it is not
    seated); ``box``: the bound box's status (``boxes.actions.status``) or None (a problem on
    the board with ``flag_no_box``)."""
    fmt = formats.of(t)
    now = int(time.time()) if now is None else now
    names = res.names()
    tb = res.tables.get((session, table))
    hands = tb.n_hands if tb else 0
    referee_end = res.snapshot.table_ends.get((session, table))
    ended = bool(tb and tb.end) or referee_end is not None
    minutes = fmt.minutes(t.settings)
    end = deadline(res, fmt, session, table)
    if ended or minutes is None:
        left = None
    elif end is not None:
        left = max(0, end - now) // 60
    else:  # no official start: the table's own, from its first record
        started = (tb.start.time if tb.start else tb.first_time()) if tb else None
        left = None if started is None else max(0, (minutes + extra(res, session, table)) * 60 - (now - started)) // 60
    problems = []
    if tb is not None:
        from host_tools.server.results.compute import table_problems
        problems = table_problems(tb)
        if tb.quarantined:
            problems.insert(0, _("%(n)d record(s) in quarantine") % {"n": tb.quarantined})
    if box is None:
        if not ended and flag_no_box:
            problems.append(_("no box bound to this table"))
    elif box["unsynced"]:
        problems.append(_("%(n)d record(s) not synced") % {"n": box["unsynced"]})
    seated = players or (tb.players() if tb else [])
    return {"table": table, "session": session, "players": [(p, names.get(p, "")) for p in seated],
            "chairs": [{"chair": i + 1, "wind": WINDS[i], "player": p, "name": names.get(p, "")} for i, p in enumerate(seated)],
            "hands": hands, "of": fmt.hands_at(len(seated)) if seated else fmt.hands, "ended": ended, "referee_end": referee_end,
            "left": left, "extra": extra(res, session, table), "limit": minutes, "ends_at": end, "box": box, "problems": problems}
