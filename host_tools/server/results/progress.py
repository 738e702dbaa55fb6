"""How far the sessions have got, from a ``Result``: a session is complete when it has a
published seating and every table of it has ended (its box's session_end counted, or a referee
ended it), a table too short to play (fewer than three present) counting as ended. Results
over sessions that are not complete are provisional (the awards say so: "best defence" must
not go to a player who dealt in while better players had not finished)."""
from __future__ import annotations

from host_tools.server.tournaments.formats import MAX_SESSION


def table_done(res, session: int, table: int, players) -> bool:
    snap = res.snapshot
    if (session, table) in snap.table_ends:
        return True
    tb = res.tables.get((session, table))
    if tb is not None and tb.end is not None:
        return True
    away = snap.absences.get(session, set())
    return sum(1 for p in players if p not in away) < 3


def incomplete_sessions(res, sessions: int) -> list:
    """Sessions 1..``sessions`` that are not complete yet (sessions are numbered 1..10000)."""
    seatings = res.snapshot.seatings
    out = []
    for s in range(1, min(sessions, MAX_SESSION) + 1):
        tables = seatings.get(s)
        if not tables or not all(table_done(res, s, t, ps) for t, ps in tables.items()):
            out.append(s)
    return out
