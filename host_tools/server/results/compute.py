"""Results of a tournament from a ``Snapshot``: the counted hands (``integrity``), their
effective deltas (corrections), the tables as played, and the format's standings: the adapter
from the database to the format (``host_tools.tournament.formats``: ``compute`` hands its
``results`` an ``Event`` of plain data). Pure: no database.

Never fails because of the data: a table or session that the format's rules cannot score (an
accepted fifth player, a tie that needs a play-off, a final without its carry ratio...) becomes
a problem on the page, and the rest is scored. Work is bounded by the stored rows: sessions are
numbered 1..10000 at most (integrity refuses the rest), and lists are built per session that
exists below the highest one.

DECISIONS (beyond the formats' own):

* A hand's deltas: the latest referee correction when there is one, else the latest counted
  device correction, else the record's. Referee rulings take precedence over a box. A referee's
  correction by the hand's tiles replaces every figure derived from the hand (winners,
  discarder, fans, deductions), not only its deltas.
* A re-seated table (players found in the wrong chairs): its hands in the re-seat's range are
  read with the players who really sat there; the box's own cross-check (session_end) still
  compares with the chairs as the box recorded them.
* ``session_end`` match scores are a cross-check only: a difference is a problem.
* A format that scores single hands (``every_hand``: Sichuan's games, the survival event's
  multipliers) reads every table's hands; the others read their sums.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from host_tools.server.tournaments.formats import MAX_SESSION
from host_tools.tournament import formats
from host_tools.tournament.formats.standings import SCORING_ERRORS

from . import integrity, times
from .snapshot import Snapshot

__all__ = ["SCORING_ERRORS", "Result", "Table", "compute", "table_problems", "tables_of"]


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
    referee_end: Optional[dict] = None  # a referee ended the table: {"hands", "referee", "reason"}

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
    live: Any = None  # the format's live state: the survival event (formats.mcr_survival.Live)

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
    rescored: dict = {}  # hand id -> the latest re-scoring (a later points-only correction keeps its figures)
    for c in snap.corrections:
        if c.hand_id is None or (c.source == "device" and not verdict.counts(c.record_id)):
            continue
        if c.source == "device":
            by_box[c.hand_id] = c
        elif c.rescored is not None:
            rescored[c.hand_id] = c.rescored
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
            h.correction = {"source": c.source, "reason": c.reason, "referee": c.referee, "at": c.at, "rescored": c.rescored is not None}
            r = rescored.get(h.id)
            if r is not None and c.source == "referee":  # re-scored from the hand's tiles: every figure of the hand
                h.dealer, h.winners, h.discarder, h.fans = r["dealer"], tuple(int(w) for w in r["winners"]), r["discarder"], r["fans"]
                h.deductions = tuple(int(x) for x in r["deductions"].split(",")) if r["deductions"] else (0, 0, 0, 0)
            b = by_box.get(h.id)
            if b is not None:
                h.box_deltas = tuple(b.deltas)


def _apply_reseats(snap: Snapshot) -> None:
    """The hands a referee re-seated, read with the players who sat there (``box_seats`` keeps
    the chairs as recorded). Several re-seats of one hand apply in the order they were made."""
    if not snap.reseats:
        return
    hands = snap.load_hands({(r["session"], r["table"]) for r in snap.reseats})
    for r in snap.reseats:
        swap = r["players"]
        for h in hands[(r["session"], r["table"])]:
            if r["first_hand"] <= h.number <= r["last_hand"]:
                if h.box_seats is None:
                    h.box_seats = h.seats
                h.seats = tuple(swap.get(p, p) if p is not None else None for p in h.seats)


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
    dropped = verdict.dropped_hands
    settled = verdict.duplicates.keys() | verdict.set_aside.keys()  # copies of a counted hand: waiting for nobody
    for (_dev, s, t, seats), g in snap.groups.items():
        if (s, t) not in loaded:  # every record of the table counts
            tb(s, t).groups.append((seats, g))
    for (s, t), hs in loaded.items():
        counted = []
        for h in hs:
            rid = h.record_id
            if rid is None:
                if h.id not in dropped:
                    counted.append(h)
            elif rid not in excluded:
                counted.append(h)
            elif 1 <= h.session <= MAX_SESSION and rid not in rejected and rid not in settled:
                tb(s, t).quarantined += 1
        if counted or (s, t) in tables:
            x = tb(s, t)
            x.detail = sorted(counted, key=_by_number)
            x.groups = []
    for k, end in snap.table_ends.items():
        if k in tables:
            tables[k].referee_end = end
    return tables


def _quarantine_list(snap: Snapshot, verdict: integrity.Verdict) -> list:
    waiting = {u["record"] for u in snap.unclaimed}
    out = [q for q in _quarantine_checked(snap, verdict) if q["record"] not in waiting]
    # records naming no tournament here (a session keyed in at a box bound here): a referee
    # claims them for a session and table, or rejects them; accepting them as they are means nothing
    for u in snap.unclaimed:
        rejected = snap.rulings.get(u["record"]) == "reject"
        out.append({"record": u["record"], "kind": u["kind"], "device": u["device"], "seq": u["seq"], "session": u["session"],
                    "table": u["table"], "hand": u["hand"], "problems": [u["reason"]], "accepted": False, "rejected": rejected,
                    "acceptable": False, "claimable": not rejected, "named": u["named"]})
    return out


def _quarantine_checked(snap: Snapshot, verdict: integrity.Verdict) -> list:
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
                    "rejected": rid in verdict.rejected, "acceptable": integrity.acceptable(verdict.problems.get(rid, [])), "claimable": False,
                    "versions": verdict.shown.get(rid)})
    return out


# --------------------------------------------------------------------------- the format's results

def event_of(snap: Snapshot, tables: dict) -> formats.Event:
    """What the format's results read, from the snapshot: plain data and the tables as played."""
    return formats.Event(snap.tournament["settings"], snap.players, tables, snap.seatings, snap.absences, snap.penalties,
                         snap.playoffs, snap.survival)


def compute(snap: Snapshot) -> Result:
    verdict = integrity.check(snap)
    _apply_corrections(snap, verdict)
    _apply_reseats(snap)
    fmt = formats.get(snap.tournament["format"])
    tables = tables_of(snap, verdict, every_hand=fmt.every_hand)
    problems: list = []
    try:
        out = fmt.results(event_of(snap, tables), problems)
    except SCORING_ERRORS as e:  # the format could not rank at all: show the tables, say why
        problems.append("standings could not be computed: %s" % e)
        out = formats.Outcome()
    for (s, t), tb in sorted(tables.items()):
        problems.extend(table_problems(tb))
    problems.extend(times.limit_problems(snap, tables))
    quarantine = _quarantine_list(snap, verdict)
    waiting = sum(1 for q in quarantine if not q["accepted"] and not q["rejected"])
    if waiting:
        problems.insert(0, "%d record(s) in quarantine wait for a referee: not counted" % waiting)
    return Result(snap.tournament, out.standings, out.rows, tables, out.table_scores, problems, quarantine, set(out.disqualified),
                  out.prelim, out.extra, snap, verdict, out.live)


def table_problems(tb: Table) -> list:
    """The box's own totals (session_end) against what it recorded (its hands and its own
    corrections; a referee's corrections and hands entered by hand are not the box's)."""
    out = []
    if tb.end is not None:
        hs = tb.detail
        if hs is None or not any(h.manual or h.correction is not None or h.box_seats is not None for h in hs):
            raw = tb.raw_scores()
            n = tb.n_hands
        else:
            raw = dict.fromkeys(tb.players(), 0)
            n = 0
            for h in hs:
                if h.manual:
                    continue
                n += 1
                for p, d in zip(h.box_seats or h.seats, h.box_deltas or h.original):
                    if p is not None:
                        raw[p] = raw.get(p, 0) + d
        ms = tb.end.match_scores
        if any(ms.get(p, 0) != raw.get(p, 0) for p in set(ms) | set(raw)):
            out.append("session %d table %d: the box's session_end match scores %s differ from the hands %s" % (tb.session, tb.table, ms, raw))
        if tb.end.hands != n:
            out.append("session %d table %d: session_end says %d hands, %d are counted" % (tb.session, tb.table, tb.end.hands, tb.n_hands))
    return out
