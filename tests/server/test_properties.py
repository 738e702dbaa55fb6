"""Property tests against the running server (SQLite and PostgreSQL): re-uploads change nothing,
table standard scores sum to the format total, forged/altered/replayed records are refused
with nothing stored changing, fuzzed requests never give 500, SQL injection is inert."""
import base64
import json
import random
from fractions import Fraction as F

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import Device, envelope, hand_rec, mcr_deltas, session_rec, synthetic_session

import itertools

_ids = itertools.count(1)
PROP = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def snapshot(db):
    with db.tx() as tx:
        recs = [(r["device_id"], r["seq"], bytes(r["payload"]), r["sig"]) for r in tx.all("SELECT device_id, seq, payload, sig FROM records ORDER BY device_id, seq")]
        corr = tx.all("SELECT target_device, target_seq, deltas FROM corrections ORDER BY id")
    return recs, corr


def new_tournament(server, fmt, tid):
    st, body = server.org.post("/api/tournaments", {"id": tid, "name": tid, "format": fmt})
    assert st == 201, body


def register(server, dev):
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex()})[0] == 201


@PROP
@given(seed=st.integers(0, 2**32), hands=st.integers(1, 6), chunk=st.integers(1, 7))
def test_reupload_changes_nothing(server, seed, hands, chunk):
    rng = random.Random(seed)
    tid = "R%d" % next(_ids)
    new_tournament(server, "mcr_000", tid)
    devices = {}
    for n in (1, 2):
        devices[n] = Device("%s-%d" % (tid, n))
        register(server, devices[n])
    envs, _ = synthetic_session(tid, 1, [(1, ["a", "b", "c", "d"]), (2, ["e", "f", "g", "h"])], devices, rng, hands)
    for i in range(0, len(envs), chunk):
        body = server.anon.post("/api/records:batch", envs[i:i + chunk])[1]
        assert all(r["status_code"] == 201 for r in body["results"])
    before = snapshot(server.db), server.anon.get("/api/tournaments/%s/standings" % tid)[1]
    shuffled = envs[:]
    rng.shuffle(shuffled)
    for env in shuffled[: len(shuffled) // 2]:
        assert server.anon.post("/api/records", env) == (200, {"status": "known", "device": env["device"], "seq": env["seq"]})
    body = server.anon.post("/api/records:batch", shuffled)[1]
    assert {r["status_code"] for r in body["results"]} == {200}
    after = snapshot(server.db), server.anon.get("/api/tournaments/%s/standings" % tid)[1]
    assert before == after


@PROP
@given(tables=st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=4), min_size=1, max_size=4), fmt=st.sampled_from(["mcr_000", "mcr_swiss_001"]))
def test_table_standard_scores_sum_to_format_total(server, tables, fmt):
    tid = "S%d" % next(_ids)
    new_tournament(server, fmt, tid)
    dev = Device("d" + tid)
    register(server, dev)
    envs = []
    for t, scores in enumerate(tables, 1):
        seats = ["%s-%d-%d" % (tid, t, i) for i in range(len(scores))] + [None] * (4 - len(scores))
        deltas = [s * 8 for s in scores] + [0] * (4 - len(scores))  # small range: many ties
        envs.append(dev.next(hand_rec(tid, 1, t, 1, seats, deltas, None, None, 0)))
    assert all(r["status_code"] == 201 for r in server.anon.post("/api/records:batch", envs)[1]["results"])
    for t, scores in enumerate(tables, 1):
        tb = server.anon.get("/api/tournaments/%s/tables/1/%d" % (tid, t))[1]
        total = sum(F(p["standard_exact"]) for p in tb["players"])
        n = len(scores)
        expected = 7 if fmt == "mcr_000" else n + F((n - 1) * (n - 2), 2)
        assert total == expected, (scores, tb["players"])


MUTATIONS = ("flip_payload", "flip_sig", "other_seq", "other_device", "other_key", "replay_other_payload", "truncate_payload")


@PROP
@given(mutation=st.sampled_from(MUTATIONS), pos=st.integers(0, 10**6), seed=st.integers(0, 2**16))
def test_forged_altered_replayed_refused_nothing_changes(server, mutation, pos, seed):
    dev = Device("f%d" % next(_ids))
    other = Device(dev.id + "x")
    register(server, dev)
    register(server, other)
    seats = ["a", "b", "c", "d"]
    first = dev.next(hand_rec("F", 1, 1, 1, seats, mcr_deltas(random.Random(seed), 0, 1, 8), 0, 1, 8))
    assert server.anon.post("/api/records", first)[0] == 201
    before = snapshot(server.db)
    payload = base64.b64decode(first["payload"])
    if mutation == "flip_payload":
        b = bytearray(payload)
        i = pos % len(b)
        b[i] ^= 1 << (pos % 8)
        env = dict(first, payload=base64.b64encode(bytes(b)).decode())
    elif mutation == "truncate_payload":
        env = dict(first, payload=base64.b64encode(payload[: pos % len(payload)]).decode())
    elif mutation == "flip_sig":
        i = pos % 64
        c = first["sig"][i]
        env = dict(first, sig=first["sig"][:i] + ("0" if c != "0" else "1") + first["sig"][i + 1:])
    elif mutation == "other_seq":
        env = dict(first, seq=first["seq"] + 1 + pos % 1000)
    elif mutation == "other_device":
        env = dict(first, device=other.id)
    elif mutation == "other_key":
        env = envelope(other.key, dev.id, 1 + pos % 3, hand_rec("F", 1, 1, 1, seats, [99, -33, -33, -33], 0, None, 8))
    else:  # correctly signed, same (device, seq), different content: a replayed/re-keyed journal entry
        env = envelope(dev.key, dev.id, 1, hand_rec("F", 1, 1, 1, seats, [99, -33, -33, -33], 0, None, 8))
    st_, body = server.anon.post("/api/records", env)
    assert st_ in (403, 409), (mutation, st_, body)
    assert snapshot(server.db) == before


def _rand_json(rng, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.3:
        return rng.choice([None, True, False, 0, -1, 2**31, 2**63, 1.5, -0.0, "", "x", "é" * 3, "\x00", "'; DROP TABLE records; --", "a" * 300])
    if r < 0.6:
        return [_rand_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["device", "seq", "payload", "sig", "id", "name", "format", "settings", "players", "kind", "session", "player", "minutes",
            "points", "reason", "deltas", "table", "scores", "method", "tables", "username", "password", "role", "key", "active", "x"]
    return {rng.choice(keys): _rand_json(rng, depth + 1) for _ in range(rng.randint(0, 6))}


def test_fuzzed_requests_never_500(server):
    rng = random.Random(20240601)
    new_tournament(server, "mcr_000", "Z")
    dev = Device("fz")
    register(server, dev)
    good = dev.next(session_rec("Z", 1, 1, ["a", "b", "c", "d"]))
    server.anon.post("/api/records", good)
    targets = [
        ("POST", "/api/records"), ("POST", "/api/records:batch"), ("POST", "/api/tournaments"), ("PATCH", "/api/tournaments/Z"),
        ("POST", "/api/tournaments/Z/players"), ("POST", "/api/tournaments/Z/corrections"), ("POST", "/api/tournaments/Z/penalties"),
        ("POST", "/api/tournaments/Z/playoffs"), ("POST", "/api/tournaments/Z/seatings/1"), ("POST", "/api/devices"),
        ("POST", "/api/accounts"), ("PATCH", "/api/accounts/ref"), ("POST", "/api/login"), ("GET", "/api/tournaments/Z/tables/1/1"),
        ("GET", "/api/tournaments/%00/standings"), ("GET", "/api/tournaments/%ff%fe/standings"), ("GET", "/t/Z/players/%C3%28"),
        ("POST", "/referee/login"), ("POST", "/referee/t/Z/penalties"), ("DELETE", "/api/tournaments/Z/penalties/999999999"),
        ("GET", "/api/tournaments/Z/seatings/0"), ("PUT", "/api/records"),
    ]
    codes = {}
    for i in range(320):
        method, path = rng.choice(targets)
        client = server.org if rng.random() < 0.7 else server.anon
        kind = rng.random()
        if kind < 0.5:
            body = _rand_json(rng)
            if path == "/api/records" and rng.random() < 0.5:  # near-valid envelopes
                body = dict(good, **({rng.choice(list(good)): _rand_json(rng)} if rng.random() < 0.8 else {}))
            status, _, payload = client.request(method, path, body=body)
        elif kind < 0.8:
            raw = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 200)))
            status, _, payload = client.request(method, path, raw=raw, headers={"Content-Type": rng.choice(["application/json", "text/csv", "application/x-www-form-urlencoded"])})
        else:
            raw = json.dumps(_rand_json(rng)).encode()[: rng.randint(0, 50)]
            status, _, payload = client.request(method, path, raw=raw, headers={"Content-Type": "application/json"})
        assert status < 500, (method, path, status, payload[:300])
        codes[status] = codes.get(status, 0) + 1
    assert len(codes) >= 3  # the fuzz reached several outcomes


INJECTIONS = [
    "x'; DROP TABLE records; --",
    "' OR '1'='1",
    "\"; DELETE FROM players; --",
    "Robert'); DROP TABLE players;--",
    "1; UPDATE accounts SET role='organizer'",
    "%s %s ?",
    "\\'; SELECT pg_sleep(5); --",
    "<script>alert(1)</script>",
]


def test_sql_injection_in_every_string_field_is_harmless(server):
    for k, evil in enumerate(INJECTIONS):
        tid = "T%d%s" % (k, evil)[:60]
        st_, t = server.org.post("/api/tournaments", {"id": tid, "name": evil, "format": "mcr_000"})
        assert st_ == 201, t
        players = [{"id": "%s-%d" % (evil, i), "name": evil, "draw": i + 1, "ema_id": evil[:20], "country": evil} for i in range(4)]
        assert server.org.post("/api/tournaments/%s/players" % _q(tid), players)[0] == 200
        dev = Device(("d%d" % k) + evil[:40])
        assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "label": evil})[0] == 201
        seats = [p["id"] for p in players]
        envs = [dev.next(session_rec(tid, 1, 1, seats)), dev.next(hand_rec(tid, 1, 1, 1, seats, [24, -8, -8, -8], 0))]
        envs.append(dev.next({"v": 1, "kind": "correction", "corrects": {"device": dev.id, "seq": 2}, "deltas": [-8, 24, -8, -8], "reason": evil, "referee": evil, "time": 5}))
        assert {r["status_code"] for r in server.anon.post("/api/records:batch", envs)[1]["results"]} == {201}
        assert server.ref.post("/api/tournaments/%s/penalties" % _q(tid), {"session": 1, "player": seats[0], "kind": "points", "points": -5, "reason": evil})[0] == 201
        assert server.ref.post("/api/tournaments/%s/corrections" % _q(tid), {"device": dev.id, "seq": 2, "deltas": [-8, -8, 24, -8], "reason": evil})[0] == 201
        assert server.org.post("/api/accounts", {"username": "u%d" % k + evil[:30], "password": evil + "pw-long", "role": "referee"})[0] in (201, 400)
        assert server.anon.post("/api/login", {"username": evil, "password": evil})[0] == 401
        st_, got = server.anon.get("/api/tournaments/%s" % _q(tid))
        assert st_ == 200 and got["id"] == tid and got["name"] == evil
        got = server.anon.get("/api/tournaments/%s/players" % _q(tid))[1]
        assert sorted(p["id"] for p in got) == sorted(seats) and {p["name"] for p in got} == {evil}
        rows = server.anon.get("/api/tournaments/%s/standings" % _q(tid))[1]["standings"]
        assert rows[0]["player"] == seats[2] and rows[0]["match"] == "24"
        assert evil not in server.anon.request("GET", "/t/%s/standings" % _q(tid))[2].decode() or "<" not in evil
    with server.db.tx() as tx:
        assert tx.scalar("SELECT COUNT(*) FROM records") == 3 * len(INJECTIONS)
        assert tx.scalar("SELECT COUNT(*) FROM players") == 4 * len(INJECTIONS)
        assert tx.scalar("SELECT COUNT(*) FROM accounts WHERE role = 'organizer'") == 1


def _q(s):
    from urllib.parse import quote

    return quote(s, safe="")
