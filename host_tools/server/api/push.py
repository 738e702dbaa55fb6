"""A box's push over Wi-Fi: ``POST /api/boxes/{device}/push`` (signed by the box, no account).

The wire format is ``protocol/push.py``. Thin over the upload path the sync tool uses
(``boxes.ingest.store_batch``: the same checks, the same per-record answers); what it adds is
the acknowledgement, a MAC with the device key over the box's nonce and the range of records the
server holds (``protocol.sign.push_ack_mac``), which is what lets the box mark them synced.

Beside it, the box's call of the referee (``/call``, taken once per nonce) and its fetch of the
next session config and the hall's time (``/fetch``, protocol/fetch.py: signed as the USB link's
CONFIG and CLOCK requests, with the device key over the box's nonce; reads only)."""
from __future__ import annotations

import json
import time
from typing import Any

from django.db import connection
from ninja import Router

from host_tools.server.boxes import ingest, sql
from protocol import fetch as pfetch
from protocol import push as ppush
from protocol.sign import HmacSha256, device_z, push_ack_hex

from .core import _err

router = Router(tags=["device contract"])


def _reply(request, status: int, body: dict):
    from .core import api

    return api.create_response(request, body, status=status)


@router.post("/boxes/{device}/push", summary="A box pushes its records; the answer acknowledges with the device key",
             description="Body {nonce: 32 hex digits, records: [envelope] of this device, consecutive seqs}. Per-record statuses "
                         "as POST /api/records:batch; `ack` {first, last, mac}: the server holds records first..last, mac = "
                         "HMAC-SHA256(device key, 'ack' NUL device NUL nonce first last) (protocol/push.py); null when it "
                         "holds none from the first. `time`: the server's clock (Unix seconds).",
             openapi_extra={"requestBody": {"content": {"application/json": {"schema": {
                 "type": "object", "required": ["nonce", "records"], "properties": {
                     "nonce": {"type": "string", "pattern": "^[0-9a-fA-F]{%d}$" % (2 * ppush.NONCE_LEN)},
                     "records": {"type": "array", "maxItems": ppush.BATCH_MAX, "items": {"$ref": "#/components/schemas/Envelope"}}}}}},
                 "required": True}})
def push(request, device: str):
    try:
        body: Any = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _err(request, 400, "the body is not valid JSON")
    if not isinstance(body, dict) or set(body) != {"nonce", "records"}:
        return _err(request, 400, 'a push is {"nonce": hex, "records": [...]}')
    nonce_hex, items = body["nonce"], body["records"]
    try:
        nonce = bytes.fromhex(nonce_hex) if isinstance(nonce_hex, str) else b""
    except ValueError:
        nonce = b""
    if len(nonce) != ppush.NONCE_LEN:
        return _err(request, 400, "nonce: %d bytes as hex" % ppush.NONCE_LEN)
    if not isinstance(items, list) or not 1 <= len(items) <= ppush.BATCH_MAX:
        return _err(request, 400, "records: a list of 1..%d envelopes" % ppush.BATCH_MAX)
    if any(not isinstance(e, dict) or e.get("device") != device for e in items):
        return _err(request, 400, "every record of a push is the pushing box's (device %r)" % device)
    results, held, sent = [], set(), []
    for i, (status, answer) in enumerate(ingest.store_batch(items)):
        seq = items[i].get("seq")
        seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
        results.append(dict(answer, seq=seq, index=i, status_code=status))
        sent.append(seq)
        if status in ppush.HELD:
            held.add(seq)
    ack = None
    run = ppush.held_run(sent, held)
    if run is not None:
        key = sql.keys(connection, {device}).get(device)
        if key is not None:  # held means signed with it: always there, unless deactivated meanwhile
            ack = {"first": run[0], "last": run[1], "mac": push_ack_hex(key, device, nonce, run[0], run[1])}
    return _reply(request, 200, {"results": results, "ack": ack, "time": int(time.time())})


@router.post("/boxes/{device}/call", summary="A box calls the referee to its table (signed with the device key)",
             description="Body {nonce: 32 hex digits, mac: hex HMAC-SHA256(device key, 'call' NUL device NUL nonce)}. 200 "
                         "{ack: push ack mac over the nonce and 0..0} (protocol/push.py); 403 when the mac is not the box's; "
                         "409 when the server took a call with this nonce before (a replay: nothing is recorded).",
             openapi_extra={"requestBody": {"content": {"application/json": {"schema": {
                 "type": "object", "required": ["nonce", "mac"], "properties": {
                     "nonce": {"type": "string"}, "mac": {"type": "string"}}}}}, "required": True}})
def call(request, device: str):
    from host_tools.server.boxes import referee_call
    try:
        body: Any = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _err(request, 400, "the body is not valid JSON")
    if not isinstance(body, dict) or set(body) != {"nonce", "mac"} or not all(isinstance(v, str) for v in body.values()):
        return _err(request, 400, 'a call is {"nonce": hex, "mac": hex}')
    try:
        nonce = bytes.fromhex(body["nonce"])
    except ValueError:
        nonce = b""
    if len(nonce) != ppush.NONCE_LEN:
        return _err(request, 400, "nonce: %d bytes as hex" % ppush.NONCE_LEN)
    try:
        key = referee_call.take(device, nonce, body["mac"])
    except referee_call.Replayed:
        return _err(request, 409, "this call was taken before: a call is sent once (a replay?)")
    if key is None:
        return _err(request, 403, "unknown device or not its key")
    return _reply(request, 200, {"ack": push_ack_hex(key, device, nonce, 0, 0)})


@router.post("/boxes/{device}/fetch", summary="A box fetches its next session config and the hall's time (signed with the device key)",
             description="Body {nonce: 32 hex digits}. 200 {config: JSON text | null, config_mac, why, time, time_mac}: the MACs are "
                         "those of the USB link's CONFIG and CLOCK requests over the box's nonce (protocol/fetch.py), so only the "
                         "device key makes them. 404 for a box the server does not know. Reads only.",
             openapi_extra={"requestBody": {"content": {"application/json": {"schema": {
                 "type": "object", "required": ["nonce"], "properties": {
                     "nonce": {"type": "string", "pattern": "^[0-9a-fA-F]{%d}$" % (2 * pfetch.NONCE_LEN)}}}}}, "required": True}})
def fetch(request, device: str):
    from host_tools.server.boxes import actions as boxes
    from host_tools.server.errors import Conflict, NotFound
    try:
        body: Any = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _err(request, 400, "the body is not valid JSON")
    if not isinstance(body, dict) or set(body) != {"nonce"} or not isinstance(body["nonce"], str):
        return _err(request, 400, 'a fetch is {"nonce": hex}')
    try:
        nonce = bytes.fromhex(body["nonce"])
    except ValueError:
        nonce = b""
    if len(nonce) != pfetch.NONCE_LEN:
        return _err(request, 400, "nonce: %d bytes as hex" % pfetch.NONCE_LEN)
    key = sql.keys(connection, {device}).get(device)
    if key is None:
        return _err(request, 404, "no active device %r" % device)
    hm, idz = HmacSha256(key), device_z(device)
    text = mac = why = None
    try:
        cfg = boxes.config_for(device)
    except (NotFound, Conflict) as e:
        why = str(e)
    else:  # as the sync tool pushes it (host_tools/sync/run.py server_config): empty fields left out
        text = json.dumps({k: v for k, v in cfg.items() if v is not None}, separators=(",", ":"), ensure_ascii=False)
        mac = pfetch.config_mac(hm, idz, nonce, text.encode()).hex()
    t = int(time.time())
    return _reply(request, 200, {"config": text, "config_mac": mac, "why": why, "time": t,
                                 "time_mac": pfetch.clock_mac(hm, idz, nonce, t).hex()})
