"""The box fetches its next session config and the hall's time over the network (issue 20;
firmware/net/fetch.py, protocol/fetch.py): the CPython simulator's device loop against the real
server. An idle box starts the session of the table it is bound to and takes the hall's time; a
referee's extension reaches the running session; a server that holds another key, and an access
point that forges answers or replays a real one, change neither the session nor the clock."""
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from firmware import main as fw
from firmware.link import store
from simulator import push as spush
from simulator.runner import EPOCH, Sim

from .conftest import stop, uid
from .test_box_push import login, records_on, register, serve


@pytest.fixture(scope="module")
def one_server(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fetch-server")
    db, proc, url = serve(request, tmp)
    org = login(url)
    yield db, url, org
    org.close()
    stop(proc)


def table(org, players="ABCD"):
    """A tournament with session 1 published: table 1 seats the players."""
    tid = uid("T")
    assert org.post("/api/tournaments", {"id": tid, "name": "Fetch " + tid, "format": "mcr_000", "settings": {}})[0] == 201
    st, body = org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": "Name " + p, "draw": i + 1} for i, p in enumerate(players)])
    assert st == 200, body
    st, body = org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": [list(players)], "publish": True})
    assert st == 201, body
    return tid


def bound_box(org, tid, key):
    device = uid("box-")
    register(org, device, key)
    st, body = org.post("/api/devices/%s/bind" % device, {"tournament": tid, "table": 1})
    assert st == 200, body
    return device


def sim_box(tmp_path, url, device, key):
    folder = tmp_path / device
    folder.mkdir()
    store.store_key(str(folder / "device.key"), key)
    cfg = spush.network_board(spush.parts_sim(), url, backoff_max=1000)
    cfg.NETWORK["fetch_ms"] = 300
    sim = Sim(cfg=cfg, folder=str(folder), port=spush.unplugged(), device_id=device)
    sim.real_time()
    return sim


def serve_until(sim, pred, timeout):
    """The device loop in real time until pred() or timeout seconds; pred()'s last value."""
    t0 = time.monotonic()
    fw.serve(sim.dev, hook=lambda dev, n: pred() or time.monotonic() - t0 > timeout)
    return pred()


def test_an_idle_box_starts_its_session_takes_the_halls_time_and_a_later_extension(one_server, tmp_path):
    db, url, org = one_server
    tid = table(org)
    key = os.urandom(32)
    device = bound_box(org, tid, key)
    sim = sim_box(tmp_path, url, device, key)
    app = sim.app
    assert app.session is None and app.state == "idle" and abs(app.now_s() - EPOCH) < 60  # the script's clock
    assert serve_until(sim, lambda: app.session is not None, 20), spush.describe(sim.dev.net)
    cfg = app.session.cfg
    assert (cfg["tournament"], cfg["session"], cfg["table"], cfg["players"]) == (tid, 1, 1, list("ABCD"))
    assert app.state == "main" and abs(app.now_s() - time.time()) <= 2  # the hall's time
    f = sim.dev.net.fetcher
    assert f.configs == 1 and f.clocks == 1
    # the session's record goes to the server by the push
    assert serve_until(sim, lambda: records_on(db, device) == [1], 20), spush.describe(sim.dev.net)
    minutes = cfg["minutes"]
    st, body = org.post("/api/tournaments/%s/sessions/1/extend" % tid, {"table": 1, "minutes": 10, "reason": "a tile fell off the table"})
    assert st == 201, body
    s = app.session
    assert serve_until(sim, lambda: s.cfg["minutes"] == minutes + 10, 20)
    assert s.limit_ms == (minutes + 10) * 60000 and app.session is s and not s.ended
    assert app.msg and str(minutes + 10) in app.msg  # "Time: N min left" in the box's language
    # nothing new: fetches go on, the session is not started again, no message again, no clock step
    app.msg = ""
    n, last = f.fetches, sim.journal.last_seq
    assert serve_until(sim, lambda: f.fetches >= n + 3, 10)
    assert app.session is s and sim.journal.last_seq == last and not app.msg and f.configs == 2 and f.clocks == 1


def test_a_server_with_another_key_moves_neither_the_session_nor_the_clock(one_server, tmp_path):
    db, url, org = one_server
    tid = table(org)
    device = bound_box(org, tid, os.urandom(32))  # the server holds another key than the box's
    sim = sim_box(tmp_path, url, device, os.urandom(32))
    app, f = sim.app, sim.dev.net.fetcher
    epoch = app.epoch
    assert not serve_until(sim, lambda: app.session is not None, 3)
    assert f.tries >= 2 and f.fetches == 0 and f.problem == "server lacks key"
    assert app.session is None and app.epoch == epoch and sim.journal.last_seq == 0
    # a box the server does not know at all: told so, nothing taken
    sim = sim_box(tmp_path, url, uid("box-"), os.urandom(32))
    app, f = sim.app, sim.dev.net.fetcher
    epoch = app.epoch
    assert not serve_until(sim, lambda: f.fetches > 0, 2)
    assert f.tries >= 1 and f.problem == "server does not know this box" and app.epoch == epoch and app.session is None


class AccessPoint:
    """An access point (or a server) without the device key that answers every fetch with what
    `answer()` gives: a forged answer, or a real one it recorded earlier."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.served = []
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                if self.path.endswith("/fetch"):
                    body = outer.answers[len(outer.served) % len(outer.answers)]
                    outer.served.append(body)
                else:  # a push: holds nothing
                    body = {"results": [], "ack": None, "time": int(time.time())}
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = "http://127.0.0.1:%d" % self.srv.server_address[1]
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()


def test_an_access_point_cannot_forge_or_replay_a_config_or_the_time(one_server, tmp_path):
    from protocol import fetch as pfetch
    from protocol.sign import HmacSha256, device_z
    db, url, org = one_server
    tid = table(org)
    key = os.urandom(32)
    device = bound_box(org, tid, key)
    from .helpers import Client
    anon = Client(url)
    try:  # a real answer of the real server, recorded for a nonce of an earlier fetch
        st, real = anon.post("/api/boxes/%s/fetch" % device, {"nonce": os.urandom(16).hex()})
    finally:
        anon.close()
    assert st == 200 and real["config"] is not None
    forged_cfg = dict(json.loads(real["config"]), session=2)
    wrong = HmacSha256(os.urandom(32))
    n0 = os.urandom(16)
    t = int(time.time()) + 3600
    forged = {"config": json.dumps(forged_cfg), "why": None, "time": t,
              "config_mac": pfetch.config_mac(wrong, device_z(device), n0, json.dumps(forged_cfg).encode()).hex(),
              "time_mac": pfetch.clock_mac(wrong, device_z(device), n0, t).hex()}
    unsigned = dict(real, config_mac=None, time_mac=None)
    swapped = dict(real, config=json.dumps(forged_cfg))  # the real MACs over another config
    ap = AccessPoint([real, forged, unsigned, swapped])
    try:
        sim = sim_box(tmp_path, ap.url, device, key)
        app, f = sim.app, sim.dev.net.fetcher
        epoch = app.epoch
        assert not serve_until(sim, lambda: app.session is not None, 6)
        assert len(ap.served) >= 5  # each kind once at least (a failure backs off up to 1 s)
        assert f.fetches == 0 and f.problem in ("server lacks key", "server: not a fetch answer")
        assert app.session is None and app.epoch == epoch and sim.journal.last_seq == 0
    finally:
        ap.close()


def test_unix_port_box_fetches_its_session_and_the_time_with_real_sockets(one_server, tmp_path):
    """The box on the MicroPython unix port (tests/net/fetch_main.py: the same device loop, the
    port's socket and select), booted idle: the session it pushes is the server's, started by the
    fetched config, and its record carries the hall's time, not the script's."""
    import sqlite3
    import subprocess

    from tests.sync.helpers import MICROPYTHON

    from .conftest import ROOT
    db, url, org = one_server
    tid = table(org)
    key = os.urandom(32)
    device = bound_box(org, tid, key)
    out = tmp_path / "mp"
    out.mkdir()
    store.store_key(str(out / "device.key"), key)
    r = subprocess.run([str(MICROPYTHON), "-X", "heapsize=2M", "tests/net/fetch_main.py", url, device, str(out), "30"],
                       capture_output=True, text=True, cwd=ROOT, timeout=180, env=dict(os.environ, MICROPYPATH="."))
    assert r.returncode == 0, r.stdout + r.stderr
    want = "fetched 1, configs 1, clocks 1; session %s/1/1; 1 journal records; network up, 0 records not yet on the server" % tid
    assert want in r.stdout, r.stdout
    c = sqlite3.connect(db[len("sqlite:///"):])
    try:
        rows = c.execute("SELECT seq, kind, tournament, session, \"table\", time FROM boxes_record WHERE device_id = ?", (device,)).fetchall()
    finally:
        c.close()
    assert len(rows) == 1 and rows[0][:5] == (1, "session", tid, 1, 1), rows
    assert abs(rows[0][5] - time.time()) < 60, rows  # the hall's time (the script's is a year and more ago)
