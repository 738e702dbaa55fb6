"""The device contract, the boxes app's side of it: the upload envelope, the record signature
and the payload. The envelope's wire format is ``protocol/envelope.py``, the record schema and
its one validator ``protocol/record.py`` (what the box writes), the signature ``protocol/sign.py``;
this module is the server's adapter over them, and the only module of the server that touches
them. Validation only, no storage (``ingest`` stores).

Envelope (POST /api/records): {"device": id, "seq": n, "payload": base64, "sig": hex}, its shape
checked by the API's ``Envelope`` schema (the one /openapi.json publishes, built from
``protocol/envelope.py``). Payload: ``protocol.record.PAYLOAD`` then compact JSON of a session,
hand, correction or session_end record (protocol/record.py lists the fields).

Every refusal is a ``BadRecord`` (HTTP 400) with a message naming the field. Order: envelope
(400) -> device known and signature right (403, ``signature_ok``) -> payload (400): so a sender
without the key learns nothing about the payload rules.

Beyond ``protocol.record.validate``, the server refuses what it cannot store or would misread:
JSON with duplicate keys or NaN/Infinity, invalid UTF-8, any string anywhere (events included)
holding a lone surrogate or NUL (PostgreSQL refuses both as text), and any number anywhere that
is not a whole number within a signed 64-bit integer (``NUMBER_MAX``): the payload's JSON is
stored as it came, and PostgreSQL's jsonb cannot hold ``1e-10000000`` (nor SQLite's JSON
functions read integers beyond 64 bits), while no record field is a fraction. And what does not
add up (``invariants``): a hand whose deltas are not its transfers' sum, a credit from nobody, a
correction whose deltas sum above zero, in version 1 as in 2.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from host_tools.server.errors import BadRecord
from protocol import envelope as penvelope
from protocol import record as precord
from protocol import sign as psign

from . import invariants

MAX_PAYLOAD = penvelope.PAYLOAD_MAX
POINTS = precord.POINTS_MAX
NUMBER_MAX = 2**63 - 1  # BIGINT, and SQLite's integers: every database the server supports stores it


@dataclass(frozen=True)
class Envelope:
    device: str
    seq: int
    payload: bytes
    sig: str


@dataclass(frozen=True, slots=True)
class Record:
    """A checked record, on its way into the database (``ingest``)."""

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

def signature_ok(key: bytes, env: Envelope) -> bool:
    return psign.record_sig_ok(key, env.device, env.seq, env.payload, env.sig)


# --------------------------------------------------------------------------- payload text

def _storable(v: Any, depth: int = 0) -> None:
    """Every string in a decoded payload must be storable text: no lone surrogate, no NUL."""
    if depth > 20:
        raise BadRecord("payload is nested too deeply")
    if isinstance(v, str):
        if "\x00" in v or any(0xD800 <= ord(c) <= 0xDFFF for c in v):
            raise BadRecord("payload holds a NUL or a lone surrogate")
    elif isinstance(v, dict):
        for k, x in v.items():
            _storable(k, depth + 1)
            _storable(x, depth + 1)
    elif isinstance(v, list):
        for x in v:
            _storable(x, depth + 1)


def _no_dupes(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise BadRecord("duplicate key %r in payload" % k)
        d[k] = v
    return d


def _no_constants(name):
    raise BadRecord("payload holds %s, which is not JSON" % name)


def _no_fraction(text):
    raise BadRecord("payload holds the number %s: records hold whole numbers only" % text[:24])


def _whole(text):
    # digits only (and a sign): the length bounds the work before int() reads it
    if len(text.lstrip("-")) > 19 or abs(int(text)) > NUMBER_MAX:
        raise BadRecord("payload holds the number %s%s, beyond what every database stores (a signed 64-bit integer)"
                        % (text[:24], "..." if len(text) > 24 else ""))
    return int(text)


# Only an integer of 19 digits or more can be beyond 64 bits: the payload's digits as "0" and all
# else as " " (one C pass) tell whether it has one; without, its integers are read as they are
# (a check per number costs more than the rest of the parse). Fractions are always caught.
_DIGIT_RUNS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN = b"0" * 19


def parse_json(data: bytes) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRecord("payload is not UTF-8") from None
    ints = _whole if _LONG_RUN in bytes(data).translate(_DIGIT_RUNS) else int
    try:
        return json.loads(text, object_pairs_hook=_no_dupes, parse_constant=_no_constants, parse_float=_no_fraction, parse_int=ints)
    except BadRecord:
        raise
    except (ValueError, RecursionError):
        raise BadRecord("payload is not valid JSON") from None


def parse_payload(payload: bytes) -> dict:
    """The journal payload -> the checked record (dict). Raises BadRecord."""
    if not payload:
        raise BadRecord("payload is empty")
    if payload[0] != precord.PAYLOAD:
        raise BadRecord("unknown payload format %d" % payload[0])
    body = parse_json(payload[1:])
    if not isinstance(body, dict):
        raise BadRecord("payload must be a JSON object")
    if b"\\u" in payload:  # JSON text holds a NUL or a surrogate only as a \u escape
        _storable(body)
    if body.get("v") == 1 and not isinstance(body.get("v"), bool):
        from . import contract_v1  # boxes that do not write version 2 yet

        contract_v1.check(body)
        return body
    err = precord.validate(body)
    if err:
        raise BadRecord(err)
    invariants.balanced(body)
    return body


def parse_envelope(obj: Any) -> Envelope:
    """The upload body's shape (no key needed), validated by the API's ``Envelope`` schema (the
    one that /openapi.json publishes), then the base64 decoded. Raises BadRecord."""
    from pydantic import ValidationError

    from host_tools.server.api.schemas import Envelope as EnvelopeSchema

    if not isinstance(obj, dict):
        raise BadRecord("a record upload is a JSON object {device, seq, payload, sig}")
    try:
        e = EnvelopeSchema.model_validate(obj)
    except ValidationError as ex:
        raise BadRecord(describe(ex)) from None
    return decode_envelope(e.device, e.seq, e.payload, e.sig)


def describe(ex) -> str:
    """A pydantic ValidationError as one line naming the fields."""
    parts = []
    for err in ex.errors()[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        parts.append("%s: %s" % (loc, err.get("msg", "invalid")))
    return "; ".join(parts)


def decode_envelope(device: str, seq: int, payload_b64: str, sig: str) -> Envelope:
    if not penvelope.payload_text_ok(payload_b64):
        raise BadRecord("payload must be a base64 string of at most %d bytes" % MAX_PAYLOAD)
    try:
        payload = penvelope.decode_payload(payload_b64)
    except ValueError:
        raise BadRecord("payload is not valid base64") from None
    return Envelope(device, seq, payload, sig.lower())


def to_record(env: Envelope) -> Record:
    return Record(env.device, env.seq, env.payload, env.sig, parse_payload(env.payload))
