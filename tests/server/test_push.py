"""POST /api/boxes/<device>/push (protocol/push.py): the records stored as the batch upload
stores them, and the acknowledgement that proves the server holds the device key."""
import hashlib
import hmac
import os

from .conftest import uid
from .helpers import Device, envelope, hand_rec, session_rec
from .test_upload import SEATS, new_device, stored


def ack_mac(key: bytes, device: str, nonce: bytes, first: int, last: int) -> str:
    # built here from protocol/push.py's words, not with protocol/sign.py
    msg = b"ack\x00" + device.encode() + b"\x00" + nonce + first.to_bytes(4, "big") + last.to_bytes(4, "big")
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def push(server, dev_id, records, nonce=None):
    nonce = nonce or os.urandom(16)
    st, body = server.anon.post("/api/boxes/%s/push" % dev_id, {"nonce": nonce.hex(), "records": records})
    return nonce, st, body


def test_push_stores_and_acknowledges_with_the_device_key(server):
    dev = new_device(server)
    envs = [dev.next(session_rec("T", 1, 1, SEATS))] + [dev.next(hand_rec("T", 1, 1, h, SEATS, [24, -8, -8, -8], 0)) for h in range(1, 4)]
    nonce, st, body = push(server, dev.id, envs[:2])
    assert st == 200, body
    assert [r["status_code"] for r in body["results"]] == [201, 201]
    assert body["ack"] == {"first": 1, "last": 2, "mac": ack_mac(dev.key, dev.id, nonce, 1, 2)}
    assert isinstance(body["time"], int) and body["time"] > 1_700_000_000
    # again with the next ones: the known one is held too; a new nonce, a new mac
    nonce2, st, body = push(server, dev.id, envs[1:])
    assert [r["status_code"] for r in body["results"]] == [200, 201, 201]
    assert body["ack"] == {"first": 2, "last": 4, "mac": ack_mac(dev.key, dev.id, nonce2, 2, 4)}
    assert body["ack"]["mac"] != ack_mac(dev.key, dev.id, nonce, 2, 4)
    assert len(stored(server, dev)) == 4


def test_push_ack_stops_at_the_first_record_not_held(server):
    dev = new_device(server)
    e1 = dev.next(session_rec("T", 1, 1, SEATS))
    e2 = dev.next(hand_rec("T", 1, 1, 1, SEATS, [24, -8, -8, -8], 0))
    e3 = dev.next(hand_rec("T", 1, 1, 2, SEATS, [24, -8, -8, -8], 0))
    bad = dict(e2, sig="0" * 64)
    nonce, st, body = push(server, dev.id, [e1, bad, e3])
    assert [r["status_code"] for r in body["results"]] == [201, 403, 201]
    assert body["ack"] == {"first": 1, "last": 1, "mac": ack_mac(dev.key, dev.id, nonce, 1, 1)}
    # the first one refused: no ack at all
    nonce, st, body = push(server, dev.id, [bad, e3])
    assert st == 200 and body["ack"] is None


def test_push_of_an_unknown_box_or_wrong_key_acknowledges_nothing(server):
    stranger = Device(uid("box-"))  # never registered
    _, st, body = push(server, stranger.id, [stranger.next(session_rec("T", 1, 1, SEATS))])
    assert st == 200 and body["ack"] is None and body["results"][0]["status_code"] == 403
    dev = new_device(server)
    other_key = envelope(b"\x07" * 32, dev.id, 1, session_rec("T", 1, 1, SEATS))
    _, st, body = push(server, dev.id, [other_key])
    assert body["ack"] is None and stored(server, dev) == []


def test_push_refuses_malformed_bodies_and_foreign_records(server):
    dev = new_device(server)
    other = new_device(server)
    env = dev.next(session_rec("T", 1, 1, SEATS))
    for bad in ({"nonce": "00" * 15, "records": [env]}, {"nonce": "zz" * 16, "records": [env]}, {"nonce": "00" * 16, "records": []},
                {"nonce": "00" * 16, "records": [env] * 33}, {"nonce": "00" * 16}, {"nonce": "00" * 16, "records": [env], "x": 1},
                [env], {"nonce": 5, "records": [env]}, {"nonce": "00" * 16, "records": [5]}):
        st, body = server.anon.post("/api/boxes/%s/push" % dev.id, bad)
        assert st == 400, (bad, body)
    # a record of another box in this box's push: refused whole (a box pushes its own only)
    st, body = server.anon.post("/api/boxes/%s/push" % dev.id, {"nonce": "00" * 16, "records": [other.next(session_rec("T", 1, 1, SEATS))]})
    assert st == 400
    assert stored(server, dev) == [] and stored(server, other) == []


def call_mac(key: bytes, device: str, nonce: bytes) -> str:
    return hmac.new(key, b"call\x00" + device.encode() + b"\x00" + nonce, hashlib.sha256).hexdigest()


def test_a_box_calls_the_referee_and_the_pages_say_so(server):
    from .test_standings import seat
    players = ["c%d" % i for i in range(1, 9)]
    tid = server.tournament(players=players)
    seat(server, tid, 1, [players[:4], players[4:]])
    dev = Device(uid("box-"))
    st, body = server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 2})
    assert st == 201, body
    path = "/api/boxes/%s/call" % dev.id
    st, page = server.anon.get("/t/%s/tables/1/2" % tid)
    assert st == 200 and "referee called at table 2" not in page
    # not the box's key: refused, nothing shown
    nonce = os.urandom(16)
    assert server.anon.post(path, {"nonce": nonce.hex(), "mac": call_mac(b"\x01" * 32, dev.id, nonce)})[0] == 403
    assert server.anon.post(path, {"nonce": "00", "mac": "00"})[0] == 400
    assert server.anon.post("/api/boxes/%s/call" % uid("box-"), {"nonce": nonce.hex(), "mac": call_mac(dev.key, dev.id, nonce)})[0] == 403
    assert "referee called at table 2" not in server.anon.get("/t/%s/tables/1/2" % tid)[1]
    st, body = server.anon.post(path, {"nonce": nonce.hex(), "mac": call_mac(dev.key, dev.id, nonce)})
    assert st == 200 and body == {"ack": ack_mac(dev.key, dev.id, nonce, 0, 0)}
    assert "referee called at table 2" in server.anon.get("/t/%s/tables/1/2" % tid)[1]
    assert "referee called at table 2" not in server.anon.get("/t/%s/tables/1/1" % tid)[1]
    # (the referee's page includes the same web/_referee_calls.html with every table's calls;
    # its login is a browser's session, not checked here)


def moved_from(server, live, etag, seconds=3.0):
    """The live version once it is not etag (the server's workers cache it for 0.2 s), or None;
    every answer in between is a 304 with the same validator."""
    import time
    end = time.time() + seconds
    while time.time() < end:
        st, headers, body = server.anon.request("GET", live, headers={"If-None-Match": etag})
        if st == 200:
            assert body.decode() == headers["ETag"] and headers["Cache-Control"] == "no-cache"
            return headers["ETag"]
        assert st == 304 and headers["ETag"] == etag
        time.sleep(0.05)
    return None


def test_live_pages_follow_a_pushed_hand_and_a_call(server):
    """The live version the board, standings, table and referee pages poll (web/views/live.py):
    it moves with a pushed hand and with a referee call, and answers 304 while nothing moved."""
    import re
    from .test_standings import seat
    players = ["v%d" % i for i in range(1, 5)]
    tid = server.tournament(players=players)
    seat(server, tid, 1, [players])
    dev = Device(uid("box-"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 1})[0] == 201
    st, page = server.anon.get("/t/%s/board" % tid)
    tag = re.search(r'<meta name="live" content="/t/%s/live" data-etag="([^"]+)">' % tid, page)
    assert st == 200 and tag, page[:800]
    etag = tag.group(1).replace("&quot;", '"')
    assert '<script src="/live.js" defer></script>' in page
    for path in ("/t/%s/standings" % tid, "/t/%s/tables/1/1" % tid):
        assert 'data-etag="%s"' % tag.group(1) in server.anon.get(path)[1], path
    live = "/t/%s/live" % tid
    st, headers, _ = server.anon.request("GET", live, headers={"If-None-Match": etag})
    assert st == 304 and headers["ETag"] == etag
    push(server, dev.id, [dev.next(session_rec(tid, 1, 1, players)), dev.next(hand_rec(tid, 1, 1, 1, players, [24, -8, -8, -8], 0))])
    moved = moved_from(server, live, etag)
    assert moved is not None and moved != etag
    nonce = os.urandom(16)
    assert server.anon.post("/api/boxes/%s/call" % dev.id, {"nonce": nonce.hex(), "mac": call_mac(dev.key, dev.id, nonce)})[0] == 200
    assert moved_from(server, live, moved) not in (None, moved)
    assert moved_from(server, live, "x") is not None  # any other validator: the version itself (200)
    st, headers, js = server.anon.request("GET", "/live.js")
    assert st == 200 and headers["Content-Type"].startswith("application/javascript") and b"If-None-Match" in js


def test_live_poll_of_odd_ids_never_fails(server):
    for path in ("/t/%00/live", "/t/%ED%A0%80/live", "/t/%C3%28/live", "/t/no-such/live", "/t/" + "x" * 70 + "/live"):
        st, headers, _ = server.anon.request("GET", path)
        assert st in (200, 400, 404), (path, st)
    assert server.anon.request("GET", "/t/no-such/live")[0] == 404  # as every page of an unknown tournament
    assert server.anon.request("POST", "/t/no-such/live")[0] == 404  # an unknown tournament first, whatever the method
    tid = server.tournament("mcr_000", players=["p1", "p2", "p3", "p4"])
    assert server.anon.request("POST", "/t/%s/live" % tid)[0] in (403, 405)  # only GET is the poll
