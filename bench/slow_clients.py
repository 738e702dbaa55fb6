"""Slow and idle clients against the real server (`make server-bench`, not part of `make test`):
N connections held open (a third send their headers a byte at a time, a third their body, a
third nothing; one byte every `--drip` seconds each; a connection the server closes is opened
again, as an attacker would), while
other clients read the standings and upload signed records; the p50/p99/max of those reads and
uploads, and how many failed or took longer than the client's 10 s timeout.

    .venv/bin/python bench/slow_clients.py [--held 70,300,1000] [--servers uvicorn,gthread] [--seconds 20] [--drip 5] [--json FILE]

`--servers`: `serve --server uvicorn` (the default since issue 19) and `serve --server gthread`
(gunicorn's threaded workers, the server before), both with serve's default workers. SQLite,
loopback only; the machine's 2 cores are shared with this load generator.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.helpers import Client, Device, free_port, hand_rec, session_rec  # noqa: E402

PASSWORD = "bench-password"
TIMEOUT = 10.0
SEATS = ["p1", "p2", "p3", "p4"]


def start(server: str, workdir: Path):
    db = "sqlite:///" + str(workdir / ("%s.db" % server))
    env = dict(os.environ, MT_PASSWORD=PASSWORD, MT_SECRET_KEY_FILE=str(workdir / "secret"), MT_RATE_LIMITS="off")  # all clients from 127.0.0.1
    subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", db, "--create-account", "bench"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", db, "--port", str(port), "--server", server], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=open(workdir / ("%s.log" % server), "w"), text=True)
    line = proc.stdout.readline()
    if "serving" not in line:
        raise SystemExit("server did not start: %r" % line)
    return proc, "http://127.0.0.1:%d" % port, port


class Held:
    """N connections kept open: slow headers, slow bodies, idle; reopened when the server closes them."""

    def __init__(self, port: int, n: int, drip: float = 5.0):
        self.port, self.n, self.drip = port, n, drip
        self.socks: list = [None] * n
        self.sent = [0] * n
        self.reopened = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def kind(self, i: int) -> str:
        return ("header", "body", "idle")[i % 3]

    def open(self, i: int) -> None:
        s = socket.socket()
        s.setblocking(True)
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", self.port))
        except OSError:
            s.close()
            self.socks[i] = None
            return
        s.setblocking(False)
        k = self.kind(i)
        try:
            if k == "header":
                s.send(b"GET /api/health HTTP/1.1\r\n")
            elif k == "body":
                s.send(b"POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
        except OSError:
            pass
        self.socks[i], self.sent[i] = s, 0

    def start(self) -> None:
        for i in range(self.n):
            self.open(i)
        self.thread.start()

    def run(self) -> None:
        # one byte per connection every `drip` seconds: issue 19's 70 connections sent about 14 bytes a second in all (5 s)
        while not self.stop.is_set():
            t0 = time.time()
            for i, s in enumerate(self.socks):
                if self.stop.is_set():
                    return
                if s is None:
                    self.open(i)
                    self.reopened += 1
                    continue
                try:
                    if s.recv(1024, socket.MSG_PEEK) == b"":  # closed by the server
                        raise ConnectionError
                except BlockingIOError:
                    pass
                except OSError:
                    s.close()
                    self.open(i)
                    self.reopened += 1
                    continue
                k = self.kind(i)
                try:
                    if k == "header":
                        s.send(b"X"[:1] if self.sent[i] % 20 else b"\r\nX-Slow: ")
                    elif k == "body":
                        s.send(b" ")
                    self.sent[i] += 1
                except BlockingIOError:
                    pass
                except OSError:
                    s.close()
                    self.open(i)
                    self.reopened += 1
            self.stop.wait(max(0.0, self.drip - (time.time() - t0)))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        for s in self.socks:
            if s is not None:
                s.close()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else None


def measure(url: str, tid: str, devices: list, seconds: float) -> dict:
    lat = {"read": [], "upload": []}
    failed = {"read": 0, "upload": 0}
    end = time.time() + seconds
    lock = threading.Lock()

    def reader():
        c = Client(url)
        while time.time() < end:
            t0 = time.perf_counter()
            try:
                st = c.request("GET", "/api/tournaments/%s/standings" % tid)[0]
                ok = st == 200
            except OSError:
                ok, c = False, Client(url)
            with lock:
                lat["read"].append(time.perf_counter() - t0) if ok else None
                failed["read"] += 0 if ok else 1
            time.sleep(0.05)

    def uploader(dev):
        c = Client(url)
        h = 1
        while time.time() < end:
            t0 = time.perf_counter()
            try:
                st = c.request("POST", "/api/records", body=dev.next(hand_rec(tid, 1, 1, h, SEATS, [24, -8, -8, -8], 0)))[0]
                ok = st == 201
            except OSError:
                ok, c = False, Client(url)
            h += 1
            with lock:
                lat["upload"].append(time.perf_counter() - t0) if ok else None
                failed["upload"] += 0 if ok else 1
            time.sleep(0.05)

    threads = [threading.Thread(target=reader) for _ in range(4)] + [threading.Thread(target=uploader, args=(d,)) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 3 * TIMEOUT)
    out = {}
    for k in ("read", "upload"):
        xs = lat[k]
        out[k] = {"n": len(xs), "failed": failed[k], "p50_s": pct(xs, 50), "p99_s": pct(xs, 99), "max_s": max(xs) if xs else None}
    return out


def patch_timeout():
    """The bench's clients give up after TIMEOUT seconds (a request the server never answers)."""
    import http.client

    orig = http.client.HTTPConnection.__init__

    def init(self, *a, **kw):
        kw["timeout"] = TIMEOUT
        orig(self, *a, **kw)

    http.client.HTTPConnection.__init__ = init


def bench_server(server: str, held_counts: list, seconds: float, workdir: Path, drip: float = 5.0) -> list:
    proc, url, port = start(server, workdir)
    rows = []
    try:
        org = Client(url)
        st, body = org.post("/api/login", {"username": "bench", "password": PASSWORD})
        org.token = body["token"]
        tid = "SLOW"
        assert org.post("/api/tournaments", {"id": tid, "name": "Slow clients", "format": "mcr_000", "settings": {}})[0] == 201
        org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": p, "draw": i + 1} for i, p in enumerate(SEATS)])
        org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": [SEATS], "publish": True})
        # the baseline first, each count once: a count run twice reused its devices' ids with new
        # keys, and every upload of the second run was refused
        for n in sorted({0, *held_counts}):
            devices = [Device("slow-%s-%d-%d" % (server, n, i)) for i in range(4)]
            for d in devices:
                org.post("/api/devices", {"id": d.id, "key": d.key.hex()})
                org.post("/api/records", d.next(session_rec(tid, 1, 1, SEATS)))
            held = Held(port, n, drip)
            held.start()
            time.sleep(2)
            figures = measure(url, tid, devices, seconds)
            open_now = sum(1 for s in held.socks if s is not None)
            held.close()
            row = {"server": server, "held": n, "drip_s": drip, "held_open_at_end": open_now, "reopened": held.reopened, **figures}
            print(json.dumps(row), flush=True)
            rows.append(row)
            time.sleep(1)
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--held", default="70,300,1000")
    ap.add_argument("--servers", default="uvicorn,gthread")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--drip", type=float, default=5.0, help="seconds between two bytes of one slow connection (default 5: issue 19's rate)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    patch_timeout()
    import tempfile

    rows = []
    with tempfile.TemporaryDirectory() as d:
        for server in args.servers.split(","):
            rows += bench_server(server, [int(x) for x in args.held.split(",")], args.seconds, Path(d), args.drip)
    print("%-8s %5s | %6s %8s %8s %8s | %6s %8s %8s %8s" % ("server", "held", "reads", "failed", "p99 s", "max s", "upl.", "failed", "p99 s", "max s"))
    for r in rows:
        f = lambda x: "-" if x is None else "%.3f" % x  # noqa: E731
        print("%-8s %5d | %6d %8d %8s %8s | %6d %8d %8s %8s" % (r["server"], r["held"], r["read"]["n"], r["read"]["failed"], f(r["read"]["p99_s"]),
                                                               f(r["read"]["max_s"]), r["upload"]["n"], r["upload"]["failed"], f(r["upload"]["p99_s"]),
                                                               f(r["upload"]["max_s"])))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
