"""Boxes: register (key write-only), bind to a table, status (last sync, unsynced); the
tournament's box settings (language, referee PIN: organizers only)."""
from __future__ import annotations

from ninja import Router

from host_tools.server.boxes import actions

from .core import AUTH, need, need_server_organizer
from .schemas import BindIn, BoxSettingsIn, BoxSettingsOut, DeviceIn, DeviceOut, Error

router = Router(tags=["boxes"], auth=AUTH)


@router.post("/devices", response={201: DeviceOut, 400: Error, 403: Error, 409: Error}, summary="Register a box and its 32-byte key (write-only)")
def register(request, body: DeviceIn):
    who = need_server_organizer(request) if body.tournament is None else need(request, body.tournament, "organizer")
    d = actions.register(who, body.id, bytes.fromhex(body.key), body.label or "")
    if body.tournament is not None:
        d = actions.bind(who, body.id, body.tournament, body.table)
    return 201, {"id": d.id, "label": d.label, "active": d.active, "tournament": d.tournament_id, "table": d.table}


@router.get("/devices", response={200: list[DeviceOut], 403: Error}, summary="Boxes (keys are never returned), last sync, unsynced records")
def list_devices(request, tournament: str = None):
    if tournament:
        need(request, tournament, "organizer")
    else:
        need_server_organizer(request)
    return actions.status(tournament or None)


@router.post("/devices/{device}/bind", response={200: DeviceOut, 400: Error, 403: Error, 404: Error, 409: Error}, summary="Bind a box to a tournament table (nulls: unbind)")
def bind(request, device: str, body: BindIn):
    from host_tools.server.boxes.models import Device

    current = Device.objects.filter(id=device).values_list("tournament_id", flat=True).first()
    who = None
    for tid in {body.tournament, current} - {None}:
        who = need(request, tid, "organizer")
    if who is None:
        who = need_server_organizer(request)
    d = actions.bind(who, device, body.tournament, body.table)
    return {"id": d.id, "label": d.label, "active": d.active, "tournament": d.tournament_id, "table": d.table}


@router.get("/tournaments/{tid}/box-settings", response={200: BoxSettingsOut, 403: Error, 404: Error},
            summary="The tournament's box settings: language and referee PIN (organizers)")
def get_box_settings(request, tid: str):
    from host_tools.server.boxes import box_settings
    from host_tools.server.tournaments.actions import get as get_tournament

    need(request, tid, "organizer")
    get_tournament(tid)
    return box_settings.get(tid)


@router.put("/tournaments/{tid}/box-settings", response={200: BoxSettingsOut, 400: Error, 403: Error, 404: Error},
            summary="Set the language and referee PIN every box of the tournament gets with its next config")
def put_box_settings(request, tid: str, body: BoxSettingsIn):
    from host_tools.server.boxes import box_settings

    who = need(request, tid, "organizer")
    return box_settings.update(who, tid, body.lang, body.pin, body.factory_pin)
