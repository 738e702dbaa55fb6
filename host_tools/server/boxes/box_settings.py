"""The boxes as the organizer set them (issue 18.6): per tournament, the language the boxes show
and the referee PIN their menu asks for; the players' registered names for the screens.
``config_fields`` is what every session config of the tournament carries (``actions.config_for``):
``lang``, ``names`` (by chair, as registered, cut to what a box line shows) with
``name_bitmaps`` (those names drawn for the box, whose font holds few of them: name_bitmaps.py),
and the PIN as ``pin_mac``, its MAC with
that box's key (protocol/sign.py): a config is fetched without a login, so the PIN never
crosses the network in clear; the box checks a keyed PIN with its own key. Without settings:
Chinese and the factory PIN (protocol/config.py FACTORY_PIN, stated in the README), which a
config then sends too, so a box moved from another tournament does not keep that one's PIN."""
from __future__ import annotations

from typing import Optional

from django.db import transaction

from host_tools.server.errors import Invalid
from protocol import config as pconfig
from protocol.sign import pin_mac_hex

from .models import BoxSettings, Device


def get(tid: str) -> dict:
    """The settings as the organizer sees them (the PIN too: they set it)."""
    row = BoxSettings.objects.filter(tournament_id=tid).first()
    if row is None:
        return {"lang": pconfig.LANGS[0], "pin": None, "factory_pin": True}
    return {"lang": row.lang, "pin": row.pin or None, "factory_pin": not row.pin}


def update(actor: str, tid: str, lang: Optional[str] = None, pin: Optional[str] = None, factory_pin: bool = False) -> dict:
    """Set the language and/or the PIN (factory_pin: back to the factory PIN). Checked as the box
    checks them; audited without the PIN."""
    from host_tools.server.tournaments import audit
    from host_tools.server.tournaments.actions import get as get_tournament

    if lang is not None and lang not in pconfig.LANGS:
        raise Invalid("lang must be one of " + ", ".join(pconfig.LANGS))
    if pin is not None:
        err = pconfig.pin_problem(pin)
        if err:
            raise Invalid(err)
        if factory_pin:
            raise Invalid("give a pin or factory_pin, not both")
    with transaction.atomic():
        t = get_tournament(tid)
        row, _ = BoxSettings.objects.select_for_update().get_or_create(tournament=t)
        before = {"lang": row.lang, "pin": "(set)" if row.pin else "(factory)"}
        if lang is not None:
            row.lang = lang
        if pin is not None:
            row.pin = pin
        elif factory_pin:
            row.pin = ""
        row.save()
        audit.log(actor, "boxes.settings", tid, "box settings", before, {"lang": row.lang, "pin": "(set)" if row.pin else "(factory)"})
    return get(tid)


def config_fields(tid: str, device: Device, players: list) -> dict:
    """What a session config of this tournament carries for this box: lang, names, pin_mac."""
    row = BoxSettings.objects.filter(tournament_id=tid).first()
    lang = row.lang if row is not None else pconfig.LANGS[0]
    pin = (row.pin if row is not None else "") or pconfig.FACTORY_PIN
    out = {"lang": lang, "pin_mac": pin_mac_hex(bytes(device.key), device.id, pin)}
    names = names_of(tid, players)
    if any(names):
        out["names"] = names
        from .name_bitmaps import bitmaps_of
        art = bitmaps_of(names)   # the names a box's fonts may not hold, drawn for it
        if art:
            out["name_bitmaps"] = art
    return out


def names_of(tid: str, players: list) -> list:
    """The registered names of players (ids by chair, None: the empty chair) as a config carries
    them: control characters out, spaces collapsed, cut to protocol/config.py NAME_MAX; None
    where there is no name to show."""
    from host_tools.server.tournaments.models import Player

    got = dict(Player.objects.filter(tournament_id=tid, pid__in=[p for p in players if p]).values_list("pid", "name"))
    out = []
    for p in players:
        n = " ".join("".join(ch for ch in (got.get(p) or "") if ch.isprintable()).split())[:pconfig.NAME_MAX].strip()
        out.append(n if p is not None and n and pconfig.id_problem(n, 1, pconfig.NAME_MAX) is None else None)
    return out
