"""What the results read of a survival event, beside the tournament's ``Snapshot``: the draw, the
confirmed tables, and the survival fields of the hand records (their dice roll, the multiplier
and scores the box showed), read as JSON keys so no record body is decoded whole."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass(frozen=True)
class TableRow:
    number: int
    hall_table: int
    seats: tuple
    confirmed_at: int
    confirmed_by: str
    as_proposed: bool


@dataclass
class SurvivalData:
    ranked: Optional[list]  # None: not drawn yet
    source: str
    tables: list  # TableRow, by number
    extras: dict = field(default_factory=dict)  # hand record id -> {"hand_start", "multiplier", "scores"}

    def seatings(self) -> dict:
        """The confirmed tables as the integrity checks read seatings: event table (the boxes'
        session) -> {hall table: players}."""
        return {t.number: {t.hall_table: list(t.seats)} for t in self.tables}


def load(tid: str) -> SurvivalData:
    from host_tools.server.boxes.models import Record

    from .models import SurvivalDraw, SurvivalTable

    draw = SurvivalDraw.objects.filter(tournament_id=tid).values_list("ranked", "source").first()
    tables = [TableRow(n, h, tuple(s), at, by, ok) for n, h, s, at, by, ok in SurvivalTable.objects.filter(tournament_id=tid).order_by("number")
              .values_list("number", "hall_table", "seats", "confirmed_at", "confirmed_by", "as_proposed")]
    extras = {}
    for rid, start, mult, scores in Record.objects.filter(tournament=tid, kind="hand").values_list(
            "id", "body__hand_start", "body__multiplier", "body__scores"):
        x = {k: v for k, v in (("hand_start", start), ("multiplier", mult), ("scores", scores)) if v is not None}
        if x:
            extras[rid] = x
    return SurvivalData(None if draw is None else list(draw[0]), "" if draw is None else draw[1], tables, extras)
