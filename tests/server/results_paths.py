"""Run by test_results_paths in a process of its own (Django configured for one database):

    python tests/server/results_paths.py DB_URL SEED

Stores a random small tournament with every kind of trouble (hand numbers stored twice, an
unregistered player, a fifth player, a player at two tables, a box bound elsewhere or nowhere, a session
without a seating, device corrections of its own and of another box's record, referee
corrections, hands entered by a referee, accepted and rejected records), then computes the
results twice: as the server does (hands summed by the database, single hands read only where
needed) and with every table's single hands read. Prints one JSON line: the differences found
(none expected) and what the data held (so the test knows every path was taken).
"""
from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

FORMATS = ("mcr_000", "mcr_swiss_001", "guangdong_004")
RULES = {"mcr_000": "mcr", "mcr_swiss_001": "mcr", "guangdong_004": "guangdong"}


def main(db: str, seed: int) -> dict:
    os.environ.setdefault("MT_SECRET_KEY", "results-paths")
    from host_tools.server.main import migrate, setup

    setup(db)
    migrate()
    from host_tools.server.boxes import actions as boxes, ingest, referee
    from host_tools.server.results import compute, snapshot
    from host_tools.server.tournaments import actions

    from tests.server.helpers import Device, correction_rec, end_rec, hand_rec, mcr_deltas, session_rec

    rng = random.Random(seed)
    out = {"differences": [], "seen": {}}
    for fmt in FORMATS:
        tid = "P%d-%s" % (seed, fmt)
        rules = RULES[fmt]
        players = ["%s%02d" % (fmt[:2], i) for i in range(1, 33)]
        t = actions.create_tournament("test", tid, tid, fmt, {"prelim_sessions": 4} if fmt != "mcr_swiss_001" else None)
        actions.import_players("test", tid, [{"id": p, "name": p, "draw": i + 1} for i, p in enumerate(players)])
        devs = []
        for n in range(1, 9):
            d = Device("%s-box%d" % (tid, n))
            boxes.register("test", d.id, d.key)
            devs.append(d)
        for n in (2, 3, 5, 6, 7, 8):  # each box plays at its table; box 1 is bound nowhere
            boxes.bind("test", devs[n - 1].id, tid, n)
        boxes.bind("test", devs[3].id, tid, 1)  # box 4 is bound to table 1, and plays at table 4
        envs = []
        for s in (1, 2, 3):
            order = players[:]
            rng.shuffle(order)
            tables = [order[i:i + 4] for i in range(0, 32, 4)]
            if s < 3:  # session 3 has no published seating
                tabs = actions.manual_tables(t, [{"table": i, "players": ps} for i, ps in enumerate(tables, 1)])
                actions.save_seating("test", t, s, tabs, "manual", {})
                actions.publish("test", t, s)
            for i, seats in enumerate(tables):
                dev, tn = devs[i], i + 1
                envs.append(dev.next(session_rec(tid, s, tn, list(seats), rules)))
                chairs, tot = list(seats), dict.fromkeys(seats, 0)
                rate = 0.12 if rng.random() < 0.4 else 0  # most tables have no trouble
                for h in range(1, 9):
                    w = rng.choice([None, 0, 1, 2, 3])
                    dis = None if w is None or rng.random() < 0.4 else rng.choice([x for x in range(4) if x != w])
                    d = mcr_deltas(rng, w, dis, 8)
                    who = list(chairs)
                    trouble = rng.random() / 0.12 * rate if rate else 1
                    number = h
                    if trouble < 0.04:
                        who[rng.randrange(4)] = "nobody%d" % rng.randrange(3)  # not registered / a fifth player
                    elif trouble < 0.08:
                        who[rng.randrange(4)] = rng.choice(players)  # maybe a player at two tables
                        if len(set(who)) < 4:
                            who = list(chairs)
                    elif trouble < 0.12:
                        number = rng.randrange(1, h + 1)  # a hand number stored twice
                    envs.append(dev.next(hand_rec(tid, s, tn, number, who, d, w, dis, 8, rules, time=1_700_000_000 + s * 10_000 + h * 60)))
                    if who == chairs:
                        for p, x in zip(chairs, d):
                            tot[p] += x
                    if h % 4 == 0:
                        chairs = [chairs[1], chairs[0], chairs[3], chairs[2]]
                if rng.random() < 0.8:  # some tables never send their session_end
                    envs.append(dev.next(end_rec(tid, s, tn, 8, tot)))
        # device corrections: of the box's own hands, and of another box's
        for _ in range(4):
            dev = rng.choice(devs)
            target = rng.choice(devs)
            seq = rng.randrange(2, target.seq + 1)
            envs.append(dev.next(correction_rec(target.id, seq, [24, -8, -8, -8], "miskeyed", "ref")))
        for i in range(0, len(envs), 50):
            got = ingest.store_batch(envs[i:i + 50])
            assert all(st in (200, 201) for st, _ in got), [b for st, b in got if st not in (200, 201)]
        res = compute.compute(snapshot.load(tid))
        # referees: corrections by name, a hand entered by hand, rulings on quarantined records
        for (s, tn), tb in sorted(res.tables.items())[:3]:
            if tb.hands and 1 <= s <= 2:
                h = tb.hands[0]
                ps = [p for p in h.seats if p is not None]
                pts = dict(zip(ps, [9, -3, -3, -3]))
                referee.correct("ref", tid, s, tn, h.number, pts, "referee")
        for (s, tn) in ((1, 2), (2, 3)):
            tb = res.tables.get((s, tn))
            if tb is not None and tb.hands:
                seats = list(tb.hands[0].seats)
                win = {"win": 0, "from": 1, "hand": "123456789m123s55s"} if rules == "mcr" else {"wall_end": True}
                referee.enter_hand("ref", tid, s, tn, 8 if s == 1 else 30, seats, 0, "E", [win], "box failed")
        for q in compute.compute(snapshot.load(tid)).quarantine[:6]:
            if q["acceptable"]:
                referee.rule("ref", tid, q["record"], rng.choice(["accept", "reject"]), "test")
        fast = compute.compute(snapshot.load(tid))
        slow_snap = snapshot.load(tid)
        slow_snap.special |= {(k[1], k[2]) for k in slow_snap.groups}  # every table read hand by hand
        slow = compute.compute(slow_snap)
        seen = out["seen"]
        for key, n in (("tables", len(fast.tables)), ("summed", sum(1 for tb in fast.tables.values() if tb.detail is None)),
                       ("read", sum(1 for tb in fast.tables.values() if tb.detail is not None)), ("quarantine", len(fast.quarantine)),
                       ("accepted", sum(1 for q in fast.quarantine if q["accepted"])), ("rejected", sum(1 for q in fast.quarantine if q["rejected"])),
                       ("twice", sum(1 for q in fast.quarantine for p in q["problems"] if "stored twice" in p)),
                       ("corrected", sum(1 for tb in fast.tables.values() for h in (tb.detail or []) if h.correction)),
                       ("manual", sum(1 for tb in fast.tables.values() for h in (tb.detail or []) if h.manual))):
            seen[key] = seen.get(key, 0) + n
        diff = compare(fast, slow)
        out["differences"] += ["%s: %s" % (fmt, d) for d in diff]
    return out


def compare(a, b) -> list:
    out = []
    if a.as_json() != b.as_json():
        out.append("standings documents differ")
    if a.quarantine != b.quarantine:
        out.append("quarantine lists differ")
    if sorted(a.tables) != sorted(b.tables):
        out.append("tables differ: %s / %s" % (sorted(a.tables), sorted(b.tables)))
    for k in sorted(set(a.tables) & set(b.tables)):
        x, y = a.tables[k], b.tables[k]
        if x.raw_scores() != y.raw_scores() or x.n_hands != y.n_hands or x.quarantined != y.quarantined or x.first_time() != y.first_time():
            out.append("table %s differs" % (k,))
        if [(h.id, h.deltas) for h in x.hands] != [(h.id, h.deltas) for h in y.hands]:
            out.append("hands of table %s differ" % (k,))
        if compute_problems(x) != compute_problems(y):
            out.append("problems of table %s differ" % (k,))
    if {k: {p: (v.standard, v.match, v.place) for p, v in d.items()} for k, d in a.table_scores.items()} != \
            {k: {p: (v.standard, v.match, v.place) for p, v in d.items()} for k, d in b.table_scores.items()}:
        out.append("table scores differ")
    return out


def compute_problems(tb):
    from host_tools.server.results.compute import table_problems

    return table_problems(tb)


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]))))
