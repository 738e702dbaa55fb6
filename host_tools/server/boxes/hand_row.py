"""A hand's row (``models.Hand``), built here and only here: from a box's hand record
(``from_record``, the upload path) or from a hand a referee keyed in and rules_min settled
(``from_settled``), so that both say the same of the same hand. Fans are data, never read back
out of text: each win's total and fan ids as settle gives them (``Hand.wins``), which is what the
box writes into its record (protocol/record.py's ``wins``, firmware/app.py's ``_hand_record``).

A row is a dict of ``COLUMNS``: ``Hand.objects.create(**row, ...)`` takes it as it is, the
upload's plain SQL takes ``insert_values(row)``. Standard library only (no Django), so it can
be tested without a server.
"""
from __future__ import annotations

import json
from typing import Optional

from protocol import record as precord

# The row's columns as a record gives them, in the order ``sql`` inserts them. A referee's hand
# has no record and no box (None), and says who entered it in columns of its own (``referee``).
COLUMNS = ("tournament", "session", "table", "number", "rules", "record_id", "device", "p0", "p1", "p2", "p3", "d0", "d1", "d2", "d3",
           "dealer", "winners", "discarder", "fans", "fan_names", "time", "deductions")
JSON_COLUMNS = ("fan_names",)


def deductions(transfers) -> list[int]:
    """Points each seat paid to nobody in this hand (penalties): the transfers whose payee is
    null (a record's ``transfers``, settle's ``settled()``: [payer, payee, points, why])."""
    out = [0, 0, 0, 0]
    for payer, payee, points, _why in transfers:
        if payee is None and payer is not None:
            out[payer] += points
    return out


def _row(tournament: str, session: int, table: int, number: int, rules: str, record_id: Optional[int], device: Optional[str],
         seats: list, deltas: list, dealer: int, winners: list, discarder: Optional[int], wins: list, time: int, ded: list) -> dict:
    return {
        "tournament": tournament, "session": session, "table": table, "number": number, "rules": rules, "record_id": record_id,
        "device": device, "p0": seats[0], "p1": seats[1], "p2": seats[2], "p3": seats[3],
        "d0": deltas[0], "d1": deltas[1], "d2": deltas[2], "d3": deltas[3], "dealer": dealer,
        "winners": "".join(str(w) for w in winners), "discarder": discarder,
        # the hand's fans: its biggest win's total as the rule set counts it (MCR points with
        # flowers, Sichuan fans, Guangdong the multiplier); every win's fan ids kept beside it
        "fans": max((w["total"] for w in wins), default=0), "fan_names": [w["fans"] for w in wins],
        "time": time, "deductions": "" if not any(ded) else ",".join(map(str, ded)),
    }


def from_record(body: dict, record_id: int, device: str) -> dict:
    """The row of a checked hand record (version 2, or 1 as ``contract_v1`` reads it)."""
    b = body
    if b["v"] == 1:
        from . import contract_v1

        wins, ded = contract_v1.wins(b), contract_v1.deductions(b)
    else:
        wins, ded = b["wins"], deductions(b["transfers"])
    return _row(b["tournament"], b["session"], b["table"], b["hand"], b["rules"], record_id, device, b["seats"], b["deltas"],
                b["dealer"], b["winners"], b["discarder"], wins, b["time"], ded)


def wins_of(h) -> list:
    """A settled hand's wins as its record has them (the box's ``_hand_record`` builds the same)."""
    return [precord.win(seat, src, total, fans) for seat, src, fans, total in h.wins]


def from_settled(h, tournament: str, session: int, table: int, number: int, seats: list, time: int) -> dict:
    """The row of a hand settled by rules_min (``settle_request.settle``): no record, no box."""
    wins = wins_of(h)
    return _row(tournament, session, table, number, h.rules, None, None, seats, h.deltas(), h.dealer, [w["seat"] for w in wins],
                wins[0]["from"] if wins else None, wins, time, deductions(h.settled()))


_JSON_AT = tuple(COLUMNS.index(c) for c in JSON_COLUMNS)


def insert_values(row: dict) -> tuple:
    """The row in ``COLUMNS`` order, its JSON columns as text (what ``sql.insert_hand`` binds)."""
    v = [row[c] for c in COLUMNS]
    for i in _JSON_AT:
        v[i] = json.dumps(v[i])
    return tuple(v)
