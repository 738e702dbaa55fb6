"""The device contract: ``POST /api/records`` and ``POST /api/records:batch`` (signed by the box,
no account), the box config the sync tool fetches (a read: anonymous routes never write) and the
box's journal head it reports (signed with the box's key)."""
from __future__ import annotations

import json
from typing import Any

from ninja import Router

from host_tools.server.boxes import actions as boxes, ingest
from protocol.envelope import BATCH_MAX

from .core import _err
from .schemas import BatchOut, BoxConfig, Envelope, Error, HeadIn, Stored

router = Router(tags=["device contract"])


def _reply(request, status: int, body: dict):
    from .core import api

    return api.create_response(request, body, status=status)


@router.post("/records", response={201: Stored, 200: Stored, 400: Error, 403: Error, 409: Error}, exclude_none=True,
             summary="Upload one signed device record",
             description="201 stored, 200 the identical record again (known), 409 the same (device, seq) with another payload "
                         "(the stored one is kept), 403 unknown device or bad signature, 400 malformed or not adding up. The envelope "
                         "is checked first, then the signature, then the payload. ``place`` says where a stored record went: its "
                         "table, or a tournament's quarantine and why (its box was not bound there when it was made).")
def post_record(request, env: Envelope):
    status, body = ingest.store_fields(env.device, env.seq, env.payload, env.sig)
    return _reply(request, status, body)


@router.post("/records:batch", response={200: BatchOut, 400: Error}, exclude_none=True,
             summary="Upload up to 200 signed records; per-item statuses (and where each stored one went)",
             openapi_extra={"requestBody": {"content": {"application/json": {"schema": {
                 "type": "array", "maxItems": BATCH_MAX, "items": {"$ref": "#/components/schemas/Envelope"}}}}, "required": True}})
def post_batch(request):
    try:
        items: Any = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _err(request, 400, "the body is not valid JSON")
    if isinstance(items, dict) and set(items) == {"records"}:
        items = items["records"]
    if not isinstance(items, list):
        return _err(request, 400, 'a batch is a JSON list of records (or {"records": [...]})')
    if len(items) > BATCH_MAX:
        return _err(request, 400, "at most %d records per batch" % BATCH_MAX)
    results = []
    counts: dict = {}
    for i, (status, body) in enumerate(ingest.store_batch(items)):
        results.append(dict(body, index=i, status_code=status))
        counts[str(status)] = counts.get(str(status), 0) + 1
    return {"results": results, "counts": counts}


@router.get("/boxes/{device}/config", response={200: BoxConfig, 404: Error, 409: Error}, exclude_none=True,
            summary="The session config of the table a box is bound to (the sync tool pushes it to the box)",
            description="From the latest published seating. A read: nothing is written (the box's journal head is reported "
                        "with POST /api/boxes/{device}/head, signed with its key).")
def box_config(request, device: str):
    return boxes.config_for(device)


@router.post("/boxes/{device}/head", response={200: dict, 400: Error, 403: Error, 409: Error},
             summary="The box's journal head as the sync tool read it, signed with the box's key (the Boxes page's unsynced count)",
             description="sig = HMAC-SHA256(key, \"head\" 0x00 device 0x00 head u32 BE at u32 BE) in hex (protocol/sign.py). "
                         "409: older than the last report kept (a replay), or ``at`` more than 10 minutes from the server's clock.")
def box_head(request, device: str, body: HeadIn):
    boxes.report_head(device, body.head, body.at, body.sig)
    return {"device": device, "head": body.head}
