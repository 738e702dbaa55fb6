"""Property tests against the running server (SQLite and PostgreSQL): re-uploads change nothing,
table standard scores sum to the format total, forged/altered/replayed records are refused
with nothing stored changing, fuzzed requests never give 500, SQL injection is inert."""
import base64
import json
import random
from fractions import Fraction as F
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import uid
from .helpers import Device, correction_rec, envelope, hand_rec, mcr_deltas, session_rec, synthetic_session
from .test_standings import seat

PROP = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def snapshot(server, devices):
    ids = [d.id for d in devices]
    marks = ",".join("?" * len(ids))
    recs = [(r[0], r[1], bytes(r[2]), r[3]) for r in server.sql(
        "SELECT device_id, seq, payload, sig FROM boxes_record WHERE device_id IN (%s) ORDER BY device_id, seq" % marks, ids)]
    corr = server.sql("SELECT target_device, target_seq, deltas FROM boxes_correction WHERE target_device IN (%s) ORDER BY id" % marks, ids)
    return recs, [tuple(map(str, c)) for c in corr]


def register(server, dev, tid=None, table=None):
    """A box; bound to ``tid`` at ``table`` when given (records count only where their box was bound)."""
    body = {"id": dev.id, "key": dev.key.hex()}
    if tid is not None:
        body.update(tournament=tid, table=table)
    assert server.org.post("/api/devices", body)[0] == 201


@PROP
@given(seed=st.integers(0, 2**32), hands=st.integers(1, 6), chunk=st.integers(1, 7))
def test_reupload_changes_nothing(server, seed, hands, chunk):
    rng = random.Random(seed)
    tid = server.tournament("mcr_000", players=list("abcdefgh"))
    seat(server, tid, 1, [list("abcd"), list("efgh")])
    devices = {}
    for n in (1, 2):
        devices[n] = Device(uid(tid + "-%d-" % n))
        register(server, devices[n], tid, n)
    envs, _ = synthetic_session(tid, 1, [(1, ["a", "b", "c", "d"]), (2, ["e", "f", "g", "h"])], devices, rng, hands)
    for i in range(0, len(envs), chunk):
        body = server.anon.post("/api/records:batch", envs[i:i + chunk])[1]
        assert all(r["status_code"] == 201 for r in body["results"])
    before = snapshot(server, devices.values()), server.anon.get("/api/tournaments/%s/standings" % tid)[1]
    shuffled = envs[:]
    rng.shuffle(shuffled)
    for env in shuffled[: len(shuffled) // 2]:
        st_, body = server.anon.post("/api/records", env)
        assert (st_, body["status"], body["device"], body["seq"], body["place"]["status"]) == (200, "known", env["device"], env["seq"], "table")
    body = server.anon.post("/api/records:batch", shuffled)[1]
    assert {r["status_code"] for r in body["results"]} == {200}
    after = snapshot(server, devices.values()), server.anon.get("/api/tournaments/%s/standings" % tid)[1]
    assert before == after
    assert before[1]["quarantined"] == 0


@PROP
@given(tables=st.lists(st.lists(st.integers(-3, 3), min_size=4, max_size=4), min_size=1, max_size=4), fmt=st.sampled_from(["mcr_000", "mcr_swiss_001"]))
def test_table_standard_scores_sum_to_format_total(server, tables, fmt):
    seated = [["p%d-%d" % (t, i) for i in range(len(scores))] for t, scores in enumerate(tables, 1)]
    tid = server.tournament(fmt, players=[p for ps in seated for p in ps])
    seat(server, tid, 1, seated)
    envs = []
    for t, scores in enumerate(tables, 1):
        dev = Device(uid("d"))  # a box per table, bound there
        register(server, dev, tid, t)
        seats = seated[t - 1] + [None] * (4 - len(scores))
        # small range: many ties; all at or below 0 (penalties paid to nobody), as nothing is credited from nobody
        deltas = [(x - max(scores)) * 8 for x in scores] + [0] * (4 - len(scores))
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
    dev = Device(uid("f"))
    other = Device(dev.id + "x")
    register(server, dev)
    register(server, other)
    seats = ["a", "b", "c", "d"]
    first = dev.next(hand_rec("F", 1, 1, 1, seats, mcr_deltas(random.Random(seed), 0, 1, 8), 0, 1, 8))
    assert server.anon.post("/api/records", first)[0] == 201
    before = snapshot(server, [dev, other])
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
    assert snapshot(server, [dev, other]) == before


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
    tid = server.tournament("mcr_000", players=["a", "b", "c", "d"])
    seat(server, tid, 1, [["a", "b", "c", "d"]])
    dev = Device(uid("fz"))
    register(server, dev)
    good = dev.next(session_rec(tid, 1, 1, ["a", "b", "c", "d"]))
    server.anon.post("/api/records", good)
    server.anon.post("/api/records", dev.next(hand_rec(tid, 1, 1, 1, ["a", "b", "c", "d"], [24, -8, -8, -8], 0)))
    t = "/api/tournaments/" + tid
    targets = [
        ("POST", "/api/records"), ("POST", "/api/records:batch"), ("POST", "/api/tournaments"), ("PATCH", t), ("POST", t + "/players"),
        ("PATCH", t + "/players/a"), ("POST", t + "/corrections"), ("POST", t + "/penalties"), ("POST", t + "/playoffs"), ("POST", t + "/hands"),
        ("POST", t + "/rulings"), ("POST", t + "/seatings/1"), ("POST", t + "/seatings/1/swap"), ("POST", t + "/absences"), ("POST", t + "/roles"),
        ("POST", "/api/devices"), ("POST", "/api/devices/%s/bind" % dev.id), ("POST", "/api/accounts"), ("PATCH", "/api/accounts/ref"),
        ("POST", "/api/login"), ("GET", t + "/tables/1/1"), ("GET", "/api/tournaments/%00/standings"), ("GET", "/api/tournaments/%ff%fe/standings"),
        ("GET", "/t/%s/players/%%C3%%28" % tid), ("DELETE", t + "/penalties/999999999"), ("GET", t + "/seatings/0"), ("PUT", "/api/records"),
        ("GET", "/api/boxes/%s/config?head=-1" % dev.id), ("GET", "/t/%s/board?session=99999999999" % tid), ("GET", "/t/%s/tables/1/99999999999" % tid),
    ]
    codes = {}
    for i in range(300):
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
    assert len(codes) >= 4  # the fuzz reached several outcomes
    assert server.anon.get("/api/tournaments/%s/standings" % tid)[0] == 200


INJECTIONS = [
    "x'; DROP TABLE boxes_record; --",
    "' OR '1'='1",
    "\"; DELETE FROM tournaments_player; --",
    "Robert'); DROP TABLE tournaments_player;--",
    "1; UPDATE auth_user SET is_superuser=true",
    "%s %s ?",
    "\\'; SELECT pg_sleep(5); --",
    "<script>alert(1)</script>",
]


def test_sql_injection_in_every_string_field_is_harmless(server):
    devs = []
    for k, evil in enumerate(INJECTIONS):
        tid = server.tournament("mcr_000", name=evil)
        players = [{"id": "%s-%d" % (evil.replace("/", "|")[:12], i), "name": evil, "draw": i + 1, "ema_id": evil[:20], "country": evil} for i in range(4)]
        assert server.org.post("/api/tournaments/%s/players" % tid, players)[0] == 200
        seats = [p["id"] for p in players]
        seat(server, tid, 1, [seats])
        dev = Device(uid("d%d" % k) + evil[:40])
        devs.append(dev)
        assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "label": evil, "tournament": tid, "table": 1})[0] == 201
        envs = [dev.next(session_rec(tid, 1, 1, seats)), dev.next(hand_rec(tid, 1, 1, 1, seats, [24, -8, -8, -8], 0))]
        envs.append(dev.next(correction_rec(dev.id, 2, [-8, 24, -8, -8], evil[:100], evil[:100], 5, seats=seats, was=[24, -8, -8, -8])))
        assert {r["status_code"] for r in server.anon.post("/api/records:batch", envs)[1]["results"]} == {201}
        assert server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": seats[0], "kind": "points", "points": -5, "reason": evil})[0] == 201
        corr = {"session": 1, "table": 1, "hand": 1, "points": dict(zip(seats, [-8, -8, 24, -8])), "reason": evil}
        assert server.ref.post("/api/tournaments/%s/corrections" % tid, corr)[0] == 201
        assert server.org.post("/api/accounts", {"username": uid("u"), "password": evil + "pw-long"})[0] in (201, 400)
        assert server.anon.post("/api/login", {"username": evil, "password": evil})[0] in (400, 401)
        st_, got = server.anon.get("/api/tournaments/%s" % tid)
        assert st_ == 200 and got["id"] == tid and got["name"] == evil
        got = server.anon.get("/api/tournaments/%s/players" % tid)[1]
        assert sorted(p["id"] for p in got) == sorted(seats) and {p["name"] for p in got} == {evil}
        st_, ph = server.anon.get("/api/tournaments/%s/players/%s/hands" % (tid, quote(seats[2], safe="")))
        assert st_ == 200 and ph["hands"][0]["delta"] == 24
        rows = server.anon.get("/api/tournaments/%s/standings" % tid)[1]["standings"]
        assert rows[0]["player"] == seats[2] and rows[0]["match"] == "24"
        page = server.anon.request("GET", "/t/%s/standings" % tid)[2].decode()
        assert "<script>alert(1)</script>" not in page
    assert len(snapshot(server, devs)[0]) == 3 * len(INJECTIONS)
    assert server.sql("SELECT COUNT(*) FROM auth_user WHERE is_superuser = ?", (True,))[0][0] == 1
