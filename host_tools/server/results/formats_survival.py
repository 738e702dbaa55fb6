"""The survival event (seed 000 勇者争先赛): every table's hands in time order.

A hand starts when the table's previous hand ended (its ``time``), the first one when the
table's session record started it. The event clock starts at the ``start_time`` setting, else
at the earliest session record or hand. While the event runs the list shows live scores
(players still in by score, then those out, latest out first). Its penalties are the hands' own
penalty events (already in the deltas); off-table penalties are refused for this format.
Issue 14 (live re-tabling from host_tools.tournament) extends this module.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from host_tools.tournament import scoring
from host_tools.tournament.exports import format_score
from host_tools.tournament.model import Standing
from host_tools.tournament.survival import SurvivalHand, play_survival_table, run_survival_event

from .compute import SCORING_ERRORS


def _minutes(t: int, t0: int) -> Fraction:
    return Fraction(t - t0, 60)


def survival(snap, tables, problems) -> tuple:
    names = snap.names()
    tabs = [tb for tb in tables.values() if tb.hands]
    times = [tb.start.time for tb in tables.values() if tb.start] + [h.time for tb in tabs for h in tb.hands]
    t0 = snap.tournament["settings"].get("start_time")
    if t0 is None:
        t0 = min(times) if times else 0

    def seats_of(tb):
        return [p for p in (tb.start.seats if tb.start else tb.hands[0].seats) if p is not None]

    def hands_of(tb) -> list:
        prev = tb.start.time if tb.start else tb.hands[0].time
        out = []
        for h in tb.hands:
            out.append(SurvivalHand(
                start=_minutes(min(prev, h.time), t0), end=_minutes(h.time, t0), deltas=h.player_deltas(),
                winner=h.seats[h.winners[0]] if h.winners else None,
                discarder=h.seats[h.discarder] if h.discarder is not None else None))
            prev = h.time
        return out

    tabs.sort(key=lambda tb: ((tb.start.time if tb.start else tb.hands[0].time), tb.session, tb.table))
    current: dict[str, Any] = {}
    out_at: dict = {}
    table_json = []
    for tb in tabs:
        seats = seats_of(tb)
        start = {p: current.get(p, scoring.START_SCORE) for p in seats}
        try:
            res = play_survival_table(start, hands_of(tb))
        except SCORING_ERRORS as e:
            problems.append("session %d table %d: %s" % (tb.session, tb.table, e))
            continue
        for p in seats:
            current[p] = res.scores[p]
        for i, p in enumerate(res.eliminated):
            out_at[p] = (res.finished_at, -i)
        table_json.append({"session": tb.session, "table": tb.table, "seats": seats, "finished": res.finished,
                           "scores": {p: format_score(v) for p, v in res.scores.items()}, "multipliers": [h.multiplier for h in res.hands]})
    entrants = [p["id"] for p in snap.players if not p["substitute"]] or sorted(current)
    rows: list = []
    complete = False
    if len(entrants) >= 4 and tabs:
        used: set = set()

        def play_table(info):
            for tb in tabs:
                if id(tb) not in used and set(seats_of(tb)) == set(info.seats):
                    used.add(id(tb))
                    return hands_of(tb)
            raise scoring.TournamentError("no stored table seats %s yet" % (sorted(info.seats),))

        try:
            ev = run_survival_event(entrants, play_table, Fraction(0))
            complete = True
            rows = [{"rank": x.place, "player": x.player, "name": names.get(x.player, ""), "score": format_score(x.score), "out": x.out, "status": ""}
                    for x in ev.ranking]
        except SCORING_ERRORS as e:
            problems.append("event in progress or tables differ from the driver's seating: %s (live scores shown)" % e)
    if not complete:
        alive = sorted((p for p in current if p not in out_at), key=lambda p: (-current[p], p))
        gone = sorted(out_at, key=lambda p: (-out_at[p][0], -out_at[p][1], p))
        waiting = [p for p in entrants if p not in current]
        for i, p in enumerate(alive + waiting + gone):
            rows.append({"rank": i + 1, "player": p, "name": names.get(p, ""), "score": format_score(current.get(p, scoring.START_SCORE)),
                         "out": p in out_at, "status": ""})
    standings = [Standing(r["rank"], r["player"], None, current.get(r["player"], scoring.START_SCORE), ()) for r in rows]
    return standings, rows, {}, {}, None, {"survival": {"complete": complete, "start_time": t0, "tables": table_json}}
