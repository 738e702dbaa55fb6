"""One hand, several versions (issue 18.3): a hand number of a table that two sources recorded.

It happens when a box dies mid-session: a spare finishes the table, or a referee enters the
hands from the table page, and the dead box's journal, recovered later, brings its own copy of
the hands it recorded before it died. A box's journal sent twice under another sequence number
does it too.

* Versions that agree (same players in the same chairs, same points, winners, payer, fans,
  dealer and deductions) are one hand: it counts once, and the other copies are *duplicates*,
  accounted for as such (never waiting for a referee).
* Versions that differ are held for a referee's ruling, both shown (``shown``): the counted one
  keeps counting meanwhile, the other waits in the quarantine. Accepting the waiting version
  makes it the one that counts (the other is *set aside*, said so); rejecting it keeps the
  counted one. The latest accept decides when a referee changes their mind.

DECISIONS: which version counts before any ruling: a hand a referee entered over any box's (the
referee saw the table), else the first stored that has no other problem, else the first stored.
The standings do not jump back when a dead box's different copy arrives late; the referee
decides. Fan names are not compared: equal totals with other labels are the interchangeable
labellings RULES.md allows.

Pure: ``HandRow`` in, the verdict's sets filled.
"""
from __future__ import annotations

from typing import Optional

TWICE = "is stored twice"


def figures(h) -> tuple:
    """What must agree for two copies to be one hand."""
    return (tuple(h.seats), tuple(h.original), tuple(h.winners), h.discarder, h.fans, h.dealer, tuple(h.deductions))


_NAMES = ("players", "points", "winners", "payer", "fans", "dealer", "deductions")


def differences(a, b) -> list:
    """The names of the figures in which two versions differ."""
    return [n for n, x, y in zip(_NAMES, figures(a), figures(b)) if x != y]


def source(h) -> str:
    return "entered by a referee" if h.manual else "box %s record %s" % (h.device, h.seq)


def describe(h) -> dict:
    """One version as the referee reads it: who recorded it and what it says."""
    seats = list(h.seats)
    return {"source": source(h), "record": h.record_id, "manual": h.manual,
            "points": {p: d for p, d in zip(seats, h.original) if p is not None},
            "winners": [seats[w] for w in h.winners if 0 <= w < 4],
            "payer": seats[h.discarder] if h.discarder is not None and 0 <= h.discarder < 4 else None,
            "fans": h.fans, "dealer": seats[h.dealer] if 0 <= h.dealer < 4 else None}


def judge(hands: list, rulings: dict, verdict) -> None:
    """One table's single hands (id order): every hand number recorded more than once judged.
    ``rulings``: record id -> the latest decision, in the order of those decisions."""
    by_number: dict = {}
    for h in hands:
        by_number.setdefault(h.number, []).append(h)
    order = {rid: i for i, rid in enumerate(rulings)}
    for rows in by_number.values():
        if len(rows) > 1:
            _one(rows, rulings, order, verdict)


def _one(rows: list, rulings: dict, order: dict, v) -> None:
    live = [h for h in rows if h.manual or rulings.get(h.record_id) != "reject"]
    if len(live) < 2:
        return
    base = next((h for h in live if h.manual), None) or next((h for h in live if h.record_id not in v.problems), live[0])
    accepted = [h for h in live if not h.manual and h is not base and rulings.get(h.record_id) == "accept" and figures(h) != figures(base)]
    chosen: Optional[object] = max(accepted, key=lambda h: order[h.record_id]) if accepted else None
    counted = chosen or base
    if chosen is not None:  # shown as accepted, beside the version it replaced
        v.add(chosen.record_id, _text(chosen, base))
        v.shown[chosen.record_id] = [describe(base), describe(chosen)]
    for h in live:
        if h is counted:
            continue
        if figures(h) == figures(counted):
            why = "hand %d of session %d table %d: the same as the counted copy (%s), counted once" % (h.number, h.session, h.table, source(counted))
            _drop(v, h, why, v.duplicates)
        elif chosen is not None:
            why = "hand %d of session %d table %d: a referee counted another version (%s)" % (h.number, h.session, h.table, source(chosen))
            _drop(v, h, why, v.set_aside)
        else:
            v.add(h.record_id, _text(h, counted))
            v.shown[h.record_id] = [describe(counted), describe(h)]


def _text(h, other) -> str:
    return ("hand %d of session %d table %d %s, and the versions differ (%s): %s counts until a referee accepts this one"
            % (h.number, h.session, h.table, TWICE, ", ".join(differences(other, h)), source(other)))


def _drop(v, h, why: str, where: dict) -> None:
    """A copy that does not count and waits for nobody."""
    if h.manual:
        v.dropped_hands[h.id] = why
        return
    v.problems.pop(h.record_id, None)  # whatever else is wrong with it, it does not count
    v.excluded.add(h.record_id)
    where[h.record_id] = why
