"""Who may register, bind, unbind or move a box: the one check every route calls (the API's
``/api/devices`` routes and the Boxes page's forms), before ``actions`` changes anything.

A box belongs to one tournament at a time (``Device.tournament``): only that tournament's
organizers, or a server administrator, change its binding. Moving it to another tournament needs
the organizer role there as well. A box that belongs to no tournament (never given one, or
released by its organizers) is given one by a server administrator only: an organizer of another
tournament cannot pick up a box that was let go. A new box is registered into the registering
organizer's tournament, or by a server administrator.
"""
from __future__ import annotations

from typing import Optional

from host_tools.server.errors import Conflict, Forbidden, NotFound
from host_tools.server.tournaments import permissions

from . import actions
from .models import Device

ORGANIZER = permissions.ORGANIZER


def may_change(user, device: Optional[Device], tid: Optional[str], device_id: str = "") -> str:
    """The acting user's name if ``user`` may put ``device`` (None: a new box) into tournament
    ``tid`` (None: into none); else Forbidden, saying why."""
    who = permissions.actor(user)
    if permissions.is_server_organizer(user):
        return who
    name = device.id if device is not None else device_id
    current = device.tournament_id if device is not None else None
    if device is not None and current is None:
        raise Forbidden("box %s belongs to no tournament: only a server administrator can give it one" % name)
    if current is not None and not permissions.can(user, current, ORGANIZER):
        raise Forbidden("box %s belongs to tournament %s: only its organizers or a server administrator can change it" % (name, current))
    if tid is None and device is None:
        raise Forbidden("a box registered into no tournament is registered by a server administrator")
    if tid is not None and tid != current and not permissions.can(user, tid, ORGANIZER):
        raise Forbidden("this needs the organizer role in tournament %s" % tid)
    return who


def may_read(user, device: str) -> Device:
    """The box, if ``user`` organizes the tournament it belongs to (or administers the server)."""
    d = Device.objects.filter(id=device).first()
    if d is None:
        if permissions.is_server_organizer(user):
            raise NotFound("no device %r" % device)
        raise Forbidden("this needs the organizer role in the box's tournament")
    if permissions.is_server_organizer(user) or (d.tournament_id is not None and permissions.can(user, d.tournament_id, ORGANIZER)):
        return d
    raise Forbidden("this needs the organizer role in the box's tournament")


def register(user, device: str, key: bytes, label: str = "", tid: Optional[str] = None, table: Optional[int] = None) -> Device:
    """A new box, into ``tid`` (at ``table``) or, by a server administrator, into none."""
    existing = Device.objects.filter(id=device).first()
    if existing is not None:
        may_change(user, existing, existing.tournament_id)  # says whose box it is, to whom may not know
        raise Conflict("device %r is registered" % device)
    who = may_change(user, None, tid, device)
    d = actions.register(who, device, key, label)
    if tid is not None:
        d = actions.bind(who, device, tid, table)
    return d


def register_or_bind(user, device: str, key: bytes, label: str, tid: str, table: Optional[int]) -> Device:
    """The Boxes page's register form: a new box into ``tid``; a box of ``tid`` already registered
    with this very key is bound to ``table`` (registering it again changes nothing else)."""
    existing = Device.objects.filter(id=device).first()
    if existing is None:
        return register(user, device, key, label, tid, table)
    who = may_change(user, existing, tid)
    if bytes(existing.key) != key:
        raise Conflict("box %s is registered with another key" % device)
    return actions.bind(who, device, tid, table)


def bind(user, device: str, tid: Optional[str], table: Optional[int]) -> Device:
    d = Device.objects.filter(id=device).first()
    if d is None:
        if permissions.is_server_organizer(user) or (tid is not None and permissions.can(user, tid, ORGANIZER)):
            raise NotFound("no device %r" % device)
        raise Forbidden("this needs the organizer role in the box's tournament")
    return actions.bind(may_change(user, d, tid), device, tid, table)
