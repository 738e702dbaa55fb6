"""A table's state so far, for the box that goes on with it (issue 18.3): when a table's box dies
mid-session the organizer binds a spare to the table (``swap``), and the spare's session config
(``actions.config_for``) carries what the table played: the hand to play next, its dealer
(Sichuan, Guangdong; MCR's follows from the hand number on the box) and the match scores so far
by the config's players, each hand's latest correction applied (a referee's over a box's). What
carries over between hands is only that: penalty ladders and bars are per hand in every rule set
(rules_min/penalties.py); a survival table's scores travel in its own config. A table with no
hand yet, or with all its hands played, gives nothing: its box starts the session afresh."""
from __future__ import annotations

from typing import Optional

from .models import Correction, Hand


def state(tid: str, session: int, table: int, players: list, rules: str, hands: int) -> dict:
    """{} or {"hand", "totals"[, "dealer"]} for protocol/config.py."""
    from host_tools.server.results import cache

    tb = cache.result(tid).tables.get((session, table))
    counted = {h.id for h in tb.hands} if tb is not None else set()
    rows = {}
    for h in Hand.objects.filter(tournament=tid, session=session, table=table).select_related("record").order_by("number", "id"):
        # a number recorded twice (a dead box's copy, recovered): the version the results count
        # (results.versions), else the later row
        if h.id in counted or rows.get(h.number) is None or rows[h.number].id not in counted:
            rows[h.number] = h
    if not rows:
        return {}
    last = rows[max(rows)]
    nxt = last.number + 1
    if nxt > hands:
        return {}
    latest = {}
    for c in Correction.objects.filter(hand__in=[h.id for h in rows.values()]).order_by("id"):
        if c.source == Correction.REFEREE or latest.get(c.hand_id, c).source != Correction.REFEREE:
            latest[c.hand_id] = c
    totals = {p: 0 for p in players if p is not None}
    for h in rows.values():
        c = latest.get(h.id)
        deltas = c.deltas if c is not None else h.deltas
        for pid, d in zip(h.seats, deltas):
            if pid in totals:
                totals[pid] += d
    out = {"hand": nxt, "totals": [totals.get(p, 0) if p is not None else 0 for p in players]}
    if rules != "mcr":
        dealer = _next_dealer(last)
        if dealer is not None:
            out["dealer"] = dealer
    return out


def _next_dealer(h: Hand) -> Optional[int]:
    # the box's record says who deals next; a hand a referee entered: its entry, if it says
    for src in ((h.record.body if h.record is not None else None), h.entry):
        if isinstance(src, dict):
            v = src.get("next_dealer")
            if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 4:
                return v
    return None
