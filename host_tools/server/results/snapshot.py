"""Everything the results need about one tournament, read in a few queries as plain tuples.

The hands are most of the data, and most of them need no more than their sum: the database
sums them per (box, session, table, chairs) (``Group``: a table has a few, as the chairs change
every round), in index order (``Hand``'s covering index). Single hands are read only for the
tables that need them (``load_hands``): a problem to spread over records, a correction, a
ruling, a hand number that may be stored twice, a hand entered by a referee, a page that shows
hands. Work is bounded by the rows that exist; nothing is allocated per session *number*.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

from django.db.models import F


@dataclass(slots=True)
class HandRow:
    id: int
    record_id: Optional[int]
    device: Optional[str]
    seq: Optional[int]
    session: int
    table: int
    number: int
    rules: str
    seats: tuple
    deltas: tuple  # effective: after corrections (compute replaces it for corrected hands)
    original: tuple
    dealer: int
    winners: tuple
    discarder: Optional[int]
    fans: int
    time: int
    deductions: tuple
    manual: bool
    correction: Optional[dict] = None
    box_deltas: Optional[tuple] = None  # the box's own: its record's, or its own correction's
    box_seats: Optional[tuple] = None  # the chairs as recorded, when a referee re-seated the hand

    def player_deltas(self) -> dict:
        return {p: d for p, d in zip(self.seats, self.deltas) if p is not None}


@dataclass(slots=True)
class Group:
    """The hands one box recorded at one table of one session with the same chairs, summed."""

    n: int
    sums: tuple  # deltas summed chair by chair
    first: int  # lowest hand number
    last: int  # highest hand number
    time: int  # earliest hand time


@dataclass(slots=True)
class StartRow:
    record_id: int
    device: str
    seq: int
    session: int
    table: int
    seats: tuple
    time: int


@dataclass(slots=True)
class EndRow:
    record_id: int
    device: str
    seq: int
    session: int
    table: int
    hands: int
    match_scores: dict
    time: int


@dataclass
class CorrectionRow:
    id: int
    hand_id: Optional[int]
    source: str
    record_id: Optional[int]
    record_device: Optional[str]
    target_device: Optional[str]
    target_seq: Optional[int]
    deltas: list
    reason: str
    referee: str
    at: str
    where: Optional[tuple] = None  # (session, table) of the corrected hand
    hand_device: Optional[str] = None  # the corrected hand's box
    rescored: Optional[dict] = None  # a referee's re-scoring from the tiles: the hand's figures (boxes.rescore)


@dataclass
class Snapshot:
    tournament: dict  # id, name, format, settings, results_version and the event's details (actions.DETAILS)
    players: list  # dicts: id, name, draw, ema_id, country, substitute, withdrawn_from, family_name
    seatings: dict  # session -> {table: [players]} (published ones only)
    starts: list
    ends: list
    corrections: list
    rulings: dict  # record id -> "accept" | "reject" (the latest ruling), in the order of those rulings
    penalties: list
    playoffs: list
    version: int = 0
    groups: dict = field(default_factory=dict)  # (device, session, table, seats) -> Group
    # tables whose single hands the results need whatever the checks find: a hand entered by a
    # referee, a corrected or ruled hand, hand numbers that may repeat
    special: set = field(default_factory=set)
    max_hand: int = 0  # the hands summed are those with id <= max_hand
    loaded: dict = field(default_factory=dict)  # (session, table) -> [HandRow], in id order
    reader: object = None  # (snapshot, keys) -> {(session, table): [HandRow]}: the database
    survival: Optional[object] = None  # survival.snapshot.SurvivalData of a survival event
    absences: dict = field(default_factory=dict)  # session -> players marked absent
    starts_at: dict = field(default_factory=dict)  # session -> its official start (epoch seconds)
    # records of this tournament the door held (boxes.placement): record id -> why (their box was
    # not bound there when they were made); their hands' tables are ``special``
    held: dict = field(default_factory=dict)
    # records naming no tournament of this server, waiting here for a referee to claim them (a
    # session keyed in at a box bound here): dicts {record, kind, device, seq, session, table, hand, reason, named}
    unclaimed: list = field(default_factory=list)
    extra_minutes: dict = field(default_factory=dict)  # (session, table or None: every table) -> minutes given
    table_ends: dict = field(default_factory=dict)  # (session, table) -> a referee's end: {"hands", "referee", "reason"}
    reseats: list = field(default_factory=list)  # dicts: session, table, first_hand, last_hand, players, in order

    def names(self) -> dict:
        return {p["id"]: p["name"] for p in self.players}

    def load_hands(self, keys) -> dict:
        """The single hands of these tables (session, table), read once, in id order."""
        want = {k for k in keys if k not in self.loaded}
        if want:
            got = self.reader(self, want) if self.reader is not None else {}
            for k in want:
                self.loaded[k] = got.get(k, [])
        return {k: self.loaded[k] for k in keys}

    def hands(self) -> list:
        """Every single hand loaded so far, in id order."""
        out = [h for hs in self.loaded.values() for h in hs]
        out.sort(key=lambda h: h.id)
        return out


_ZERO = (0, 0, 0, 0)
_WINNERS = {"": (), "0": (0,), "1": (1,), "2": (2,), "3": (3,)}


def _ded(text: str) -> tuple:
    return tuple(int(x) for x in text.split(",")) if text else _ZERO


def _seats(text: str) -> tuple:
    return tuple(p or None for p in text.split("\t"))


def _json(v):
    return json.loads(v) if isinstance(v, (str, bytes)) else v


def hand_rows(rows) -> list:
    out = []
    append = out.append
    winners_of = _WINNERS
    for (hid, rid, dev, seq, s, tb, n, rules, p0, p1, p2, p3, d0, d1, d2, d3, dealer, w, dis, fans, time, ded, by) in rows:
        orig = (d0, d1, d2, d3)
        win = winners_of.get(w)
        if win is None:
            win = tuple(int(ch) for ch in w)
        append(HandRow(hid, rid, dev, seq, s, tb, n, rules, (p0, p1, p2, p3), orig, orig, dealer, win, dis, fans, time, _ded(ded), by is not None))
    return out


_HAND_COLUMNS = ("h.id, h.record_id, h.device, r.seq, h.session, h.%s, h.number, h.rules, h.p0, h.p1, h.p2, h.p3, "
                 "h.d0, h.d1, h.d2, h.d3, h.dealer, h.winners, h.discarder, h.fans, h.time, h.deductions, h.entered_by")
WHOLE = 64  # more tables than this: one pass over the tournament's hands instead of a query per session


def read_hands(snap: Snapshot, keys: set) -> dict:
    """The database side of ``Snapshot.load_hands``: hands with id <= max_hand (the ones the
    sums saw; a hand stored since belongs to the next results version)."""
    from django.db import connection

    from host_tools.server.boxes.models import Hand, Record

    q = connection.ops.quote_name
    base = ("SELECT %s FROM %s h LEFT JOIN %s r ON r.id = h.record_id WHERE h.tournament = %%s AND h.id <= %%s"
            % (_HAND_COLUMNS % q("table"), Hand._meta.db_table, Record._meta.db_table))
    tid = snap.tournament["id"]
    out: dict = {}
    with connection.cursor() as c:
        if len(keys) > WHOLE:
            c.execute(base + " ORDER BY h.id", [tid, snap.max_hand])
            queries = [c.fetchall()]
        else:
            by_session: dict = {}
            for s, t in keys:
                by_session.setdefault(s, set()).add(t)
            queries = []
            for s, ts in sorted(by_session.items()):
                c.execute(base + " AND h.session = %%s AND h.%s IN (%s) ORDER BY h.id" % (q("table"), ", ".join(["%s"] * len(ts))),
                          [tid, snap.max_hand, s] + sorted(ts))
                queries.append(c.fetchall())
    for rows in queries:
        for h in hand_rows(rows):
            k = (h.session, h.table)
            if k in keys:
                out.setdefault(k, []).append(h)
    return out


def load(tid: str) -> Snapshot:
    """Read one tournament (raises Tournament.DoesNotExist)."""
    from django.db import connection

    from host_tools.server.boxes.models import Claim, Correction, Device, Hand, Held, Record, Ruling
    from host_tools.server.tournaments import formats
    from host_tools.server.tournaments.models import (Absence, Penalty, Player, Playoff, Reseat, SeatingTable, SessionStart, TableEnd,
                                                      TimeExtension, Tournament)

    t = Tournament.objects.values("id", "name", "format", "settings", "results_version", "time_zone", "start_date", "end_date", "city",
                                  "country", "mers_weight").get(id=tid)
    players = list(Player.objects.filter(tournament_id=tid).order_by(F("draw").asc(nulls_last=True), "pid").values(
        "pid", "name", "draw", "ema_id", "country", "substitute", "withdrawn_from", "family_name"))
    for p in players:
        p["id"] = p.pop("pid")
    seatings: dict = {}
    for s, table, ps in SeatingTable.objects.filter(seating__tournament_id=tid, seating__published_at__isnull=False).values_list(
            "seating__session", "table", "players"):
        seatings.setdefault(s, {})[table] = list(ps)
    survival = None
    if formats.get(t["format"]).live_tables:  # its tables are confirmed live, not seated per session
        from host_tools.server.survival import snapshot as survival_snapshot
        survival = survival_snapshot.load(tid)
        if survival.tables:
            seatings = survival.seatings()
    absences: dict = {}
    for s, pid in Absence.objects.filter(tournament_id=tid).values_list("session", "player__pid"):
        absences.setdefault(s, set()).add(pid)
    starts_at = dict(SessionStart.objects.filter(tournament_id=tid).values_list("session", "at"))
    extra_minutes: dict = {}
    for s, tb, m in TimeExtension.objects.filter(tournament_id=tid).values_list("session", "table", "minutes"):
        extra_minutes[(s, tb)] = extra_minutes.get((s, tb), 0) + m
    table_ends = {(s, tb): {"hands": n, "referee": who, "reason": why}
                  for s, tb, n, who, why in TableEnd.objects.filter(tournament_id=tid).values_list("session", "table", "hands", "referee", "reason")}
    reseats = list(Reseat.objects.filter(tournament_id=tid).order_by("id").values("session", "table", "first_hand", "last_hand", "players"))
    q = connection.ops.quote_name
    groups: dict = {}
    special: set = set()
    max_hand = 0
    spans: dict = {}  # (session, table) -> [(first, last, n)]: hand numbers that may repeat
    with connection.cursor() as c:
        c.execute(
            "SELECT session, %s, device, p0, p1, p2, p3, COUNT(*), SUM(d0), SUM(d1), SUM(d2), SUM(d3), MIN(number), MAX(number), MIN(time), "
            "MAX(id) FROM %s WHERE tournament = %%s GROUP BY session, %s, device, p0, p1, p2, p3"
            % (q("table"), Hand._meta.db_table, q("table")), [tid])
        for s, tb, dev, p0, p1, p2, p3, n, d0, d1, d2, d3, lo, hi, time, top in c.fetchall():
            if top > max_hand:
                max_hand = top
            if dev is None:  # entered by a referee
                special.add((s, tb))
                continue
            groups[(dev, s, tb, (p0, p1, p2, p3))] = Group(n, (int(d0), int(d1), int(d2), int(d3)), lo, hi, time)
            spans.setdefault((s, tb), []).append((lo, hi, n))
        c.execute("SELECT id, device_id, seq, session, %s, seats, time FROM %s WHERE tournament = %%s AND kind = 'session' ORDER BY id"
                  % (q("table"), Record._meta.db_table), [tid])
        starts = [StartRow(rid, dev, seq, s, tb, _seats(seats or ""), time or 0) for rid, dev, seq, s, tb, seats, time in c.fetchall()]
        if connection.vendor == "postgresql":
            ends_sql = "body -> 'match_scores', (body ->> 'hands')::bigint"
        else:
            ends_sql = "json_extract(body, '$.match_scores'), json_extract(body, '$.hands')"
        c.execute("SELECT id, device_id, seq, session, %s, %s, time FROM %s WHERE tournament = %%s AND kind = 'session_end' ORDER BY id"
                  % (q("table"), ends_sql, Record._meta.db_table), [tid])
        ends = [EndRow(rid, dev, seq, s, tb, hands, dict(_json(ms)), time or 0) for rid, dev, seq, s, tb, ms, hands, time in c.fetchall()]
        held, unclaimed = _held(c, q, tid, Held, Record, Device)
        for rid, (_why, kind, s, tb) in held.items():
            if kind == "hand" and s is not None and tb is not None:
                special.add((s, tb))
        _claimed(c, q, tid, Held, Claim, Record, starts, ends)
    for r in reseats:  # re-attributed hands are read one by one
        special.add((r["session"], r["table"]))
    for k, sp in spans.items():
        # one table's hand numbers are all distinct when every group is a run of consecutive
        # numbers and no two runs overlap (the usual case); else read the single hands
        if len(sp) > 1:
            sp.sort()
        prev = None
        for lo, hi, n in sp:
            if hi - lo + 1 != n or (prev is not None and lo <= prev):
                special.add(k)
                break
            prev = hi
    corrections = []
    for r in Correction.objects.filter(tournament=tid).values_list(
            "id", "hand_id", "source", "record_id", "record__device_id", "target_device", "target_seq", "deltas", "reason", "referee",
            "created_at", "hand__session", "hand__table", "hand__device", "rescored").order_by("id"):
        where = None if r[1] is None else (r[11], r[12])
        corrections.append(CorrectionRow(*r[:10], r[10].isoformat(timespec="seconds"), where, r[13], r[14]))
        if where is not None:
            special.add(where)
    rulings = {}
    for rid, decision, s, tb in Ruling.objects.filter(tournament=tid).order_by("id").values_list("record_id", "decision", "record__session",
                                                                                                   "record__table"):
        rulings.pop(rid, None)  # in the order of the latest decisions (``versions``: the latest accept decides)
        rulings[rid] = decision
        if s is not None and tb is not None:
            special.add((s, tb))
    penalties = list(Penalty.objects.filter(tournament_id=tid, revoked=False).values("id", "session", "player", "kind", "minutes", "points", "game", "reason"))
    playoffs = list(Playoff.objects.filter(tournament_id=tid).order_by("id").values("id", "session", "table", "scores"))
    return Snapshot(dict(t), players, seatings, starts, ends, corrections, rulings, penalties, playoffs, t["results_version"],
                    groups, special, max_hand, {}, read_hands, survival, absences, starts_at, held={rid: h[0] for rid, h in held.items()},
                    unclaimed=unclaimed, extra_minutes=extra_minutes, table_ends=table_ends, reseats=reseats)


def _held(c, q, tid: str, Held, Record, Device) -> tuple[dict, list]:
    """The records held at the door that are this tournament's to rule on: those naming it
    (record id -> (why, kind, session, table)), and those naming no tournament here that wait
    for a claim in it (its box was bound here when they arrived, or, bound nowhere then, is now)."""
    h, r, d = Held._meta.db_table, Record._meta.db_table, Device._meta.db_table
    c.execute("SELECT h.record_id, h.reason, r.kind, r.session, r.%s FROM %s h JOIN %s r ON r.id = h.record_id "
              "WHERE h.tournament = %%s AND NOT h.unknown_tournament AND h.claim_id IS NULL" % (q("table"), h, r), [tid])
    held = {rid: (why, kind, s, tb) for rid, why, kind, s, tb in c.fetchall()}
    c.execute("SELECT h.record_id, h.reason, r.device_id, r.seq, r.kind, r.tournament, r.session, r.%s, r.hand FROM %s h JOIN %s r ON r.id = h.record_id "
              "WHERE h.unknown_tournament AND h.claim_id IS NULL AND (h.tournament = %%s OR (h.tournament IS NULL AND r.device_id IN "
              "(SELECT id FROM %s WHERE tournament_id = %%s))) ORDER BY r.device_id, r.seq" % (q("table"), h, r, d), [tid, tid])
    unclaimed = [{"record": rid, "reason": why, "device": dev, "seq": seq, "kind": kind, "named": named, "session": s, "table": tb, "hand": n}
                 for rid, why, dev, seq, kind, named, s, tb, n in c.fetchall()]
    return held, unclaimed


def _claimed(c, q, tid: str, Held, Claim, Record, starts: list, ends: list) -> None:
    """The session and session_end records of sessions claimed for this tournament, at the
    session and table they were claimed for, their players mapped (their hands were moved by
    the claim itself: ``boxes.claims``)."""
    h, cl, r = Held._meta.db_table, Claim._meta.db_table, Record._meta.db_table
    c.execute("SELECT r.id, r.device_id, r.seq, r.kind, r.body, r.time, cl.session, cl.%s, cl.players FROM %s h JOIN %s cl ON cl.id = h.claim_id "
              "JOIN %s r ON r.id = h.record_id WHERE cl.tournament = %%s AND r.kind IN ('session', 'session_end') ORDER BY r.id"
              % (q("table"), h, cl, r), [tid])
    for rid, dev, seq, kind, body, time, s, tb, players in c.fetchall():
        b, m = _json(body), _json(players) or {}
        if kind == "session":
            starts.append(StartRow(rid, dev, seq, s, tb, tuple(None if p is None else m.get(p, p) for p in b["seats"]), time or 0))
        else:
            ends.append(EndRow(rid, dev, seq, s, tb, b["hands"], {m.get(p, p): v for p, v in b["match_scores"].items()}, time or 0))

