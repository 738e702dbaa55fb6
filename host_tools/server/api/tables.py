"""A seated table on event day (the same actions as its page): more time, ending it, players
found in the wrong chairs, a hand corrected by its tiles, the box swapped; and checking in every
present player at once. Seats in the JSON are the protocol's 0-3."""
from __future__ import annotations

from typing import Annotated, Any, Optional

from ninja import Router
from pydantic import Field, StrictBool, StrictInt

from host_tools.server.boxes import rescore, swap
from host_tools.server.tournaments import actions, clock
from host_tools.server.tournaments import tables as ttables

from .core import AUTH, need
from .schemas import Error, Ident, Seat, Strict, TableNo, Text

router = Router(tags=["tables"], auth=AUTH)

Reason = Annotated[Text, Field(min_length=1)]
Hand = Annotated[StrictInt, Field(ge=1, le=10000)]


class ExtendIn(Strict):
    minutes: Annotated[StrictInt, Field(ge=clock.EXTEND_MIN, le=clock.EXTEND_MAX)]
    table: Optional[TableNo] = Field(default=None, description="none: every table of the session")
    reason: Reason


@router.post("/tournaments/{tid}/sessions/{session}/extend", response={201: dict, 400: Error, 403: Error, 404: Error},
             summary="More time for one table or every table of a session: the boxes learn it with their config (ends_at, minutes)")
def extend(request, tid: str, session: int, body: ExtendIn):
    who = need(request, tid, "referee")
    row = clock.extend(who, tid, session, body.table, body.minutes, body.reason)
    t = actions.get(tid)
    return 201, {"id": row.id, "session": session, "table": body.table, "minutes": body.minutes,
                 "tables": {tb: clock.box_time(t, session, tb) for tb in ([body.table] if body.table else clock.seated_tables(t, session))}}


class EndIn(Strict):
    reason: Reason


@router.post("/tournaments/{tid}/tables/{session}/{table}/end", response={201: dict, 400: Error, 403: Error, 404: Error, 409: Error},
             summary="End a table's session (a referee's decision: time called, a table without a box)")
def end_table(request, tid: str, session: int, table: int, body: EndIn):
    who = need(request, tid, "referee")
    row = ttables.end_table(who, tid, session, table, body.reason)
    return 201, {"session": session, "table": table, "hands": row.hands, "referee": row.referee, "reason": row.reason}


@router.delete("/tournaments/{tid}/tables/{session}/{table}/end", response={200: dict, 400: Error, 403: Error, 404: Error},
               summary="Reopen a table a referee ended")
def reopen_table(request, tid: str, session: int, table: int, reason: str = "reopened"):
    who = need(request, tid, "referee")
    ttables.reopen_table(who, tid, session, table, reason)
    return {"session": session, "table": table}


class ReseatIn(Strict):
    chairs: Annotated[list[Ident], Field(min_length=3, max_length=4, description="who really sat in each chair of the seating")]
    first_hand: Hand = 1
    last_hand: Hand
    move_seating: StrictBool = True
    reason: Reason


@router.post("/tournaments/{tid}/tables/{session}/{table}/reseat", response={201: dict, 400: Error, 403: Error, 404: Error},
             summary="Players found in the wrong chairs: the hands in the range re-attributed, the seating moved to where they sit")
def reseat(request, tid: str, session: int, table: int, body: ReseatIn):
    who = need(request, tid, "referee")
    r = ttables.reseat(who, tid, session, table, list(body.chairs), body.first_hand, body.last_hand, body.reason, body.move_seating)
    return 201, {"id": r.id, "players": r.players, "first_hand": r.first_hand, "last_hand": r.last_hand}


class RescoreIn(Strict):
    dealer: Seat = 0
    prevalent_wind: Annotated[str, Field(pattern="^[ESWN]$")] = "E"
    events: Annotated[list[dict[str, Any]], Field(max_length=200, description="the settle protocol's events (README: Settle protocol)")]
    reason: Reason


@router.post("/tournaments/{tid}/tables/{session}/{table}/hands/{hand}/rescore", response={201: dict, 400: Error, 403: Error, 404: Error},
             summary="Correct a counted hand by its tiles: settled again by rules_min; every figure of the hand follows")
def rescore_hand(request, tid: str, session: int, table: int, hand: int, body: RescoreIn):
    who = need(request, tid, "referee")
    c = rescore.rescore(who, tid, session, table, hand, body.dealer, body.prevalent_wind, body.events, body.reason)
    return 201, {"id": c.id, "deltas": c.deltas, "seats": c.hand.seats, **{k: c.rescored[k] for k in rescore.FIGURES}}


class SwapIn(Strict):
    table: TableNo
    device: Ident = Field(description="the spare: a box of this tournament bound to no table")


@router.post("/tournaments/{tid}/box-swaps", response={200: dict, 400: Error, 403: Error, 404: Error, 409: Error},
             summary="Swap a table's box for a spare (the old one stays with the tournament, bound to no table)")
def swap_box(request, tid: str, body: SwapIn):
    who = need(request, tid, "referee")
    d = swap.swap_box(who, tid, body.table, body.device)
    return {"device": d.id, "tournament": d.tournament_id, "table": d.table}


class CheckInIn(Strict):
    players: Annotated[list[Ident], Field(min_length=1, max_length=10000, description="the players present")]


@router.post("/tournaments/{tid}/players:checkin", response={200: dict, 400: Error, 403: Error, 404: Error},
             summary="Check in every player present, in one step")
def check_in(request, tid: str, body: CheckInIn):
    who = need(request, tid, "organizer")
    n = actions.check_in(who, tid, list(body.players))
    return {"checked_in": n}

