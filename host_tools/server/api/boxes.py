"""Boxes: register (key write-only), bind to a table, status (last sync, unsynced), each box's
binding history and the account of every record it sent; the tournament's box settings
(language, referee PIN: organizers only). Who may touch a box is ``boxes.ownership``'s, on this
API as on the pages."""
from __future__ import annotations

from ninja import Router

from host_tools.server.boxes import accounting, actions, ownership

from .core import AUTH, need, need_server_organizer
from .schemas import BindIn, BindingOut, BoxRecordsOut, BoxSettingsIn, BoxSettingsOut, DeviceIn, DeviceOut, Error

router = Router(tags=["boxes"], auth=AUTH)


def _out(d) -> dict:
    return {"id": d.id, "label": d.label, "active": d.active, "tournament": d.tournament_id, "table": d.table}


@router.post("/devices", response={201: DeviceOut, 400: Error, 403: Error, 404: Error, 409: Error},
             summary="Register a box and its 32-byte key (write-only), into a tournament (its organizers) or none (a server administrator)")
def register(request, body: DeviceIn):
    d = ownership.register(request.user, body.id, bytes.fromhex(body.key), body.label or "", body.tournament, body.table)
    return 201, _out(d)


@router.get("/devices", response={200: list[DeviceOut], 403: Error}, summary="Boxes (keys are never returned), last sync, unsynced records")
def list_devices(request, tournament: str = None):
    if tournament:
        need(request, tournament, "organizer")
    else:
        need_server_organizer(request)
    return actions.status(tournament or None)


@router.post("/devices/{device}/bind", response={200: DeviceOut, 400: Error, 403: Error, 404: Error, 409: Error},
             summary="Bind a box to a tournament table (table null: at no table; both null: out of its tournament)",
             description="Only the organizers of the box's tournament (and of the one it moves to) or a server administrator; a box "
                         "of no tournament is given one by a server administrator.")
def bind(request, device: str, body: BindIn):
    return _out(ownership.bind(request.user, device, body.tournament, body.table))


@router.get("/devices/{device}/bindings", response={200: list[BindingOut], 403: Error, 404: Error},
            summary="A box's binding history: tournament, table, since, until")
def bindings(request, device: str):
    ownership.may_read(request.user, device)
    return actions.history(device)


@router.get("/devices/{device}/records", response={200: BoxRecordsOut, 403: Error, 404: Error},
            summary="Every record a box sent, accounted for: counted, quarantined (why, where), ruled, duplicate")
def records(request, device: str):
    ownership.may_read(request.user, device)
    return accounting.of_box(device)


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
