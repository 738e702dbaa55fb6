"""A box calls the referee to its table (one key on the box, over Wi-Fi: protocol/push.py's
``/call``). The call is proved with the device key (``protocol.sign.call_mac``) and kept on the
box's row; the tables a box called from in the last ``SHOWN`` are what the table page and the
referee's page show, "referee called at table N", until a referee answers it (``clear``).

A call is taken once: its nonce is kept (``CallNonce``), so the same call captured on the hall's
network and sent again is refused (``Replayed``) and changes nothing. The box makes a new nonce
for every call and every retry, so a box never sends a nonce twice."""
from __future__ import annotations

import datetime
from typing import Optional

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from protocol.sign import call_hex, equal

from . import sql
from .models import CallNonce, Device

SHOWN = datetime.timedelta(minutes=15)


class Replayed(Exception):
    """A call with the MAC of the box's key over a nonce the server took before."""


def take(device: str, nonce: bytes, mac_hex: str) -> Optional[bytes]:
    """The box's key when mac_hex is its call over nonce (and the call is recorded), else None;
    raises Replayed for a call taken before (nothing is recorded)."""
    key = sql.keys(connection, {device}).get(device)
    if key is None:
        return None
    try:
        ok = equal(bytes.fromhex(call_hex(key, device, nonce)), bytes.fromhex(mac_hex))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        return None
    try:
        with transaction.atomic():  # the nonce and the call together: two at once, one wins
            CallNonce.objects.create(device_id=device, nonce=nonce.hex())
            Device.objects.filter(id=device).update(referee_called_at=timezone.now())
    except IntegrityError:
        raise Replayed(device) from None
    return key


def calls(tournament: str, table: Optional[int] = None) -> list:
    """[(table, called at)] of the boxes bound to the tournament's tables that called lately."""
    q = Device.objects.filter(tournament_id=tournament, referee_called_at__gte=timezone.now() - SHOWN, table__isnull=False)
    if table is not None:
        q = q.filter(table=table)
    return sorted((d.table, d.referee_called_at) for d in q.only("table", "referee_called_at"))


def clear(tournament: str, table: int) -> int:
    """A referee went to the table: its call is answered."""
    return Device.objects.filter(tournament_id=tournament, table=table).update(referee_called_at=None)
