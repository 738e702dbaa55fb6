"""The upload path's statements, in plain SQL over the tables ``models`` defines (one set per
database vendor: PostgreSQL's JSON columns take text through a cast)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .hand_row import COLUMNS as HAND_COLUMNS
from .models import Correction, Device, Hand, Held, Record

RECORD_COLUMNS = ("device_id", "seq", "payload", "sig", "kind", "tournament", "session", "table", "hand", "body", "seats", "time", "received_at")
HELD_COLUMNS = ("record_id", "tournament", "unknown_tournament", "reason")
CORRECTION_COLUMNS = ("hand_id", "target_device", "target_seq", "tournament", "source", "record_id", "deltas", "reason", "referee", "created_at")
JSON_COLUMNS = {"body", "fan_names", "deltas"}


@dataclass(frozen=True)
class Statements:
    insert_record: str  # RETURNING id
    insert_records: str  # the same without RETURNING, for executemany
    record_ids: str  # {marks}: one per seq of one device
    insert_hand: str
    insert_correction: str
    insert_held: str
    hands_by_seq: str  # {marks}: one placeholder per seq
    early_corrections: str  # {marks}: one per device
    link_correction: str
    bump: str  # {marks}: one per tournament


_made: dict = {}


def marks(n: int) -> str:
    return ", ".join(["%s"] * n)


def _insert(q, table: str, columns: tuple, json_cast: str, returning: bool = False) -> str:
    marks = ", ".join("%s" + json_cast if c in JSON_COLUMNS else "%s" for c in columns)
    return "INSERT INTO %s (%s) VALUES (%s)%s" % (q(table), ", ".join(q(c) for c in columns), marks, " RETURNING id" if returning else "")


def statements(connection) -> Statements:
    s = _made.get(connection.vendor)
    if s is None:
        from host_tools.server.tournaments.models import Tournament

        q = connection.ops.quote_name
        cast = "::jsonb" if connection.vendor == "postgresql" else ""
        h, r, c = Hand._meta.db_table, Record._meta.db_table, Correction._meta.db_table
        s = _made[connection.vendor] = Statements(
            insert_record=_insert(q, r, RECORD_COLUMNS, cast, returning=True),
            insert_records=_insert(q, r, RECORD_COLUMNS, cast),
            record_ids="SELECT seq, id FROM %s WHERE device_id = %%s AND seq IN ({marks})" % q(r),
            insert_hand=_insert(q, h, HAND_COLUMNS, cast),
            insert_correction=_insert(q, c, CORRECTION_COLUMNS, cast),
            insert_held=_insert(q, Held._meta.db_table, HELD_COLUMNS, cast),
            hands_by_seq="SELECT h.id, h.tournament, r.seq FROM %s h JOIN %s r ON r.id = h.record_id WHERE r.device_id = %%s AND r.seq IN ({marks})"
                         % (q(h), q(r)),
            early_corrections="SELECT id, target_device, target_seq FROM %s WHERE hand_id IS NULL AND target_device IN ({marks})" % q(c),
            link_correction="UPDATE %s SET hand_id = %%s, tournament = %%s WHERE id = %%s" % q(c),
            bump="UPDATE %s SET results_version = results_version + 1 WHERE id IN ({marks})" % q(Tournament._meta.db_table),
        )
    return s


def key_and_payload(connection, device: str, seq: int) -> tuple[Optional[bytes], Optional[bytes]]:
    """One query: the active device's key (None: unknown) and the stored payload of (device, seq)."""
    d, r = Device._meta.db_table, Record._meta.db_table
    with connection.cursor() as c:
        c.execute("SELECT d.key, r.payload FROM %s d LEFT JOIN %s r ON r.device_id = d.id AND r.seq = %%s WHERE d.id = %%s AND d.active" % (d, r),
                  [seq, device])
        row = c.fetchone()
    if row is None:
        return None, None
    return bytes(row[0]), None if row[1] is None else bytes(row[1])


def keys(connection, devices: set) -> dict:
    """device -> key of the active ones among these."""
    if not devices:
        return {}
    ids = sorted(devices)
    with connection.cursor() as c:
        c.execute("SELECT id, key FROM %s WHERE active AND id IN (%s)" % (Device._meta.db_table, ", ".join(["%s"] * len(ids))), ids)
        return {d: bytes(k) for d, k in c.fetchall()}


def payloads(connection, by_device: dict) -> dict:
    """(device, seq) -> stored payload, for these seqs of these devices."""
    out: dict = {}
    with connection.cursor() as c:
        for dev, seqs in by_device.items():
            c.execute("SELECT seq, payload FROM %s WHERE device_id = %%s AND seq IN (%s)" % (Record._meta.db_table, ", ".join(["%s"] * len(seqs))),
                      [dev] + list(seqs))
            for seq, payload in c.fetchall():
                out[(dev, seq)] = bytes(payload)
    return out
