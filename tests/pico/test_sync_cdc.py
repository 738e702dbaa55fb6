# The real sync tool (python -m host_tools sync) and the real tournament server (python -m
# host_tools serve: Django on gunicorn, SQLite) with the emulated box on its USB CDC port, bridged
# to a pty (pico/cdc.py): a referee provisions the box's key, the organizer registers it for a
# table, the sync tool pushes the table's session config from the server, the table plays a hand
# on the box (key presses and tag taps on the board's main.py), and the next sync pulls the
# session and the hand, uploads them and acknowledges them on the box; the one after finds
# nothing new.
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from pico.cdc import PtyBridge
from pico.harness import Pico, raw_exec
from pico.player import ChipPlayer

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.path.join(REPO, "build", "pico-uf2", "firmware.uf2")
FS = os.path.join(REPO, "build", "pico", "fs")
PASSWORD = "a long enough password"
HAND = ["keys A1 3", "tap 3m 4m 5m", "keys #3#", "tap 2m 5m 8m 1s 4s 8s 8s 3p 6p 9p 7s", "keys #", "keys 1234"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Api:
    def __init__(self, url):
        self.url = url
        self.token = None

    def call(self, method, path, body=None):
        req = urllib.request.Request(self.url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()


@pytest.fixture
def server(tmp_path):
    env = dict(os.environ, MT_PASSWORD=PASSWORD, PYTHONUNBUFFERED="1", MT_SECRET_KEY_FILE=str(tmp_path / "secret"))
    db = "sqlite:///%s" % (tmp_path / "t.db")
    subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", db, "--create-account", "org"],
                   check=True, capture_output=True, env=env, cwd=REPO, timeout=120)
    port = free_port()
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", db, "--port", str(port),
                             "--workers", "1", "--threads", "2"], stdout=subprocess.PIPE, stderr=log, text=True,
                            env=env, cwd=REPO)
    try:
        line = proc.stdout.readline()
        assert "serving" in line, (line, (tmp_path / "server.log").read_text()[-2000:])
        api = Api("http://127.0.0.1:%d" % port)
        st, body = api.call("POST", "/api/login", {"username": "org", "password": PASSWORD})
        assert st == 200, body
        api.token = body["token"]
        yield api
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def sync(bridge, *args, timeout=600):
    """The sync tool on the bridge's pty (the chip runs while it works); (exit status, output)."""
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "sync", "--port", bridge.path, "--timeout", "2"] + list(args),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO)
    assert bridge.serve(until=lambda: proc.poll() is not None, max_s=timeout), "the chip stopped"
    return proc.wait(10), proc.stdout.read()


def test_sync_tool_and_server_with_the_emulated_box(node_ready, server, tmp_path):
    if not os.path.exists(UF2):
        pytest.fail("no frozen UF2 at %s: `make pico-uf2` builds it (make pico-test does)" % UF2)
    players = ["P1", "P2", "P3", "P4"]
    st, body = server.call("POST", "/api/tournaments", {"id": "cup", "name": "Cup", "format": "mcr_000"})
    assert st == 201, body
    st, body = server.call("POST", "/api/tournaments/cup/players",
                           [{"id": p, "name": "Name " + p, "draw": i + 1} for i, p in enumerate(players)])
    assert st == 200, body
    st, body = server.call("POST", "/api/tournaments/cup/seatings/1", {"method": "draw", "publish": True})
    assert st == 201 and body["published"], body
    table = body["tables"][0]["table"]
    keys = str(tmp_path / "keys.json")
    with open(os.path.join(FS, "main.py"), "rb") as f:
        files = {"main.py": f.read()}
    with Pico(uf2=UF2, elf=UF2[:-4] + ".elf") as p, PtyBridge(p) as bridge:
        p.boot(files=files)
        p.run(1000)
        # the referee's laptop meets a new box: its key
        rc, out = sync(bridge, "--provision", "--key-file", keys)
        assert rc == 0, out
        assert "box-000000" in out and "provisioned" in out
        key = bytes.fromhex(json.load(open(keys))["box-000000"])
        st, body = server.call("POST", "/api/devices", {"id": "box-000000", "key": key.hex(), "tournament": "cup", "table": table})
        assert st == 201, body
        st, cfg = server.call("GET", "/api/boxes/box-000000/config")
        assert st == 200 and cfg["players"] and cfg["table"] == table, cfg
        with open(tmp_path / "cfg.json", "w") as f:
            json.dump(cfg, f)
        rc, out = sync(bridge, "--server", server.url, "--key-file", keys, "--config", str(tmp_path / "cfg.json"))
        assert rc == 0, out
        assert "pulled 0" in out
        # the table plays a hand on the box
        from simulator.runner import Script
        pl = ChipPlayer(p, files)
        sc = Script(pl.keymap, pl.ncols)
        sc.t = pl.adopt(key)
        pl.play([ev for ln in HAND for ev in sc.line(ln)])
        pl.run_to(sc.t + 500)
        # the referee syncs after the session: the session and the hand, uploaded and acknowledged
        rc, out = sync(bridge, "--server", server.url, "--key-file", keys)
        assert rc == 0, out
        assert "pulled 2, uploaded 2, already known 0, refused 0, set aside 0" in out, out
        rc, out = sync(bridge, "--server", server.url, "--key-file", keys, "--no-clock")
        assert rc == 0 and "pulled 0, uploaded 0" in out, out
        # on the box: both records still in the journal, acknowledged up to 2
        bridge.drop()
        st, got, err = raw_exec(p, "from firmware.journal import Journal\nj = Journal('/journal')\n"
                                   "print(j.acked, [s for s, _ in j.records(1)])")
        assert st == "ok" and got.strip() == "2 [1, 2]", (st, got, err)
    st, body = server.call("GET", "/api/tournaments/cup/players/%s/hands" % cfg["players"][0])
    assert st == 200, body
    assert len(body["hands"]) == 1, body
