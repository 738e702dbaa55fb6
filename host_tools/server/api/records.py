"""The device contract: ``POST /api/records`` and ``POST /api/records:batch`` (signed by the box,
no account), and the box config the sync tool fetches."""
from __future__ import annotations

import json
from typing import Any, Optional

from django.db import transaction
from ninja import Body, Router
from ninja.errors import HttpError

from host_tools.server.boxes import actions as boxes, ingest
from protocol.envelope import BATCH_MAX

from .core import _err
from .schemas import BatchOut, BoxConfig, Envelope, Error, Stored

router = Router(tags=["device contract"])


def _reply(request, status: int, body: dict):
    from .core import api

    return api.create_response(request, body, status=status)


@router.post("/records", response={201: Stored, 200: Stored, 400: Error, 403: Error, 409: Error},
             summary="Upload one signed device record",
             description="201 stored, 200 the identical record again (known), 409 the same (device, seq) with another payload "
                         "(the stored one is kept), 403 unknown device or bad signature, 400 malformed. The envelope is checked "
                         "first, then the signature, then the payload.")
def post_record(request, env: Envelope):
    status, body = ingest.store_fields(env.device, env.seq, env.payload, env.sig)
    return _reply(request, status, body)


@router.post("/records:batch", response={200: BatchOut, 400: Error}, summary="Upload up to 200 signed records; per-item statuses",
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
            description="From the latest published seating. ``head``: the box's journal head as the sync tool read it "
                        "(display only: the boxes page shows records not yet uploaded).")
def box_config(request, device: str, head: Optional[int] = None):
    if head is not None and not 0 <= head < 2**32:
        raise HttpError(400, "head must be 0..2^32-1")
    with transaction.atomic():
        return boxes.config_for(device, head)
