"""Referee endpoints: corrections by hand and player name, hands entered by hand, rulings on
quarantined records, penalties, play-offs."""
from __future__ import annotations

from ninja import Router

from host_tools.server.boxes import claims, referee
from host_tools.server.results import cache
from host_tools.server.tournaments import actions
from host_tools.server.tournaments import referee as tref
from host_tools.server.tournaments.models import Penalty, Playoff

from .core import AUTH, need
from .schemas import (ClaimIn, ClaimOut, CorrectionIn, CorrectionOut, Error, HandIn, HandOut, PenaltyIn, PenaltyOut, PlayoffIn, PlayoffOut,
                      RulingIn)

router = Router(tags=["referee"], auth=AUTH)


@router.post("/tournaments/{tid}/corrections", response={201: CorrectionOut, 400: Error, 403: Error, 404: Error},
             summary="Correct a hand: by session, table, hand number and player names (a new entry; the record stays)")
def add_correction(request, tid: str, body: CorrectionIn):
    who = need(request, tid, "referee")
    c = referee.correct(who, tid, body.session, body.table, body.hand, body.points, body.reason, body.deductions)
    return 201, {"id": c.id, "session": body.session, "table": body.table, "hand": body.hand, "deltas": c.deltas, "seats": c.hand.seats,
                 "reason": c.reason, "referee": c.referee}


@router.get("/tournaments/{tid}/corrections", response={200: list, 403: Error}, summary="Corrections (device and referee)")
def list_corrections(request, tid: str):
    need(request, tid, "referee")
    from host_tools.server.boxes.models import Correction

    return list(Correction.objects.filter(tournament=tid).values("id", "hand__session", "hand__table", "hand__number", "source", "deltas", "reason", "referee"))


@router.get("/corrections/unresolved", response={200: list}, summary="Device corrections whose target record has not arrived")
def unresolved(request):
    return referee.unresolved_corrections()


@router.post("/tournaments/{tid}/hands", response={201: HandOut, 400: Error, 403: Error, 404: Error},
             summary="Enter a whole hand (the box failed): events as in the settle protocol, settled by rules_min")
def enter_hand(request, tid: str, body: HandIn):
    who = need(request, tid, "referee")
    h = referee.enter_hand(who, tid, body.session, body.table, body.hand, body.seats, body.dealer, body.prevalent_wind, body.events, body.reason)
    return 201, {"id": h.id, "session": h.session, "table": h.table, "hand": h.number, "seats": h.seats, "deltas": h.deltas, "fans": h.fans}


@router.get("/tournaments/{tid}/quarantine", response={200: list, 403: Error}, summary="Quarantined records and their problems")
def quarantine(request, tid: str):
    need(request, tid, "referee")
    return cache.result(tid).quarantine


@router.post("/tournaments/{tid}/rulings", response={201: dict, 400: Error, 403: Error, 404: Error, 409: Error},
             summary="Accept (count) or reject a quarantined record")
def rule(request, tid: str, body: RulingIn):
    who = need(request, tid, "referee")
    r = referee.rule(who, tid, body.record, body.decision, body.reason or "")
    return 201, {"id": r.id, "record": body.record, "decision": r.decision}


@router.post("/tournaments/{tid}/claims", response={201: ClaimOut, 400: Error, 403: Error, 404: Error, 409: Error},
             summary="Claim a session keyed in at a box (records naming no tournament here) for a session and table",
             description="Names one record of the session (device, seq); all of that session's records are claimed. Every player "
                         "keyed at the box (or the registered player ``players`` maps it to) must be registered, and be the table's "
                         "players where the session's seating is published.")
def claim(request, tid: str, body: ClaimIn):
    who = need(request, tid, "referee")
    c = claims.claim(who, tid, body.device, body.seq, body.session, body.table, body.players, body.reason or "")
    return 201, {"id": c.id, "session": c.session, "table": c.table, "records": c.record_ids}


@router.post("/tournaments/{tid}/penalties", response={201: PenaltyOut, 400: Error, 403: Error, 404: Error},
             summary="Off-table penalty for a registered player (late: minutes; points; disqualification)")
def add_penalty(request, tid: str, body: PenaltyIn):
    who = need(request, tid, "referee")
    p = tref.add_penalty(who, tid, body.session, body.player, body.kind, body.reason,
                         None if body.minutes is None else str(body.minutes), body.points, body.game)
    return 201, tref.penalty_dict(p)


@router.delete("/tournaments/{tid}/penalties/{pid}", response={200: PenaltyOut, 403: Error, 404: Error, 409: Error}, summary="Revoke a penalty")
def revoke_penalty(request, tid: str, pid: int):
    who = need(request, tid, "referee")
    return tref.penalty_dict(tref.revoke_penalty(who, tid, pid))


@router.post("/tournaments/{tid}/playoffs", response={201: PlayoffOut, 400: Error, 403: Error, 404: Error},
             summary="Record a play-off (Sichuan ties; table omitted: the runners-up play-off)")
def add_playoff(request, tid: str, body: PlayoffIn):
    who = need(request, tid, "referee")
    po = tref.add_playoff(who, tid, body.session, body.table, body.scores)
    return 201, {"id": po.id, "session": po.session, "table": po.table, "scores": po.scores, "referee": po.referee}


@router.get("/tournaments/{tid}/penalties", response={200: list, 404: Error}, summary="Off-table penalties", auth=None)
def penalties(request, tid: str):
    from host_tools.server.tournaments.referee import penalty_dict

    actions.get(tid)
    return [penalty_dict(p) for p in Penalty.objects.filter(tournament_id=tid)]


@router.get("/tournaments/{tid}/playoffs", response={200: list, 404: Error}, summary="Recorded play-offs", auth=None)
def playoffs(request, tid: str):
    actions.get(tid)
    return [{"id": p.id, "session": p.session, "table": p.table, "scores": p.scores, "referee": p.referee} for p in Playoff.objects.filter(tournament_id=tid)]
