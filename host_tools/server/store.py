"""Domain storage: tournaments, players, devices, records, corrections, penalties, play-offs,
seatings and the audit log, as functions over a ``db.Tx``. Parameterized SQL only.

Every change made by a person (tournament, players, device, correction, penalty, play-off,
seating, account) writes an audit_log row in the same transaction: who, when, what, and the
before/after values as JSON (device keys are never logged). Uploaded records are not changes:
they are immutable and carry their own provenance (device, seq, signature, received_at); a
device's correction record is logged too, since it changes a result.
"""
from __future__ import annotations

import datetime
import json
from typing import Any, Optional

from host_tools.server.records import Record

FORMATS = {
    # format -> default settings (the organizer may change them; see check_settings)
    "mcr_000": {"prelim_sessions": 8, "finalists": 16},
    "mcr_swiss_001": {"base": 500},
    "sichuan_003": {"stage2_quota": None},
    "guangdong_004": {"prelim_sessions": 4, "carry_ratio": None},
    "mcr_survival": {"start_time": None},
}
FORMAT_RULES = {"mcr_000": "mcr", "mcr_swiss_001": "mcr", "sichuan_003": "sichuan", "guangdong_004": "guangdong", "mcr_survival": "mcr"}


class NotFound(Exception):
    pass


class Conflict(Exception):
    pass


class Invalid(ValueError):
    pass


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def dumps(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def audit(tx, actor: str, action: str, tournament: Optional[str], target: str, before: Any = None, after: Any = None) -> None:
    tx.execute(
        "INSERT INTO audit_log (at, actor, action, tournament, target, before_value, after_value) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (now(), actor, action, tournament, target, None if before is None else dumps(before), None if after is None else dumps(after)),
    )


def audit_rows(tx, tournament: Optional[str] = None, limit: int = 500) -> list[dict]:
    if tournament is None:
        rows = tx.all("SELECT * FROM audit_log ORDER BY id DESC LIMIT ?", (limit,))
    else:
        rows = tx.all("SELECT * FROM audit_log WHERE tournament = ? ORDER BY id DESC LIMIT ?", (tournament, limit))
    for r in rows:
        for k in ("before_value", "after_value"):
            r[k] = None if r[k] is None else json.loads(r[k])
    return rows


# --------------------------------------------------------------------------- tournaments

def check_settings(fmt: str, settings: Any) -> dict:
    if fmt not in FORMATS:
        raise Invalid("format must be one of %s" % ", ".join(FORMATS))
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise Invalid("settings must be an object")
    out = dict(FORMATS[fmt])
    for k, v in settings.items():
        if k not in out:
            raise Invalid("format %s has no setting %r (settings: %s)" % (fmt, k, ", ".join(out)))
        if k == "carry_ratio":
            if v is not None:
                from host_tools.tournament.scoring import carry_ratio_value
                from host_tools.tournament.model import TournamentError

                if isinstance(v, float) or not isinstance(v, (str, int)) or isinstance(v, bool):
                    raise Invalid("carry_ratio must be a string such as \"0.3\" or \"1/3\" (or an integer)")
                try:
                    carry_ratio_value(v)
                except TournamentError as e:
                    raise Invalid(str(e)) from None
                v = str(v)
        elif v is not None or k not in ("stage2_quota", "start_time"):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 2**40:
                raise Invalid("setting %s must be a non-negative integer" % k)
        out[k] = v
    if fmt == "mcr_000" and (out["prelim_sessions"] < 1 or out["finalists"] < 4):
        raise Invalid("prelim_sessions must be >= 1 and finalists >= 4")
    if fmt == "guangdong_004" and out["prelim_sessions"] < 1:
        raise Invalid("prelim_sessions must be >= 1")
    return out


def _tournament(row: dict) -> dict:
    return {"id": row["id"], "name": row["name"], "format": row["format"], "settings": json.loads(row["settings"]), "created_at": row["created_at"]}


def list_tournaments(tx) -> list[dict]:
    return [_tournament(r) for r in tx.all("SELECT * FROM tournaments ORDER BY id")]


def get_tournament(tx, tid: str) -> dict:
    row = tx.one("SELECT * FROM tournaments WHERE id = ?", (tid,))
    if row is None:
        raise NotFound("no tournament %r" % tid)
    return _tournament(row)


def create_tournament(tx, actor: str, tid: str, name: str, fmt: str, settings: Any) -> dict:
    s = check_settings(fmt, settings)
    if tx.one("SELECT id FROM tournaments WHERE id = ?", (tid,)):
        raise Conflict("tournament %r exists" % tid)
    tx.execute("INSERT INTO tournaments (id, name, format, settings, created_at) VALUES (?, ?, ?, ?, ?)", (tid, name, fmt, dumps(s), now()))
    t = get_tournament(tx, tid)
    audit(tx, actor, "tournament.create", tid, "tournament " + tid, None, t)
    return t


def update_tournament(tx, actor: str, tid: str, name: Optional[str], settings: Optional[dict]) -> dict:
    before = get_tournament(tx, tid)
    new_settings = before["settings"]
    if settings is not None:
        merged = dict(before["settings"])
        if not isinstance(settings, dict):
            raise Invalid("settings must be an object")
        merged.update(settings)
        new_settings = check_settings(before["format"], merged)
    tx.execute("UPDATE tournaments SET name = ?, settings = ? WHERE id = ?", (before["name"] if name is None else name, dumps(new_settings), tid))
    after = get_tournament(tx, tid)
    audit(tx, actor, "tournament.update", tid, "tournament " + tid, before, after)
    return after


def delete_tournament(tx, actor: str, tid: str) -> None:
    """Removes the tournament, its players and seatings. Uploaded records, corrections, penalties
    and play-offs stay (they are evidence); re-creating the id brings the results back."""
    before = get_tournament(tx, tid)
    tx.execute("DELETE FROM players WHERE tournament = ?", (tid,))
    tx.execute("DELETE FROM seatings WHERE tournament = ?", (tid,))
    tx.execute("DELETE FROM tournaments WHERE id = ?", (tid,))
    audit(tx, actor, "tournament.delete", tid, "tournament " + tid, before, None)


# --------------------------------------------------------------------------- players

def list_players(tx, tid: str) -> list[dict]:
    return tx.all("SELECT id, name, draw, ema_id, country FROM players WHERE tournament = ? ORDER BY draw IS NULL, draw, id", (tid,))


def import_players(tx, actor: str, tid: str, players: list[dict]) -> dict:
    """Insert or update players by id. Returns counts."""
    get_tournament(tx, tid)
    existing = {p["id"]: p for p in list_players(tx, tid)}
    seen_draw: dict[int, str] = {p["draw"]: p["id"] for p in existing.values() if p["draw"] is not None}
    added = updated = 0
    for p in players:
        old = existing.get(p["id"])
        if p["draw"] is not None and seen_draw.get(p["draw"], p["id"]) != p["id"]:
            raise Conflict("draw number %d is taken by player %s" % (p["draw"], seen_draw[p["draw"]]))
        if old is not None and old.get("draw") is not None:
            seen_draw.pop(old["draw"], None)
        if p["draw"] is not None:
            seen_draw[p["draw"]] = p["id"]
        if old is None:
            tx.execute(
                "INSERT INTO players (tournament, id, name, draw, ema_id, country) VALUES (?, ?, ?, ?, ?, ?)",
                (tid, p["id"], p["name"], p["draw"], p["ema_id"], p["country"]),
            )
            added += 1
        else:
            tx.execute(
                "UPDATE players SET name = ?, draw = ?, ema_id = ?, country = ? WHERE tournament = ? AND id = ?",
                (p["name"], p["draw"], p["ema_id"], p["country"], tid, p["id"]),
            )
            updated += 1
        existing[p["id"]] = dict(p)
    audit(tx, actor, "players.import", tid, "players of " + tid, None, {"added": added, "updated": updated, "players": players})
    return {"added": added, "updated": updated}


# --------------------------------------------------------------------------- devices

def register_device(tx, actor: str, device: str, key: bytes, label: str) -> dict:
    if tx.one("SELECT id FROM devices WHERE id = ?", (device,)):
        raise Conflict("device %r is registered" % device)
    tx.execute("INSERT INTO devices (id, key, label, active, created_at) VALUES (?, ?, ?, 1, ?)", (device, key, label, now()))
    audit(tx, actor, "device.register", None, "device " + device, None, {"id": device, "label": label, "key": "(write-only)"})
    return {"id": device, "label": label, "active": True}


def list_devices(tx) -> list[dict]:
    rows = tx.all("SELECT id, label, active, created_at FROM devices ORDER BY id")
    for r in rows:
        r["active"] = bool(r["active"])
    return rows


def device_key(tx, device: str) -> Optional[bytes]:
    row = tx.one("SELECT key FROM devices WHERE id = ? AND active = 1", (device,))
    return None if row is None else bytes(row["key"])


# --------------------------------------------------------------------------- records

def key_and_record(tx, device: str, seq: int) -> tuple[Optional[bytes], Optional[bytes]]:
    """One query for the upload path: (the active device's key or None, the stored payload of
    (device, seq) or None)."""
    row = tx.one(
        "SELECT d.key, r.payload FROM devices d LEFT JOIN records r ON r.device_id = d.id AND r.seq = ? WHERE d.id = ? AND d.active = 1",
        (seq, device),
    )
    if row is None:
        return None, None
    return bytes(row["key"]), None if row["payload"] is None else bytes(row["payload"])


def find_record(tx, device: str, seq: int) -> Optional[dict]:
    return tx.one("SELECT id, payload FROM records WHERE device_id = ? AND seq = ?", (device, seq))


def insert_record(tx, rec: Record) -> bool:
    """Store a checked, signed record. Returns False when (device, seq) is already stored (the
    caller compares payloads). Never overwrites."""
    b = rec.body
    c = b.get("corrects") if rec.kind == "correction" else None
    n = tx.execute(
        "INSERT INTO records (device_id, seq, payload, sig, kind, tournament, session, table_no, hand, corrects_device, corrects_seq, record_time, received_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, seq) DO NOTHING",
        (
            rec.device, rec.seq, rec.payload, rec.sig, rec.kind, b.get("tournament"), b.get("session"), b.get("table"),
            b.get("hand"), c["device"] if c else None, c["seq"] if c else None, b["time"], now(),
        ),
    )
    if n != 1:
        return False
    if c:
        tx.execute(
            "INSERT INTO corrections (target_device, target_seq, deltas, reason, referee, source, record_device, record_seq, created_at) "
            "VALUES (?, ?, ?, ?, ?, 'device', ?, ?, ?)",
            (c["device"], c["seq"], dumps(b["deltas"]), b["reason"], b["referee"], rec.device, rec.seq, now()),
        )
        target = tx.one("SELECT tournament FROM records WHERE device_id = ? AND seq = ?", (c["device"], c["seq"]))
        audit(
            tx, "device %s / %s" % (rec.device, b["referee"]), "correction.device", target["tournament"] if target else None,
            "record %s/%d" % (c["device"], c["seq"]), None, {"deltas": b["deltas"], "reason": b["reason"], "record": "%s/%d" % (rec.device, rec.seq)},
        )
    return True


def tournament_records(tx, tid: str) -> list[dict]:
    return tx.all(
        "SELECT id, device_id, seq, payload, kind, session, table_no, hand, record_time FROM records WHERE tournament = ? ORDER BY id",
        (tid,),
    )


def tournament_corrections(tx, tid: str) -> list[dict]:
    """Corrections whose target is a record of this tournament, oldest first (the last one wins)."""
    return tx.all(
        "SELECT c.* FROM corrections c JOIN records r ON r.device_id = c.target_device AND r.seq = c.target_seq "
        "WHERE r.tournament = ? ORDER BY c.id",
        (tid,),
    )


def dangling_corrections(tx) -> list[dict]:
    """Corrections whose target record has not arrived (or was never uploaded)."""
    return tx.all(
        "SELECT c.* FROM corrections c LEFT JOIN records r ON r.device_id = c.target_device AND r.seq = c.target_seq "
        "WHERE r.id IS NULL ORDER BY c.id"
    )


def add_correction(tx, actor: str, tid: str, device: str, seq: int, deltas: list[int], reason: str) -> dict:
    target = tx.one("SELECT tournament, kind, payload FROM records WHERE device_id = ? AND seq = ?", (device, seq))
    if target is None or target["tournament"] != tid:
        raise NotFound("no record %s/%d in tournament %s" % (device, seq, tid))
    if target["kind"] != "hand":
        raise Invalid("only hand records can be corrected (record %s/%d is a %s)" % (device, seq, target["kind"]))
    before = json.loads(bytes(target["payload"])[1:].decode())["deltas"]
    prev = tx.one("SELECT deltas FROM corrections WHERE target_device = ? AND target_seq = ? ORDER BY id DESC LIMIT 1", (device, seq))
    if prev:
        before = json.loads(prev["deltas"])
    cid = tx.insert(
        "INSERT INTO corrections (target_device, target_seq, deltas, reason, referee, source, record_device, record_seq, created_at) "
        "VALUES (?, ?, ?, ?, ?, 'referee', NULL, NULL, ?)",
        (device, seq, dumps(deltas), reason, actor, now()),
    )
    audit(tx, actor, "correction.add", tid, "record %s/%d" % (device, seq), {"deltas": before}, {"deltas": deltas, "reason": reason})
    return {"id": cid, "device": device, "seq": seq, "deltas": deltas, "reason": reason, "referee": actor}


# --------------------------------------------------------------------------- penalties, play-offs

def add_penalty(tx, actor: str, tid: str, p: dict) -> dict:
    pid = tx.insert(
        "INSERT INTO penalties (tournament, session, player, kind, minutes, points, reason, referee, revoked, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
        (tid, p["session"], p["player"], p["kind"], p.get("minutes"), p.get("points"), p["reason"], actor, now()),
    )
    out = dict(p, id=pid, referee=actor, revoked=False)
    audit(tx, actor, "penalty.add", tid, "penalty %d" % pid, None, out)
    return out


def list_penalties(tx, tid: str, include_revoked: bool = True) -> list[dict]:
    rows = tx.all("SELECT * FROM penalties WHERE tournament = ? ORDER BY id", (tid,))
    for r in rows:
        r["revoked"] = bool(r["revoked"])
    return [r for r in rows if include_revoked or not r["revoked"]]


def revoke_penalty(tx, actor: str, tid: str, pid: int) -> dict:
    row = tx.one("SELECT * FROM penalties WHERE tournament = ? AND id = ?", (tid, pid))
    if row is None:
        raise NotFound("no penalty %d" % pid)
    if row["revoked"]:
        raise Conflict("penalty %d is already revoked" % pid)
    tx.execute("UPDATE penalties SET revoked = 1 WHERE id = ?", (pid,))
    row["revoked"] = False
    audit(tx, actor, "penalty.revoke", tid, "penalty %d" % pid, row, dict(row, revoked=True))
    return dict(row, revoked=True)


def add_playoff(tx, actor: str, tid: str, session: int, table: Optional[int], scores: dict) -> dict:
    prev = tx.one(
        "SELECT scores FROM playoffs WHERE tournament = ? AND session = ? AND " + ("table_no = ?" if table is not None else "table_no IS NULL") + " ORDER BY id DESC LIMIT 1",
        (tid, session, table) if table is not None else (tid, session),
    )
    pid = tx.insert(
        "INSERT INTO playoffs (tournament, session, table_no, scores, referee, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (tid, session, table, dumps(scores), actor, now()),
    )
    audit(tx, actor, "playoff.record", tid, "play-off session %d table %s" % (session, "-" if table is None else table), None if prev is None else json.loads(prev["scores"]), scores)
    return {"id": pid, "session": session, "table": table, "scores": scores, "referee": actor}


def list_playoffs(tx, tid: str) -> list[dict]:
    rows = tx.all("SELECT id, session, table_no, scores, referee, created_at FROM playoffs WHERE tournament = ? ORDER BY id", (tid,))
    return [{"id": r["id"], "session": r["session"], "table": r["table_no"], "scores": json.loads(r["scores"]), "referee": r["referee"], "created_at": r["created_at"]} for r in rows]


# --------------------------------------------------------------------------- seatings

def get_seating(tx, tid: str, session: int) -> list[dict]:
    rows = tx.all("SELECT table_no, seats, method FROM seatings WHERE tournament = ? AND session = ? ORDER BY table_no", (tid, session))
    return [{"table": r["table_no"], "players": json.loads(r["seats"]), "method": r["method"]} for r in rows]


def all_seatings(tx, tid: str) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for r in tx.all("SELECT session, table_no, seats FROM seatings WHERE tournament = ? ORDER BY session, table_no", (tid,)):
        out.setdefault(r["session"], []).append({"table": r["table_no"], "players": json.loads(r["seats"])})
    return out


def save_seating(tx, actor: str, tid: str, session: int, tables: list[tuple[int, list[str]]], method: str) -> None:
    before = get_seating(tx, tid, session)
    tx.execute("DELETE FROM seatings WHERE tournament = ? AND session = ?", (tid, session))
    tx.executemany(
        "INSERT INTO seatings (tournament, session, table_no, seats, method, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        [(tid, session, n, dumps(list(ps)), method, now()) for n, ps in tables],
    )
    audit(tx, actor, "seating.save", tid, "seating session %d" % session, before or None, [{"table": n, "players": list(ps)} for n, ps in tables])


def fingerprint(tx, tid: str) -> tuple:
    """Changes whenever anything that feeds the standings of any tournament changes: new
    records (max id) and any person's change (every one is in the audit log)."""
    return (tx.scalar("SELECT MAX(id) FROM records"), tx.scalar("SELECT MAX(id) FROM audit_log"))
