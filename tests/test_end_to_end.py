"""From the table to the projector: the headless simulator plays a full MCR session, the sync
tool pulls its signed records over a real PTY and uploads them to the tournament server, and the
public standings page shows the session's results."""
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _call(url, method, path, body=None, token=None):
    req = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(),
                                 method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def _serial_path(proc, timeout=60):
    end = time.time() + timeout
    buf = ""
    while time.time() < end:
        r, _, _ = select.select([proc.stdout], [], [], 0.5)
        if r:
            line = proc.stdout.readline()
            buf += line
            m = re.search(r"serial: (\S+)", line)
            if m:
                return m.group(1)
    raise AssertionError("the simulator printed no serial path: " + buf)


def test_simulator_to_sync_to_standings_page(tmp_path):
    # a record the server refused would go to ./quarantine, in the checkout: here, to tmp_path
    env = dict(os.environ, MT_PASSWORD="a long enough password", PYTHONUNBUFFERED="1",
               MAHJONG_TABLE_QUARANTINE=str(tmp_path / "quarantine"))
    db = "sqlite:///%s" % (tmp_path / "t.db")
    subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", db, "--create-account", "org"],
                   check=True, capture_output=True, env=env, cwd=REPO, timeout=60)
    port = _free_port()
    url = "http://127.0.0.1:%d" % port
    server = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", db, "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=REPO)
    box = subprocess.Popen([sys.executable, "-m", "simulator", "--board", "sim", "--script",
                            "simulator/scenarios/mcr_session.txt", "--out", str(tmp_path / "box"), "--no-png",
                            "--serial", "--keep-serving", "--device-id", "sim-1"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        pty = _serial_path(box)
        for _ in range(100):
            try:
                st, body = _call(url, "POST", "/api/login", {"username": "org", "password": env["MT_PASSWORD"]})
                break
            except OSError:
                time.sleep(0.1)
        assert st == 200, body
        token = json.loads(body)["token"]
        st, body = _call(url, "POST", "/api/tournaments", {"id": "T", "name": "E2E Open", "format": "mcr_000"}, token)
        assert st in (200, 201), body
        players = [{"id": p, "name": "Player " + p, "draw": i + 1} for i, p in enumerate(["11", "12", "13", "14"])]
        st, body = _call(url, "POST", "/api/tournaments/T/players", players, token)
        assert st in (200, 201), body
        # the box's records are checked against the published seating (the scenario plays table 7)
        seating = {"method": "manual", "tables": [{"table": 7, "players": ["11", "12", "13", "14"]}], "publish": True}
        st, body = _call(url, "POST", "/api/tournaments/T/seatings/1", seating, token)
        assert st in (200, 201), body

        keys = tmp_path / "keys.json"
        sync = [sys.executable, "-m", "host_tools", "sync", "--port", pty, "--key-file", str(keys)]
        p = subprocess.run(sync + ["--provision"], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
        assert p.returncode == 0, p.stderr
        key = json.loads(keys.read_text())["sim-1"]
        # bound to table 7, where it plays: a record counts only where its box was bound
        st, body = _call(url, "POST", "/api/devices", {"id": "sim-1", "key": key, "tournament": "T", "table": 7}, token)
        assert st in (200, 201), body

        p = subprocess.run(sync + ["--server", url], capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
        assert p.returncode == 0, p.stderr
        assert "pulled 19, uploaded 19, already known 0, refused 0" in p.stdout, p.stdout
        # a second run finds nothing new: nothing counted twice
        p = subprocess.run(sync + ["--server", url], capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
        assert p.returncode == 0 and "pulled 0" in p.stdout, (p.stdout, p.stderr)

        # what the box journaled is what the projector shows
        st, body = _call(url, "GET", "/api/tournaments/T/standings")
        assert st == 200, body
        rows = json.loads(body)
        rows = rows.get("standings", rows) if isinstance(rows, dict) else rows
        match = {r["player"]: r["match"] for r in rows}
        from firmware.app import decode
        from firmware.journal import Journal
        recs = [decode(bytes(pl)) for _, pl in Journal(str(tmp_path / "box" / "journal")).records(1)]
        want = recs[-1]["match_scores"]
        assert {p: int(float(v)) for p, v in match.items()} == want
        assert json.loads(body)["quarantined"] == 0
        st, page = _call(url, "GET", "/t/T/standings")
        assert st == 200
        for pid, score in want.items():
            assert "Player " + pid in page and str(score) in page
    finally:
        for proc in (box, server):
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
