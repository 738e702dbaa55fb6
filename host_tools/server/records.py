"""The device contract: record envelopes, signatures and payloads (validation only, no storage).

Envelope (POST /api/records): {"device": id, "seq": n, "payload": base64, "sig": hex}.
Signature: hex HMAC-SHA256(device_key, device_id.encode() + b"\\x00" + seq.to_bytes(4, "big") + payload).
Payload: version byte 0x01, then the record as UTF-8 JSON; kinds "session", "hand", "correction",
"session_end" (field lists in KIND_FIELDS; the README of the server package has examples).

Every refusal is a ``BadRecord`` (HTTP 400) with a message naming the field. Checks, in order:
envelope shape (400) -> device known and signature right (403, done by the caller with
``signature_ok``) -> payload (400): so an unsigned sender learns nothing about the payload rules.

DECISIONS:
* The envelope refuses unknown keys (a sync-tool bug shows at once); a payload may carry keys
  beyond the contract (a newer firmware): they are kept, since the payload is stored verbatim.
* ``seq`` is 1 .. 2^32 - 1 (it is signed as 4 bytes); integers in payloads are bounded so they
  fit the database (session, table, hand < 2^31; points within +-10^9; times 0 .. 2^40).
* ``seats`` are 4 entries in seat order; an entry may be null for the empty seat of a
  three-player table (MCR): that seat's delta must be 0 and it can neither win nor deal in.
* JSON with duplicate keys, NaN/Infinity, or invalid UTF-8 is malformed.
* ``discarder`` is the seat that dealt in to the first win (null: self-drawn). In Sichuan (血战)
  the hand goes on after a win, so that seat may itself win later and be among ``winners``.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Optional

VERSION = 1
KINDS = ("session", "hand", "correction", "session_end")
RULES = ("mcr", "sichuan", "guangdong")
MAX_PAYLOAD = 64 * 1024
MAX_ID = 64
ENVELOPE_KEYS = ("device", "seq", "payload", "sig")
KIND_FIELDS = {
    "session": ("v", "kind", "tournament", "session", "table", "rules", "seats", "first_dealer", "time"),
    "hand": (
        "v", "kind", "tournament", "session", "table", "hand", "rules", "seats", "dealer", "prevalent_wind",
        "events", "deltas", "fans", "winners", "discarder", "time",
    ),
    "correction": ("v", "kind", "corrects", "deltas", "reason", "referee", "time"),
    "session_end": ("v", "kind", "tournament", "session", "table", "hands", "match_scores", "time"),
}
SMALL = 2**31 - 1
POINTS = 10**9
TIME_MAX = 2**40


class BadRecord(ValueError):
    """A malformed envelope or payload: HTTP 400 with this message."""


@dataclass(frozen=True)
class Envelope:
    device: str
    seq: int
    payload: bytes
    sig: str


@dataclass(frozen=True)
class Record:
    device: str
    seq: int
    payload: bytes
    sig: str
    body: dict = field(compare=False)

    @property
    def kind(self) -> str:
        return self.body["kind"]

    @property
    def tournament(self) -> Optional[str]:
        return self.body.get("tournament")

    @property
    def corrects(self) -> Optional[tuple[str, int]]:
        c = self.body.get("corrects")
        return (c["device"], c["seq"]) if c else None


# --------------------------------------------------------------------------- signing

def signed_message(device: str, seq: int, payload: bytes) -> bytes:
    return device.encode() + b"\x00" + seq.to_bytes(4, "big") + payload


def sign(key: bytes, device: str, seq: int, payload: bytes) -> str:
    """What the device computes: hex HMAC-SHA256 over device, NUL, seq (4 bytes big-endian), payload."""
    return hmac.new(key, signed_message(device, seq, payload), hashlib.sha256).hexdigest()


def signature_ok(key: bytes, env: Envelope) -> bool:
    return hmac.compare_digest(sign(key, env.device, env.seq, env.payload), env.sig)


def encode_payload(body: dict) -> bytes:
    """A payload as the device writes it: version byte, then minified UTF-8 JSON."""
    return bytes([VERSION]) + json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def make_envelope(key: bytes, device: str, seq: int, body: dict) -> dict:
    """A signed upload body (for tests, the benchmark and the sync tool's reference)."""
    payload = encode_payload(body)
    return {"device": device, "seq": seq, "payload": base64.b64encode(payload).decode(), "sig": sign(key, device, seq, payload)}


# --------------------------------------------------------------------------- field checks

def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadRecord("%s must be an integer" % what)
    if not lo <= v <= hi:
        raise BadRecord("%s must be between %d and %d" % (what, lo, hi))
    return v


def _str(v: Any, what: str, max_len: int = MAX_ID, empty: bool = False) -> str:
    if not isinstance(v, str):
        raise BadRecord("%s must be a string" % what)
    if not v and not empty:
        raise BadRecord("%s must not be empty" % what)
    if len(v) > max_len:
        raise BadRecord("%s is longer than %d characters" % (what, max_len))
    if any(ord(c) < 32 or ord(c) == 127 for c in v):
        raise BadRecord("%s holds control characters" % what)
    return v


def ident(v: Any, what: str) -> str:
    """An id (device, tournament, player): 1-64 characters, no control characters."""
    return _str(v, what)


def _deltas(v: Any, what: str = "deltas") -> list[int]:
    if not isinstance(v, list) or len(v) != 4:
        raise BadRecord("%s must be a list of 4 integers" % what)
    return [_int(x, "%s[%d]" % (what, i), -POINTS, POINTS) for i, x in enumerate(v)]


def _seats(v: Any) -> list[Optional[str]]:
    if not isinstance(v, list) or len(v) != 4:
        raise BadRecord("seats must be a list of 4 player ids")
    out = [None if p is None else ident(p, "seats[%d]" % i) for i, p in enumerate(v)]
    named = [p for p in out if p is not None]
    if len(named) < 3:
        raise BadRecord("seats must name at least 3 players")
    if len(set(named)) != len(named):
        raise BadRecord("seats name a player twice")
    return out


def _seat(v: Any, what: str) -> int:
    return _int(v, what, 0, 3)


def _check_hand(b: dict) -> None:
    seats = _seats(b["seats"])
    _seat(b["dealer"], "dealer")
    if b["prevalent_wind"] not in ("E", "S", "W", "N"):
        raise BadRecord("prevalent_wind must be E, S, W or N")
    ev = b["events"]
    if not isinstance(ev, list) or len(ev) > 500 or not all(isinstance(e, dict) for e in ev):
        raise BadRecord("events must be a list of at most 500 objects")
    deltas = _deltas(b["deltas"])
    winners = b["winners"]
    if not isinstance(winners, list) or len(winners) > 3:
        raise BadRecord("winners must be a list of at most 3 seats")
    winners = [_seat(w, "winners[%d]" % i) for i, w in enumerate(winners)]
    if len(set(winners)) != len(winners):
        raise BadRecord("winners name a seat twice")
    d = b["discarder"]
    if d is not None:
        d = _seat(d, "discarder")
        if not winners:
            raise BadRecord("a discarder needs a winner")
        if d in winners and b["rules"] != "sichuan":  # 血战: a player who dealt in may win later
            raise BadRecord("the discarder cannot be a winner")
    if b["rules"] == "mcr" and len(winners) > 1:
        raise BadRecord("Chinese Official hands have one winner")
    fans = b["fans"]
    if fans is not None:
        if not isinstance(fans, dict) or set(fans) - {"seat", "total", "names"} or not {"seat", "total", "names"} <= set(fans):
            raise BadRecord("fans must be null or {seat, total, names}")
        s = _seat(fans["seat"], "fans.seat")
        _int(fans["total"], "fans.total", 0, 100000)
        if not isinstance(fans["names"], list) or len(fans["names"]) > 100:
            raise BadRecord("fans.names must be a list of strings")
        for i, n in enumerate(fans["names"]):
            _str(n, "fans.names[%d]" % i, 100)
        if s not in winners:
            raise BadRecord("fans.seat must be a winner")
    for i, p in enumerate(seats):
        if p is None and (deltas[i] or i in winners or i == d):
            raise BadRecord("the empty seat %d cannot score, win or deal in" % i)


def _check(b: dict) -> None:
    kind = b["kind"]
    if "tournament" in KIND_FIELDS[kind]:
        ident(b["tournament"], "tournament")
        _int(b["session"], "session", 1, SMALL)
        _int(b["table"], "table", 1, SMALL)
    _int(b["time"], "time", 0, TIME_MAX)
    if kind in ("session", "hand") and b["rules"] not in RULES:
        raise BadRecord("rules must be one of %s" % ", ".join(RULES))
    if kind == "session":
        _seats(b["seats"])
        _seat(b["first_dealer"], "first_dealer")
    elif kind == "hand":
        _int(b["hand"], "hand", 1, SMALL)
        _check_hand(b)
    elif kind == "correction":
        c = b["corrects"]
        if not isinstance(c, dict) or set(c) != {"device", "seq"}:
            raise BadRecord("corrects must be {device, seq}")
        ident(c["device"], "corrects.device")
        _int(c["seq"], "corrects.seq", 1, 2**32 - 1)
        _deltas(b["deltas"])
        _str(b["reason"], "reason", 1000, empty=True)
        _str(b["referee"], "referee", 200)
    elif kind == "session_end":
        _int(b["hands"], "hands", 0, 10000)
        ms = b["match_scores"]
        if not isinstance(ms, dict) or len(ms) > 4:
            raise BadRecord("match_scores must be an object of at most 4 players")
        for p, v in ms.items():
            ident(p, "match_scores key")
            _int(v, "match_scores[%s]" % p, -POINTS, POINTS)


def _no_dupes(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise BadRecord("duplicate key %r in payload" % k)
        d[k] = v
    return d


def _no_constants(name):
    raise BadRecord("payload holds %s, which is not JSON" % name)


def parse_json(data: bytes) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRecord("payload is not UTF-8") from None
    try:
        return json.loads(text, object_pairs_hook=_no_dupes, parse_constant=_no_constants)
    except BadRecord:
        raise
    except (ValueError, RecursionError):
        raise BadRecord("payload is not valid JSON") from None


def parse_payload(payload: bytes) -> dict:
    """Version byte and JSON body -> the checked body (dict). Raises BadRecord."""
    if not payload:
        raise BadRecord("payload is empty")
    if payload[0] != VERSION:
        raise BadRecord("unknown payload version %d" % payload[0])
    body = parse_json(payload[1:])
    if not isinstance(body, dict):
        raise BadRecord("payload must be a JSON object")
    if body.get("v") == 2 and not isinstance(body.get("v"), bool):
        # the box's records: one schema, checked by the module the box builds them with
        from protocol import record
        err = record.validate(body)
        if err:
            raise BadRecord(err)
        return body
    if body.get("v") != VERSION or isinstance(body.get("v"), bool):
        raise BadRecord("payload field v must be 1")
    kind = body.get("kind")
    if kind not in KINDS:
        raise BadRecord("unknown record kind %r" % (kind,) if isinstance(kind, str) else "payload needs a kind")
    missing = [f for f in KIND_FIELDS[kind] if f not in body]
    if missing:
        raise BadRecord("%s record misses %s" % (kind, ", ".join(missing)))
    _check(body)
    return body


def parse_envelope(obj: Any) -> Envelope:
    """The upload body's shape (no key needed). Raises BadRecord."""
    if not isinstance(obj, dict):
        raise BadRecord("a record upload is a JSON object {device, seq, payload, sig}")
    extra = sorted(set(obj) - set(ENVELOPE_KEYS))
    if extra:
        raise BadRecord("unknown fields %s" % ", ".join(map(repr, extra)))
    missing = [k for k in ENVELOPE_KEYS if k not in obj]
    if missing:
        raise BadRecord("missing fields %s" % ", ".join(missing))
    device = ident(obj["device"], "device")
    seq = _int(obj["seq"], "seq", 1, 2**32 - 1)
    p = obj["payload"]
    if not isinstance(p, str) or len(p) > MAX_PAYLOAD * 4 // 3 + 4:
        raise BadRecord("payload must be a base64 string of at most %d bytes" % MAX_PAYLOAD)
    try:
        payload = base64.b64decode(p.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise BadRecord("payload is not valid base64") from None
    sig = obj["sig"]
    if not isinstance(sig, str) or len(sig) != 64 or any(c not in "0123456789abcdefABCDEF" for c in sig):
        raise BadRecord("sig must be 64 hex digits")
    return Envelope(device, seq, payload, sig.lower())


def to_record(env: Envelope) -> Record:
    return Record(env.device, env.seq, env.payload, env.sig, parse_payload(env.payload))
