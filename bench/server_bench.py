"""Tournament server figures (not part of `make test`): upload throughput with many concurrent
sync clients, and the standings recompute, on SQLite and PostgreSQL.

    .venv/bin/python bench/server_bench.py [--players 1000] [--sessions 10] [--hands 16]
                                           [--clients 250] [--backends sqlite,postgresql]

The synthetic tournament: ``players`` players in tables of four, ``sessions`` sessions seated by
draw then by rank, ``hands`` MCR hands per table with random wins, deal-ins and fans, plus a
session and a session_end record per table: 1000 / 10 / 16 gives 250 tables x 10 x 18 = 45,000
signed records. The server runs as a subprocess (`python -m host_tools serve`), the clients in
this process: one thread per client, each a keep-alive HTTP/1.1 connection, each client being
one table's device that uploads its records one POST /api/records at a time, all clients
starting together. Afterwards: the same records again as 200-record batches (all "known"), the
standings request cold (load + recompute) and warm (cached), the recompute split into load and
compute in-process, and a check that the standings equal host_tools.tournament's computation
from the generated scores. PostgreSQL comes from tools/pg_test_server.sh. Only loopback.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from host_tools.server import standings as standings_mod  # noqa: E402
from host_tools.server.db import open_database  # noqa: E402
from host_tools.tournament.exports import format_score  # noqa: E402
from host_tools.tournament.scoring import mcr_session, mcr_standings  # noqa: E402
from host_tools.tournament.seating import draw_seating, rank_seating  # noqa: E402
from tests.server.helpers import Client, Device, synthetic_session  # noqa: E402


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def generate(players: int, sessions: int, hands: int, seed: int = 1):
    rng = random.Random(seed)
    ids = ["P%04d" % i for i in range(1, players + 1)]
    devices: dict = {}
    per_device: dict = {}
    expected = []
    for s in range(1, sessions + 1):
        ranked = ids if s == 1 else [x.player for x in mcr_standings(expected, ids)]
        tables = [(t.number, list(t.players)) for t in (draw_seating(ranked) if s == 1 else rank_seating(ranked))]
        envs, scores = synthetic_session("B", s, tables, devices, rng, hands, t0=1_700_000_000 + s * 20_000)
        expected.append(mcr_session([{p: scores[p] for p in ps} for _, ps in tables]))
        for e in envs:
            per_device.setdefault(e["device"], []).append(json.dumps(e).encode())
    return ids, devices, per_device, expected


def start_server(url: str, pool: int):
    env = dict(os.environ, MT_PASSWORD="bench-password")
    subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", url, "--create-account", "bench"], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", url, "--port", str(port), "--pool", str(pool)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "serving" not in line:
        raise SystemExit("server did not start: %s %s" % (line, proc.stderr.read()))
    return proc, "http://127.0.0.1:%d" % port


def upload_phase(base: str, per_device: dict, clients: int, batch: int = 0):
    """clients threads; device lists dealt round-robin to them. Returns (seconds, requests, statuses, errors, latencies)."""
    devs = sorted(per_device)
    work = [[] for _ in range(clients)]
    for i, d in enumerate(devs):
        work[i % clients].append(d)
    statuses: dict = {}
    errors: list = []
    lat: list = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)
    count = [0]

    def run(my):
        c = Client(base)
        local, my_lat, n = {}, [], 0
        try:
            c.request("GET", "/api/health")  # connect before the clock starts
            barrier.wait()
            for d in my:
                items = per_device[d]
                chunks = [[x] for x in items] if not batch else [items[i:i + batch] for i in range(0, len(items), batch)]
                for chunk in chunks:
                    t = time.perf_counter()
                    if batch:
                        st, _, body = c.request("POST", "/api/records:batch", raw=b"[" + b",".join(chunk) + b"]", headers={"Content-Type": "application/json"})
                        if st == 200:
                            for r in json.loads(body)["results"]:
                                local[r["status_code"]] = local.get(r["status_code"], 0) + 1
                        else:
                            local[st] = local.get(st, 0) + 1
                    else:
                        st, _, _ = c.request("POST", "/api/records", raw=chunk[0], headers={"Content-Type": "application/json"})
                        local[st] = local.get(st, 0) + 1
                    my_lat.append(time.perf_counter() - t)
                    n += 1
        except Exception as e:  # counted as errors
            with lock:
                errors.append(repr(e))
        finally:
            c.close()
            with lock:
                for k, v in local.items():
                    statuses[k] = statuses.get(k, 0) + v
                lat.extend(my_lat)
                count[0] += n

    threads = [threading.Thread(target=run, args=(w,), daemon=True) for w in work]
    for t in threads:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, count[0], statuses, errors, lat


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000 if xs else 0.0


def bench_backend(name: str, url: str, args, data) -> dict:
    ids, devices, per_device, expected = data
    proc, base = start_server(url, args.pool)
    try:
        org = Client(base)
        org.token = json.loads(org.request("POST", "/api/login", {"username": "bench", "password": "bench-password"})[2])["token"]
        assert org.request("POST", "/api/tournaments", {"id": "B", "name": "Bench", "format": "mcr_000", "settings": {"prelim_sessions": args.sessions}})[0] == 201
        assert org.request("POST", "/api/tournaments/B/players", [{"id": p, "name": "Player " + p, "draw": i + 1} for i, p in enumerate(ids)])[0] == 200
        for d in devices.values():
            assert org.request("POST", "/api/devices", {"id": d.id, "key": d.key.hex()})[0] == 201
        total = sum(len(v) for v in per_device.values())
        secs, n, statuses, errors, lat = upload_phase(base, per_device, args.clients)
        out = {
            "backend": name, "records": total, "clients": args.clients,
            "upload_s": round(secs, 2), "upload_rps": round(n / secs, 1), "statuses": statuses, "errors": len(errors),
            "latency_ms_p50": round(pct(lat, 0.5), 1), "latency_ms_p99": round(pct(lat, 0.99), 1), "latency_ms_max": round(max(lat) * 1000, 1),
        }
        secs, n, statuses, errors2, _ = upload_phase(base, per_device, args.clients, batch=200)
        out.update({"reupload_batch200_s": round(secs, 2), "reupload_records_per_s": round(total / secs, 1), "reupload_statuses": statuses, "reupload_errors": len(errors2)})
        t = time.perf_counter()
        st, _, body = org.request("GET", "/api/tournaments/B/standings")
        out["standings_cold_s"] = round(time.perf_counter() - t, 3)
        t = time.perf_counter()
        org.request("GET", "/api/tournaments/B/standings")
        out["standings_warm_s"] = round(time.perf_counter() - t, 4)
        t = time.perf_counter()
        st_page, _, _ = org.request("GET", "/t/B/standings")
        out["standings_page_warm_s"] = round(time.perf_counter() - t, 4)
        got = json.loads(body)
        want = mcr_standings(expected, ids)
        out["standings_match_reference"] = [(r["rank"], r["player"], r["standard"], r["match"]) for r in got["standings"]] == [
            (s.rank, s.player, format_score(s.standard), format_score(s.match)) for s in want]
        out["problems"] = len(got["problems"])
        # in-process split of the recompute
        db = open_database(url, pool_size=2)
        t = time.perf_counter()
        with db.tx() as tx:
            snap = standings_mod.load(tx, "B")
        t1 = time.perf_counter()
        standings_mod.compute(snap)
        t2 = time.perf_counter()
        db.close()
        out["recompute_load_s"] = round(t1 - t, 3)
        out["recompute_compute_s"] = round(t2 - t1, 3)
        org.close()
        return out
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--hands", type=int, default=16)
    ap.add_argument("--clients", type=int, default=250)
    ap.add_argument("--pool", type=int, default=16, help="server database connections")
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    data = generate(args.players, args.sessions, args.hands)
    print("generated %d records for %d devices in %.1f s" % (sum(len(v) for v in data[2].values()), len(data[2]), time.perf_counter() - t), flush=True)
    work = ROOT / "build" / "bench"
    work.mkdir(parents=True, exist_ok=True)
    results = []
    pg_started = False
    try:
        for name in args.backends.split(","):
            if name == "sqlite":
                path = work / "server_bench.db"
                for suffix in ("", "-wal", "-shm"):
                    p = Path(str(path) + suffix)
                    if p.exists():
                        p.unlink()
                url = "sqlite:///" + str(path)
            else:
                dsn = os.environ.get("TEST_PG_DSN")
                if not dsn:
                    out = subprocess.run(["bash", str(ROOT / "tools" / "pg_test_server.sh"), "start"], check=True, capture_output=True, text=True)
                    dsn = out.stdout.strip().splitlines()[-1]
                    pg_started = True
                import psycopg

                dbname = "bench_%d" % int(time.time())
                with psycopg.connect(dsn, autocommit=True) as c:
                    c.execute("CREATE DATABASE " + dbname)
                url = dsn.rsplit("/", 1)[0] + "/" + dbname
            r = bench_backend(name, url, args, data)
            results.append(r)
            print(json.dumps(r, indent=1), flush=True)
    finally:
        if pg_started:
            subprocess.run(["bash", str(ROOT / "tools" / "pg_test_server.sh"), "stop"], capture_output=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
