"""A hand re-scored from what happened at the table: the referee keys the hand again (its events
as the settle protocol takes them: the win with its tiles and flags, kongs, penalties, bars,
the end of the wall or of time) and rules_min settles it with the tournament's rule set. Used
for a hand entered by hand (``referee.enter_hand``) and for correcting any counted hand by its
tiles (``rescore``): the correction then replaces every figure of the hand (deltas, winners,
discarder, fans, deductions), built by the one builder of a hand's row (``hand_row``).
"""
from __future__ import annotations

from typing import Optional

from django.db import transaction

from host_tools.server.errors import Invalid, NotFound
from host_tools.server.results import cache
from host_tools.server.tournaments import audit, formats
from host_tools.server.tournaments.actions import bump, get

from . import hand_row, invariants
from .models import Correction, Hand

def counted_hand(tid: str, session: int, table: int, number: int) -> Hand:
    """The hand that counts for (session, table, number)."""
    res = cache.result(tid)
    tb = res.tables.get((session, table))
    row = None
    if tb is not None:
        row = next((h for h in tb.hands if h.number == number), None)
    if row is None:
        raise NotFound("no counted hand %d at session %d table %d" % (number, session, table))
    return Hand.objects.get(id=row.id)



# the columns of a hand's row that a re-scoring replaces (the rest: who, where, when)
FIGURES = ("dealer", "winners", "discarder", "fans", "fan_names", "deductions")


def settle_keyed(rules: str, seats: list, dealer, prevalent_wind, events, options: Optional[dict] = None):
    """The hand settled by rules_min (``settle_request.settle``) and held to the invariants of every
    result (``invariants.hand``), or Invalid saying why not. A three-player table's empty chair is
    the settle protocol's ``absent`` seat, as on the box."""
    from rules_min.settle_request import settle

    if options is None and None in seats:
        options = {"absent": seats.index(None)}
    try:
        h = settle({"dealer": dealer, "prevalent_wind": prevalent_wind, "events": events, "options": options or {}}, rules)
    except ValueError as e:
        args = e.args
        raise Invalid("the hand does not settle: %s" % (args[1] if len(args) > 1 else e)) from None
    for i, p in enumerate(seats):
        if p is None and h.deltas()[i]:
            raise Invalid("the empty seat cannot score")
    try:  # the same door as every other way a result enters (boxes/invariants.py)
        invariants.hand(h.deltas(), h.settled())
    except invariants.Unbalanced as e:
        raise Invalid("the hand does not add up: %s" % e) from None
    return h


def keyed(h, events: list, prevalent_wind: str) -> dict:
    """What was keyed and what settle said beyond the row: kept with the hand for the pages."""
    return {"events": events, "prevalent_wind": prevalent_wind, "flags": h.flags, "next_dealer": h.next_dealer}


def rescore(actor: str, tid: str, session: int, table: int, number: int, dealer: int, prevalent_wind: str, events: list,
            reason: str) -> Correction:
    """Correct counted hand ``number`` by its tiles: its seats stay, everything else is settled
    again from ``events``. Stored as a referee's correction (the record stays as signed)."""
    t = get(tid)
    if not reason.strip():
        raise Invalid("give a reason")
    h = counted_hand(tid, session, table, number)
    settled = settle_keyed(formats.of(t).rules, h.seats, dealer, prevalent_wind, events)
    row = hand_row.from_settled(settled, tid, session, table, number, h.seats, h.time)
    deltas = [row["d0"], row["d1"], row["d2"], row["d3"]]
    figures = {k: row[k] for k in FIGURES}
    with transaction.atomic():
        prev = Correction.objects.filter(hand=h).order_by("-id").first()
        before = {"deltas": h.deltas if prev is None else prev.deltas}
        last = Correction.objects.filter(hand=h, rescored__isnull=False).order_by("-id").first()
        before.update({k: getattr(h, k) for k in FIGURES} if last is None else {k: last.rescored[k] for k in FIGURES})
        c = Correction.objects.create(hand=h, tournament=tid, source=Correction.REFEREE, deltas=deltas, reason=reason, referee=actor,
                                      rescored=dict(figures, **keyed(settled, events, prevalent_wind)))
        bump(tid)
        audit.log(actor, "hand.rescore", tid, "session %d table %d hand %d" % (session, table, number),
                  dict(before, seats=h.seats), dict(figures, deltas=deltas, events=events, reason=reason))
    return c


def events_of(h: Hand, correction: Optional[Correction] = None) -> Optional[dict]:
    """What was keyed for a hand, for the form that corrects it: the latest re-scoring's, a
    referee's entry, or the box's record (dealer, prevalent_wind, events); None when unknown."""
    if correction is not None and correction.rescored is not None:
        r = correction.rescored
        return {"dealer": r["dealer"], "prevalent_wind": r["prevalent_wind"], "events": r["events"]}
    if h.entry:
        return {"dealer": h.dealer, "prevalent_wind": h.entry.get("prevalent_wind", "E"), "events": h.entry.get("events", [])}
    if h.record_id is not None:
        body = h.record.body
        if isinstance(body.get("events"), list):
            return {"dealer": body.get("dealer", h.dealer), "prevalent_wind": body.get("prevalent_wind", "E"), "events": body["events"]}
    return None
