"""The hall's clock: when the head referee starts each session (比赛开始). A session's time limit
counts from it at every table (``host_tools.tournament.timing``), never from when a table's own
box began: the boxes get the deadline in their config (``ends_at``), the live board counts down
to it, and the results list hands keyed long after it.

A referee may give one table, or every table of a session, more time (``extend``): the table's
deadline is then the hall's plus its extensions (``table_ends_at``), and ``box_time`` is what
its box is told at its next contact (the config's ``ends_at``, absolute, extensions included;
without an official start, ``minutes`` from the box's own start, extensions included)."""
from __future__ import annotations

import time
from typing import Optional

from django.db import models, transaction

from host_tools.server.errors import Invalid
from host_tools.tournament import timing
from host_tools.tournament.model import TournamentError
from protocol import config as pconfig

from . import audit, formats
from .actions import bump, get
from .models import SeatingTable, SessionStart, TimeExtension, Tournament


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


EXTEND_MIN, EXTEND_MAX = -120, 240  # one extension's minutes (negative: taken back)
MINUTES_MAX = next(f[4] for f in pconfig.FIELDS if f[0] == "minutes")  # what a box takes


def extra_minutes(t: Tournament, session: int, table: int) -> int:
    """Minutes given to this table: its own extensions and those of every table of the session."""
    rows = TimeExtension.objects.filter(tournament=t, session=session).filter(models.Q(table=table) | models.Q(table__isnull=True))
    return sum(rows.values_list("minutes", flat=True))


def table_ends_at(t: Tournament, session: int, table: int) -> Optional[int]:
    """When time is called at this table (the hall's deadline and its extensions); None before
    the session's official start or without a time limit."""
    end = ends_at(t, session)
    return None if end is None else end + 60 * extra_minutes(t, session, table)


def box_time(t: Tournament, session: int, table: int) -> dict:
    """The time fields of this table's box config (protocol/config.py): ``minutes`` (the limit
    counted from the box's own start, extensions included) and, once the session has an official
    start, ``ends_at`` (absolute, extensions included: the box takes the sooner). Empty without
    a time limit."""
    minutes = formats.of(t).minutes(t.settings)
    if minutes is None:
        return {}
    extra = extra_minutes(t, session, table)
    out = {"minutes": max(1, min(MINUTES_MAX, minutes + extra))}
    end = table_ends_at(t, session, table)
    if end is not None:
        out["ends_at"] = end
    return out


def extend(actor: str, tid: str, session: int, table: Optional[int], minutes: int, reason: str) -> TimeExtension:
    """Give one table (or, ``table`` None, every table of the session) ``minutes`` more."""
    t = get(tid)
    if isinstance(session, bool) or not isinstance(session, int) or not 1 <= session <= formats.MAX_SESSION:
        raise Invalid("session must be 1..10000")
    if table is not None and (isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= formats.MAX_TABLE):
        raise Invalid("table must be 1..10000 (or none: every table)")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not EXTEND_MIN <= minutes <= EXTEND_MAX or minutes == 0:
        raise Invalid("minutes must be %d..%d and not 0" % (EXTEND_MIN, EXTEND_MAX))
    limit = formats.of(t).minutes(t.settings)
    if limit is None:
        raise Invalid("this tournament's sessions have no time limit: there is no time to extend")
    if not reason.strip():
        raise Invalid("give a reason")
    with transaction.atomic():
        tables = [table] if table is not None else seated_tables(t, session)
        for tb in tables:
            total = extra_minutes(t, session, tb) + minutes
            if total < 0:
                raise Invalid("table %d would have %d minutes less than the session's limit" % (tb, -total))
            if limit + total > MINUTES_MAX:
                raise Invalid("table %d would play %d minutes: a session has at most %d" % (tb, limit + total, MINUTES_MAX))
        row = TimeExtension.objects.create(tournament=t, session=session, table=table, minutes=minutes, reason=reason, referee=actor)
        bump(tid)
        audit.log(actor, "time.extend", tid, "session %d %s" % (session, "every table" if table is None else "table %d" % table),
                  None, {"minutes": minutes, "reason": reason})
    return row


def seated_tables(t: Tournament, session: int) -> list:
    return list(SeatingTable.objects.filter(seating__tournament=t, seating__session=session).values_list("table", flat=True))


def as_dict(t: Tournament, session: int) -> dict:
    at = SessionStart.objects.filter(tournament=t, session=session).values_list("at", flat=True).first()
    return {"session": session, "at": at, "ends_at": None if at is None else deadline(t, at), "minutes": formats.of(t).minutes(t.settings)}
