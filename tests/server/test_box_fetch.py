"""POST /api/boxes/<device>/fetch (protocol/fetch.py): the box's next session config and the
hall's time, each with the MAC of the USB link's CONFIG and CLOCK request over the box's nonce,
so that only the device key makes them. The MACs are built here from the words of
protocol/fetch.py and protocol/sign.py's header, not with protocol/sign.py."""
import hashlib
import hmac
import json
import os
import time

from .conftest import uid
from .test_standings import bind, device, seat, setup

T_CONFIG, T_CLOCK = 0x04, 0x05  # protocol/frames.py's request types


def request_mac(key: bytes, device_id: str, nonce: bytes, typ: int, args: bytes) -> str:
    msg = b"req\x00" + device_id.encode() + b"\x00" + nonce + bytes([typ]) + args
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def fetch(server, dev_id, nonce=None):
    nonce = nonce or os.urandom(16)
    st, body = server.anon.post("/api/boxes/%s/fetch" % dev_id, {"nonce": nonce.hex()})
    return nonce, st, body


def test_fetch_signs_the_config_and_the_time_with_the_device_key(server):
    tid = setup(server, "mcr_000", players="ABCD")
    seat(server, tid, 1, ["ABCD"])
    dev = device(server)
    bind(server, dev, tid, 1)
    nonce, st, body = fetch(server, dev.id)
    assert st == 200, body
    assert set(body) == {"config", "config_mac", "why", "time", "time_mac"}
    cfg = json.loads(body["config"])
    st, usb = server.anon.get("/api/boxes/%s/config" % dev.id)  # what the sync tool pushes over USB
    assert st == 200 and cfg == {k: v for k, v in usb.items() if v is not None}
    assert cfg["tournament"] == tid and cfg["session"] == 1 and cfg["players"] == list("ABCD")
    assert body["config_mac"] == request_mac(dev.key, dev.id, nonce, T_CONFIG, body["config"].encode())
    assert abs(body["time"] - time.time()) < 5 and body["why"] is None
    assert body["time_mac"] == request_mac(dev.key, dev.id, nonce, T_CLOCK, body["time"].to_bytes(8, "big"))
    # another nonce, other MACs: an answer is good for the fetch that asked for it only
    nonce2, st, body2 = fetch(server, dev.id)
    assert body2["config"] == body["config"] and body2["config_mac"] != body["config_mac"]
    assert body2["config_mac"] == request_mac(dev.key, dev.id, nonce2, T_CONFIG, body2["config"].encode())


def test_fetch_of_an_unbound_box_gives_the_time_and_why_there_is_no_config(server):
    dev = device(server)
    nonce, st, body = fetch(server, dev.id)
    assert st == 200 and body["config"] is None and body["config_mac"] is None
    assert "not bound" in body["why"]
    assert body["time_mac"] == request_mac(dev.key, dev.id, nonce, T_CLOCK, body["time"].to_bytes(8, "big"))


def test_fetch_of_an_unknown_box_signs_nothing(server):
    st, body = fetch(server, uid("box-"))[1:]
    assert st == 404 and "config" not in body and "time_mac" not in body


def test_fetch_refuses_malformed_bodies(server):
    dev = device(server)
    path = "/api/boxes/%s/fetch" % dev.id
    for bad in ({}, {"nonce": "00" * 15}, {"nonce": "zz" * 16}, {"nonce": 7}, {"nonce": "00" * 16, "more": 1}, [], "x"):
        st, body = server.anon.post(path, bad)
        assert st == 400, (bad, st, body)
