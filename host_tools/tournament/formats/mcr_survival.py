"""Chinese Official survival event (勇者争先赛, seed 000 §三.2): the players who are not in the
individual final start at 50, play until one at the table is out, and are re-tabled as tables
end; hands count x2 from 30 minutes, x4 from 60, ...; the last table's four are placed by the
seed's tie rules. No sessions, seating or time limit: tables are formed and confirmed while the
event runs, and penalties are keyed at the table.

The rules and their decisions are in ``rules_min.survival`` (the numbers the box shares),
``host_tools.tournament.survival`` (one table, re-tabling) and ``survival_live`` (the live event:
proposals, confirmations, placings, replay from records). Here: ``FORMAT``, whose results replay
the event from its draw, the tables the referee confirmed and their counted hand records:

* Every confirmed table is a session of the boxes: session = the table's number in the event
  (confirmation order), table = the hall table it plays at. Its hands are the counted records
  of that (session, table): integrity, quarantine and corrections as in every format. A
  correction changes the win's part; the penalties stay as keyed.
* A hand's multiplier is the one in force at its dice roll (the record's ``hand_start``, epoch
  seconds) counted from the event's start (the ``start_time`` setting). A box record without
  ``hand_start`` does not count (its multiplier is unknown) and is listed for the referee.
* DECISION: a hand a referee entered by hand has no dice roll: it counts from the end of the
  hand before it (the table's confirmation for the first), and the problems say so.
* The box's ``multiplier`` and ``scores`` are cross-checks: a difference is a problem, the
  server's count stands. ``session_end.match_scores`` are the hands' deltas as in every format.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..exports import format_score
from ..model import Standing, TournamentError
from ..survival import START_SCORE
from ..survival_live import StoredTable, SurvivalEvent, hand_from_record, replay
from .base import MAX_NUMBER, TOURNAMENT_ID, Event, Format, Outcome, Setting, SettingsInvalid

TITLES = ("冠军", "亚军", "季军", "殿军")  # §三.2.5: the last table's four by score


@dataclass
class Live:
    """The replayed event and what rebuilds it: ``fresh()`` is a new event to try confirmations
    on (the cached one is shared and never changed)."""

    ev: SurvivalEvent
    ranked: list
    start: int
    stored: list
    rows: list  # survival.snapshot.TableRow, by number
    hall: dict = field(default_factory=dict)  # table number -> hall table

    def fresh(self) -> SurvivalEvent:
        return replay(self.ranked, self.start, self.stored)

    def running_at(self) -> dict:
        """hall table -> number of the table playing there (confirmed, not ended)."""
        out = {}
        for r in self.rows:
            lt = self.ev.tables.get(r.number)
            if lt is not None and not lt.finished:
                out[r.hall_table] = r.number
        return out


def _undrawn(event: Event, problems: list) -> Outcome:
    tables = event.tables
    names = event.names()
    entrants = [p["id"] for p in event.players if not p["substitute"]]
    if any(tb.hands for tb in tables.values()):
        problems.append("hands were uploaded but the survival event is not drawn yet: they do not count")
    rows = [{"rank": None, "player": p, "name": names.get(p, ""), "score": format_score(START_SCORE), "status": "waiting",
             "table": None, "hall_table": None} for p in entrants]
    standings = [Standing(0, p, None, START_SCORE, ()) for p in entrants]
    return Outcome(standings, rows, {}, {}, None, {"survival": {"drawn": False, "start_time": event.settings.get("start_time"),
                                                                "ended": False, "tables": [], "podium": []}})


def _record(h, extra: dict, start: Optional[int]) -> dict:
    """The fields of a hand record that ``hand_from_record`` reads, from a counted HandRow."""
    w = h.winners[0] if h.winners else None
    wins = [] if w is None else [{"seat": w, "from": h.discarder, "total": h.fans}]
    return {"seats": list(h.seats), "deltas": list(h.original), "wins": wins, "hand": h.number, "time": h.time,
            "hand_start": start, "multiplier": extra.get("multiplier")}


def _stored(data, tables, problems) -> tuple[list, dict, set]:
    stored, checks, used = [], {}, set()
    for row in data.tables:
        key = (row.number, row.hall_table)
        tb = tables.get(key)
        hands = []
        if tb is not None:
            used.add(key)
            prev_end = row.confirmed_at
            for h in tb.hands:
                x = data.extras.get(h.record_id, {}) if h.record_id is not None else {}
                start = x.get("hand_start")
                if start is None and h.manual:
                    start = prev_end
                    problems.append("table %d hand %d was entered by a referee: its multiplier counts from %s (the end of the hand before)"
                                    % (row.number, h.number, start))
                try:
                    hands.append(hand_from_record(_record(h, x, start), list(h.deltas) if h.correction is not None else None))
                except TournamentError as e:
                    problems.append("table %d hand %d: %s" % (row.number, h.number, e))
                    continue
                if "scores" in x:
                    checks[(row.number, h.number)] = (list(h.seats), x["scores"])
                prev_end = h.time
        stored.append(StoredTable(row.number, tuple(row.seats), row.confirmed_at, hands))
    return stored, checks, used


def _table_json(ev: SurvivalEvent, row, names: dict) -> dict:
    out: dict[str, Any] = {"number": row.number, "hall_table": row.hall_table, "seats": list(row.seats),
                           "names": [names.get(p, "") for p in row.seats], "confirmed_at": row.confirmed_at,
                           "confirmed_by": row.confirmed_by, "as_proposed": row.as_proposed}
    lt = ev.tables.get(row.number)
    if lt is None:
        return dict(out, counted=False, final=False, finished=False, hands=[], order=[], refused=[])
    r = lt.result()
    out.update(counted=True, final=lt.final, finished=r.finished, finished_at=r.finished_at,
               start_scores={p: format_score(v) for p, v in r.start_scores.items()},
               scores={p: format_score(v) for p, v in r.scores.items()},
               multipliers=[h.multiplier for h in r.hands],
               hands=[{"hand": h.hand, "start": h.start, "multiplier": h.multiplier, "scores": {p: format_score(v) for p, v in h.after.items()},
                       "out": list(h.out)} for h in r.hands],
               order=[{"place": x.place, "player": x.player, "name": names.get(x.player, ""), "score": format_score(x.score), "out": x.out}
                      for x in r.order] if r.finished else [],
               refused=[{"hand": x.hand, "code": x.code, "message": x.message} for x in r.refused])
    return out


class McrSurvival(Format):
    name = "mcr_survival"
    rules = "mcr"
    title = "Chinese Official survival event 勇者争先赛 (seed 000)"
    # start_time: 比赛开始 (epoch seconds; the first confirmed tables set it when empty);
    # individual: the individual event (a survival_source format) whose preliminary ranking gives
    # the draw; finalists: its players in the individual final, who do not enter
    settings = (Setting("start_time", None, optional=True), Setting("individual", None, optional=True, **TOURNAMENT_ID),
                Setting("finalists", 16))
    seating = ("draw", "rank")
    every_hand = True
    live_tables = True
    standings_view = "survival"

    def minutes(self, settings=None) -> Optional[int]:
        return None  # the event plays until the last table's bust

    def check_together(self, s: dict) -> None:
        if not 0 <= s["finalists"] <= MAX_NUMBER:
            raise SettingsInvalid("finalists (players of the individual final, who do not enter) must be 0..%d" % MAX_NUMBER)

    def results(self, event: Event, problems: list) -> Outcome:
        tables = event.tables
        data = event.survival
        if data is None or data.ranked is None:
            return _undrawn(event, problems)
        names = event.names()
        start = event.settings.get("start_time")
        if start is None:
            start = data.tables[0].confirmed_at if data.tables else 0
        stored, checks, used = _stored(data, tables, problems)
        for (s, t), tb in sorted(tables.items()):
            if (s, t) not in used and tb.hands:
                problems.append("records of session %d table %d belong to no confirmed survival table (session = the table's number in the event, "
                                "table = its hall table): not counted" % (s, t))
        ev = replay(data.ranked, start, stored)
        problems.extend(ev.problems)
        for (n, hand), (seats, shown) in sorted(checks.items()):
            lt = ev.tables.get(n)
            log = next((x for x in lt.table.logs if x.hand == hand), None) if lt is not None else None
            if log is not None and [log.after.get(p) for p in seats] != list(shown):
                problems.append("table %d hand %d: the box showed scores %s, the server counts %s" % (n, hand, list(shown), [log.after.get(p) for p in seats]))
        hall = {r.number: r.hall_table for r in data.tables}
        rows = []
        for line in ev.standings():
            rows.append({"rank": line.place, "player": line.player, "name": names.get(line.player, ""), "score": format_score(line.score),
                         "status": line.status, "table": line.table, "hall_table": hall.get(line.table) if line.status == "playing" else None})
        standings = [Standing(line.place or 0, line.player, None, line.score, ()) for line in ev.standings()]
        podium = []
        if ev.ended:
            for i, x in enumerate(ev.ranking()[:4]):
                podium.append({"place": x.place, "title": TITLES[x.place - 1] if x.place <= 4 else "", "player": x.player,
                               "name": names.get(x.player, ""), "score": format_score(x.score)})
        doc = {"drawn": True, "source": data.source, "start_time": start, "ended": ev.ended, "entrants": len(ev.ranked),
               "still_in": 0 if ev.ended else len(ev.alive()), "tables": [_table_json(ev, r, names) for r in data.tables], "podium": podium}
        live = Live(ev, list(data.ranked), start, stored, list(data.tables), hall)
        return Outcome(standings, rows, {}, {}, None, {"survival": doc}, live)


FORMAT = McrSurvival()
