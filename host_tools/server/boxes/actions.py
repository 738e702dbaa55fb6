"""Boxes: registering them (the key is write-only), binding each to a tournament table (and its
history: ``Binding``), and the session config the sync tool fetches for the table a box is bound
to. Who may do which is ``ownership``'s (the API and the pages call it first); these actions
trust their caller."""
from __future__ import annotations

import datetime
from typing import Optional

from django.db import connection, transaction
from django.db.models import Count, Max
from django.utils import timezone

from host_tools.server.errors import Conflict, Forbidden, Invalid, NotFound
from host_tools.server.tournaments import audit, formats
from host_tools.server.tournaments.actions import bump
from host_tools.server.tournaments.models import Seating, Tournament

from protocol import config as pconfig

from .models import Binding, Device, Record


def register(actor: str, device: str, key: bytes, label: str = "") -> Device:
    if len(key) != 32:
        raise Invalid("key must be 32 bytes (64 hex digits)")
    with transaction.atomic():
        if Device.objects.filter(id=device).exists():
            raise Conflict("device %r is registered" % device)
        d = Device.objects.create(id=device, key=key, label=label)
        audit.log(actor, "device.register", None, "device " + device, None, {"id": device, "label": label, "key": "(write-only)"})
    return d


def bind(actor: str, device: str, tid: Optional[str], table: Optional[int]) -> Device:
    """Put the box in tournament ``tid`` at ``table`` (None: at no table; ``tid`` None: out of
    every tournament). Its history gets a new stretch (the old one closes now) unless nothing
    changes."""
    if table is not None and not 1 <= table <= formats.MAX_TABLE:
        raise Invalid("table must be 1..10000")
    if tid is None and table is not None:
        raise Invalid("a table needs its tournament")
    with transaction.atomic():
        try:
            d = Device.objects.select_for_update().get(id=device)
        except Device.DoesNotExist:
            raise NotFound("no device %r" % device) from None
        if tid is not None and not Tournament.objects.filter(id=tid).exists():
            raise NotFound("no tournament %r" % tid)
        if tid is not None and table is not None:
            other = Device.objects.filter(tournament_id=tid, table=table, active=True).exclude(id=device).first()
            if other is not None:
                raise Conflict("table %d is bound to box %s" % (table, other.id))
        before = {"tournament": d.tournament_id, "table": d.table}
        if before == {"tournament": tid, "table": table}:
            return d
        now = timezone.now()
        Binding.objects.filter(device=d, until__isnull=True).update(until=now)
        if tid is not None:
            Binding.objects.create(device=d, tournament=tid, table=table, since=now, by=actor)
        d.tournament_id, d.table = tid, table
        d.save()
        for t in {before["tournament"], tid} - {None}:
            bump(t)
        audit.log(actor, "device.bind", tid or before["tournament"], "device " + device, before, {"tournament": tid, "table": table})
    return d


def history(device: str) -> list[dict]:
    """The box's binding history, oldest first."""
    return [{"tournament": b.tournament, "table": b.table, "since": b.since.isoformat(timespec="seconds"),
             "until": b.until.isoformat(timespec="seconds") if b.until else None, "by": b.by}
            for b in Binding.objects.filter(device_id=device).order_by("id")]


def set_active(actor: str, device: str, active: bool) -> None:
    with transaction.atomic():
        n = Device.objects.filter(id=device).update(active=active)
        if not n:
            raise NotFound("no device %r" % device)
        audit.log(actor, "device.activate" if active else "device.deactivate", None, "device " + device)


def status(tid: Optional[str] = None) -> list[dict]:
    """Every box (of one tournament, or all) with its binding, last sync and unsynced count:
    the records the sync tool reported the box holds beyond what the server has, plus gaps in
    the sequence the server has (records the box has but never sent)."""
    q = Device.objects.all() if tid is None else Device.objects.filter(tournament_id=tid)
    agg = {r["device_id"]: r for r in Record.objects.filter(device__in=q).values("device_id").annotate(
        n=Count("id"), last=Max("received_at"), top=Max("seq"))}
    out = []
    for d in q.order_by("id"):
        a = agg.get(d.id, {"n": 0, "last": None, "top": 0})
        gaps = (a["top"] or 0) - a["n"]
        ahead = max(0, (d.reported_head or 0) - (a["top"] or 0))
        out.append({"id": d.id, "label": d.label, "active": d.active, "tournament": d.tournament_id, "table": d.table,
                    "records": a["n"], "last_sync": a["last"].isoformat(timespec="seconds") if a["last"] else None,
                    "unsynced": gaps + ahead, "reported_at": d.reported_at.isoformat(timespec="seconds") if d.reported_at else None})
    return out


def config_for(device: str) -> dict:
    """The session config of the table this box is bound to, from the latest published seating
    (the sync tool pushes it to the box: nobody writes configs by hand). Reads only: the route is
    anonymous (the box's journal head comes in its own signed report, ``report_head``)."""
    try:
        d = Device.objects.select_related("tournament").get(id=device, active=True)
    except Device.DoesNotExist:
        raise NotFound("no active device %r" % device) from None
    if d.tournament is None or d.table is None:
        raise Conflict("box %s is not bound to a tournament table" % device)
    t = d.tournament
    fmt = formats.of(t)
    from host_tools.server.boxes import box_settings
    if fmt.live_tables:  # its tables are confirmed live, one after another at each hall table
        from host_tools.server.survival.actions import box_config
        cfg = box_config(t.id, d.table)
        cfg.update(box_settings.config_fields(t.id, d, cfg["players"]))  # the organizer's language, PIN, names (issue 18.6)
        return cfg
    s = Seating.objects.filter(tournament=t, published_at__isnull=False).order_by("-session").first()
    if s is None:
        raise Conflict("tournament %s has no published seating" % t.id)
    row = s.tables.filter(table=d.table).first()
    if row is None:
        raise Conflict("table %d is not in the published seating of session %d" % (d.table, s.session))
    # a three-player table sits East, South, West (seating.py): North is the empty chair (null)
    players = list(row.players) + [None] * (4 - len(row.players))
    cfg = {"rules": fmt.rules, "tournament": t.id, "session": s.session, "table": d.table, "players": players, "first_dealer": 0}
    cfg["hands"] = fmt.hands_at(len(row.players))  # seed 000 §一.3 三人正常比赛，打15盘
    from host_tools.server.tournaments import clock
    # minutes (none: no time limit, Sichuan unless the organizer sets one) and the hall's deadline
    # ends_at (a table that started late does not play longer), a referee's extensions included
    cfg.update(clock.box_time(t, s.session, d.table))
    cfg.update(box_settings.config_fields(t.id, d, players))  # the organizer's language, PIN, names (issue 18.6)
    from host_tools.server.boxes import table_state
    # a table already under way (its box died, a spare goes on with it): where it is (issue 18.3)
    cfg.update(table_state.state(t.id, s.session, d.table, players, fmt.rules, cfg["hands"]))
    err = pconfig.check(cfg)  # the box's own check: what it would refuse is never offered
    if err:
        raise Conflict("the config of table %d cannot start a session: %s" % (d.table, err[1]))
    return cfg


HEAD_SKEW = 600  # seconds: a head report's time is the laptop's, set from the same clock as the box's


def report_head(device: str, head: int, at: int, sig: str) -> None:
    """The box's journal head, in a report signed with its key by the sync tool that read it
    (``protocol.sign.head_sig``): kept for the Boxes page's "not synced" count. A report older
    than the last one kept, or more than ``HEAD_SKEW`` from the server's clock, is a replay."""
    from protocol import sign as psign

    from . import sql

    key = sql.keys(connection, {device}).get(device)
    if key is None or not psign.head_sig_ok(key, device, head, at, sig):
        raise Forbidden("unknown device or bad signature")
    now = timezone.now()
    if abs(now.timestamp() - at) > HEAD_SKEW:
        raise Conflict("the report's time is %d s from the server's: set the laptop's clock" % int(at - now.timestamp()))
    with transaction.atomic():
        d = Device.objects.select_for_update().get(id=device)
        # a second sync within the same second reports a head as new as the last (or newer): its
        # time in whole seconds is the same, so only a report that moves nothing forward is a replay
        last = None if d.reported_at is None else d.reported_at.timestamp()
        if last is not None and (at < last or (at == last and (d.reported_head is None or head <= d.reported_head))):
            raise Conflict("a report as old as the last one kept (a replay)")
        d.reported_head = head
        d.reported_at = datetime.datetime.fromtimestamp(at, tz=datetime.timezone.utc)
        d.save(update_fields=["reported_head", "reported_at"])
