"""What referees decide about results: corrections of a hand (by hand number and player name),
whole hands entered by hand when a box failed (scored by rules_min with the same rules), and
rulings on quarantined records. Each in one transaction with its audit entry; each bumps the
tournament's results version. A referee's correction always takes precedence over a box's."""
from __future__ import annotations

from typing import Optional

from django.db import transaction
from django.utils import timezone

from host_tools.server.errors import Conflict, Invalid, NotFound
from host_tools.server.results import cache, integrity
from host_tools.server.tournaments import audit, formats
from host_tools.server.tournaments.actions import bump, get
from host_tools.server.tournaments.models import Player

from . import hand_row, invariants
from .contract import POINTS
from .models import Correction, Hand, Record, Ruling
from .rescore import counted_hand, keyed, settle_keyed


def _int(v, what: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise Invalid("%s must be a whole number between %d and %d" % (what, lo, hi))
    return v


def correct(actor: str, tid: str, session: int, table: int, number: int, points: dict, reason: str,
            deductions: Optional[dict] = None) -> Correction:
    """New deltas for a hand, by player: ``points`` are the hand's payments between the players
    (they must sum to 0: every rule set's payments are transfers), ``deductions`` what a player
    paid to nobody (penalties, >= 0). Every player of the hand must be named, and nobody else."""
    get(tid)
    h = counted_hand(tid, session, table, number)
    players = [p for p in h.seats if p is not None]
    if set(points) != set(players):
        missing, extra = sorted(set(players) - set(points)), sorted(set(points) - set(players))
        raise Invalid("name the hand's players exactly (%s)%s%s" % (", ".join(players), "; missing " + ", ".join(missing) if missing else "",
                                                                     "; not at this hand: " + ", ".join(extra) if extra else ""))
    ded = deductions or {}
    if set(ded) - set(players):
        raise Invalid("deductions name players not at this hand: %s" % ", ".join(sorted(set(ded) - set(players))))
    pts = {p: _int(v, "points of %s" % p, -POINTS, POINTS) for p, v in points.items()}
    dd = {p: _int(v, "deduction of %s" % p, 0, 100000) for p, v in ded.items()}
    if sum(pts.values()) != 0:
        raise Invalid("the points must sum to 0 (they sum to %d): payments go from one player to another; "
                      "a penalty paid to nobody is a deduction" % sum(pts.values()))
    if not reason.strip():
        raise Invalid("give a reason")
    deltas = [0 if p is None else pts[p] - dd.get(p, 0) for p in h.seats]
    try:  # the same door as every other way a result enters
        invariants.correction(deltas, [0 if p is None else dd.get(p, 0) for p in h.seats])
    except invariants.Unbalanced as e:
        raise Invalid(str(e)) from None
    with transaction.atomic():
        before = h.deltas
        prev = Correction.objects.filter(hand=h).order_by("-id").first()
        if prev is not None:
            before = prev.deltas
        c = Correction.objects.create(hand=h, tournament=tid, source=Correction.REFEREE, deltas=deltas, reason=reason, referee=actor)
        bump(tid)
        audit.log(actor, "correction.add", tid, "session %d table %d hand %d" % (session, table, number),
                  {"deltas": before, "seats": h.seats}, {"deltas": deltas, "points": pts, "deductions": dd, "reason": reason})
    return c


def enter_hand(actor: str, tid: str, session: int, table: int, number: int, seats: list, dealer: int, prevalent_wind: str,
               events: list, reason: str, options: Optional[dict] = None) -> Hand:
    """A whole hand keyed by a referee (the box failed): the players by seat, the dealer, and
    the table's events in the settle protocol's form (win: notation and flags; kongs;
    penalties); rules_min settles it with the tournament's rule set."""
    t = get(tid)
    rules = formats.of(t).rules
    if not 1 <= session <= formats.MAX_SESSION or not 1 <= table <= formats.MAX_TABLE or not 1 <= number <= 10000:
        raise Invalid("session and table must be 1..10000, the hand 1..10000")
    if not isinstance(seats, list) or len(seats) != 4:
        raise Invalid("seats are the 4 players by seat (null for the empty seat of a 3-player table)")
    named = [p for p in seats if p is not None]
    known = set(Player.objects.filter(tournament=t, pid__in=named).values_list("pid", flat=True))
    if len(named) < 3 or len(set(named)) != len(named) or set(named) - known:
        raise Invalid("seats must name 3 or 4 different registered players (unknown: %s)" % ", ".join(sorted(set(named) - known)))
    if Hand.objects.filter(tournament=tid, session=session, table=table, number=number, device__isnull=True).exists():
        raise Conflict("hand %d of session %d table %d was already entered by a referee: correct it instead" % (number, session, table))
    h = settle_keyed(rules, seats, dealer, prevalent_wind, events, options)
    deltas = h.deltas()
    now = timezone.now()
    with transaction.atomic():
        row = Hand.objects.create(
            **hand_row.from_settled(h, tid, session, table, number, seats, int(now.timestamp())), entered_by=actor,
            entry=dict(keyed(h, events, prevalent_wind), reason=reason), entered_at=now)
        bump(tid)
        audit.log(actor, "hand.enter", tid, "session %d table %d hand %d" % (session, table, number), None,
                  {"seats": seats, "deltas": deltas, "events": events, "reason": reason})
    return row


def rule(actor: str, tid: str, record_id: int, decision: str, reason: str = "") -> Ruling:
    if decision not in (Ruling.ACCEPT, Ruling.REJECT):
        raise Invalid("decision must be accept or reject")
    res = cache.result(tid)
    q = next((x for x in res.quarantine if x["record"] == record_id), None)
    if q is None:
        raise NotFound("record %d is not in quarantine in %s" % (record_id, tid))
    if decision == Ruling.ACCEPT and not integrity.acceptable(q["problems"]):
        raise Conflict("this record cannot be accepted: %s" % "; ".join(q["problems"]))
    with transaction.atomic():
        r = Ruling.objects.create(record=Record.objects.get(id=record_id), tournament=tid, decision=decision, reason=reason, referee=actor)
        bump(tid)
        audit.log(actor, "record." + decision, tid, "record %s/%s" % (q["device"], q["seq"]), {"problems": q["problems"]}, {"decision": decision, "reason": reason})
    return r


def unresolved_corrections() -> list[dict]:
    return list(Correction.objects.filter(hand__isnull=True).values("id", "target_device", "target_seq", "deltas", "reason", "referee", "record__device_id"))


def hand_deltas_by_name(h: Hand) -> dict:
    return {p: d for p, d in zip(h.seats, h.deltas) if p is not None}


