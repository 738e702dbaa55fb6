"""The upload path: a signed envelope in, a stored record (and its hand or correction row) out.

Order of checks, as the contract says: envelope shape (400), device known and signature right
(403), payload (400); then idempotence: the identical record again is 200 ``known``, the same
(device, seq) with another payload is 409 and the stored one is kept. A record is acknowledged
(201) only after its transaction committed, and SQLite runs with synchronous=FULL (``dburl``),
so an acknowledged record survives a power cut.

Integrity (is the player registered, seated at this table...) is not checked here: a record
that is well formed and signed is always stored, and ``results.integrity`` decides, every time
results are computed, whether it counts or waits in quarantine for a referee.
"""
from __future__ import annotations

import threading
from typing import Any, Iterable, Optional

from django.db import IntegrityError, connection, transaction
from django.db.models import F

from host_tools.server import contract, contract_v1
from host_tools.server.contract import BadRecord
from host_tools.server.tournaments.models import Tournament

from .models import Correction, Device, Hand, Record

BATCH_MAX = 200


def _key_and_payload(device: str, seq: int) -> tuple[Optional[bytes], Optional[bytes]]:
    """One query: the active device's key (None: unknown) and the stored payload of (device, seq)."""
    d, r = Device._meta.db_table, Record._meta.db_table
    with connection.cursor() as c:
        c.execute(
            "SELECT d.key, r.payload FROM %s d LEFT JOIN %s r ON r.device_id = d.id AND r.seq = %%s WHERE d.id = %%s AND d.active" % (d, r),
            [seq, device],
        )
        row = c.fetchone()
    if row is None:
        return None, None
    return bytes(row[0]), None if row[1] is None else bytes(row[1])


def deductions(body: dict) -> list[int]:
    """Points each seat paid to nobody in this hand (penalties): the record's transfers whose
    payee is null (protocol/record.py checked that the deltas are the transfers' sum)."""
    if body["v"] == 1:
        return contract_v1.deductions(body)
    out = [0, 0, 0, 0]
    for payer, payee, points, _why in body["transfers"]:
        if payee is None and payer is not None:
            out[payer] += points
    return out


def hand_row(rec: Record, body: dict) -> Hand:
    seats, deltas = body["seats"], body["deltas"]
    wins = body["wins"] if body["v"] != 1 else contract_v1.wins(body)
    ded = deductions(body)
    return Hand(
        tournament=body["tournament"], session=body["session"], table=body["table"], number=body["hand"], rules=body["rules"],
        record=rec, p0=seats[0], p1=seats[1], p2=seats[2], p3=seats[3], d0=deltas[0], d1=deltas[1], d2=deltas[2], d3=deltas[3],
        dealer=body["dealer"], winners="".join(str(w) for w in body["winners"]), discarder=body["discarder"],
        fans=max((w["total"] for w in wins), default=0), fan_names=[w["fans"] for w in wins], time=body["time"],
        deductions="" if not any(ded) else ",".join(map(str, ded)),
    )


def _correction_row(rec: Record, body: dict) -> Correction:
    c = body["corrects"]
    return Correction(target_device=c["device"], target_seq=c["seq"], source=Correction.DEVICE, record=rec,
                      deltas=body["deltas"], reason=body["reason"], referee="%s / %s" % (rec.device_id, body["referee"]))


def _model(r: contract.Record) -> Record:
    b = r.body
    seats = "\t".join("" if p is None else p for p in b["seats"]) if r.kind == "session" else None
    return Record(device_id=r.device, seq=r.seq, payload=r.payload, sig=r.sig, kind=r.kind, tournament=b.get("tournament"),
                  session=b.get("session"), table=b.get("table"), hand=b.get("hand"), body=b, seats=seats, time=b.get("time"))


def _save_rows(recs: list[tuple[Record, dict]]) -> None:
    """Inside a transaction: the records, their hand / correction rows, links between a hand and
    the device corrections that arrived before it, and the results versions."""
    Record.objects.bulk_create([r for r, _ in recs])
    hands = [hand_row(r, b) for r, b in recs if r.kind == "hand"]
    Hand.objects.bulk_create(hands)
    touched = {h.tournament for h in hands} | {r.tournament for r, _ in recs if r.tournament}
    corrections = [_correction_row(r, b) for r, b in recs if r.kind == "correction"]
    if corrections:
        targets = {(c.target_device, c.target_seq) for c in corrections}
        found = {(h.record.device_id, h.record.seq): h for h in hands}
        for dev in {d for d, _ in targets}:
            seqs = [s for d, s in targets if d == dev and (d, s) not in found]
            if seqs:
                for h in Hand.objects.filter(record__device_id=dev, record__seq__in=seqs).select_related("record"):
                    found[(dev, h.record.seq)] = h
        for c in corrections:
            h = found.get((c.target_device, c.target_seq))
            if h is not None:
                c.hand, c.tournament = h, h.tournament
                touched.add(h.tournament)
        Correction.objects.bulk_create(corrections)
    if hands:  # device corrections that came before their hand (one query; usually none)
        by_target = {(h.record.device_id, h.record.seq): h for h in hands}
        early = Correction.objects.filter(hand__isnull=True, target_device__in={d for d, _ in by_target})
        for c in early.only("id", "target_device", "target_seq"):
            h = by_target.get((c.target_device, c.target_seq))
            if h is not None:
                Correction.objects.filter(id=c.id).update(hand=h, tournament=h.tournament)
    bump(touched)


def bump(tournaments: Iterable[str]) -> None:
    """Invalidate the cached results of these tournaments (inside the changing transaction)."""
    ids = sorted(t for t in set(tournaments) if t)
    if ids:
        Tournament.objects.filter(id__in=ids).update(results_version=F("results_version") + 1)


def store_one(obj: Any) -> tuple[int, dict]:
    try:
        env = contract.parse_envelope(obj)
    except BadRecord as e:
        return 400, {"error": str(e)}
    key, existing = _key_and_payload(env.device, env.seq)
    if key is None or not contract.signature_ok(key, env):
        return 403, {"error": "unknown device or bad signature"}
    try:
        rec = contract.to_record(env)
    except BadRecord as e:
        return 400, {"error": str(e)}
    if existing is None:
        if _group_commit(_model(rec), rec.body):
            return 201, {"status": "stored", "device": env.device, "seq": env.seq}
        # a concurrent upload of the same (device, seq) won the race
        existing = bytes(Record.objects.filter(device_id=env.device, seq=env.seq).values_list("payload", flat=True).first() or b"")
    return _known(env, existing)


# Group commit. Every acknowledged upload is on disk (SQLite synchronous=FULL, PostgreSQL's
# commit), so a commit costs a disk flush, and writers take turns. Uploads that arrive while one
# commits wait together and the next writer commits all of them in one transaction: one flush
# for the group, each still answered only after its commit.
_queue: list = []
_queue_lock = threading.Lock()
_writer = threading.Lock()


def _group_commit(row: Record, body: dict) -> bool:
    """Store one record with whatever else is waiting; False: (device, seq) was taken meanwhile."""
    slot = {"row": row, "body": body, "ok": None}
    with _queue_lock:
        _queue.append(slot)
    with _writer:
        if slot["ok"] is None:
            with _queue_lock:
                batch = _queue[:]
                _queue.clear()
            try:
                with transaction.atomic():
                    _save_rows([(x["row"], x["body"]) for x in batch])
                ok = True
            except IntegrityError:  # one of them raced another upload: each on its own
                ok = False
            for x in batch:
                x["ok"] = ok
    if slot["ok"]:
        return True
    row.pk = None
    try:
        with transaction.atomic():
            _save_rows([(row, body)])
        return True
    except IntegrityError:
        return False


def _known(env: contract.Envelope, existing: bytes) -> tuple[int, dict]:
    if existing == env.payload:
        return 200, {"status": "known", "device": env.device, "seq": env.seq}
    return 409, {"error": "record %s/%d is stored with a different payload; the stored one is kept" % (env.device, env.seq)}


def store_batch(items: list) -> list[tuple[int, dict]]:
    """Up to BATCH_MAX envelopes, answered per item, stored in one transaction (one commit)."""
    out: list[Optional[tuple[int, dict]]] = [None] * len(items)
    envs: dict[int, contract.Envelope] = {}
    for i, obj in enumerate(items):
        try:
            envs[i] = contract.parse_envelope(obj)
        except BadRecord as e:
            out[i] = (400, {"error": str(e)})
    keys = {d: bytes(k) for d, k in Device.objects.filter(id__in={e.device for e in envs.values()}, active=True).values_list("id", "key")}
    recs: dict[int, contract.Record] = {}
    for i, env in envs.items():
        key = keys.get(env.device)
        if key is None or not contract.signature_ok(key, env):
            out[i] = (403, {"error": "unknown device or bad signature"})
            continue
        try:
            recs[i] = contract.to_record(env)
        except BadRecord as e:
            out[i] = (400, {"error": str(e)})
    stored: dict[tuple[str, int], bytes] = {}
    by_dev: dict[str, list[int]] = {}
    for r in recs.values():
        by_dev.setdefault(r.device, []).append(r.seq)
    for dev, seqs in by_dev.items():
        for seq, payload in Record.objects.filter(device_id=dev, seq__in=seqs).values_list("seq", "payload"):
            stored[(dev, seq)] = bytes(payload)
    new: list[tuple[int, Record, dict]] = []
    for i, r in recs.items():
        k = (r.device, r.seq)
        if k in stored:
            out[i] = _known(envs[i], stored[k])
            continue
        stored[k] = r.payload  # a repeat later in the same batch compares with this one
        new.append((i, _model(r), r.body))
    if new:
        try:
            with transaction.atomic():
                _save_rows([(m, b) for _, m, b in new])
            for i, m, _ in new:
                out[i] = (201, {"status": "stored", "device": m.device_id, "seq": m.seq})
        except IntegrityError:  # raced with another upload: store them one by one
            for i, _, _ in new:
                out[i] = store_one(items[i])
    assert all(o is not None for o in out)
    return out  # type: ignore[return-value]
