"""The upload path: a signed envelope in, a stored record (and its hand or correction row) out.

Order of checks, as the contract says: envelope shape (400), device known and signature right
(403), payload (400); then idempotence: the identical record again is 200 ``known``, the same
(device, seq) with another payload is 409 and the stored one is kept. A record is acknowledged
(201) only after its transaction committed, and SQLite runs with synchronous=FULL (``dburl``),
so an acknowledged record survives a power cut.

Where a record goes is decided here once, from its box's binding history (``placement``): a
record its box was not bound to where it says when it was made is stored with a ``Held`` row
(why, and in which tournament's quarantine it waits), and the answer says so (``place``). The
rest of integrity (is the player registered, seated at this table...) is ``results.integrity``'s,
every time results are computed.

One bad record never takes others down: a batch answers per record, and should the database
refuse a batch the checks let through, its records are stored one by one, each answered for
itself (a value the database cannot store: 400 for that record alone).

The rows are written with plain SQL (``sql``) rather than the ORM: an upload is a few small
inserts, and building them through the ORM cost more CPU than everything else the upload does
(the models in ``models`` stay the schema; the statements name their columns).
"""
from __future__ import annotations

import json
import threading
from typing import Any, Optional

from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

from host_tools.server.errors import BadRecord

from . import contract, hand_row, placement, sql
from .contract import Record
from .models import Correction


def record_values(row: Record, now) -> tuple:
    b = row.body
    seats = "\t".join("" if p is None else p for p in b["seats"]) if row.kind == "session" else None
    # the payload after its format byte is the record's JSON, as the box wrote it: stored as the
    # body without encoding it again
    return (row.device, row.seq, row.payload, row.sig, row.kind, b.get("tournament"), b.get("session"), b.get("table"), b.get("hand"),
            row.payload[1:].decode("utf-8"), seats, b.get("time"), now)


def _save_rows(rows: list[Record]) -> list[dict]:
    """Inside a transaction: the records, where each goes (``placement``: the held ones' rows),
    their hand / correction rows, links between a hand and the device corrections that arrived
    before it, and the results versions. Returns each record's ``place``."""
    s = sql.statements(connection)
    at = timezone.now()
    now = connection.ops.adapt_datetimefield_value(at)
    received = at.timestamp()
    hands: dict = {}  # (device, seq) -> (hand columns)
    corrections = []
    touched = set()
    history = placement.histories(connection, {r.device for r in rows if r.kind != "correction"})
    known = placement.existing(connection, {r.tournament for r in rows})
    places, held = [], []
    with connection.cursor() as c:
        for r, rid in zip(rows, _insert_records(c, s, rows, now)):
            h = placement.held(r.device, r.body, history.get(r.device, ()), received, known)
            places.append(placement.answer(r.body, h))
            if h is not None:
                held.append((rid, h[0], h[1], h[2][:400]))
                if h[0]:
                    touched.add(h[0])
            if r.tournament:
                touched.add(r.tournament)
            if r.kind == "hand":
                hands[(r.device, r.seq)] = hand_row.insert_values(hand_row.from_record(r.body, rid, r.device))
            elif r.kind == "correction":
                corrections.append((r, rid))
        if held:
            c.executemany(s.insert_held, held)
        if hands:
            c.executemany(s.insert_hand, list(hands.values()))
        if corrections:
            _save_corrections(c, s, corrections, hands, touched, now)
        if hands:
            _link_early_corrections(c, s, hands, touched)
        if touched:
            ids = sorted(touched)
            c.execute(s.bump.replace("{marks}", sql.marks(len(ids))), ids)
    return places


def _insert_records(c, s, rows: list, now) -> list:
    """Insert the records; their ids, in order. One statement for a batch (a round trip per
    record cost more than the rest on PostgreSQL), then one query per box for the ids."""
    if len(rows) == 1:
        c.execute(s.insert_record, record_values(rows[0], now))
        return [c.fetchone()[0]]
    c.executemany(s.insert_records, [record_values(r, now) for r in rows])
    by_dev: dict = {}
    for r in rows:
        by_dev.setdefault(r.device, []).append(r.seq)
    ids: dict = {}
    for dev, seqs in by_dev.items():
        c.execute(s.record_ids.replace("{marks}", sql.marks(len(seqs))), [dev] + seqs)
        for seq, rid in c.fetchall():
            ids[(dev, seq)] = rid
    return [ids[(r.device, r.seq)] for r in rows]


def _hands_of(c, s, dev: str, seqs: list) -> dict:
    """seq -> (hand id, tournament) of a box's stored hands."""
    c.execute(s.hands_by_seq.replace("{marks}", sql.marks(len(seqs))), [dev] + seqs)
    return {seq: (hid, t) for hid, t, seq in c.fetchall()}


def _save_corrections(c, s, corrections: list, hands: dict, touched: set, now) -> None:
    """Device corrections name their target by (device, seq); it may arrive later (then the
    hand's upload links them, ``_link_early_corrections``)."""
    targets: dict = {}
    for r, _rid in corrections:
        t = r.body["corrects"]
        targets.setdefault(t["device"], set()).add(t["seq"])
    found: dict = {}
    for dev, seqs in targets.items():
        for seq, hit in _hands_of(c, s, dev, sorted(seqs)).items():
            found[(dev, seq)] = hit
    values = []
    for r, rid in corrections:
        b = r.body
        t = b["corrects"]
        hit = found.get((t["device"], t["seq"]))
        if hit is not None:
            touched.add(hit[1])
        values.append((None if hit is None else hit[0], t["device"], t["seq"], None if hit is None else hit[1], Correction.DEVICE, rid,
                       json.dumps(b["deltas"]), b["reason"], "%s / %s" % (r.device, b["referee"]), now))
    c.executemany(s.insert_correction, values)


def _link_early_corrections(c, s, hands: dict, touched: set) -> None:
    """Device corrections that came before their hand (usually none: one indexed query)."""
    devices = sorted({d for d, _ in hands})
    c.execute(s.early_corrections.replace("{marks}", sql.marks(len(devices))), devices)
    early = [(cid, dev, seq) for cid, dev, seq in c.fetchall() if (dev, seq) in hands]
    for dev in {d for _, d, _ in early}:
        stored = _hands_of(c, s, dev, sorted({seq for _, d, seq in early if d == dev}))
        for cid, d, seq in early:
            if d == dev and seq in stored:
                hid, t = stored[seq]
                c.execute(s.link_correction, [hid, t, cid])
                touched.add(t)


def store_one(obj: Any) -> tuple[int, dict]:
    """One upload body as it came (a dict): its shape checked here."""
    try:
        env = contract.parse_envelope(obj)
    except BadRecord as e:
        return 400, {"error": str(e)}
    return store_envelope(env)


def store_fields(device: str, seq: int, payload_b64: str, sig: str) -> tuple[int, dict]:
    """One upload whose shape the API's schema already checked."""
    try:
        env = contract.decode_envelope(device, seq, payload_b64, sig)
    except BadRecord as e:
        return 400, {"error": str(e)}
    return store_envelope(env)


def store_envelope(env: contract.Envelope) -> tuple[int, dict]:
    key, existing = sql.key_and_payload(connection, env.device, env.seq)
    if key is None or not contract.signature_ok(key, env):
        return 403, {"error": "unknown device or bad signature"}
    try:
        rec = contract.to_record(env)
    except BadRecord as e:
        return 400, {"error": str(e)}
    if existing is None:
        try:
            place = _group_commit(rec)
        except DataError as e:  # a value the checks let through and the database refuses
            return 400, {"error": "the database cannot store this record: %s" % _first_line(e)}
        if place is not None:
            return 201, {"status": "stored", "device": env.device, "seq": env.seq, "place": place}
        # a concurrent upload of the same (device, seq) won the race
        existing = sql.key_and_payload(connection, env.device, env.seq)[1] or b""
    return _known(env, existing)


def _first_line(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:200]


# Group commit. Every acknowledged upload is on disk (SQLite synchronous=FULL, PostgreSQL's
# commit), so a commit costs a disk flush, and writers take turns. Uploads and batches (a sync's,
# a box's push) that arrive while one commits wait together and the next writer commits all of
# them in one transaction: one flush for the group, each still answered only after its commit.
_queue: list = []
_queue_lock = threading.Lock()
_writer = threading.Lock()


def _group_rows(rows: list) -> Optional[list]:
    """Store these records (one upload's, or one batch's) with whatever else is waiting, in one
    transaction: their ``place``s; None: the group failed (a record raced another upload, or
    one the database refuses), and the caller stores its own records on their own. A box's
    push is a batch: 50 boxes pushing at once committed one by one, a flush each, and the last
    waited for all the others (bench/push_latency.py: the push was most of a hand's way to the
    projector)."""
    slot: dict = {"rows": rows, "places": None, "ok": None}
    with _queue_lock:
        _queue.append(slot)
    with _writer:
        if slot["ok"] is None:
            with _queue_lock:
                batch = _queue[:]
                _queue.clear()
            try:
                with transaction.atomic():
                    places = _save_rows([r for x in batch for r in x["rows"]])
                at = 0
                for x in batch:
                    n = len(x["rows"])
                    x["ok"], x["places"] = True, places[at:at + n]
                    at += n
            except (IntegrityError, DataError):  # one of them raced another upload, or is refused: each on its own
                for x in batch:
                    x["ok"] = False
    return slot["places"] if slot["ok"] else None


def _group_commit(row: Record) -> Optional[dict]:
    """Store one record with whatever else is waiting: its ``place``; None: (device, seq) was
    taken meanwhile. Raises DataError when the database refuses this record itself."""
    got = _group_rows([row])
    if got is not None:
        return got[0]
    try:
        with transaction.atomic():
            return _save_rows([row])[0]
    except IntegrityError:
        return None


def _known(env: contract.Envelope, existing: bytes, place: Optional[dict] = None) -> tuple[int, dict]:
    if existing == env.payload:
        if place is None:
            place = placement.stored(connection, [(env.device, env.seq)]).get((env.device, env.seq))
        return 200, {"status": "known", "device": env.device, "seq": env.seq, "place": place}
    return 409, {"error": "record %s/%d is stored with a different payload; the stored one is kept" % (env.device, env.seq)}


def store_batch(items: list) -> list[tuple[int, dict]]:
    """Up to ``protocol.envelope.BATCH_MAX`` envelopes, answered per item, stored in one transaction (one commit)."""
    out: list[Optional[tuple[int, dict]]] = [None] * len(items)
    envs: dict[int, contract.Envelope] = {}
    for i, obj in enumerate(items):
        try:
            envs[i] = contract.parse_envelope(obj)
        except BadRecord as e:
            out[i] = (400, {"error": str(e)})
    keys = sql.keys(connection, {e.device for e in envs.values()})
    rows: dict[int, Record] = {}
    for i, env in envs.items():
        key = keys.get(env.device)
        if key is None or not contract.signature_ok(key, env):
            out[i] = (403, {"error": "unknown device or bad signature"})
            continue
        try:
            rows[i] = contract.to_record(env)
        except BadRecord as e:
            out[i] = (400, {"error": str(e)})
    by_dev: dict[str, list[int]] = {}
    for r in rows.values():
        by_dev.setdefault(r.device, []).append(r.seq)
    stored = sql.payloads(connection, by_dev)
    new: list[tuple[int, Record]] = []
    again = [(r.device, r.seq) for r in rows.values() if (r.device, r.seq) in stored]
    places = placement.stored(connection, again) if again else {}
    for i, r in rows.items():
        k = (r.device, r.seq)
        if k in stored:
            out[i] = _known(envs[i], stored[k], places.get(k))
            continue
        stored[k] = r.payload  # a repeat later in the same batch compares with this one
        new.append((i, r))
    if new:
        got = _group_rows([r for _, r in new])
        if got is not None:
            for (i, r), place in zip(new, got):
                out[i] = (201, {"status": "stored", "device": r.device, "seq": r.seq, "place": place})
        else:  # raced with another upload, or one the database refuses: one by one
            for i, _ in new:
                out[i] = store_one(items[i])
    assert all(o is not None for o in out)
    return out  # type: ignore[return-value]
