"""firmware/net/push.py against a stand-in server (tests/net/standin.py): synced only on an ack
made with the device key over the box's nonce; backoff; the push and the USB link's ACK share
the journal's ack (each record counted once)."""
import socket

from tests.sync.helpers import key_for

from .boxes import box, run_until
from .standin import StandIn


def test_pushes_every_record_and_marks_them_synced(tmp_path):
    srv = StandIn(key_for("box-n1"), "box-n1")
    try:
        b = box(tmp_path, srv.url)
        last = b.j.last_seq
        assert last == 19 and b.j.acked == 0 and b.net.status()[3] == 19
        assert run_until(b, lambda: b.j.acked == last) is not None, b.net.status()
        assert sorted(srv.stored) == list(range(1, last + 1))
        assert b.net.pusher.pushes == 3 and b.net.pusher.pushed == 19  # batches of 8
        assert b.net.status() == ("up", None, b.net.pusher.last_push, 0)
        # a new record: pushed in turn
        b.j.append(b"\x01{}")
        assert run_until(b, lambda: b.j.acked == last + 1) is not None
        assert srv.stored[last + 1] == b"\x01{}"
    finally:
        srv.close()


def test_a_server_without_the_key_marks_nothing_synced(tmp_path):
    srv = StandIn(None, "box-n1", mode="nokey")
    try:
        b = box(tmp_path, srv.url)
        assert run_until(b, lambda: b.net.pusher.failures >= 2, timeout=10) is not None
        assert b.j.acked == 0 and b.link.acked == 0
        assert b.net.status()[1] == "server lacks key" and b.net.status()[3] == 19
        assert b.net.pusher.pushes == 0 and b.net.pusher.failures >= 2
    finally:
        srv.close()


def test_a_server_with_another_key_refuses_and_nothing_is_synced(tmp_path):
    srv = StandIn(b"\x09" * 32, "box-n1")
    try:
        b = box(tmp_path, srv.url)
        assert run_until(b, lambda: srv.posts >= 1) is not None
        run_until(b, lambda: b.net.pusher.failures >= 1, timeout=2)
        assert b.j.acked == 0 and srv.stored == {}
        assert b.net.status()[1] == "server does not know this box"
    finally:
        srv.close()


def test_backoff_doubles_while_the_server_is_down_then_everything_arrives(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there: refused
    b = box(tmp_path, "http://127.0.0.1:%d" % port)
    clock = [0]
    attempts = []
    for t in range(0, 40000, 5):  # 40 s of the box's clock, a step every 5 ms
        clock[0] = t
        before = b.net.pusher.failures
        b.net.step(t)
        if b.net.pusher.failures > before:
            attempts.append(t)
    gaps = [b_ - a for a, b_ in zip(attempts, attempts[1:])]
    assert len(attempts) >= 4 and b.j.acked == 0
    assert all(g2 > g1 for g1, g2 in zip(gaps, gaps[1:])), gaps  # backing off
    assert b.net.status()[1].startswith("server: ")
    assert b.net.status()[0] == "up"


def test_push_and_usb_ack_count_each_record_once(tmp_path):
    srv = StandIn(key_for("box-n1"), "box-n1")
    try:
        b = box(tmp_path, srv.url)
        b.link.ack_to(10)  # a USB sync delivered 1..10 first
        assert b.j.acked == 10
        assert run_until(b, lambda: b.j.acked == 19) is not None
        assert sorted(srv.stored) == list(range(11, 20))  # the push starts after what USB acked
        b.link.ack_to(5)  # a late USB ack of fewer: nothing moves back
        assert b.j.acked == 19
    finally:
        srv.close()


def test_no_key_no_push(tmp_path):
    srv = StandIn(key_for("box-n1"), "box-n1")
    try:
        b = box(tmp_path, srv.url, keyed=False)
        run_until(b, lambda: b.net.pusher.failures >= 1, timeout=2)
        assert srv.posts == 0 and b.net.status()[1] == "no device key"
    finally:
        srv.close()
