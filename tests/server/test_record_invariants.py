"""Issue 19 items 3 and 8: results that always add up, whichever way a result enters (a box's
hand, a box's correction, a version-1 record; the referee's entry and correction are
tests/server/test_invariants.py's), and numbers every supported database can store; a batch
answers per record and a bad record never takes the others down. SQLite and PostgreSQL."""
import base64
import json

from .conftest import uid
from .helpers import Device, correction_rec, hand_rec, signature
from .test_standings import seat, standings, table_records, upload

P = ["p1", "p2", "p3", "p4"]


def tournament_with_box(server):
    t = server.tournament("mcr_000", players=P)
    seat(server, t, 1, [P])
    dev = Device(uid("inv"))
    st, body = server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": t, "table": 1})
    assert st == 201, body
    return t, dev


def match(server, tid):
    return {r["player"]: r["match"] for r in standings(server, tid)["standings"]}


def raw_envelope(dev: Device, text: bytes) -> dict:
    """A record whose JSON is written by hand (numbers Python's json would not write)."""
    dev.seq += 1
    p = b"\x01" + text
    return {"device": dev.id, "seq": dev.seq, "payload": base64.b64encode(p).decode(), "sig": signature(dev.key, dev.id, dev.seq, p)}


def stored_seqs(server, dev):
    return [s for (s,) in server.sql("SELECT seq FROM boxes_record WHERE device_id = ? ORDER BY seq", (dev.id,))]


def v1_hand(t, deltas, events=None, **kw):
    return dict({"v": 1, "kind": "hand", "tournament": t, "session": 1, "table": 1, "hand": 2, "rules": "mcr", "seats": P, "dealer": 0,
                 "prevalent_wind": "E", "events": events or [], "deltas": deltas, "fans": {"seat": 0, "total": 8, "names": []},
                 "winners": [0], "discarder": None, "time": 1_700_000_700}, **kw)


def test_nothing_is_credited_from_nobody(server):
    t, dev = tournament_with_box(server)
    upload(server, table_records(dev, t, 1, 1, dict(zip(P, (30, 10, -10, -30)))))
    # a hand whose transfers credit seat 0 with 1,000,000 from nobody: deltas = transfers, so it passes that check
    bonus = hand_rec(t, 1, 1, 2, P, [1000000, 0, 0, 0], 0, transfers=[[None, 0, 1000000, 0]], events=[{"win": 0, "from": None, "hand": "x"}])
    st, body = server.anon.post("/api/records", dev.next(bonus))
    assert st == 400 and "from nobody" in body["error"], body
    # the box corrects its own hand to deltas that sum to 4,000,000
    corr = correction_rec(dev.id, 2, [1000000] * 4, seats=P, was=[30, 10, -10, -30])
    st, body = server.anon.post("/api/records", dev.next(corr))
    assert st == 400 and "sum" in body["error"], body
    # a version-1 hand with a delta of 10^9, and one whose deltas do not add up
    st, body = server.anon.post("/api/records", dev.next(v1_hand(t, [10**9, 0, 0, 0])))
    assert st == 400, body
    st, body = server.anon.post("/api/records", dev.next(v1_hand(t, [24, -8, -8, 0])))
    assert st == 400 and "sum" in body["error"], body
    assert stored_seqs(server, dev) == [1, 2, 3]
    assert match(server, t)["p1"] == "30"
    # what adds up still enters: a penalty paid to nobody (a deduction), a v1 Sichuan tier penalty
    pen = hand_rec(t, 1, 1, 2, P, [-5, 0, 0, 0], None, transfers=[[0, None, 5, 0]], events=[{"penalty": "x", "seat": 0, "points": 5}])
    st, body = server.anon.post("/api/records", dev.next(pen))
    assert st == 201, body


def test_numbers_no_database_can_store_are_refused_per_record(server):
    """On PostgreSQL one signed version-1 record whose events held 1e-10000000 answered 500 and
    took its batch down: now it is refused (400) and the others are stored."""
    t, dev = tournament_with_box(server)
    good = table_records(dev, t, 1, 1, dict(zip(P, (30, 10, -10, -30))))
    base = json.dumps(v1_hand(t, [24, -8, -8, -8], events=[{"note": 0}]), separators=(",", ":")).encode()
    bad = [raw_envelope(dev, base.replace(b'"note":0', b'"note":' + n)) for n in (b"1e-10000000", b"1e400", b"0.5", b"99999999999999999999")]
    items = good[:2] + bad + good[2:]
    st, body = server.anon.post("/api/records:batch", items)
    assert st == 200, body
    codes = [r["status_code"] for r in body["results"]]
    assert codes == [201, 201, 400, 400, 400, 400, 201], body
    assert all("number" in r["error"] for r in body["results"][2:6]), body
    assert stored_seqs(server, dev) == [1, 2, 3]
    assert match(server, t)["p1"] == "30"



def test_the_referees_paths_go_through_the_same_door(server):
    """A referee's correction is held to the same bounds as a box's (its own checks already
    refuse sums that are not 0): points and a deduction that together leave the bounds are refused."""
    t, dev = tournament_with_box(server)
    upload(server, table_records(dev, t, 1, 1, dict(zip(P, (30, 10, -10, -30)))))
    corr = {"session": 1, "table": 1, "hand": 1, "points": {"p1": 1000000, "p2": -1000000, "p3": 0, "p4": 0}, "reason": "x",
            "deductions": {"p2": 5}}
    st, body = server.ref.post("/api/tournaments/%s/corrections" % t, corr)
    assert st == 400 and "between" in body["error"], body
    st, body = server.ref.post("/api/tournaments/%s/corrections" % t, dict(corr, deductions={"p2": 0}))
    assert st == 201, body
