"""POST /api/records and /api/records:batch: the contract's statuses, idempotence, refusals
(SQLite and PostgreSQL, through the real server)."""
import base64
import json
import threading

import pytest

from .conftest import uid
from .helpers import Device, correction_rec, envelope, hand_rec, payload_bytes, session_rec, signature

SEATS = ["p1", "p2", "p3", "p4"]


def register(server, dev: Device):
    st, body = server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "label": "table"})
    assert st == 201, body
    assert "key" not in body


def new_device(server) -> Device:
    dev = Device(uid("box-"))
    register(server, dev)
    return dev


def stored(server, dev: Device):
    return [(d, s, bytes(p)) for d, s, p in server.sql("SELECT device_id, seq, payload FROM boxes_record WHERE device_id = ? ORDER BY id", (dev.id,))]


def test_statuses(server):
    dev = new_device(server)
    env = dev.next(session_rec("T", 1, 1, SEATS))
    # stored (and, as no tournament T is here and the box is bound to none, it waits for a referee to claim it)
    held = {"status": "quarantine", "reason": "keyed in at the box for tournament T, which this server does not have: a referee claims it "
                                              "for a session and table once the box is bound to a tournament"}
    assert server.anon.post("/api/records", env) == (201, {"status": "stored", "device": dev.id, "seq": 1, "place": held})
    assert server.anon.post("/api/records", env) == (200, {"status": "known", "device": dev.id, "seq": 1, "place": held})
    # same (device, seq), another payload, correctly signed: replay / altered journal -> 409
    other = envelope(dev.key, dev.id, 1, session_rec("T", 1, 2, SEATS))
    st, body = server.anon.post("/api/records", other)
    assert st == 409 and "kept" in body["error"]
    # forged: wrong key
    forged = envelope(b"\x00" * 32, dev.id, 2, hand_rec("T", 1, 1, 1, SEATS, [24, -8, -8, -8], 0))
    assert server.anon.post("/api/records", forged)[0] == 403
    # unknown device
    assert server.anon.post("/api/records", envelope(dev.key, uid("nobody"), 1, session_rec("T", 1, 1, SEATS)))[0] == 403
    # altered payload under the original signature
    good = dev.next(hand_rec("T", 1, 1, 1, SEATS, [24, -8, -8, -8], 0))
    p = bytearray(base64.b64decode(good["payload"]))
    p[p.index(b"24")] = ord("9")
    altered = dict(good, payload=base64.b64encode(bytes(p)).decode())
    assert server.anon.post("/api/records", altered)[0] == 403
    assert server.anon.post("/api/records", good)[0] == 201
    assert len(stored(server, dev)) == 2


def test_device_key_is_write_only(server):
    dev = new_device(server)
    st, devices = server.org.get("/api/devices")
    assert st == 200 and any(d["id"] == dev.id for d in devices) and all("key" not in d for d in devices)
    assert dev.key.hex() not in json.dumps(server.org.get("/api/audit")[1])
    assert server.org.post("/api/devices", {"id": dev.id, "key": "00" * 32})[0] == 409
    assert server.ref.post("/api/devices", {"id": uid("box-r"), "key": "00" * 32})[0] == 403
    assert server.anon.post("/api/devices", {"id": uid("box-a"), "key": "00" * 32})[0] == 401
    assert server.org.post("/api/devices", {"id": uid("box-x"), "key": "00" * 31})[0] == 400


def signed_raw(dev: Device, seq: int, payload: bytes) -> dict:
    return {"device": dev.id, "seq": seq, "payload": base64.b64encode(payload).decode(), "sig": signature(dev.key, dev.id, seq, payload)}


MALFORMED_PAYLOADS = [
    b"",
    b"\x02" + payload_bytes(session_rec("T", 1, 1, SEATS))[1:],  # unknown version
    b"\x01not json",
    b"\x01\xff\xfe",  # not UTF-8
    b"\x01[1,2]",
    b'\x01{"v":2,"kind":"session","kind":"hand"}',  # duplicate key
    b'\x01{"v":2,"kind":"session"}',
    b'\x01{"v":2,"kind":"lunch"}',
    b'\x01{"v":2,"kind":"hand"}',
    b'\x01{"v":2,"kind":"session","tournament":"T","session":1,"table":1,"rules":"mcr","seats":["a","b","c","d"],"first_dealer":0,"time":NaN}',
    # a lone surrogate or a NUL anywhere (here inside an event): no database can store it as text
    payload_bytes(hand_rec("T", 1, 1, 1, SEATS, [24, -8, -8, -8], 0, events=[{"penalty": "x", "seat": 0}])).replace(b'"x"', b'"\\ud800"'),
    payload_bytes(hand_rec("T", 1, 1, 1, SEATS, [24, -8, -8, -8], 0, events=[{"penalty": "x", "seat": 0}])).replace(b'"x"', b'"\\u0000"'),
    payload_bytes(session_rec("T", 1, 1, ["\ud800" if False else "p1", "p2", "p3", "p4"])).replace(b'"p1"', b'"\\udfff"'),
]


@pytest.mark.parametrize("payload", MALFORMED_PAYLOADS)
def test_malformed_payloads_are_400(server, payload):
    dev = new_device(server)
    st, body = server.anon.post("/api/records", signed_raw(dev, 1, payload))
    assert st == 400, body
    assert stored(server, dev) == []


def test_malformed_fields(server):
    dev = new_device(server)
    base = hand_rec("T", 1, 1, 1, SEATS, [24, -8, -8, -8], 0)
    bad = [
        dict(base, deltas=[1, 2, 3]),
        dict(base, deltas=[1, 2, 3, True]),
        dict(base, deltas=[1, 2, 3, 1.5]),
        dict(base, seats=["p1", "p1", "p3", "p4"]),
        dict(base, seats=["p1", None, None, "p4"]),
        dict(base, dealer=4),
        dict(base, prevalent_wind="X"),
        dict(base, winners=[0], discarder=0),
        dict(base, winners=[0, 1]),  # MCR: one winner
        dict(base, winners=[], discarder=1, fans=None),
        dict(base, wins=[{"seat": 3, "from": None, "total": 8, "fans": []}]),  # winners say seat 0
        dict(base, transfers=[]),  # deltas are not the transfers' sum
        dict(base, hand=0),
        dict(base, session=2**31),
        dict(base, session=10001),
        dict(base, table=0),
        dict(base, rules="riichi"),
        dict(base, tournament=""),
        dict(base, tournament="x" * 65),
        dict(base, events={"a": 1}),
        dict(base, time=-1),
        {k: v for k, v in base.items() if k != "deltas"},
    ]
    for i, body in enumerate(bad, 1):
        st, reply = server.anon.post("/api/records", envelope(dev.key, dev.id, i, body))
        assert st == 400, (body, reply)
    assert stored(server, dev) == []


def test_sichuan_discarder_may_win_later(server):
    dev = new_device(server)
    # seat 1 dealt in to seat 0, then won itself (血战: the hand goes on after a win)
    body = hand_rec("T", 1, 1, 1, SEATS, [20, -40, 0, 20], None, 1, 1, "sichuan", winners=[0, 1, 3])
    st, reply = server.anon.post("/api/records", envelope(dev.key, dev.id, 1, body))
    assert st == 201, reply
    # Chinese Official hands have one winner
    body = hand_rec("T", 1, 1, 2, SEATS, [20, -20, 0, 0], None, 1, 8, "mcr", winners=[0, 2])
    assert server.anon.post("/api/records", envelope(dev.key, dev.id, 2, body))[0] == 400


def test_bad_envelopes(server):
    dev = new_device(server)
    good = dev.next(session_rec("T", 1, 1, SEATS))
    cases = [
        [],
        "x",
        {k: v for k, v in good.items() if k != "sig"},
        dict(good, extra=1),
        dict(good, seq=0),
        dict(good, seq=2**32),
        dict(good, seq="1"),
        dict(good, seq=True),
        dict(good, seq=1.0),
        dict(good, payload="***"),
        dict(good, payload=123),
        dict(good, sig="zz" * 32),
        dict(good, sig=good["sig"][:-2]),
        dict(good, device=""),
        dict(good, device=7),
    ]
    for c in cases:
        st, body = server.anon.post("/api/records", c)
        assert st == 400, (c, body)
        assert "error" in body
    for raw in (b"{not json", b'{"device": "\\ud800"}', b"\xff\xfe", b'{"seq": 1' + b"0" * 5000 + b"}", b"[" * 100000):
        st, _, body = server.anon.request("POST", "/api/records", raw=raw, headers={"Content-Type": "application/json"})
        assert st == 400, (raw[:40], body[:200])
    assert stored(server, dev) == []


def test_batch(server):
    dev = new_device(server)
    envs = [dev.next(session_rec("T", 1, 1, SEATS))] + [dev.next(hand_rec("T", 1, 1, h, SEATS, [24, -8, -8, -8], 0)) for h in range(1, 5)]
    forged = envelope(b"\x01" * 32, dev.id, 99, session_rec("T", 1, 1, SEATS))
    st, body = server.anon.post("/api/records:batch", envs[:3] + [forged, {"device": "x"}])
    assert st == 200, body
    assert [r["status_code"] for r in body["results"]] == [201, 201, 201, 403, 400]
    st, body = server.anon.post("/api/records:batch", envs + [envs[3]])
    assert [r["status_code"] for r in body["results"]] == [200, 200, 200, 201, 201, 200]
    assert body["counts"] == {"200": 4, "201": 2}
    assert server.anon.post("/api/records:batch", envs * 41)[0] == 400  # 205 > 200
    assert server.anon.post("/api/records:batch", {"records": envs})[0] == 200
    assert server.anon.post("/api/records:batch", {"x": 1})[0] == 400
    assert len(stored(server, dev)) == 5


def test_correction_records_never_overwrite(server):
    tid = server.tournament(players=SEATS)
    dev = new_device(server)
    for env in [dev.next(session_rec(tid, 1, 1, SEATS)), dev.next(hand_rec(tid, 1, 1, 1, SEATS, [24, -8, -8, -8], 0))]:
        assert server.anon.post("/api/records", env)[0] == 201
    before = stored(server, dev)
    corr = dev.next(correction_rec(dev.id, 2, [40, -8, -24, -8], "discarder was West", "Li", 1, seats=SEATS, was=[24, -8, -8, -8]))
    assert server.anon.post("/api/records", corr)[0] == 201
    after = stored(server, dev)
    assert after[:2] == before and len(after) == 3
    # a correction whose target has not arrived is kept and listed for the referees
    late = uid("box-late")
    early = dev.next(correction_rec(late, 7, [0, 0, 0, 0], "void", "Li", 2))
    assert server.anon.post("/api/records", early)[0] == 201
    st, rows = server.ref.get("/api/corrections/unresolved")
    assert st == 200 and (late, 7) in [(r["target_device"], r["target_seq"]) for r in rows]
    assert server.anon.get("/api/corrections/unresolved")[0] == 401


def test_racing_uploads_of_one_seq(server):
    """Many clients upload the same (device, seq) at once, half of them with another payload:
    exactly one is stored, the identical ones are known, the others conflict."""
    dev = new_device(server)
    a = envelope(dev.key, dev.id, 1, session_rec("T", 1, 1, SEATS))
    b = envelope(dev.key, dev.id, 1, session_rec("T", 1, 2, SEATS))
    results = []
    barrier = threading.Barrier(24)

    def go(env):
        c = server.client()
        barrier.wait()
        results.append((env is a, c.post("/api/records", env)[0]))
        c.close()

    threads = [threading.Thread(target=go, args=(a if i % 2 else b,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sum(1 for _, s in results if s == 201) == 1
    winner_is_a = next(is_a for is_a, s in results if s == 201)
    for is_a, s in results:
        if s != 201:
            assert s == (200 if is_a == winner_is_a else 409)
    assert len(stored(server, dev)) == 1


CLIENTS = 50  # the figure with 250 clients is make server-bench's


def test_concurrent_uploading_clients(server):
    """Many clients, each a table device with its own connection, upload 2 records each at once:
    every record is stored once."""
    tag = uid("c")
    devs = [Device("%s-%03d" % (tag, i)) for i in range(CLIENTS)]
    st, body = server.org.post("/api/records:batch", [])  # warm
    for d in devs:
        register(server, d)
    envs = {d.id: [d.next(session_rec("C", 1, i + 1, ["a%d" % i, "b%d" % i, "c%d" % i, "d%d" % i]))] +
            [d.next(hand_rec("C", 1, i + 1, 1, ["a%d" % i, "b%d" % i, "c%d" % i, "d%d" % i], [24, -8, -8, -8], 0))]
            for i, d in enumerate(devs)}
    statuses = []
    barrier = threading.Barrier(CLIENTS)

    def go(items):
        c = server.client()
        c.get("/api/health")
        barrier.wait()
        for e in items:
            statuses.append(c.post("/api/records", e)[0])
        c.close()

    threads = [threading.Thread(target=go, args=(v,)) for v in envs.values()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert statuses.count(201) == 2 * CLIENTS
    assert server.sql("SELECT COUNT(*) FROM boxes_record WHERE device_id LIKE ?", (tag + "-%",))[0][0] == 2 * CLIENTS
