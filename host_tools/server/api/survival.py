"""The survival event live (seed 000 §三.2 勇者争先赛): the draw (organizer), the proposed next
tables and their confirmation or swap (referee), each table's box config, and the public state
for the projector: the players still in, the tables, the placings as they are decided."""
from __future__ import annotations

import time
from typing import Annotated, Optional

from ninja import Router
from pydantic import Field

from host_tools.server.results import cache
from host_tools.server.survival import actions
from rules_min import survival as rules

from .core import AUTH, need
from .schemas import Error, PlayerId, Strict, TableNo

router = Router(tags=["survival"])


class SurvivalTableIn(Strict):
    seats: Annotated[list[PlayerId], Field(min_length=4, max_length=4, description="players E S W N (the proposal's, or the referee's swap)")]
    hall_table: Optional[TableNo] = Field(default=None, description="where it plays (the box bound to it gets the config); default: the lowest free")


class ConfirmIn(Strict):
    tables: Annotated[list[SurvivalTableIn], Field(min_length=1, max_length=actions.MAX_TABLES_AT_ONCE)]


def state(tid: str, now: Optional[int] = None) -> dict:
    """The public document: the results' survival part, the live lines, and the multiplier now."""
    actions.survival_tournament(tid)
    res = cache.result(tid)
    doc = dict(res.extra["survival"], standings=res.rows, problems=res.problems, version=res.snapshot.version if res.snapshot else 0)
    now = int(time.time()) if now is None else now
    start = doc["start_time"]
    if start is not None and not doc["ended"] and now >= start:
        doc["multiplier_now"] = rules.multiplier(now - start)
        doc["next_multiplier_at"] = rules.next_step_s(start, now)
    return doc


@router.post("/tournaments/{tid}/survival/draw", response={200: dict, 400: Error, 403: Error, 404: Error, 409: Error}, auth=AUTH,
             summary="Draw the entrants from the individual event's preliminary ranking (the settings' individual), final once a table is confirmed")
def draw(request, tid: str):
    who = need(request, tid, "organizer")
    d = actions.draw(who, tid)
    return {"source": d.source, "ranked": d.ranked}


@router.get("/tournaments/{tid}/survival", response={200: dict, 400: Error, 404: Error, 409: Error},
            summary="The event now: players still in by score (playing / waiting), decided places, tables, 冠亚季殿军 at the end")
def get_state(request, tid: str):
    return state(tid)


@router.get("/tournaments/{tid}/survival/proposals", response={200: list, 400: Error, 403: Error, 404: Error, 409: Error}, auth=AUTH,
            summary="The next tables by the seed's principles (first finished, first seated; extremes first; seats by score)")
def get_proposals(request, tid: str):
    need(request, tid, "referee")
    return actions.proposals(tid)


@router.post("/tournaments/{tid}/survival/tables", response={201: list, 400: Error, 403: Error, 404: Error, 409: Error}, auth=AUTH,
             summary="Confirm tables (as proposed or swapped): all or none; the boxes bound to their hall tables get the configs")
def confirm(request, tid: str, body: ConfirmIn):
    who = need(request, tid, "referee")
    rows = actions.confirm(who, tid, [x.model_dump() for x in body.tables])
    return 201, [{"number": r.number, "hall_table": r.hall_table, "seats": r.seats, "confirmed_at": r.confirmed_at, "as_proposed": r.as_proposed}
                 for r in rows]


@router.get("/tournaments/{tid}/survival/tables/{number}/config", response={200: dict, 400: Error, 403: Error, 404: Error, 409: Error},
            auth=AUTH, summary="The box config of one survival table (what the box bound to its hall table fetches)")
def table_config(request, tid: str, number: int):
    need(request, tid, "referee")
    return actions.table_config_of(tid, number)
