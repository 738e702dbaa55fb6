"""A session keyed in at a box, claimed for a session and table by a referee, in one step.

A box without a host plays a session keyed in on it (the README's ``D`` on the idle screen): its
records name the tournament keyed there (``T`` by default), which this server does not have. The
door holds them (``placement``) in the quarantine of the tournament the box was bound to when
they arrived. A referee names any one of them, and the session and table they were played at:
the whole run (from the session's start on the box to its next session start, the records naming
the same keyed tournament, session and table) is claimed at once, after its players are checked:
every player keyed at the box (or the registered player the referee maps it to) must be
registered in the tournament, and where the session's seating is published, be the very players
it seats at that table. Then its hands count there as if the box had recorded them there: their
rows move (``Hand`` is derived data; the records stay as signed), and its session and session_end
records are read at the claimed session and table (``results.snapshot``). One transaction, one
audit entry, the results version bumped.
"""
from __future__ import annotations

from typing import Optional

from django.db import transaction

from host_tools.server.errors import Conflict, Invalid, NotFound
from host_tools.server.tournaments import audit, formats
from host_tools.server.tournaments.actions import bump, get
from host_tools.server.tournaments.models import Player, Seating

from .models import Claim, Correction, Device, Hand, Held, Ruling


def _waiting(tid: str, device: str, seq: int) -> Held:
    h = Held.objects.select_related("record").filter(record__device_id=device, record__seq=seq, unknown_tournament=True, claim__isnull=True).first()
    here = h is not None and (h.tournament == tid or (h.tournament is None and Device.objects.filter(id=device, tournament_id=tid).exists()))
    if not here:
        raise NotFound("record %s/%d is not waiting to be claimed in tournament %s" % (device, seq, tid))
    return h


def _run(h: Held) -> list:
    """The records of the keyed session that ``h`` belongs to, in seq order."""
    r = h.record
    same = Held.objects.select_related("record").filter(
        record__device_id=r.device_id, unknown_tournament=True, claim__isnull=True, record__tournament=r.tournament, record__session=r.session,
        record__table=r.table).order_by("record__seq")
    rows = list(same)
    starts = [x.record.seq for x in rows if x.record.kind == "session"]
    lo = max((s for s in starts if s <= r.seq), default=None)
    hi = min((s for s in starts if s > r.seq), default=None)
    return [x for x in rows if (lo is None or x.record.seq >= lo) and (hi is None or x.record.seq < hi)]


def _keyed_players(run: list, hands: list) -> list:
    out: list = []
    for x in run:
        b = x.record.body
        names = b.get("seats") if x.record.kind == "session" else list(b.get("match_scores") or {}) if x.record.kind == "session_end" else []
        out += [p for p in names or () if p is not None]
    for h in hands:
        out += [p for p in h.seats if p is not None]
    return list(dict.fromkeys(out))


def claim(actor: str, tid: str, device: str, seq: int, session: int, table: int, players: Optional[dict] = None, reason: str = "") -> Claim:
    t = get(tid)
    if not 1 <= session <= formats.MAX_SESSION or not 1 <= table <= formats.MAX_TABLE:
        raise Invalid("session and table must be 1..10000")
    mapping = {k: v for k, v in (players or {}).items() if k != v}
    with transaction.atomic():
        h = _waiting(tid, device, seq)
        rejected = {rid for rid, d in Ruling.objects.filter(tournament=tid, record__device_id=device).order_by("id").values_list("record_id", "decision")
                    if d == Ruling.REJECT}
        run = [x for x in _run(h) if x.record_id not in rejected]
        if not run:
            raise Conflict("every record of this session was rejected by a referee")
        ids = [x.record_id for x in run]
        hands = list(Hand.objects.select_for_update().filter(record_id__in=ids))
        keyed = _keyed_players(run, hands)
        unknown = set(mapping) - set(keyed)
        if unknown:
            raise Invalid("the box keyed no player %s in this session (it keyed %s)" % (", ".join(sorted(unknown)), ", ".join(keyed)))
        mapped = [mapping.get(p, p) for p in keyed]
        if len(set(mapped)) != len(mapped):
            raise Invalid("two players keyed at the box would be one registered player")
        registered = set(Player.objects.filter(tournament=t, pid__in=mapped).values_list("pid", flat=True))
        for k, p in zip(keyed, mapped):
            if p not in registered:
                raise Invalid("player %s is not registered in tournament %s%s: map the number keyed at the box to a registered player"
                              % (p, tid, "" if p == k else " (keyed at the box as %s)" % k))
        s = Seating.objects.filter(tournament=t, session=session, published_at__isnull=False).first()
        if s is not None and not formats.of(t).live_tables:
            row = s.tables.filter(table=table).first()
            if row is None:
                raise Invalid("the published seating of session %d has no table %d" % (session, table))
            if set(row.players) != set(mapped):
                raise Invalid("table %d of session %d seats %s; the box keyed %s" % (table, session, ", ".join(row.players), ", ".join(mapped)))
        first = run[0].record
        c = Claim.objects.create(tournament=tid, device=device, session=session, table=table, players=mapping, referee=actor, reason=reason,
                                 named={"tournament": first.tournament, "session": first.session, "table": first.table})
        Held.objects.filter(record_id__in=ids).update(claim=c)
        for hd in hands:
            seats = [None if p is None else mapping.get(p, p) for p in hd.seats]
            hd.tournament, hd.session, hd.table = tid, session, table
            hd.p0, hd.p1, hd.p2, hd.p3 = seats
            hd.save(update_fields=["tournament", "session", "table", "p0", "p1", "p2", "p3"])
        Correction.objects.filter(hand__in=hands).update(tournament=tid)
        bump(tid)
        audit.log(actor, "records.claim", tid, "box %s records %d-%d" % (device, run[0].record.seq, run[-1].record.seq),
                  {"named": c.named}, {"session": session, "table": table, "players": mapping, "records": len(ids), "reason": reason})
    c.record_ids = ids
    return c

