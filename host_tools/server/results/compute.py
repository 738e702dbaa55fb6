"""Results of a tournament from a ``Snapshot``: the counted hands (``integrity``), their
effective deltas (corrections), per-table scores, and the format's standings through the pure
functions of ``host_tools.tournament``. Pure: no database.

Never fails because of the data: a table or session that the format's rules cannot score (an
accepted fifth player, a tie that needs a play-off, a final without its carry ratio...) becomes
a problem on the page, and the rest is scored. Work is bounded by the stored rows: sessions are
numbered 1..10000 at most (integrity refuses the rest), and lists are built per session that
exists below the highest one.

DECISIONS (beyond host_tools.tournament's own):

* A hand's deltas: the latest referee correction when there is one, else the latest counted
  device correction, else the record's. Referee rulings take precedence over a box.
* A player's session match score is the sum of their hand deltas (``seats[i]`` gets
  ``deltas[i]``), plus the session's off-table penalties (``points``; ``late`` by the format's
  table). A late arrival beyond the limit or a disqualification forfeits the session (a
  disqualification that session and every later one); disqualified players are listed last
  without a rank. Substitutes play but are not ranked.
* ``session_end`` match scores are a cross-check only: a difference is a problem.
* Sichuan: session n is stage n; 净胜分 excludes penalties (the hands' deductions and off-table
  points). Survival: every table's hands in time order (see ``formats_survival``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Optional

from host_tools.server.tournaments.formats import MAX_SESSION
from host_tools.tournament import attendance, scoring
from host_tools.tournament.exports import format_score
from host_tools.tournament.model import Standing, TableResult, TournamentError

from . import integrity, times
from .snapshot import Snapshot

SCORING_ERRORS = (TournamentError, ValueError, ArithmeticError, KeyError)
EVERY_HAND = ("sichuan_003", "mcr_survival")  # formats that score single hands, not their sums
fmt = lru_cache(maxsize=1 << 16)(format_score)  # the same few scores render thousands of times


@dataclass
class Table:
    """One (session, table) of counted records. A table whose records all count and none is
    corrected keeps its hands as the snapshot's sums (``groups``) and reads them one by one
    only when a page asks (``hands``); the others hold their counted hands (``detail``)."""

    session: int
    table: int
    start: Any = None
    end: Any = None
    quarantined: int = 0
    groups: list = field(default_factory=list)  # [(seats, snapshot.Group)]
    detail: Optional[list] = None  # the counted hands, when read
    snap: Optional[Snapshot] = field(default=None, repr=False)
    _raw: Optional[dict] = None

    @property
    def hands(self) -> list:
        """The counted hands by hand number."""
        if self.detail is None:
            got = self.snap.load_hands({(self.session, self.table)})[(self.session, self.table)] if self.snap is not None else []
            self.detail = sorted(got, key=_by_number)
        return self.detail

    @property
    def n_hands(self) -> int:
        return len(self.detail) if self.detail is not None else sum(g.n for _, g in self.groups)

    def first_time(self) -> Optional[int]:
        """The time of the first hand (the table's start when it has no session record)."""
        if self.detail is not None:
            return self.detail[0].time if self.detail else None
        return min(self.groups, key=lambda x: x[1].first)[1].time if self.groups else None

    def players(self) -> list:
        return list(self.raw_scores())

    def raw_scores(self) -> dict:
        if self._raw is None:
            out: dict = {}
            if self.start is not None:
                for p in self.start.seats:
                    if p is not None:
                        out[p] = 0
            if self.detail is None:
                sums = [(seats, g.sums) for seats, g in sorted(self.groups, key=lambda x: x[1].first)]
            else:
                by_seats: dict = {}  # hands with the same chairs: their deltas sum seat by seat in C
                for h in self.detail:
                    by_seats.setdefault(h.seats, []).append(h.deltas)
                sums = [(seats, tuple(map(sum, zip(*deltas)))) for seats, deltas in by_seats.items()]
            for seats, total in sums:
                for p, d in zip(seats, total):
                    if p is not None:
                        out[p] = out.get(p, 0) + d
            self._raw = out
        return dict(self._raw)


def _by_number(h) -> tuple:
    return (h.number, h.id)


@dataclass
class Result:
    tournament: dict
    standings: list  # Standing objects (exports, awards), disqualified last
    rows: list  # display rows
    tables: dict  # (session, table) -> Table
    table_scores: dict  # (session, table) -> {player: SessionScore-like dict}
    problems: list
    quarantine: list  # [{record, device, seq, kind, session, table, hand, problems, accepted}]
    disqualified: set
    prelim: Optional[list] = None
    extra: dict = field(default_factory=dict)
    snapshot: Optional[Snapshot] = None
    verdict: Optional[integrity.Verdict] = None
    live: Any = None  # the format's live state: the survival event (formats_survival.Live)

    def names(self) -> dict:
        return self.snapshot.names() if self.snapshot else {}

    def read_hands(self, keys=None) -> dict:
        """The tables (all, or these keys) with their single hands read, in one pass."""
        tabs = {k: tb for k, tb in self.tables.items() if keys is None or k in keys}
        if self.snapshot is not None:
            self.snapshot.load_hands({k for k, tb in tabs.items() if tb.detail is None})
        return tabs

    def hands_of(self, pid: str) -> list:
        """A player's counted hands, by session, table and hand number."""
        tabs = self.read_hands({k for k, tb in self.tables.items() if pid in tb.raw_scores()})
        return [h for k in sorted(tabs) for h in tabs[k].hands if pid in h.seats]

    def as_json(self) -> dict:
        return {"tournament": self.tournament["id"], "format": self.tournament["format"], "version": self.snapshot.version if self.snapshot else 0,
                "standings": self.rows, "problems": self.problems,
                "quarantined": sum(1 for q in self.quarantine if not q["accepted"] and not q["rejected"]), **self.extra}


# --------------------------------------------------------------------------- counted data

def _apply_corrections(snap: Snapshot, verdict: integrity.Verdict) -> None:
    """Effective deltas of the corrected hands (the others keep their record's). Corrected
    hands are read one by one (their tables are the snapshot's ``special``)."""
    if not snap.corrections:
        return
    by_hand: dict = {}
    by_box: dict = {}
    for c in snap.corrections:
        if c.hand_id is None or (c.source == "device" and not verdict.counts(c.record_id)):
            continue
        if c.source == "device":
            by_box[c.hand_id] = c
        prev = by_hand.get(c.hand_id)
        if prev is None or c.source == "referee" or prev.source == "device":
            by_hand[c.hand_id] = c  # later wins, except that a device never overrides a referee
    wanted = {c.where for c in by_hand.values() if c.where is not None}
    for hs in snap.load_hands(wanted).values():
        for h in hs:
            c = by_hand.get(h.id)
            if c is None:
                continue
            h.deltas = tuple(c.deltas)
            h.correction = {"source": c.source, "reason": c.reason, "referee": c.referee, "at": c.at}
            b = by_box.get(h.id)
            if b is not None:
                h.box_deltas = tuple(b.deltas)


def tables_of(snap: Snapshot, verdict: integrity.Verdict, every_hand: bool = False) -> dict:
    """(session, table) -> Table. ``every_hand``: the format scores single hands (read them all)."""
    tables: dict = {}

    def tb(s, t):
        x = tables.get((s, t))
        if x is None:
            x = tables[(s, t)] = Table(s, t, snap=snap)
        return x

    for r in snap.starts:
        if verdict.counts(r.record_id):
            x = tb(r.session, r.table)
            if x.start is None:
                x.start = r
        elif 1 <= r.session <= MAX_SESSION:
            tb(r.session, r.table).quarantined += 1
    for r in snap.ends:
        if verdict.counts(r.record_id):
            tb(r.session, r.table).end = r
    loaded = snap.loaded
    if every_hand:
        loaded = snap.load_hands({(k[1], k[2]) for k in snap.groups} | set(loaded))
    excluded, rejected = verdict.excluded, verdict.rejected
    for (_dev, s, t, seats), g in snap.groups.items():
        if (s, t) not in loaded:  # every record of the table counts
            tb(s, t).groups.append((seats, g))
    for (s, t), hs in loaded.items():
        counted = []
        for h in hs:
            rid = h.record_id
            if rid is None or rid not in excluded:
                counted.append(h)
            elif 1 <= h.session <= MAX_SESSION and rid not in rejected:
                tb(s, t).quarantined += 1
        if counted or (s, t) in tables:
            x = tb(s, t)
            x.detail = sorted(counted, key=_by_number)
            x.groups = []
    return tables


def _quarantine_list(snap: Snapshot, verdict: integrity.Verdict) -> list:
    if not verdict.problems and not verdict.rejected:
        return []
    info = {}
    for h in snap.hands():  # the records with a problem are in the tables read one by one
        if h.record_id is not None:
            info[h.record_id] = ("hand", h.device, h.seq, h.session, h.table, h.number)
    for r in snap.starts:
        info[r.record_id] = ("session", r.device, r.seq, r.session, r.table, None)
    for r in snap.ends:
        info[r.record_id] = ("session_end", r.device, r.seq, r.session, r.table, None)
    for c in snap.corrections:
        if c.record_id is not None:
            info[c.record_id] = ("correction", c.record_device, None, None, None, None)
    out = []
    for rid in sorted(set(verdict.problems) | verdict.rejected):
        kind, dev, seq, s, t, n = info.get(rid, ("record", None, None, None, None, None))
        out.append({"record": rid, "kind": kind, "device": dev, "seq": seq, "session": s, "table": t, "hand": n,
                    "problems": verdict.problems.get(rid, ["rejected by a referee"]), "accepted": rid in verdict.accepted,
                    "rejected": rid in verdict.rejected, "acceptable": integrity.acceptable(verdict.problems.get(rid, []))})
    return out


# --------------------------------------------------------------------------- penalties

def _late(fmt: str, minutes: str):
    rule = scoring.gd_late if fmt == "guangdong_004" else scoring.mcr_late
    return rule(Fraction(minutes))  # stored minutes were checked as short decimals


def session_penalties(snap: Snapshot, fmt: str, problems: list):
    """-> (points: (session, player) -> int, forfeits: session -> set, dq: player -> first session)"""
    points: dict = {}
    forfeits: dict = {}
    dq: dict = {}
    for p in snap.penalties:
        key = (p["session"], p["player"])
        try:
            if p["kind"] == "points":
                points[key] = points.get(key, 0) + p["points"]
            elif p["kind"] == "late":
                if fmt == "sichuan_003":
                    continue  # seed 003 §五.1 forfeits a game or the stage: formats_sichuan
                r = _late(fmt, p["minutes"])
                if r.forfeit:
                    forfeits.setdefault(p["session"], set()).add(p["player"])
                points[key] = points.get(key, 0) + r.penalty
            elif p["kind"] == "disqualification":
                dq[p["player"]] = min(dq.get(p["player"], p["session"]), p["session"])
        except SCORING_ERRORS as e:
            problems.append("penalty %d: %s" % (p["id"], e))
    return points, forfeits, dq


def _table_results(snap, tables, fmt, problems):
    """-> (sessions: list, index session-1, of lists of TableResult; n; dq; substitutes).

    Each session's tables come from its published seating (``attendance.session_tables``), so a
    table that did not play (two or one present) gives its present players the seeds' results
    and they stay in the standings; absent players (marked absent, forfeits, disqualified) are
    the table's forfeits."""
    points, forfeits, dq = session_penalties(snap, fmt, problems)
    subs = {p["id"] for p in snap.players if p["substitute"]}
    n = max([s for s, _ in tables] + [p["session"] for p in snap.penalties if p["session"] <= MAX_SESSION] + [0])
    sessions: list = [[] for _ in range(n)]
    by_session: dict = {}
    for (s, t) in sorted(tables):
        by_session.setdefault(s, []).append(t)
    for s in range(1, n + 1):
        gone = set(forfeits.get(s, ())) | {p for p, first in dq.items() if first <= s} | set(snap.absences.get(s, ()))
        played: dict = {}
        seen: set = set()
        for t in by_session.get(s, ()):
            tb = tables[(s, t)]
            if not tb.n_hands:
                continue
            raw = tb.raw_scores()
            dup = [p for p in raw if p in seen]
            if dup:
                problems.append("session %d: %s counted at an earlier table; left out at table %d" % (s, ", ".join(sorted(dup)), t))
            played[t] = {p: v + points.get((s, p), 0) for p, v in raw.items() if p not in seen}
            seen.update(raw)
        seating = [{"table": t, "players": ps} for t, ps in sorted(snap.seatings.get(s, {}).items())]
        try:
            results, probs = attendance.session_tables(seating, played, gone)
        except SCORING_ERRORS as e:  # a seating the rules cannot read: the tables as played
            problems.append("session %d: %s" % (s, e))
            results, probs = [], []
            for t, scores in played.items():
                try:
                    results.append(TableResult({p: v for p, v in scores.items() if p not in gone}, tuple(sorted(p for p in scores if p in gone)), t))
                except SCORING_ERRORS as e2:
                    problems.append("session %d table %d not scored: %s" % (s, t, e2))
        if seating:
            problems.extend("session %d: %s" % (s, p) for p in probs)
        sessions[s - 1] = results
    return sessions, n, dq, subs


def _safe_sessions(sessions, fn, problems):
    out = []
    for i, s in enumerate(sessions):
        try:
            out.append(fn(s))
        except SCORING_ERRORS as e:
            problems.append("session %d not scored: %s" % (i + 1, e))
            out.append({})
    return out


# --------------------------------------------------------------------------- rows

def _exact(x) -> Optional[str]:
    return None if x is None else str(Fraction(x))


def _status(x) -> str:
    return "forfeit" if x.forfeit else ("" if x.played else "no play")


def _rows(standings: list, names: dict, dq: dict) -> list:
    rows = []
    for s in standings:
        rows.append({
            "rank": None if s.player in dq else s.rank, "player": s.player, "name": names.get(s.player, ""),
            "standard": fmt(s.standard), "match": fmt(s.match), "standard_exact": _exact(s.standard),
            "status": "disqualified" if s.player in dq else "",
            "sessions": [None if x is None else {"table": x.table, "standard": fmt(x.standard), "match": fmt(x.match),
                                                  "place": x.place, "status": _status(x)} for x in s.sessions],
        })
    return rows


def _rerank(standings: list, drop: set) -> list:
    """Standings without ``drop`` (substitutes), ranks closed up."""
    out, prev, rank = [], None, 0
    kept = [s for s in standings if s.player not in drop]
    for i, s in enumerate(kept):
        k = s.key or (s.standard, s.match)
        if k != prev:
            rank = i + 1
        prev = k
        out.append(Standing(rank, s.player, s.standard, s.match, s.sessions, s.key) if s.rank != rank else s)
    return out


def _with_everyone(standings: list, snap: Snapshot, n: int) -> list:
    """Registered players without any result yet are listed too (0 points, no sessions),
    after the players who did at least as well and before those who did worse.
    DECISION: their rank is one more than the number of players above 0 / 0."""
    have = {s.player for s in standings}
    missing = [p["id"] for p in snap.players if p["id"] not in have and not p["substitute"]]
    if not missing:
        return standings
    zero = (Fraction(0), 0)

    def pair(s):
        return (s.standard if s.standard is not None else Fraction(0), s.match)

    above = [s for s in standings if pair(s) >= zero]
    below = [s for s in standings if pair(s) < zero]
    rank = sum(1 for s in standings if pair(s) > zero) + 1
    std = Fraction(0) if (standings and standings[0].standard is not None) or snap.tournament["format"] != "guangdong_004" else None
    extra = [Standing(rank, p, std, 0, (None,) * n, ()) for p in missing]
    return above + extra + below


def _dq_last(standings: list, dq: dict) -> list:
    return [s for s in standings if s.player not in dq] + [s for s in standings if s.player in dq]


def _table_scores(scored: dict) -> dict:
    out: dict = {}
    for s, per in scored.items():
        for p, x in per.items():
            out.setdefault((s, x.table), {})[p] = x
    return out


# --------------------------------------------------------------------------- formats

def _mcr_like(snap, tables, fmt, problems) -> tuple:
    sessions, n, dq, subs = _table_results(snap, tables, fmt, problems)
    draw = [p["id"] for p in snap.players]
    settings = snap.tournament["settings"]
    prelim = None
    if fmt == "mcr_swiss_001":
        base = settings["base"]
        scored = _safe_sessions(sessions, lambda s: scoring.swiss_session(s, base), problems)
        standings = scoring.swiss_standings(scored, base, draw)
    else:
        scored = _safe_sessions(sessions, scoring.mcr_session, problems)
        np_ = settings["prelim_sessions"]
        standings = scoring.mcr_standings(scored, draw)
        prelim = scoring.mcr_standings(scored[:np_], draw) if n > np_ else standings
        if n > np_:
            try:
                standings = scoring.mcr_final_standings(scored[:np_], scored[np_:], settings["finalists"], draw)
            except SCORING_ERRORS as e:
                problems.append("final standings: %s (showing all sessions cumulatively)" % e)
    standings = _dq_last(_with_everyone(_rerank(standings, subs), snap, n), dq)
    if prelim is not None:
        prelim = _rerank(prelim, subs)
    per = {i + 1: s for i, s in enumerate(scored)}
    return standings, _rows(standings, snap.names(), dq), _table_scores(per), dq, prelim, {"sessions": n}


def _guangdong(snap, tables, problems) -> tuple:
    sessions, n, dq, subs = _table_results(snap, tables, "guangdong_004", problems)
    draw = [p["id"] for p in snap.players]
    settings = snap.tournament["settings"]
    np_ = settings["prelim_sessions"]
    scored = _safe_sessions(sessions, scoring.gd_session, problems)
    prelim = scoring.gd_standings(scored[:np_], draw)
    standings = prelim
    extra: dict = {"sessions": n, "final": None}
    if n > np_:
        final_tables = sessions[np_]
        if len(final_tables) != 1:
            problems.append("the final (session %d) must be one table, found %d" % (np_ + 1, len(final_tables)))
        else:
            try:
                standings = scoring.gd_final_standings(scored[:np_], final_tables[0], settings["carry_ratio"], draw)
                extra["final"] = {"carry_ratio": settings["carry_ratio"]}
            except SCORING_ERRORS as e:
                problems.append("final: %s" % e)
    standings = _dq_last(_with_everyone(_rerank(standings, subs), snap, n), dq)
    per = {i + 1: s for i, s in enumerate(scored)}
    return standings, _rows(standings, snap.names(), dq), _table_scores(per), dq, _rerank(prelim, subs), extra


def compute(snap: Snapshot) -> Result:
    verdict = integrity.check(snap)
    _apply_corrections(snap, verdict)
    fmt = snap.tournament["format"]
    live = None
    tables = tables_of(snap, verdict, every_hand=fmt in EVERY_HAND)
    problems: list = []
    try:
        if fmt in ("mcr_000", "mcr_swiss_001"):
            standings, rows, tscores, dq, prelim, extra = _mcr_like(snap, tables, fmt, problems)
        elif fmt == "guangdong_004":
            standings, rows, tscores, dq, prelim, extra = _guangdong(snap, tables, problems)
        elif fmt == "sichuan_003":
            from .formats_sichuan import sichuan
            standings, rows, tscores, dq, prelim, extra = sichuan(snap, tables, problems)
        else:
            from .formats_survival import survival
            standings, rows, tscores, dq, prelim, extra = survival(snap, tables, problems)
            live = extra.pop("live", None)
    except SCORING_ERRORS as e:  # the format could not rank at all: show the tables, say why
        problems.append("standings could not be computed: %s" % e)
        standings, rows, tscores, dq, prelim, extra = [], [], {}, {}, None, {}
    for (s, t), tb in sorted(tables.items()):
        problems.extend(table_problems(tb))
    problems.extend(times.limit_problems(snap, tables))
    quarantine = _quarantine_list(snap, verdict)
    waiting = sum(1 for q in quarantine if not q["accepted"] and not q["rejected"])
    if waiting:
        problems.insert(0, "%d record(s) in quarantine wait for a referee: not counted" % waiting)
    return Result(snap.tournament, standings, rows, tables, tscores, problems, quarantine, set(dq), prelim, extra, snap, verdict, live)


def table_problems(tb: Table) -> list:
    """The box's own totals (session_end) against what it recorded (its hands and its own
    corrections; a referee's corrections and hands entered by hand are not the box's)."""
    out = []
    if tb.end is not None:
        hs = tb.detail
        if hs is None or not any(h.manual or h.correction is not None for h in hs):
            raw = tb.raw_scores()
            n = tb.n_hands
        else:
            raw = dict.fromkeys(tb.players(), 0)
            n = 0
            for h in hs:
                if h.manual:
                    continue
                n += 1
                for p, d in zip(h.seats, h.box_deltas or h.original):
                    if p is not None:
                        raw[p] = raw.get(p, 0) + d
        ms = tb.end.match_scores
        if any(ms.get(p, 0) != raw.get(p, 0) for p in set(ms) | set(raw)):
            out.append("session %d table %d: the box's session_end match scores %s differ from the hands %s" % (tb.session, tb.table, ms, raw))
        if tb.end.hands != n:
            out.append("session %d table %d: session_end says %d hands, %d are counted" % (tb.session, tb.table, tb.end.hands, tb.n_hands))
    return out
