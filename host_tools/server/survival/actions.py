"""Changes to a survival event: the draw from the individual event, confirming the next tables
(as proposed, or the referee's swap), and the config of the table a box stands at. Each change
is one transaction with its audit entry and bumps the results version; the event itself (who
is in, scores, busts, placings, proposals) is replayed by its format's results
(``host_tools.tournament.formats.mcr_survival``).

DECISIONS:

* The draw takes the individual event's preliminary standings (disqualified players left out)
  and ``survival_entrants``: the players not in the individual final, in preliminary order;
  players already registered in the survival tournament are the ones who entered (可参与),
  else all of them, registered here with their ids, names and draw numbers. Without an
  individual event the registered players in draw order are the ranking. The draw is refused
  while the individual event has records waiting in quarantine, and is final once a table is
  confirmed.
* A confirmation is checked on a fresh replay of the event (the players must be waiting, four of
  them), inside a transaction that holds the draw's row, so two referees never seat one player
  twice. Tables are numbered in confirmation order. A hall table takes a new table only when
  the one there has ended; without a hall table the lowest free one is used.
* The first confirmation sets the event's start (``start_time``) to its time when the organizer
  has not set it.
"""
from __future__ import annotations

import time
from typing import Optional

from django.db import transaction

from host_tools.server.errors import Conflict, Invalid, NotFound
from host_tools.server.results import cache
from host_tools.server.tournaments import audit, formats
from host_tools.server.tournaments.actions import bump, get
from host_tools.server.tournaments.models import Player, Tournament
from host_tools.tournament.model import TournamentError
from host_tools.tournament.survival_live import survival_entrants, table_config

from protocol import config as pconfig

from .models import SurvivalDraw, SurvivalTable

MAX_TABLES_AT_ONCE = 64


def is_survival(t: Tournament) -> bool:
    """A survival event: its format forms and confirms tables as the event runs."""
    return formats.of(t).live_tables


def survival_tournament(tid: str) -> Tournament:
    t = get(tid)
    if not is_survival(t):
        kinds = ", ".join(f.name for f in formats.registry.all() if f.live_tables)
        raise Invalid("tournament %s is not a survival event (format %s)" % (tid, kinds))
    return t


def live(tid: str):
    """(results, formats.mcr_survival.Live) of a drawn survival event."""
    survival_tournament(tid)
    res = cache.result(tid)
    if res.live is None:
        raise Conflict("the survival event is not drawn yet")
    return res, res.live


# --------------------------------------------------------------------------- the draw

def _from_individual(t: Tournament, source: str, entered: list) -> tuple[list, list]:
    """(ranked entrants, players to register) from the individual event's preliminary ranking."""
    try:
        ind = Tournament.objects.get(id=source)
    except Tournament.DoesNotExist:
        raise Invalid("the individual event %r does not exist" % source) from None
    if not formats.of(ind).survival_source:
        sources = ", ".join(f.name for f in formats.registry.all() if f.survival_source)
        raise Invalid("the individual event must be a Chinese Official individual event (%s), %s is %s" % (sources, source, ind.format))
    res = cache.result(source)
    waiting = sum(1 for q in res.quarantine if not q["accepted"] and not q["rejected"])
    if waiting:
        raise Conflict("%d record(s) of %s wait in quarantine: rule on them before the draw" % (waiting, source))
    prelim = [s for s in (res.prelim or res.standings) if s.player not in res.disqualified]
    try:
        ranked = survival_entrants(prelim, t.settings.get("finalists", 16), entered or None)
    except TournamentError as e:
        raise Conflict(str(e)) from None
    have = set(Player.objects.filter(tournament=t).values_list("pid", flat=True))
    info = {p.pid: p for p in Player.objects.filter(tournament=ind, pid__in=[p for p in ranked if p not in have])}
    return ranked, [info[p] for p in ranked if p in info]


def draw(actor: str, tid: str) -> SurvivalDraw:
    t = survival_tournament(tid)
    entered = list(Player.objects.filter(tournament=t, substitute=False).values_list("pid", flat=True))  # draw order
    source = t.settings.get("individual") or ""
    ranked, add = _from_individual(t, source, entered) if source else (entered, [])
    if len(ranked) < 4:
        raise Conflict("the survival event needs at least 4 players, %d entered" % len(ranked))
    with transaction.atomic():
        if SurvivalTable.objects.filter(tournament=t).exists():
            raise Conflict("tables are confirmed: the draw is final")
        taken = set(Player.objects.filter(tournament=t, draw__isnull=False).values_list("draw", flat=True))
        Player.objects.bulk_create([Player(tournament=t, pid=p.pid, name=p.name, draw=p.draw if p.draw not in taken else None,
                                           ema_id=p.ema_id, country=p.country) for p in add])
        d, _ = SurvivalDraw.objects.update_or_create(tournament=t, defaults={"source": source, "ranked": ranked, "drawn_by": actor})
        bump(tid)
        audit.log(actor, "survival.draw", tid, "survival draw", None, {"source": source, "ranked": ranked, "registered": [p.pid for p in add]})
    return d


# --------------------------------------------------------------------------- confirming tables

def _free_hall(taken: dict) -> int:
    n = 1
    while n in taken:
        n += 1
    return n


def proposals(tid: str) -> list[dict]:
    """The next tables the seed's principles give, each with the hall table it would take."""
    res, lv = live(tid)
    names = res.names()
    taken = dict(lv.running_at())
    number = max((r.number for r in lv.rows), default=0)
    out = []
    for p in lv.ev.propose():
        hall = _free_hall(taken)
        taken[hall] = None
        number += 1
        out.append({"number": number, "seats": list(p.seats), "names": [names.get(x, "") for x in p.seats], "scores": [p.scores[x] for x in p.seats],
                    "final": p.final, "hall_table": hall})
    return out


def confirm(actor: str, tid: str, tables: list[dict], now: Optional[int] = None) -> list[SurvivalTable]:
    """Open tables: each {"seats": [E, S, W, N], "hall_table": n or None}. All or none."""
    t = survival_tournament(tid)
    if not isinstance(tables, list) or not 1 <= len(tables) <= MAX_TABLES_AT_ONCE:
        raise Invalid("confirm 1 to %d tables at once" % MAX_TABLES_AT_ONCE)
    now = int(time.time()) if now is None else now
    with transaction.atomic():
        d = SurvivalDraw.objects.select_for_update().filter(tournament=t).first()  # one confirmation at a time
        if d is None:
            raise Conflict("the survival event is not drawn yet")
        _res, lv = live(tid)
        ev = lv.fresh()
        proposed = {tuple(p.seats) for p in ev.propose()}
        taken = dict(lv.running_at())
        number = max((r.number for r in lv.rows), default=0) + 1
        rows = []
        for x in tables:
            seats, hall = x.get("seats"), x.get("hall_table")
            if hall is None:
                hall = _free_hall(taken)
            elif isinstance(hall, bool) or not isinstance(hall, int) or not 1 <= hall <= formats.MAX_TABLE:
                raise Invalid("hall_table must be 1..%d" % formats.MAX_TABLE)
            elif hall in taken:
                raise Conflict("table %s still plays at hall table %d" % (taken[hall], hall))
            try:
                ev.confirm(seats, at=now, number=number)
            except TournamentError as e:
                raise Invalid(str(e)) from None
            rows.append(SurvivalTable(tournament=t, number=number, hall_table=hall, seats=list(seats), confirmed_at=now,
                                      confirmed_by=actor, as_proposed=tuple(seats) in proposed))
            taken[hall] = number
            number += 1
        SurvivalTable.objects.bulk_create(rows)
        if t.settings.get("start_time") is None:
            t.settings = dict(t.settings, start_time=now)
            t.save(update_fields=["settings"])
        bump(tid)
        audit.log(actor, "survival.confirm", tid, "survival tables %s" % ", ".join(str(r.number) for r in rows), None,
                  [{"number": r.number, "hall_table": r.hall_table, "seats": r.seats, "as_proposed": r.as_proposed} for r in rows])
    return rows


# --------------------------------------------------------------------------- the boxes

def table_config_of(tid: str, number: int) -> dict:
    res, lv = live(tid)
    row = next((r for r in lv.rows if r.number == number), None)
    if row is None:
        raise NotFound("no survival table %d" % number)
    if number not in lv.ev.tables:
        raise Conflict("table %d is not counted (see the problems): it has no config" % number)
    cfg = table_config(lv.ev, number, tid, row.hall_table)
    err = pconfig.check(cfg)  # the box's own check: what it would refuse is never offered
    if err:
        raise Conflict("the config of table %d cannot start a session: %s" % (number, err[1]))
    return cfg


def box_config(tid: str, hall_table: int) -> dict:
    """The config of the table playing at this hall table now (the box bound to it)."""
    _res, lv = live(tid)
    if lv.ev.ended:
        raise Conflict("the survival event has ended")
    here = [r for r in lv.rows if r.hall_table == hall_table]
    if not here:
        raise Conflict("no survival table is seated at table %d yet" % hall_table)
    last = here[-1]
    lt = lv.ev.tables.get(last.number)
    if lt is not None and lt.finished:
        raise Conflict("table %d at hall table %d has ended: the referee seats the next table there" % (last.number, hall_table))
    return table_config_of(tid, last.number)
