"""Which stored records count: every record is checked against the registration and the published
seating every time results are computed (so registering a player or publishing a seating later
clears those problems by itself), and against its box's binding history once, at the door
(``boxes.placement``: the records held there, ``Snapshot.held``, stay held whatever comes later).

A record with a problem is quarantined: it stays stored, is listed for the referee with its
problems, is flagged on the standings page, and counts only after a referee accepts it (a
``Ruling``). A rejected record never counts. Problems found (one list per record):

* session or table outside 1..10000 (these cannot be accepted: nothing sane seats them);
* a player who is not registered in the tournament;
* a player seated at another table of the published seating of that session, or a session
  with no published seating (not checked for the survival event, whose tables form live);
* a box that was not bound to this tournament and table when the record was made (decided at
  the door from the binding history, for every session: ``Snapshot.held``; only a ruling lets
  such a record count);
* a table naming more than four players, or a player at two tables of one session (checked
  without a seating too, so they are caught in the survival event as well);
* a hand number recorded twice for one table with versions that differ (``versions``: the
  copies that agree count once and wait for nobody);
* a session left unfinished: no session_end at that table while the same box has begun a later
  session;
* a device correction of another box's record (a box corrects only its own).

DECISION: problems of a table (five players, a player at two tables) quarantine the records
that name the offending players; the others at that table still count.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from host_tools.server.tournaments import formats
from host_tools.server.tournaments.formats import MAX_SESSION, MAX_TABLE

from . import versions
from .snapshot import Snapshot

UNACCEPTABLE = "out of range"


@dataclass
class Verdict:
    problems: dict = field(default_factory=dict)  # record id -> [problem, ...]
    excluded: set = field(default_factory=set)  # record ids that do not count
    accepted: set = field(default_factory=set)  # quarantined but accepted by a referee
    rejected: set = field(default_factory=set)
    # one hand recorded twice (``versions``): record id -> why it does not count, waiting for nobody
    duplicates: dict = field(default_factory=dict)  # the same as the counted copy
    set_aside: dict = field(default_factory=dict)  # a referee counted another version
    dropped_hands: dict = field(default_factory=dict)  # hand id -> why: a referee's hand that does not count
    shown: dict = field(default_factory=dict)  # record id -> [the counted version, this one] (versions.describe)

    def add(self, rid, text: str) -> None:
        if rid is None:
            return
        lst = self.problems.setdefault(rid, [])
        if text not in lst:
            lst.append(text)

    def counts(self, rid) -> bool:
        return rid is None or rid not in self.excluded


def _range_problem(session: int, table: int):
    if not 1 <= session <= MAX_SESSION:
        return "session %d %s 1..%d" % (session, UNACCEPTABLE, MAX_SESSION)
    if not 1 <= table <= MAX_TABLE:
        return "table %d %s 1..%d" % (table, UNACCEPTABLE, MAX_TABLE)
    return None


def check(snap: Snapshot) -> Verdict:
    """The checks run per group of records, (box, session, table, chairs): the hands' groups come
    summed with the snapshot, a table has a few. Only when a group has a problem are its records
    read one by one (``Snapshot.load_hands`` of its table) to carry it."""
    v = Verdict()
    registered = {p["id"] for p in snap.players}
    check_seating = not formats.get(snap.tournament["format"]).live_tables
    seat_of: dict = {}  # (session, player) -> table, published seatings
    for s, tables in snap.seatings.items():
        for t, ps in tables.items():
            for p in ps:
                seat_of[(s, p)] = t
    # (device, session, table, players) -> record ids of the session and session_end records;
    # the hands' records of a group are read only when it has a problem
    others: dict = {k: [] for k in snap.groups}
    for r in snap.starts:
        others.setdefault((r.device, r.session, r.table, r.seats), []).append(r.record_id)
    for r in snap.ends:
        others.setdefault((r.device, r.session, r.table, tuple(r.match_scores)), []).append(r.record_id)
    found: dict = {}  # group key -> [(problem, hands only)]

    def flag(key, text, hands_only=False):
        lst = found.setdefault(key, [])
        if (text, hands_only) not in lst:
            lst.append((text, hands_only))

    at_table: dict = {}  # (session, table) -> {player: [group keys]}
    tables_of: dict = {}  # (session, player) -> set of tables
    for key in others:
        dev, s, t, seats = key
        rp = _range_problem(s, t)
        if rp:
            flag(key, rp)
            continue
        seated = check_seating and s in snap.seatings
        if check_seating and not seated:
            flag(key, "session %d has no published seating" % s)
        here = at_table.get((s, t))
        if here is None:
            here = at_table[(s, t)] = {}
        for p in seats:
            if p is None:
                continue
            if p not in registered:
                flag(key, "player %s is not registered" % p)
            elif seated:
                st = seat_of.get((s, p))
                if st is None:
                    flag(key, "player %s is not seated in session %d" % (p, s))
                elif st != t:
                    flag(key, "player %s is seated at table %d in session %d" % (p, st, s))
            keys = here.get(p)
            if keys is None:
                here[p] = [key]
                tabs = tables_of.get((s, p))
                if tabs is None:
                    tables_of[(s, p)] = {t}
                else:
                    tabs.add(t)
            else:
                keys.append(key)
    for (s, t), ps in at_table.items():
        if len(ps) > 4:
            seated = [p for p in ps if seat_of.get((s, p)) == t]
            # the extra players are those not seated here; without a seating, all are suspect
            extra = [p for p in ps if p not in seated] if len(seated) <= 4 and seated else list(ps)
            for p in extra:
                for key in ps[p]:
                    flag(key, "table %d of session %d names %d players" % (t, s, len(ps)))
    for (s, p), tabs in tables_of.items():
        if len(tabs) > 1:
            for t in tabs:
                if seat_of.get((s, p)) == t:
                    continue  # the table the seating gave them is right
                for key in at_table[(s, t)][p]:
                    flag(key, "player %s plays at tables %s of session %d" % (p, ", ".join(map(str, sorted(tabs))), s))
    # unfinished sessions: a box that began a later session without closing this one (its hands)
    ended = {(e.session, e.table) for e in snap.ends}
    latest_of: dict = {}
    for dev, s, _t, _seats in others:
        if latest_of.get(dev, 0) < s:
            latest_of[dev] = s
    for key in others:
        dev, s, t, _seats = key
        if (s, t) not in ended and latest_of.get(dev, 0) > s and key in snap.groups:
            flag(key, "session %d table %d was left unfinished (no session_end) before box %s began session %d" % (s, t, dev, latest_of[dev]), True)
    # the records of the groups with a problem, and every hand of the tables that need them
    loaded = snap.load_hands({(k[1], k[2]) for k in found if k in snap.groups} | snap.special)
    hand_rids: dict = {}
    for hs in loaded.values():
        for h in hs:
            if not h.manual:
                hand_rids.setdefault((h.device, h.session, h.table, h.seats), []).append(h.record_id)
    for key, problems in found.items():
        hrids, orids = hand_rids.get(key, ()), others.get(key, ())
        for text, hands_only in problems:
            for rid in hrids:
                v.add(rid, text)
            if not hands_only:
                for rid in orids:
                    v.add(rid, text)
    # held at the door: the box was not bound here when the record was made
    for rid, why in snap.held.items():
        v.add(rid, why)
    # device corrections: only of the box's own records
    for c in snap.corrections:
        if c.source == "device" and c.hand_id is not None and c.hand_device != c.record_device:
            v.add(c.record_id, "box %s cannot correct box %s's record" % (c.record_device, c.hand_device))
    # one hand number recorded twice at a table: after every other problem is known
    for hs in loaded.values():
        versions.judge(hs, snap.rulings, v)
    for rid, problems in v.problems.items():
        ruling = snap.rulings.get(rid)
        if ruling == "accept" and not any(UNACCEPTABLE in p for p in problems):
            v.accepted.add(rid)
        else:
            v.excluded.add(rid)
            if ruling == "reject":
                v.rejected.add(rid)
    for rid, ruling in snap.rulings.items():
        if ruling == "reject":
            v.excluded.add(rid)
            v.rejected.add(rid)
    return v


def acceptable(problems: list) -> bool:
    return not any(UNACCEPTABLE in p for p in problems)
