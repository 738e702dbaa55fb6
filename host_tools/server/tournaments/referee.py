"""Off-table penalties (picked by player) and play-off results."""
from __future__ import annotations

from typing import Optional

from django.db import transaction

from host_tools.server import numeric
from host_tools.server.errors import Conflict, Invalid, NotFound

from . import audit, formats
from .actions import bump, get
from .models import Penalty, Player, Playoff


def penalty_dict(p: Penalty) -> dict:
    return {"id": p.id, "session": p.session, "player": p.player, "kind": p.kind, "minutes": p.minutes, "points": p.points,
            "game": p.game, "reason": p.reason, "referee": p.referee, "revoked": p.revoked}


def add_penalty(actor: str, tid: str, session: int, player: str, kind: str, reason: str,
                minutes: Optional[str] = None, points: Optional[int] = None, game: Optional[int] = None) -> Penalty:
    """An off-table penalty. A late arrival takes minutes (the format's table rules it: seed 000
    and 004 points or a forfeit of the session; Sichuan, seed 003 §五.1, the game from 10
    minutes, the stage from 15) and, in Sichuan only, the game it was for (default the first)."""
    t = get(tid)
    if not 1 <= session <= formats.MAX_SESSION:
        raise Invalid("session must be 1..10000")
    if not Player.objects.filter(tournament=t, pid=player).exists():
        raise Invalid("%r is not a registered player" % player)
    fmt = formats.of(t)
    if fmt.live_tables:
        raise Invalid("the survival event takes its penalties at the table (penalty events of the hands)")
    if game is not None and (kind != Penalty.LATE or not fmt.late_per_game):
        raise Invalid("a game is given for a late arrival in Sichuan only")
    if game is not None and (isinstance(game, bool) or not isinstance(game, int) or not 1 <= game <= 1000):
        raise Invalid("game must be 1..1000 (the game of the stage the player was late for)")
    if kind == Penalty.LATE:
        if points is not None:
            raise Invalid("late takes minutes, not points")
        try:
            m = numeric.decimal(str(minutes) if minutes is not None else "", "minutes", 0, 100000)
        except numeric.BadNumber as e:
            raise Invalid(str(e)) from None
        minutes, points = str(m), None
    elif kind == Penalty.POINTS:
        if minutes is not None:
            raise Invalid("points take no minutes")
        try:
            points = numeric.integer(points, "points", -100000, 100000)
        except numeric.BadNumber as e:
            raise Invalid(str(e)) from None
    elif kind == Penalty.DQ:
        if minutes is not None or points is not None:
            raise Invalid("a disqualification takes neither minutes nor points")
    else:
        raise Invalid("kind must be late, points or disqualification")
    if not reason.strip():
        raise Invalid("give a reason")
    with transaction.atomic():
        p = Penalty.objects.create(tournament=t, session=session, player=player, kind=kind, minutes=minutes, points=points, game=game,
                                   reason=reason, referee=actor)
        bump(tid)
        audit.log(actor, "penalty.add", tid, "penalty %d" % p.id, None, penalty_dict(p))
    return p


def revoke_penalty(actor: str, tid: str, pid: int) -> Penalty:
    with transaction.atomic():
        try:
            p = Penalty.objects.select_for_update().get(tournament_id=tid, id=pid)
        except Penalty.DoesNotExist:
            raise NotFound("no penalty %d" % pid) from None
        if p.revoked:
            raise Conflict("penalty %d is already revoked" % pid)
        before = penalty_dict(p)
        p.revoked = True
        p.save()
        bump(tid)
        audit.log(actor, "penalty.revoke", tid, "penalty %d" % pid, before, penalty_dict(p))
    return p


def add_playoff(actor: str, tid: str, session: int, table: Optional[int], scores: dict) -> Playoff:
    t = get(tid)
    if not 1 <= session <= formats.MAX_SESSION or (table is not None and not 1 <= table <= formats.MAX_TABLE):
        raise Invalid("session and table must be 1..10000")
    if not isinstance(scores, dict) or not 1 <= len(scores) <= 64:
        raise Invalid("scores: player -> play-off score")
    known = set(Player.objects.filter(tournament=t, pid__in=list(scores)).values_list("pid", flat=True))
    if set(scores) - known:
        raise Invalid("not registered: %s" % ", ".join(sorted(set(scores) - known)))
    for v in scores.values():
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 10**9:
            raise Invalid("play-off scores are whole numbers")
    with transaction.atomic():
        prev = Playoff.objects.filter(tournament=t, session=session, table=table).order_by("-id").first()
        po = Playoff.objects.create(tournament=t, session=session, table=table, scores=scores, referee=actor)
        bump(tid)
        audit.log(actor, "playoff.record", tid, "play-off session %d table %s" % (session, "-" if table is None else table),
                  None if prev is None else prev.scores, scores)
    return po
