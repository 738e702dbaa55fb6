"""The deadlines serve's uvicorn workers add (host_tools/server/edge/worker.py), in-process with the
deadlines shortened: a connection that never sends, a request whose headers or body trickle, and
a head past 64 KB are closed; a request that arrives in time is answered, and the application's
own time does not count against the client. The rate limits' token buckets, by the clock."""
from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
from uvicorn import Config, Server

from host_tools.server.edge import worker
from host_tools.server.edge.ratelimit import Buckets

from .helpers import free_port


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    if scope["path"] == "/slow":
        await asyncio.sleep(1.0)  # longer than the request deadline: the application's time
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


@pytest.fixture
def edge_server(monkeypatch):
    monkeypatch.setattr(worker, "FIRST_BYTE_SECONDS", 0.4)
    monkeypatch.setattr(worker, "REQUEST_SECONDS", 0.6)
    port = free_port()
    server = Server(Config(app, host="127.0.0.1", port=port, http=worker.DeadlineProtocol, lifespan="off", log_level="warning"))
    t = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    t.start()
    end = time.time() + 10
    while not server.started and time.time() < end:
        time.sleep(0.02)
    yield port
    server.should_exit = True
    t.join(10)


def closed_within(s: socket.socket, seconds: float) -> bool:
    s.settimeout(seconds)
    try:
        return s.recv(4096) == b""
    except socket.timeout:
        return False
    except ConnectionResetError:
        return True


def test_deadlines(edge_server):
    port = edge_server
    idle = socket.create_connection(("127.0.0.1", port))
    head = socket.create_connection(("127.0.0.1", port))
    head.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    body = socket.create_connection(("127.0.0.1", port))
    body.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
    t0 = time.time()
    assert closed_within(idle, 3) and closed_within(head, 3) and closed_within(body, 3)
    assert time.time() - t0 < 3
    # trickling keeps nothing open: a byte every 0.2 s, the request's deadline still holds
    drip = socket.create_connection(("127.0.0.1", port))
    drip.sendall(b"GET / HTTP/1.1\r\n")
    closed = False
    for _ in range(15):
        time.sleep(0.2)
        try:
            drip.sendall(b"X")
        except OSError:
            closed = True
            break
    assert closed or closed_within(drip, 1)
    # a head past 64 KB: 431 and closed
    big = socket.create_connection(("127.0.0.1", port))
    big.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (worker.MAX_HEAD + 10) + b"\r\n\r\n")
    big.settimeout(3)
    assert big.recv(4096).startswith(b"HTTP/1.1 431")
    # in time: answered, twice on one connection, and a slow application is not cut off
    ok = socket.create_connection(("127.0.0.1", port))
    ok.settimeout(5)
    for path in (b"/", b"/slow"):
        ok.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        reply = b""
        while not reply.endswith(b"ok"):
            chunk = ok.recv(4096)
            assert chunk, reply
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 200")


def test_token_buckets():
    b = Buckets({"read": (10.0, 5)})
    now = 1000.0
    assert [b.take(("a", "read"), now) for _ in range(5)] == [0.0] * 5  # the burst
    wait = b.take(("a", "read"), now)
    assert 0.09 < wait <= 0.1  # one token takes 0.1 s at 10 a second
    assert b.take(("b", "read"), now) == 0.0  # another address has its own
    assert b.take(("a", "read"), now + 0.1) == 0.0  # refilled
    assert b.take(("a", "read"), now + 0.1) > 0
    assert b.take(("a", "read"), now + 100) == 0.0  # full again, never above the burst
    assert [b.take(("a", "read"), now + 100) for _ in range(5)].count(0.0) == 4
    b.forget(now + 1000)
    assert b.state == {}  # full buckets are forgotten
