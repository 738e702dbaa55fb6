"""Everything the results need about one tournament, read in a few queries as plain tuples.

Work is bounded by the rows that exist: one row per hand, session start and end, correction,
ruling, penalty, play-off, player and seat; nothing is allocated per session *number*.
"""
from __future__ import annotations

from django.db.models import F

from dataclasses import dataclass, field
from typing import Optional


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

    def player_deltas(self) -> dict:
        return {p: d for p, d in zip(self.seats, self.deltas) if p is not None}


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


@dataclass
class Snapshot:
    tournament: dict
    players: list  # dicts: id, name, draw, ema_id, country, substitute, withdrawn_from
    seatings: dict  # session -> {table: [players]} (published ones only)
    bindings: dict  # device -> (tournament, table)
    hands: list
    starts: list
    ends: list
    corrections: list
    rulings: dict  # record id -> "accept" | "reject" (the latest ruling)
    penalties: list
    playoffs: list
    version: int = 0
    # the device hands grouped by what the integrity checks look at, (device, session, table,
    # seats) -> [HandRow] (a table has a few such groups: chairs rotate), and the (session,
    # table, hand number) keys stored more than once
    groups: dict = field(default_factory=dict)
    repeated: set = field(default_factory=set)
    survival: Optional[object] = None  # survival.snapshot.SurvivalData of a survival event
    absences: dict = field(default_factory=dict)  # session -> players marked absent
    starts_at: dict = field(default_factory=dict)  # session -> its official start (epoch seconds)

    def names(self) -> dict:
        return {p["id"]: p["name"] for p in self.players}


_ZERO = (0, 0, 0, 0)
_WINNERS = {"": (), "0": (0,), "1": (1,), "2": (2,), "3": (3,)}


def _ded(text: str) -> tuple:
    return tuple(int(x) for x in text.split(",")) if text else _ZERO


def _seats(text: str) -> tuple:
    return tuple(p or None for p in text.split("\t"))


def load(tid: str) -> Snapshot:
    """Read one tournament (raises Tournament.DoesNotExist). Work is one pass over the rows
    with plain SQL (the hands are most of it: no ORM objects, no JSON)."""
    from django.db import connection

    from host_tools.server.boxes.models import Correction, Device, Hand, Record, Ruling
    from host_tools.server.tournaments.models import Absence, Penalty, Player, Playoff, SeatingTable, SessionStart, Tournament

    t = Tournament.objects.values("id", "name", "format", "settings", "results_version").get(id=tid)
    players = list(Player.objects.filter(tournament_id=tid).order_by(F("draw").asc(nulls_last=True), "pid").values(
        "pid", "name", "draw", "ema_id", "country", "substitute", "withdrawn_from"))
    for p in players:
        p["id"] = p.pop("pid")
    seatings: dict = {}
    for s, table, ps in SeatingTable.objects.filter(seating__tournament_id=tid, seating__published_at__isnull=False).values_list(
            "seating__session", "table", "players"):
        seatings.setdefault(s, {})[table] = list(ps)
    survival = None
    if t["format"] == "mcr_survival":  # its tables are confirmed live, not seated per session
        from host_tools.server.survival import snapshot as survival_snapshot
        survival = survival_snapshot.load(tid)
        if survival.tables:
            seatings = survival.seatings()
    absences: dict = {}
    for s, pid in Absence.objects.filter(tournament_id=tid).values_list("session", "player__pid"):
        absences.setdefault(s, set()).add(pid)
    starts_at = dict(SessionStart.objects.filter(tournament_id=tid).values_list("session", "at"))
    bindings = {d: (bt, tb) for d, bt, tb in Device.objects.filter(tournament__isnull=False).values_list("id", "tournament_id", "table")}
    q = connection.ops.quote_name
    hands = []
    append = hands.append
    groups: dict = {}
    winners_of = _WINNERS
    with connection.cursor() as c:
        c.execute(
            "SELECT h.id, h.record_id, r.device_id, r.seq, h.session, h.%s, h.number, h.rules, h.p0, h.p1, h.p2, h.p3, "
            "h.d0, h.d1, h.d2, h.d3, h.dealer, h.winners, h.discarder, h.fans, h.time, h.deductions, h.entered_by "
            "FROM %s h LEFT JOIN %s r ON r.id = h.record_id WHERE h.tournament = %%s ORDER BY h.id"
            % (q("table"), Hand._meta.db_table, Record._meta.db_table), [tid])
        while True:
            rows = c.fetchmany(5000)
            if not rows:
                break
            for (hid, rid, dev, seq, s, tb, n, rules, p0, p1, p2, p3, d0, d1, d2, d3, dealer, w, dis, fans, time, ded, by) in rows:
                orig = (d0, d1, d2, d3)
                win = winners_of.get(w)
                if win is None:
                    win = tuple(int(ch) for ch in w)
                seats = (p0, p1, p2, p3)
                h = HandRow(hid, rid, dev, seq, s, tb, n, rules, seats, orig, orig, dealer, win, dis, fans, time, _ded(ded), by is not None)
                append(h)
                if by is None:
                    key = (dev, s, tb, seats)
                    g = groups.get(key)
                    if g is None:
                        groups[key] = [h]
                    else:
                        g.append(h)
        c.execute("SELECT session, %s, number FROM %s WHERE tournament = %%s GROUP BY session, %s, number HAVING COUNT(*) > 1"
                  % (q("table"), Hand._meta.db_table, q("table")), [tid])
        repeated = {tuple(r) for r in c.fetchall()}
        c.execute("SELECT id, device_id, seq, session, %s, seats, time FROM %s WHERE tournament = %%s AND kind = 'session' ORDER BY id"
                  % (q("table"), Record._meta.db_table), [tid])
        starts = [StartRow(rid, dev, seq, s, tb, _seats(seats or ""), time or 0) for rid, dev, seq, s, tb, seats, time in c.fetchall()]
    ends = [EndRow(rid, dev, seq, s, tb, body["hands"], dict(body["match_scores"]), body["time"]) for rid, dev, seq, s, tb, body in
            Record.objects.filter(tournament=tid, kind="session_end").values_list("id", "device_id", "seq", "session", "table", "body").order_by("id")]
    corrections = [CorrectionRow(*r[:10], r[10].isoformat(timespec="seconds")) for r in Correction.objects.filter(tournament=tid).values_list(
        "id", "hand_id", "source", "record_id", "record__device_id", "target_device", "target_seq", "deltas", "reason", "referee",
        "created_at").order_by("id")]
    rulings = dict(Ruling.objects.filter(tournament=tid).order_by("id").values_list("record_id", "decision"))
    penalties = list(Penalty.objects.filter(tournament_id=tid, revoked=False).values("id", "session", "player", "kind", "minutes", "points", "game", "reason"))
    playoffs = list(Playoff.objects.filter(tournament_id=tid).order_by("id").values("id", "session", "table", "scores"))
    return Snapshot(dict(t), players, seatings, bindings, hands, starts, ends, corrections, rulings, penalties, playoffs, t["results_version"],
                    groups, repeated, survival, absences, starts_at)
