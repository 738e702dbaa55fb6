"""A seated table as the referee runs it on event day: who sits where (the published seating),
ending its session (``end_table``, ``reopen_table``), and players found in the wrong chairs
(``reseat``: the hands already played re-attributed, the seating set to where they sit, in one
audited step). Time extensions are the hall's clock's (``clock.extend``)."""
from __future__ import annotations

from typing import Optional

from django.db import transaction

from host_tools.server.errors import Conflict, Invalid, NotFound

from . import audit, formats
from .actions import bump, get
from .models import Reseat, SeatingTable, TableEnd, Tournament

MAX_HAND = 10000


def seated(t: Tournament, session: int, table: int, drafts: bool = False) -> Optional[list]:
    """The players of a table in the session's published seating (chairs 1-4 in order, 3 at a
    short table; a draft too with ``drafts``), or None when it is not seated."""
    q = SeatingTable.objects.filter(seating__tournament=t, seating__session=session, table=table)
    if not drafts:
        q = q.filter(seating__published_at__isnull=False)
    row = q.values_list("players", flat=True).first()
    return None if row is None else list(row)


def _where(session: int, table: int) -> None:
    if isinstance(session, bool) or not isinstance(session, int) or not 1 <= session <= formats.MAX_SESSION:
        raise Invalid("session must be 1..10000")
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= formats.MAX_TABLE:
        raise Invalid("table must be 1..10000")


def end_table(actor: str, tid: str, session: int, table: int, reason: str) -> TableEnd:
    """The referee ends the table's session (its box may have ended it too: both are kept)."""
    from host_tools.server.results import cache

    t = get(tid)
    _where(session, table)
    if seated(t, session, table) is None:
        raise NotFound("table %d is not in the published seating of session %d" % (table, session))
    if not reason.strip():
        raise Invalid("give a reason")
    tb = cache.result(tid).tables.get((session, table))
    hands = tb.n_hands if tb is not None else 0
    with transaction.atomic():
        if TableEnd.objects.filter(tournament=t, session=session, table=table).exists():
            raise Conflict("table %d of session %d is already ended" % (table, session))
        row = TableEnd.objects.create(tournament=t, session=session, table=table, hands=hands, reason=reason, referee=actor)
        bump(tid)
        audit.log(actor, "table.end", tid, "session %d table %d" % (session, table), None, {"hands": hands, "reason": reason})
    return row


def reopen_table(actor: str, tid: str, session: int, table: int, reason: str) -> None:
    t = get(tid)
    _where(session, table)
    if not reason.strip():
        raise Invalid("give a reason")
    with transaction.atomic():
        row = TableEnd.objects.select_for_update().filter(tournament=t, session=session, table=table).first()
        if row is None:
            raise NotFound("table %d of session %d was not ended by a referee" % (table, session))
        before = {"hands": row.hands, "reason": row.reason, "referee": row.referee}
        row.delete()
        bump(tid)
        audit.log(actor, "table.reopen", tid, "session %d table %d" % (session, table), before, {"reason": reason})


def reseat(actor: str, tid: str, session: int, table: int, actual: list, first_hand: int, last_hand: int, reason: str,
           move_seating: bool = True) -> Reseat:
    """Players found in the wrong chairs after some hands. ``actual``: who really sat in chairs
    1-4 of the seating (the same players, another order). The hands ``first_hand``..``last_hand``
    are read with them (what the box recorded as the seating's player of a chair is the one who
    sat there); with ``move_seating`` the published seating is set to where they sit, so the
    table's box gets the chairs as they are at its next contact."""
    t = get(tid)
    _where(session, table)
    for v, what in ((first_hand, "first hand"), (last_hand, "last hand")):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_HAND:
            raise Invalid("%s must be 1..%d" % (what, MAX_HAND))
    if first_hand > last_hand:
        raise Invalid("the first hand comes before the last")
    if not reason.strip():
        raise Invalid("give a reason")
    with transaction.atomic():
        row = SeatingTable.objects.select_for_update().filter(seating__tournament=t, seating__session=session, table=table,
                                                              seating__published_at__isnull=False).first()
        if row is None:
            raise NotFound("table %d is not in the published seating of session %d" % (table, session))
        chairs = list(row.players)
        if not isinstance(actual, list) or len(actual) != len(chairs) or sorted(actual) != sorted(chairs):
            raise Invalid("name the table's players (%s), each once, in the chairs where they sat" % ", ".join(chairs))
        if actual == chairs:
            raise Invalid("these are the chairs of the seating: nothing to re-seat")
        swap = {was: now for was, now in zip(chairs, actual) if was != now}
        r = Reseat.objects.create(tournament=t, session=session, table=table, first_hand=first_hand, last_hand=last_hand, players=swap,
                                  reason=reason, referee=actor)
        if move_seating:
            row.players = actual
            row.save()
        bump(tid)
        audit.log(actor, "table.reseat", tid, "session %d table %d hands %d-%d" % (session, table, first_hand, last_hand),
                  {"chairs": chairs}, {"chairs": actual, "recorded as -> sat there": swap, "seating moved": move_seating, "reason": reason})
    return r
