"""Where a record goes, decided at the door (``ingest``, in the transaction that stores it) from
its box's binding history (``models.Binding``).

A session, hand or session_end record names a tournament, session and table. It counts there
only if its box was bound to that tournament and table when the record was made; otherwise it
is stored and held (``models.Held``) with the reason, in the quarantine of the tournament it
names, and only a referee's ruling lets it count. A record naming a tournament this server does
not have (a session keyed in at the box: tournament "T") waits in the quarantine of the
tournament its box was bound to when it arrived, for a referee to claim it for a session and
table (``claims``). A correction follows the hand it corrects.

DECISION (issue 19: by the record's own time, bounded by its arrival): "when the record was made"
is the record's own time when that is a clock reading, and at most the time the server received
it (nothing is made after it arrives: a box clock ahead of the server counts as the arrival).
The sync tool sets the box's clock at every sync, but a box powered up since (the Pico keeps no
time across a power cut) writes seconds since boot until then: a time before 2020 (the box's own
bound for a clock, firmware/link_requests.py ``CLOCK_MIN``) says nothing, and only the arrival
bounds it. The box was bound there when the record was made if a stretch of its history at that
tournament and table began before the record arrived and had not ended before the record's own
time. Not by the session config the box was given: the server does not know which one that was
(the box reads it through the sync tool on a route that writes nothing; it may also come from a
file or be keyed in at the box).

The history only grows, and a stretch closes after the records made in it could arrive, so the
decision taken at the door is the one any later look would take: it is stored with the record,
and publishing a seating, rebinding a box or anything else later never releases a held record.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

CLOCK_MIN = 1577836800  # 2020-01-01: the box's own bound (firmware/link_requests.py); tests/server pins them equal


@dataclass(frozen=True)
class Stretch:
    tournament: str
    table: Optional[int]
    since: float  # epoch seconds
    until: Optional[float]  # None: open

    def holds(self, at: float) -> bool:
        return self.since <= at and (self.until is None or self.until > at)


def _epoch(v) -> Optional[float]:
    if v is None:
        return None
    if isinstance(v, str):  # SQLite hands datetimes back as text through a raw cursor
        from django.utils.dateparse import parse_datetime

        v = parse_datetime(v)
        if v.tzinfo is None:
            import datetime

            v = v.replace(tzinfo=datetime.timezone.utc)
    return v.timestamp()


def histories(connection, devices) -> dict:
    """device -> its binding history, oldest first (plain SQL: the upload path)."""
    from .models import Binding

    ids = sorted(set(devices))
    out: dict = {d: [] for d in ids}
    if not ids:
        return out
    q = connection.ops.quote_name
    with connection.cursor() as c:
        c.execute("SELECT device_id, tournament, %s, since, until FROM %s WHERE device_id IN (%s) ORDER BY id"
                  % (q("table"), Binding._meta.db_table, ", ".join(["%s"] * len(ids))), ids)
        for dev, tid, table, since, until in c.fetchall():
            out[dev].append(Stretch(tid, table, _epoch(since), _epoch(until)))
    return out


def existing(connection, tournaments) -> set:
    from host_tools.server.tournaments.models import Tournament

    ids = sorted({t for t in tournaments if t is not None})
    if not ids:
        return set()
    with connection.cursor() as c:
        c.execute("SELECT id FROM %s WHERE id IN (%s)" % (Tournament._meta.db_table, ", ".join(["%s"] * len(ids))), ids)
        return {r[0] for r in c.fetchall()}


def _where(s: Optional[Stretch], named: str) -> str:
    if s is None:
        return "bound to no tournament"
    if s.tournament != named:
        return "bound to tournament %s" % s.tournament + ("" if s.table is None else " table %d" % s.table)
    return "bound to table %d" % s.table if s.table is not None else "in the tournament, at no table"


def _at(history: list, at: float) -> Optional[Stretch]:
    for s in reversed(history):
        if s.holds(at):
            return s
    return None


def held(device: str, body: dict, history: list, received: float, known: set) -> Optional[tuple]:
    """None when the record goes to the table it names; else (the tournament whose quarantine
    holds it or None, foreign: it names no tournament here, the reason)."""
    if body.get("kind") == "correction":
        return None
    named, table = body.get("tournament"), body.get("table")
    if named not in known:
        box = _at(history, received)
        return (None if box is None else box.tournament, True,
                "keyed in at the box for tournament %s, which this server does not have: a referee claims it for a session and table"
                % named + ("" if box is not None else " once the box is bound to a tournament"))
    t = body.get("time")
    made = min(t, received) if isinstance(t, int) and t >= CLOCK_MIN else None
    for s in history:
        if s.tournament == named and s.table == table and s.since <= received and (s.until is None or made is None or s.until > made):
            return None
    then = _at(history, made) if made is not None else None
    if then is None:
        then = _at(history, received)
        when = "when it arrived"
    else:
        when = "then"
    return (named, False, "box %s was not bound to tournament %s table %d when the record was made (it was %s %s)"
            % (device, named, table, _where(then, named), when))


def answer(body: dict, h: Optional[tuple]) -> dict:
    """The per-record answer's ``place``: where the record went."""
    if body.get("kind") == "correction":
        c = body["corrects"]
        return {"status": "correction", "corrects": {"device": c["device"], "seq": c["seq"]}}
    if h is None:
        return {"status": "table", "tournament": body["tournament"], "session": body["session"], "table": body["table"]}
    out = {"status": "quarantine", "reason": h[2]}
    if h[0] is not None:  # None: no tournament's quarantine holds it yet (its box is bound to none)
        out["tournament"] = h[0]
    return out


def stored(connection, pairs) -> dict:
    """(device, seq) -> ``place`` of records stored before (an upload of one again)."""
    from .models import Held, Record

    out: dict = {}
    by_dev: dict = {}
    for d, s in pairs:
        by_dev.setdefault(d, []).append(s)
    q = connection.ops.quote_name
    with connection.cursor() as c:
        for dev, seqs in by_dev.items():
            c.execute("SELECT r.seq, r.kind, r.tournament, r.session, r.%s, r.body, h.tournament, h.reason FROM %s r LEFT JOIN %s h "
                      "ON h.record_id = r.id WHERE r.device_id = %%s AND r.seq IN (%s)"
                      % (q("table"), Record._meta.db_table, Held._meta.db_table, ", ".join(["%s"] * len(seqs))), [dev] + list(seqs))
            for seq, kind, tid, s, t, body, ht, why in c.fetchall():
                if kind == "correction":
                    import json

                    b = json.loads(body) if isinstance(body, (str, bytes)) else body
                    out[(dev, seq)] = answer(b, None)
                elif why is None:
                    out[(dev, seq)] = {"status": "table", "tournament": tid, "session": s, "table": t}
                else:
                    out[(dev, seq)] = answer({}, (ht, True, why))
    return out
