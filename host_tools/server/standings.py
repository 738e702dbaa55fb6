"""Standings from what is stored: hand records + corrections + off-table penalties + play-offs,
scored by the pure functions of ``host_tools.tournament``. Read-only.

``load(tx, tid)`` reads one snapshot; ``compute(snapshot)`` gives a ``Result`` with the
``Standing`` list of the format (for exports and awards), display rows, per-table results and the
problems a referee must look at. ``cached(db, tid)`` memoises by ``store.fingerprint``.

How records become table results (DECISIONS, beyond host_tools.tournament's own):

* A table is (session, table) of the hand records. A player's session match score is the sum of
  their hand deltas (by seat: ``seats[i]`` gets ``deltas[i]``), using the latest correction of a
  hand when there is one (device or referee, whichever was stored last), plus the session's
  off-table penalties (``points``; ``late`` through ``mcr_late`` / ``gd_late``).
* Two hand records with the same (tournament, session, table, hand) number: the first stored
  counts, the other is listed as a problem (a re-keyed hand must be a correction).
* A late arrival beyond the limit, or a disqualification, makes the player forfeit the session
  (a disqualification: that session and every later one) — their hand deltas at that table
  drop out of their line, the others keep theirs. Disqualified players are listed after
  everyone else with rank null.
* ``session_end`` match scores are a cross-check only: a disagreement with the hands is a problem.
* Sessions a tournament has not reached are empty: the pure functions score absent players 0.
* Sichuan: session n is stage n (1: top 2 per table; 2: table winners + best runners-up up to
  the ``stage2_quota`` setting; 3: top 2; 4: the final table). 净胜分 (net) excludes penalties:
  the tier 1/2 penalty events (20/50) of the hands and off-table points. The overall order:
  final places, then players out at stage 3, 2, 1, each by table place then score.
* Survival: every table's hands in time order; a hand starts when the table's previous hand
  ended (its ``time``), the first one when the table's ``session`` record started it. The event
  clock starts at the ``start_time`` setting, else at the earliest session record or hand.
  While the event is running the list shows live scores (players still in by score, then the
  players out, latest out first). Off-table penalties are refused for this format (the API says
  so): its penalties are the hands' own penalty events, already in the deltas.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional

from host_tools.server import store
from host_tools.tournament import awards as awards_mod
from host_tools.tournament import scoring
from host_tools.tournament.exports import format_score
from host_tools.tournament.model import Standing, TableResult, TournamentError
from host_tools.tournament.survival import SurvivalHand, play_survival_table, run_survival_event

SICHUAN_PENALTY = {"tier1": 20, "tier2": 50}


@dataclass
class Hand:
    record_id: int
    device: str
    seq: int
    session: int
    table: int
    hand: int
    seats: list
    dealer: int
    deltas: list
    original: list
    corrected: bool
    correction: Optional[dict]
    fans: Optional[dict]
    winners: list
    discarder: Optional[int]
    time: int
    penalties: list  # per seat: in-hand penalty deductions (Sichuan tiers)
    rules: str

    def player_deltas(self) -> dict[str, int]:
        return {p: d for p, d in zip(self.seats, self.deltas) if p is not None}

    def as_json(self) -> dict:
        w = [self.seats[i] for i in self.winners]
        return {
            "device": self.device, "seq": self.seq, "session": self.session, "table": self.table, "hand": self.hand,
            "seats": self.seats, "dealer": self.dealer, "deltas": self.deltas, "original_deltas": self.original,
            "corrected": self.corrected, "correction": self.correction, "fans": self.fans, "winners": w,
            "discarder": None if self.discarder is None else self.seats[self.discarder], "time": self.time,
        }


@dataclass
class Table:
    session: int
    table: int
    hands: list = field(default_factory=list)
    start: Optional[dict] = None  # session record body
    end: Optional[dict] = None  # session_end record body
    duplicates: list = field(default_factory=list)

    def players(self) -> list[str]:
        seen: dict[str, None] = {}
        for src in ([self.start["seats"]] if self.start else []) + [h.seats for h in self.hands]:
            for p in src:
                if p is not None:
                    seen.setdefault(p)
        return list(seen)

    def raw_scores(self) -> dict[str, int]:
        out = {p: 0 for p in self.players()}
        for h in self.hands:
            for p, d in h.player_deltas().items():
                out[p] += d
        return out


@dataclass
class Snapshot:
    tournament: dict
    players: list
    tables: dict  # (session, table) -> Table
    penalties: list
    playoffs: list
    seatings: dict
    problems: list


def load(tx, tid: str) -> Snapshot:
    t = store.get_tournament(tx, tid)
    players = store.list_players(tx, tid)
    corrections: dict[tuple, dict] = {}
    for c in store.tournament_corrections(tx, tid):
        corrections[(c["target_device"], c["target_seq"])] = c  # ordered by id: the last wins
    tables: dict[tuple, Table] = {}
    problems: list[str] = []
    seen_hands: dict[tuple, Hand] = {}
    for r in store.tournament_records(tx, tid):
        if r["kind"] not in ("hand", "session", "session_end"):
            continue
        body = json.loads(bytes(r["payload"])[1:].decode("utf-8"))
        key = (r["session"], r["table_no"])
        tb = tables.get(key)
        if tb is None:
            tb = tables[key] = Table(*key)
        if r["kind"] == "session":
            if tb.start is None:
                tb.start = body
            continue
        if r["kind"] == "session_end":
            tb.end = body
            continue
        c = corrections.get((r["device_id"], r["seq"]))
        pen = [0, 0, 0, 0]
        fans = body.get("fans")
        if "wins" in body:  # protocol/record.py v2: fan ids per win, the transfers as settled
            if body["wins"]:
                w = max(body["wins"], key=lambda w: w["total"])
                fans = {"seat": w["seat"], "total": w["total"], "ids": w["fans"], "names": []}
            if body["rules"] == "sichuan":
                for a, b, p, _ in body["transfers"]:
                    if b is None and a is not None:
                        pen[a] += p  # a deduction is a penalty
        elif body["rules"] == "sichuan":
            for ev in body["events"]:
                k = ev.get("penalty")
                s = ev.get("seat")
                if k in SICHUAN_PENALTY and isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 4:
                    pen[s] += SICHUAN_PENALTY[k]
        h = Hand(
            r["id"], r["device_id"], r["seq"], body["session"], body["table"], body["hand"], body["seats"], body["dealer"],
            json.loads(c["deltas"]) if c else body["deltas"], body["deltas"], c is not None,
            {"reason": c["reason"], "referee": c["referee"], "source": c["source"], "at": c["created_at"]} if c else None,
            fans, body["winners"], body["discarder"], body["time"], pen, body["rules"],
        )
        hk = (h.session, h.table, h.hand)
        if hk in seen_hands:
            first = seen_hands[hk]
            tb.duplicates.append(h)
            problems.append(
                "session %d table %d hand %d: record %s/%d duplicates %s/%d (the first counts; key a correction instead)"
                % (h.session, h.table, h.hand, h.device, h.seq, first.device, first.seq)
            )
            continue
        seen_hands[hk] = h
        tb.hands.append(h)
    for tb in tables.values():
        tb.hands.sort(key=lambda h: h.hand)
    return Snapshot(t, players, tables, store.list_penalties(tx, tid, include_revoked=False), store.list_playoffs(tx, tid), store.all_seatings(tx, tid), problems)


# --------------------------------------------------------------------------- result

@dataclass
class Result:
    tournament: dict
    standings: list  # Standing objects, ranked (for exports and awards); DQ'd players last
    rows: list  # display rows (JSON-ready)
    tables: dict  # (session, table) -> table result (JSON-ready)
    problems: list
    disqualified: set
    prelim: Optional[list] = None  # preliminary standings (MCR finals, Guangdong final)
    extra: dict = field(default_factory=dict)
    snapshot: Optional[Snapshot] = None

    def names(self) -> dict:
        return {p["id"]: p["name"] for p in self.snapshot.players} if self.snapshot else {}

    def as_json(self) -> dict:
        return {
            "tournament": self.tournament["id"], "format": self.tournament["format"], "standings": self.rows,
            "problems": self.problems, **self.extra,
        }


def _session_penalties(snap: Snapshot, fmt: str):
    """-> (points: (session, player) -> int, forfeits: session -> set, dq: player -> first session)"""
    points: dict[tuple, int] = {}
    forfeits: dict[int, set] = {}
    dq: dict[str, int] = {}
    for p in snap.penalties:
        key = (p["session"], p["player"])
        if p["kind"] == "points":
            points[key] = points.get(key, 0) + p["points"]
        elif p["kind"] == "late":
            rule = scoring.gd_late if fmt == "guangdong_004" else scoring.mcr_late
            ruling = rule(Fraction(p["minutes"]))
            if ruling.forfeit:
                forfeits.setdefault(p["session"], set()).add(p["player"])
            points[key] = points.get(key, 0) + ruling.penalty
        elif p["kind"] == "disqualification":
            dq[p["player"]] = min(dq.get(p["player"], p["session"]), p["session"])
    return points, forfeits, dq


def _table_results(snap: Snapshot, fmt: str):
    """-> sessions: list (index session-1) of lists of TableResult; n_sessions."""
    points, forfeits, dq = _session_penalties(snap, fmt)
    n = max([s for s, _ in snap.tables] + [p["session"] for p in snap.penalties] + [0])
    sessions: list[list[TableResult]] = [[] for _ in range(n)]
    placed: dict[int, set] = {}
    # a forfeiting player who keyed no hand is put at the table the seating gave them
    seated = {(s, p): t["table"] for s, ts in snap.seatings.items() for t in ts for p in t["players"]}
    keys = set(snap.tables)
    for s in range(1, n + 1):
        gone = set(forfeits.get(s, ())) | {p for p, first in dq.items() if first <= s}
        for p in gone:
            if (s, p) in seated:
                keys.add((s, seated[(s, p)]))
    for (s, t) in sorted(keys):
        tb = snap.tables.get((s, t))
        raw = tb.raw_scores() if tb else {}
        gone = set(forfeits.get(s, ())) | {p for p, first in dq.items() if first <= s}
        seen_elsewhere = placed.get(s, set())
        out_here = {p for p in raw if p in gone} | {p for p in gone if seated.get((s, p)) == t and p not in raw and p not in seen_elsewhere}
        scores = {p: v + points.get((s, p), 0) for p, v in raw.items() if p not in out_here}
        sessions[s - 1].append(TableResult(scores, tuple(sorted(out_here)), t))
        placed.setdefault(s, set()).update(raw)
        placed[s].update(out_here)
    return sessions, n, dq, placed


def _draw_order(snap: Snapshot) -> list[str]:
    return [p["id"] for p in snap.players]  # list_players orders by draw number


def _rows(standings: list[Standing], names: dict, dq: dict, n: int) -> list[dict]:
    rows = []
    for s in standings:
        rows.append({
            "rank": None if s.player in dq else s.rank,
            "player": s.player,
            "name": names.get(s.player, ""),
            "standard": format_score(s.standard),
            "match": format_score(s.match),
            "standard_exact": _exact(s.standard),
            "status": "disqualified" if s.player in dq else "",
            "sessions": [
                None if x is None else {
                    "table": x.table, "standard": format_score(x.standard), "match": format_score(x.match),
                    "place": x.place, "status": "forfeit" if x.forfeit else ("" if x.played else "no play"),
                }
                for x in s.sessions
            ],
        })
    return rows


def _exact(x) -> Optional[str]:
    """Exact value for the API: "7/3" (display strings round to 2 decimals)."""
    return None if x is None else str(Fraction(x))


def _dq_last(standings: list[Standing], dq: dict) -> list[Standing]:
    return [s for s in standings if s.player not in dq] + [s for s in standings if s.player in dq]


def _table_json(snap: Snapshot, scored: dict, names: dict) -> dict:
    out = {}
    for (s, t), tb in snap.tables.items():
        per = scored.get(s, {})
        raw = tb.raw_scores()
        players = []
        for p in tb.players():
            x = per.get(p)
            players.append({
                "player": p, "name": names.get(p, ""), "hands_total": raw.get(p, 0),
                "match": format_score(x.match) if x else "", "standard": format_score(x.standard) if x else "",
                "standard_exact": _exact(x.standard) if x else None,
                "place": x.place if x else None, "status": ("forfeit" if x.forfeit else ("" if x.played else "no play")) if x else "",
            })
        problems = []
        if tb.end is not None:
            ms = tb.end["match_scores"]
            if any(ms.get(p, 0) != raw.get(p, 0) for p in set(ms) | set(raw)):
                problems.append("the device's session_end match scores %s differ from the hands %s" % (ms, raw))
            if tb.end["hands"] != len(tb.hands):
                problems.append("session_end says %d hands, %d are stored" % (tb.end["hands"], len(tb.hands)))
        out[(s, t)] = {
            "session": s, "table": t, "players": players, "hands": [h.as_json() for h in tb.hands],
            "duplicates": [h.as_json() for h in tb.duplicates], "problems": problems,
            "started": tb.start["time"] if tb.start else None, "ended": tb.end["time"] if tb.end else None,
        }
    return out


# --------------------------------------------------------------------------- formats

def _mcr_like(snap: Snapshot, fmt: str) -> Result:
    sessions, n, dq, _ = _table_results(snap, fmt)
    names = {p["id"]: p["name"] for p in snap.players}
    draw = _draw_order(snap)
    problems = list(snap.problems)
    prelim = None
    if fmt == "mcr_swiss_001":
        base = snap.tournament["settings"]["base"]
        scored = [scoring.swiss_session(s, base) for s in sessions]
        standings = scoring.swiss_standings(scored, base, draw)
    else:
        scored = [scoring.mcr_session(s) for s in sessions]
        np = snap.tournament["settings"]["prelim_sessions"]
        standings = scoring.mcr_standings(scored, draw)
        prelim = scoring.mcr_standings(scored[:np], draw) if n > np else standings
        if n > np:
            try:
                standings = scoring.mcr_final_standings(scored[:np], scored[np:], snap.tournament["settings"]["finalists"], draw)
            except TournamentError as e:
                problems.append("final standings: %s (showing all sessions cumulatively)" % e)
    standings = _dq_last(standings, dq)
    per_session = {i + 1: s for i, s in enumerate(scored)}
    return Result(snap.tournament, standings, _rows(standings, names, dq, n), _table_json(snap, per_session, names), problems, set(dq), prelim, {"sessions": n}, snap)


def _guangdong(snap: Snapshot) -> Result:
    sessions, n, dq, _ = _table_results(snap, "guangdong_004")
    names = {p["id"]: p["name"] for p in snap.players}
    draw = _draw_order(snap)
    problems = list(snap.problems)
    np = snap.tournament["settings"]["prelim_sessions"]
    scored = []
    for i, s in enumerate(sessions):
        try:
            scored.append(scoring.gd_session(s))
        except TournamentError as e:
            problems.append("session %d: %s" % (i + 1, e))
            scored.append({})
    prelim = scoring.gd_standings(scored[:np], draw)
    standings = prelim
    extra = {"sessions": n, "final": None}
    if n > np:
        final_tables = sessions[np]
        if len(final_tables) != 1:
            problems.append("the final (session %d) must be one table, found %d" % (np + 1, len(final_tables)))
        else:
            try:
                standings = scoring.gd_final_standings(scored[:np], final_tables[0], snap.tournament["settings"]["carry_ratio"], draw)
                extra["final"] = {"carry_ratio": snap.tournament["settings"]["carry_ratio"]}
            except TournamentError as e:
                problems.append("final: %s" % e)
    standings = _dq_last(standings, dq)
    per_session = {i + 1: s for i, s in enumerate(scored)}
    return Result(snap.tournament, standings, _rows(standings, names, dq, n), _table_json(snap, per_session, names), problems, set(dq), prelim, extra, snap)


def _sichuan(snap: Snapshot) -> Result:
    points, forfeits, dq = _session_penalties(snap, "sichuan_003")
    names = {p["id"]: p["name"] for p in snap.players}
    problems = list(snap.problems)
    stages: dict[int, list] = {}
    for (s, t) in sorted(snap.tables):
        tb = snap.tables[(s, t)]
        acc: dict[str, list] = {p: [0, 0, 0] for p in tb.players() if not (p in dq and dq[p] <= s)}
        for h in tb.hands:
            for i, p in enumerate(h.seats):
                if p in acc:
                    acc[p][0] += h.deltas[i]
                    acc[p][1] += h.deltas[i] + h.penalties[i]
                    acc[p][2] += 1 if i in h.winners else 0
        lines = [scoring.SichuanLine(p, a[0] + points.get((s, p), 0), a[1], a[2]) for p, a in acc.items()]
        stages.setdefault(s, []).append((t, lines))
    playoffs: dict[tuple, dict] = {}
    for po in snap.playoffs:  # the latest entry for a (session, table) wins
        playoffs[(po["session"], po["table"])] = po["scores"]
    reached: dict[str, tuple] = {}  # player -> (stage, order key)
    stage_json = []
    for s in sorted(stages):
        tabs = stages[s]
        numbers = [t for t, _ in tabs]
        pos_po = {i + 1: playoffs[(s, t)] for i, t in enumerate(numbers) if (s, t) in playoffs}
        info: dict[str, Any] = {"stage": s, "tables": [], "advancing": []}
        places = {}
        try:
            if s == 4:
                extra = playoffs.get((s, numbers[0])) or playoffs.get((s, None))
                if len(tabs) != 1:
                    raise TournamentError("the final (stage 4) is one table, found %d" % len(tabs))
                ranked = [scoring.sichuan_final(tabs[0][1], extra)]
                adv: tuple = ()
            elif s == 2:
                quota = snap.tournament["settings"]["stage2_quota"]
                if quota is None:
                    raise TournamentError("stage 2 needs the stage2_quota setting (how many advance)")
                st = scoring.sichuan_stage2([l for _, l in tabs], quota, pos_po, playoffs.get((s, None)))
                ranked, adv = list(st.tables), st.advancing
            else:
                st = scoring.sichuan_top_per_table([l for _, l in tabs], 2, pos_po)
                ranked, adv = list(st.tables), st.advancing
        except TournamentError as e:
            problems.append("stage %d: %s" % (s, e))
            ranked = [scoring.sichuan_rank_table(l, cuts=()) for _, l in tabs]
            adv = ()
        for (t, _), places_t in zip(tabs, ranked):
            info["tables"].append({"table": t, "places": [
                {"place": x.place, "player": x.player, "name": names.get(x.player, ""), "score": format_score(x.score),
                 "net": format_score(x.net), "wins": x.wins, "playoff": format_score(x.playoff)} for x in places_t]})
            for x in places_t:
                places[x.player] = x
        info["advancing"] = list(adv)
        stage_json.append(info)
        for p, x in places.items():
            reached[p] = (s, x.place, x.score, x.net)
    order = sorted(reached, key=lambda p: (-reached[p][0], reached[p][1], -reached[p][2], -reached[p][3], p))
    order = [p for p in order if p not in dq] + [p for p in order if p in dq]
    rows, prev, rank = [], None, 0
    for i, p in enumerate(order):
        key = reached[p]
        if key != prev:
            rank = i + 1
        prev = key
        rows.append({"rank": None if p in dq else rank, "player": p, "name": names.get(p, ""), "stage": key[0], "place": key[1],
                     "score": format_score(key[2]), "net": format_score(key[3]), "status": "disqualified" if p in dq else ""})
    standings = [Standing(r["rank"] or 0, r["player"], None, reached[r["player"]][2], ()) for r in rows]
    return Result(snap.tournament, standings, rows, _table_json(snap, {}, names), problems, set(dq), None, {"stages": stage_json}, snap)


def _minutes(t: int, t0: int) -> Fraction:
    return Fraction(t - t0, 60)


def _survival(snap: Snapshot) -> Result:
    names = {p["id"]: p["name"] for p in snap.players}
    problems = list(snap.problems)
    tabs = [tb for tb in snap.tables.values() if tb.hands]
    times = [tb.start["time"] for tb in snap.tables.values() if tb.start] + [h.time for tb in tabs for h in tb.hands]
    t0 = snap.tournament["settings"]["start_time"]
    if t0 is None:
        t0 = min(times) if times else 0

    def hands_of(tb: Table) -> list[SurvivalHand]:
        prev = tb.start["time"] if tb.start else tb.hands[0].time
        out = []
        for h in tb.hands:
            seats = h.seats
            out.append(SurvivalHand(
                start=_minutes(min(prev, h.time), t0), end=_minutes(h.time, t0), deltas=h.player_deltas(),
                winner=seats[h.winners[0]] if h.winners else None,
                discarder=seats[h.discarder] if h.discarder is not None else None,
            ))
            prev = h.time
        return out

    def first_time(tb: Table) -> int:
        return tb.start["time"] if tb.start else tb.hands[0].time

    tabs.sort(key=lambda tb: (first_time(tb), tb.session, tb.table))
    current: dict[str, Any] = {}
    out_at: dict[str, tuple] = {}
    table_json = []
    for tb in tabs:
        seats = [p for p in (tb.start["seats"] if tb.start else tb.hands[0].seats) if p is not None]
        start = {p: current.get(p, scoring.START_SCORE) for p in seats}
        try:
            res = play_survival_table(start, hands_of(tb))
        except TournamentError as e:
            problems.append("session %d table %d: %s" % (tb.session, tb.table, e))
            continue
        for p in seats:
            current[p] = res.scores[p]
        for i, p in enumerate(res.eliminated):
            out_at[p] = (res.finished_at, -i)
        table_json.append({"session": tb.session, "table": tb.table, "seats": seats, "finished": res.finished,
                           "scores": {p: format_score(v) for p, v in res.scores.items()},
                           "multipliers": [h.multiplier for h in res.hands]})
    entrants = _draw_order(snap) or sorted(current)
    rows: list[dict] = []
    complete = False
    if len(entrants) >= 4 and tabs:
        used: set = set()

        def play_table(info):
            for tb in tabs:
                seats = [p for p in (tb.start["seats"] if tb.start else tb.hands[0].seats) if p is not None]
                if id(tb) not in used and set(seats) == set(info.seats):
                    used.add(id(tb))
                    return hands_of(tb)
            raise TournamentError("no stored table seats %s yet" % (sorted(info.seats),))

        try:
            ev = run_survival_event(entrants, play_table, Fraction(0))
            complete = True
            rows = [{"rank": x.place, "player": x.player, "name": names.get(x.player, ""), "score": format_score(x.score), "out": x.out, "status": ""} for x in ev.ranking]
        except TournamentError as e:
            problems.append("event in progress or tables differ from the driver's seating: %s (live scores shown)" % e)
    if not complete:
        alive = sorted((p for p in current if p not in out_at), key=lambda p: (-current[p], p))
        gone = sorted(out_at, key=lambda p: (-out_at[p][0], -out_at[p][1], p))
        waiting = [p for p in entrants if p not in current]
        for i, p in enumerate(alive + waiting + gone):
            rows.append({"rank": i + 1, "player": p, "name": names.get(p, ""), "score": format_score(current.get(p, scoring.START_SCORE)), "out": p in out_at, "status": ""})
    standings = [Standing(r["rank"], r["player"], None, Fraction(r["score"]) if r["score"] else 0, ()) for r in rows]
    return Result(snap.tournament, standings, rows, _table_json(snap, {}, names), problems, set(), None,
                  {"survival": {"complete": complete, "start_time": t0, "tables": table_json}}, snap)


def compute(snap: Snapshot) -> Result:
    fmt = snap.tournament["format"]
    if fmt in ("mcr_000", "mcr_swiss_001"):
        return _mcr_like(snap, fmt)
    if fmt == "guangdong_004":
        return _guangdong(snap)
    if fmt == "sichuan_003":
        return _sichuan(snap)
    return _survival(snap)


# --------------------------------------------------------------------------- awards, hands

def hand_records(result: Result) -> list:
    """HandRecords for awards and the hands CSV: ``at`` is minutes since the table's session
    record (else its first hand)."""
    out = []
    for (s, t), tb in sorted(result.snapshot.tables.items()):
        if not tb.hands:
            continue
        t0 = tb.start["time"] if tb.start else tb.hands[0].time
        for h in tb.hands:
            w = h.seats[h.winners[0]] if h.winners else None
            d = h.seats[h.discarder] if h.discarder is not None and w else None
            fans = h.fans["total"] if h.fans else 0
            out.append(awards_mod.HandRecord(s, t, h.hand, w, d, fans, Fraction(h.time - t0, 60), h.player_deltas()))
    return out


def awards(result: Result) -> dict:
    fmt = result.tournament["format"]
    if fmt not in ("mcr_000", "mcr_swiss_001"):
        raise TournamentError("awards are defined for the Chinese Official formats (seed 000)")
    sessions = result.tournament["settings"].get("prelim_sessions", result.extra.get("sessions", 0)) or 0
    prelim = [s for s in (result.prelim or result.standings) if s.player not in result.disqualified]
    got = awards_mod.mcr_awards(prelim, hand_records(result), sessions)
    names = result.names()
    out = {}
    for key, a in got.items():
        out[key] = {
            "title": a.title, "winner": a.winner, "winner_name": names.get(a.winner, "") if a.winner else "",
            "ranking": [{"player": l.player, "name": names.get(l.player, ""), "value": l.value} for l in a.ranking[:10]],
        }
        if a.hand is not None:
            out[key]["hand"] = {"session": a.hand.session, "table": a.hand.table, "hand": a.hand.hand, "fans": a.hand.fans}
    return out


_cache: dict = {}
_cache_lock = threading.Lock()


def cached(db, tid: str) -> Result:
    """compute(load(...)) memoised per database and tournament by store.fingerprint."""
    with db.tx() as tx:
        fp = store.fingerprint(tx, tid)
        key = (id(db), tid)
        with _cache_lock:
            hit = _cache.get(key)
        if hit is not None and hit[0] == fp:
            return hit[1]
        snap = load(tx, tid)
    res = compute(snap)
    with _cache_lock:
        _cache[key] = (fp, res)
    return res
