"""The hall's clock: when the head referee starts each session (比赛开始). A session's time limit
counts from it at every table (``host_tools.tournament.timing``), never from when a table's own
box began: the boxes get the deadline in their config (``ends_at``), the live board counts down
to it, and the results list hands keyed long after it."""
from __future__ import annotations

import time
from typing import Optional

from django.db import transaction

from host_tools.server.errors import Invalid
from host_tools.tournament import timing
from host_tools.tournament.model import TournamentError

from . import audit, formats
from .actions import bump, get
from .models import SessionStart, Tournament


def set_start(actor: str, tid: str, session: int, at: Optional[int] = None) -> SessionStart:
    """Start session ``session`` at ``at`` (epoch seconds; None: now). It may be set ahead (the
    boxes then fetch their deadline with their config) and moved while the session runs."""
    t = get(tid)
    if isinstance(session, bool) or not isinstance(session, int) or not 1 <= session <= formats.MAX_SESSION:
        raise Invalid("session must be 1..10000")
    at = int(time.time()) if at is None else at
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < 2**40:
        raise Invalid("at must be epoch seconds")
    with transaction.atomic():
        row = SessionStart.objects.filter(tournament=t, session=session).first()
        before = None if row is None else row.at
        if row is None:
            row = SessionStart.objects.create(tournament=t, session=session, at=at, referee=actor)
        else:
            row.at, row.referee = at, actor
            row.save()
        bump(tid)
        audit.log(actor, "session.start", tid, "session %d" % session, {"at": before}, {"at": at, "ends_at": deadline(t, at)})
    return row


def deadline(t: Tournament, start: int) -> Optional[int]:
    """When time is called for a session of this tournament that started at ``start``; None
    without a time limit (the survival event plays until the last bust; Sichuan has none unless
    the organizer sets one)."""
    minutes = formats.of(t).minutes(t.settings)
    if minutes is None:
        return None
    try:
        return timing.deadline(start, minutes)
    except TournamentError:
        return None


def ends_at(t: Tournament, session: int) -> Optional[int]:
    at = SessionStart.objects.filter(tournament=t, session=session).values_list("at", flat=True).first()
    return None if at is None else deadline(t, at)


def as_dict(t: Tournament, session: int) -> dict:
    at = SessionStart.objects.filter(tournament=t, session=session).values_list("at", flat=True).first()
    return {"session": session, "at": at, "ends_at": None if at is None else deadline(t, at), "minutes": formats.of(t).minutes(t.settings)}
