"""The hall's clock: the official start of each session (the time limit counts from it)."""
from __future__ import annotations

from typing import Annotated, Optional

from ninja import Router
from pydantic import Field, StrictInt

from host_tools.server.tournaments import actions, clock

from .core import AUTH, need
from .schemas import Error, Session, Strict

router = Router(tags=["referee"])


class StartIn(Strict):
    at: Optional[Annotated[StrictInt, Field(ge=0, lt=2**40)]] = Field(default=None, description="epoch seconds (ahead, or now when omitted)")


@router.post("/tournaments/{tid}/sessions/{session}/start", response={200: dict, 400: Error, 403: Error, 404: Error}, auth=AUTH,
             summary="Start a session for the whole hall (比赛开始): its time limit counts from this at every table; the boxes get ends_at")
def start(request, tid: str, session: int, body: StartIn):
    who = need(request, tid, "referee")
    row = clock.set_start(who, tid, session, body.at)
    return clock.as_dict(actions.get(tid), row.session)


@router.get("/tournaments/{tid}/sessions/{session}/start", response={200: dict, 404: Error}, summary="A session's official start and deadline")
def get_start(request, tid: str, session: int):
    return clock.as_dict(actions.get(tid), session)
