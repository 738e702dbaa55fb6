"""Organizer endpoints: tournaments, players (JSON or CSV import), absences, roles, seatings."""
from __future__ import annotations

from host_tools.server import numeric

import csv
import io

from ninja import Router
from ninja.errors import HttpError

from host_tools.server import errors
from host_tools.server.results import cache
from host_tools.server.tournaments import actions, audit, formats, permissions
from host_tools.server.tournaments.models import Player, Seating, Tournament
from host_tools.tournament import seating as seating_mod

from .core import AUTH, need, need_server_organizer, viewer
from .schemas import (AbsenceIn, Error, ImportOut, PlayerIn, PlayerOut, PlayerPatch, RoleIn, SeatingIn, SeatingOut,
                      SwapIn, TournamentIn, TournamentOut, TournamentPatch)

router = Router(tags=["tournaments"])


@router.get("/tournaments", response=list[TournamentOut], summary="List tournaments")
def list_tournaments(request):
    return [actions.as_dict(t) for t in Tournament.objects.all()]


@router.post("/tournaments", response={201: TournamentOut, 400: Error, 409: Error}, auth=AUTH, summary="Create a tournament")
def create_tournament(request, body: TournamentIn):
    who = need_server_organizer(request)
    t = actions.create_tournament(who, body.id, body.name, body.format, body.settings)
    return 201, actions.as_dict(t)


@router.get("/tournaments/{tid}", response={200: TournamentOut, 404: Error}, summary="A tournament")
def get_tournament(request, tid: str):
    return actions.as_dict(actions.get(tid))


@router.patch("/tournaments/{tid}", response={200: TournamentOut, 400: Error, 404: Error}, auth=AUTH, summary="Rename or change settings")
def update_tournament(request, tid: str, body: TournamentPatch):
    who = need(request, tid, "organizer")
    return actions.as_dict(actions.update_tournament(who, tid, body.name, body.settings, body.details))


@router.get("/tournaments/{tid}/players", response={200: list[PlayerOut], 404: Error}, summary="Players of a tournament")
def list_players(request, tid: str):
    actions.get(tid)
    return [actions.player_dict(p) for p in Player.objects.filter(tournament_id=tid)]


CSV_FIELDS = ("id", "name", "draw", "ema_id", "country", "substitute", "family_name")


def players_from_csv(text: str) -> list[dict]:
    """CSV with a header naming some of id,name,draw,ema_id,country,substitute,family_name -> PlayerIn dicts
    (validated by the same schema as JSON imports)."""
    from pydantic import ValidationError

    from host_tools.server.boxes.contract import describe

    rows = list(csv.DictReader(io.StringIO(text)))
    if len(rows) > 10000:
        raise errors.Invalid("at most 10000 players per import")
    out = []
    for n, r in enumerate(rows, 2):
        obj: dict = {}
        for k, v in r.items():
            if k is None:
                raise errors.Invalid("line %d has more cells than the header" % n)
            k = k.strip().lower()
            if k not in CSV_FIELDS:
                raise errors.Invalid("unknown CSV column %r (columns: %s)" % (k, ", ".join(CSV_FIELDS)))
            v = (v or "").strip()
            if k == "draw":
                if v == "":
                    continue
                if not numeric.digits(v, 7):
                    raise errors.Invalid("line %d: draw must be a positive whole number, not %r" % (n, v[:20]))
                obj[k] = int(v)
            elif k == "substitute":
                obj[k] = v.lower() in ("1", "yes", "true", "y", "x")
            else:
                obj[k] = v
        try:
            out.append(PlayerIn.model_validate(obj).model_dump())
        except ValidationError as e:
            raise errors.Invalid("line %d: %s" % (n, describe(e))) from None
    return out


@router.post("/tournaments/{tid}/players", response={200: ImportOut, 400: Error, 404: Error, 409: Error}, auth=AUTH,
             summary="Import players: a JSON list, {players: [...]}, or text/csv with id,name,draw,ema_id,country,substitute",
             openapi_extra={"requestBody": {"content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/PlayerIn"}}},
                                                        "text/csv": {"schema": {"type": "string"}}}}})
def import_players(request, tid: str):
    import json

    from pydantic import TypeAdapter, ValidationError

    from host_tools.server.boxes.contract import describe

    who = need(request, tid, "organizer")
    if request.content_type == "text/csv":
        try:
            items = players_from_csv(request.body.decode("utf-8-sig"))
        except (UnicodeDecodeError, csv.Error):
            raise errors.Invalid("the CSV is not valid UTF-8 CSV") from None
    else:
        try:
            body = json.loads(request.body)
        except (ValueError, RecursionError):
            raise errors.Invalid("the body is not valid JSON") from None
        if isinstance(body, dict) and set(body) == {"players"}:
            body = body["players"]
        if not isinstance(body, list) or len(body) > 10000:
            raise errors.Invalid('send a list of at most 10000 players, {"players": [...]}, or text/csv')
        try:
            items = [p.model_dump() for p in TypeAdapter(list[PlayerIn]).validate_python(body)]
        except ValidationError as e:
            raise errors.Invalid(describe(e)) from None
    return actions.import_players(who, tid, items)


@router.patch("/tournaments/{tid}/players/{pid}", response={200: PlayerOut, 400: Error, 404: Error, 409: Error}, auth=AUTH,
              summary="Edit a player: name, draw, check-in, substitute, withdrawal")
def update_player(request, tid: str, pid: str, body: PlayerPatch):
    who = need(request, tid, "organizer")
    changes = body.model_dump(exclude_unset=True)
    for k in ("ema_id", "country", "family_name"):
        if k in changes and changes[k] is None:
            changes[k] = ""
    return actions.player_dict(actions.update_player(who, tid, pid, **changes))


@router.post("/tournaments/{tid}/absences", response={200: dict, 400: Error, 404: Error}, auth=AUTH, summary="Mark a player absent (or present) for a session")
def set_absence(request, tid: str, body: AbsenceIn):
    who = need(request, tid, "organizer")
    actions.set_absent(who, tid, body.session, body.player, body.absent, body.reason or "")
    return {"session": body.session, "player": body.player, "absent": body.absent}


@router.post("/tournaments/{tid}/roles", response={200: dict, 400: Error, 404: Error}, auth=AUTH, summary="Give an account a role in this tournament (null: none)")
def set_role(request, tid: str, body: RoleIn):
    who = need(request, tid, "organizer")
    actions.set_role(who, tid, body.username, body.role)
    return {"username": body.username, "role": body.role}


def seating_json(t: Tournament, session: int) -> dict:
    s, tables = actions.seating_tables(t, session)
    if s is None:
        raise errors.NotFound("no seating for session %d" % session)
    names = dict(Player.objects.filter(tournament=t).values_list("pid", "name"))
    return {"session": session, "method": s.method, "published": s.published_at is not None,
            "tables": [{"table": x.number, "players": list(x.players)} for x in tables],
            "text": seating_mod.render_seating(tables, "Session %d" % session, names), "info": s.info}


def history(t: Tournament, before: int) -> list:
    out = []
    for s in Seating.objects.filter(tournament=t, session__lt=before).prefetch_related("tables"):
        out.append([x.players for x in s.tables.all()])
    return out


def ranked_players(tid: str) -> list[str]:
    res = cache.result(tid)
    return [s.player for s in res.standings if s.player not in res.disqualified]


@router.post("/tournaments/{tid}/seatings/{session}", response={200: SeatingOut, 201: SeatingOut, 400: Error, 404: Error, 409: Error}, auth=AUTH,
             summary="Seat a session (draw, rank, swiss, preset, snake, manual); save it as a draft, optionally publish")
def make_seating(request, tid: str, session: int, body: SeatingIn):
    who = need(request, tid, "organizer")
    if not 1 <= session <= formats.MAX_SESSION:
        raise HttpError(400, "session must be 1..10000")
    t = actions.get(tid)
    given = None if body.tables is None else [x.model_dump() if hasattr(x, "model_dump") else x for x in body.tables]
    tables, info = actions.generate(t, session, body.method, ranked_players(tid), history(t, session), given)
    if not body.save:
        names = dict(Player.objects.filter(tournament=t).values_list("pid", "name"))
        return 200, {"session": session, "method": body.method, "published": False, "info": info,
                     "tables": [{"table": x.number, "players": list(x.players)} for x in tables],
                     "text": seating_mod.render_seating(tables, "Session %d" % session, names)}
    actions.save_seating(who, t, session, tables, body.method, info)
    if body.publish:
        actions.publish(who, t, session)
    return 201, seating_json(t, session)


@router.get("/tournaments/{tid}/seatings/{session}", response={200: SeatingOut, 404: Error}, summary="A session's seating")
def get_seating(request, tid: str, session: int):
    t = actions.get(tid)
    s = Seating.objects.filter(tournament=t, session=session).only("published_at").first()
    if s is not None and s.published_at is None and not permissions.can(viewer(request), tid, "organizer"):
        raise errors.NotFound("no seating for session %d" % session)  # a draft is the organizers' alone
    return seating_json(t, session)


@router.post("/tournaments/{tid}/seatings/{session}/swap", response={200: SeatingOut, 400: Error, 404: Error}, auth=AUTH, summary="Swap two players' chairs")
def swap(request, tid: str, session: int, body: SwapIn):
    who = need(request, tid, "organizer")
    t = actions.get(tid)
    actions.swap(who, t, session, body.a, body.b)
    return seating_json(t, session)


@router.post("/tournaments/{tid}/seatings/{session}/publish", response={200: SeatingOut, 404: Error}, auth=AUTH,
             summary="Publish a session's seating: projector page, table sheets, box configs; uploads are checked against it")
def publish(request, tid: str, session: int):
    who = need(request, tid, "organizer")
    t = actions.get(tid)
    actions.publish(who, t, session)
    return seating_json(t, session)


@router.get("/audit", response={200: list[dict], 403: Error}, auth=AUTH, summary="The audit log (?tournament=ID)")
def get_audit(request, tournament: str = None):
    if tournament:
        need(request, tournament, "organizer")
    else:
        need_server_organizer(request)
    return audit.rows(tournament or None)
