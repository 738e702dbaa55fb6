"""A table's box swapped for another (a box died at the table): the binding only, through the
boxes' one bind action, in one transaction. The old box stays with the tournament as a spare
(bound to no table), so its records, recovered later, still count. What the new box must carry
over from the table (next hand, dealer, scores, time) is the box config's business. The spare is
one of this tournament's boxes: a box that belongs to no tournament is given one by a server
administrator only (``ownership``), never picked up through a swap."""
from __future__ import annotations

from django.db import transaction

from host_tools.server.errors import Conflict, Forbidden, Invalid, NotFound
from host_tools.server.tournaments import audit, formats

from .actions import bind
from .models import Device


def swap_box(actor: str, tid: str, table: int, device: str) -> Device:
    """Bind ``device`` to ``table`` of tournament ``tid`` in place of the box bound there. The new
    box is a spare: this tournament's, bound to no table (never taken from another table, another
    tournament or from none)."""
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= formats.MAX_TABLE:
        raise Invalid("table must be 1..10000")
    with transaction.atomic():
        new = Device.objects.select_for_update().filter(id=device).first()
        if new is None:
            raise NotFound("no box %r" % device)
        if not new.active:
            raise Invalid("box %s is deactivated" % device)
        if new.tournament_id is None:
            raise Forbidden("box %s belongs to no tournament: only a server administrator can give it one" % device)
        if new.tournament_id != tid:
            raise Conflict("box %s belongs to tournament %s" % (device, new.tournament_id))
        if new.tournament_id == tid and new.table == table:
            raise Conflict("box %s is already at table %d" % (device, table))
        if new.tournament_id == tid and new.table is not None:
            raise Conflict("box %s plays at table %d: unbind it there first" % (device, new.table))
        old = list(Device.objects.filter(tournament_id=tid, table=table).exclude(id=device).values_list("id", flat=True))
        for o in old:
            bind(actor, o, tid, None)
        d = bind(actor, device, tid, table)
        audit.log(actor, "table.swap_box", tid, "table %d" % table, {"boxes": old}, {"box": device})
    return d


def spares(tid: str) -> list:
    """Boxes that can take over a table: active, this tournament's, bound to no table."""
    q = Device.objects.filter(active=True, tournament_id=tid, table__isnull=True)
    return list(q.order_by("id").values_list("id", "label"))
