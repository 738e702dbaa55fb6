"""The box online against the real server (issue 20): the CPython simulator plays the MCR
session with a network (python -m simulator --push; simulator/push.py) and pushes every record
through a TCP proxy that drops, resets, delays and loses answers (tests/net/tcp_proxy.py); the
server stopped for the whole session and started again; a server without the box's key. Each
record reaches the server exactly once and the box marks synced only what the server's ack
proves (protocol/push.py). SQLite: the record path is the batch upload's, tested on both
databases in test_upload and test_push."""
import hashlib
import os
import subprocess
import sys

import pytest

from firmware.link import store
from simulator import push as spush
from simulator.runner import Sim
from tests.net.tcp_proxy import Proxy

from .conftest import ROOT, new_database, start_server, stop, uid

SCRIPT = ROOT / "simulator" / "scenarios" / "mcr_session.txt"


def register(org, device, key):
    st, body = org.post("/api/devices", {"id": device, "key": key.hex()})
    assert st == 201, body


def records_on(db, device):
    import sqlite3
    c = sqlite3.connect(db[len("sqlite:///"):])
    try:
        return [s for (s,) in c.execute("SELECT seq FROM boxes_record WHERE device_id = ? ORDER BY seq", (device,))]
    finally:
        c.close()


def sim_box(tmp_path, url, device, key):
    folder = tmp_path / device
    folder.mkdir()
    if key is not None:
        store.store_key(str(folder / "device.key"), key)
    cfg = spush.network_board(spush.parts_sim(), url, backoff_max=1000)
    return Sim(cfg=cfg, folder=str(folder), port=spush.unplugged(), device_id=device)


def serve(request, tmp_path):
    db = new_database(request, "sqlite", tmp_path)
    proc, url = start_server(db, tmp_path, {"MT_TEST_FAST_HASHER": "1"})
    return db, proc, url


def login(url):
    from .helpers import Client
    org = Client(url)
    org.token = org.post("/api/login", {"username": "org", "password": "a long enough password"})[1]["token"]
    return org


@pytest.fixture(scope="module")
def one_server(request, tmp_path_factory):
    """One server for the tests that do not stop it: (db, url, organizer's client)."""
    tmp = tmp_path_factory.mktemp("push-server")
    db, proc, url = serve(request, tmp)
    org = login(url)
    yield db, url, org
    org.close()
    stop(proc)


def test_pushes_through_a_faulty_network_exactly_once(one_server, tmp_path):
    db, url, org = one_server
    device, key = uid("box-"), os.urandom(32)
    register(org, device, key)
    proxy = Proxy(int(url.rsplit(":", 1)[1]), ["drop", "reset", "delay:0.5", "lose_answer", "lose_answer", "pass", "lose_answer", "pass", "pass",
                                               "drop", "lose_answer"])
    try:
        sim = sim_box(tmp_path, proxy.url, device, key)
        sim.run(str(SCRIPT))
        assert spush.serve_until_synced(sim, 60), spush.describe(sim.dev.net)
        last = sim.journal.last_seq
        assert last >= 18 and sim.journal.acked == last
        assert records_on(db, device) == list(range(1, last + 1))  # each once, none missing
        assert {"drop", "reset", "delay:0.5", "lose_answer"} <= set(proxy.used)
        # (the box's own failure count starts again at the scenario's power cut: the proxy's list
        # is the record of what the box went through)
    finally:
        proxy.close()


def test_server_down_for_the_whole_session_then_everything_arrives_once(request, tmp_path):
    db, proc, url = serve(request, tmp_path)
    org = login(url)
    device, key = uid("box-"), os.urandom(32)
    register(org, device, key)
    org.close()
    stop(proc)  # down before the first hand
    proxy = Proxy(int(url.rsplit(":", 1)[1]))
    try:
        sim = sim_box(tmp_path, proxy.url, device, key)
        sim.run(str(SCRIPT))
        net = sim.dev.net
        assert sim.journal.acked == 0 and net.pusher.failures >= 3 and net.status()[3] == sim.journal.last_seq
        assert net.status()[1].startswith("server: ")
        proc, url = start_server(db, tmp_path, {"MT_TEST_FAST_HASHER": "1"})  # back, on another port
        proxy.target = int(url.rsplit(":", 1)[1])
        assert spush.serve_until_synced(sim, 60), spush.describe(net)
        assert records_on(db, device) == list(range(1, sim.journal.last_seq + 1))
    finally:
        proxy.close()
        stop(proc)


def test_a_server_without_the_key_marks_nothing_synced(one_server, tmp_path):
    db, url, org = one_server
    device = uid("box-")
    register(org, device, hashlib.sha256(b"another key").digest())  # the server holds another key
    stranger = uid("box-")  # and this one it does not know at all
    for dev_id in (device, stranger):
        sim = sim_box(tmp_path, url, dev_id, os.urandom(32))
        sim.run(str(SCRIPT))
        assert not spush.serve_until_synced(sim, 1)
        assert sim.journal.acked == 0 and records_on(db, dev_id) == []
        assert sim.dev.net.status()[1] == "server does not know this box"
        assert "server does not know this box" in spush.describe(sim.dev.net)


def test_simulator_command_line_pushes(one_server, tmp_path):
    """python -m simulator --push URL, as a developer runs it (the key as a sync would leave it)."""
    db, url, org = one_server
    device, key = uid("box-"), os.urandom(32)
    register(org, device, key)
    out = tmp_path / "out"
    out.mkdir()
    store.store_key(str(out / "device.key"), key)
    r = subprocess.run([sys.executable, "-m", "simulator", "--script", str(SCRIPT), "--out", str(out), "--no-png",
                        "--device-id", device, "--push", url], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(records_on(db, device))
    assert n >= 18 and "network up, 0 records not yet on the server" in r.stdout, r.stdout
    assert records_on(db, device) == list(range(1, n + 1))


def test_unix_port_box_pushes_with_real_sockets(one_server, tmp_path):
    """The box on the MicroPython unix port (simulator/push_main.py --push: the same device loop,
    firmware/net over the port's own socket and select modules) through the faulty proxy."""
    from tests.sync.helpers import MICROPYTHON
    db, url, org = one_server
    device, key = uid("box-"), os.urandom(32)
    register(org, device, key)
    out = tmp_path / "mp"
    out.mkdir()
    store.store_key(str(out / "device.key"), key)
    proxy = Proxy(int(url.rsplit(":", 1)[1]), ["drop", "lose_answer", "reset", "delay:0.3", "lose_answer"])
    try:
        # sources, not .mpy: compiling them takes heap the device never spends (its heap: the bench)
        r = subprocess.run([str(MICROPYTHON), "-X", "heapsize=2M", "simulator/push_main.py", "--push", proxy.url, "--device-id", device,
                            str(SCRIPT), str(out)], capture_output=True, text=True, cwd=ROOT, timeout=180,
                           env=dict(os.environ, MICROPYPATH="."))
        assert r.returncode == 0, r.stdout + r.stderr
        n = len(records_on(db, device))
        assert "%d journal records; network up, 0 records not yet on the server" % n in r.stdout, r.stdout
        assert n >= 18 and records_on(db, device) == list(range(1, n + 1))
        assert {"drop", "lose_answer", "reset"} <= set(proxy.used)
    finally:
        proxy.close()


def test_push_and_usb_sync_in_the_same_minute(one_server, tmp_path):
    """One box's device loop serves the USB link and pushes (both through Link.ack_to): a sync
    tool syncs it over a pty while its pushes go through a slow proxy; every record reaches the
    server once, none is missing, and the box's ack ends at its last record."""
    import select
    import threading
    import time

    from firmware.link.engine import Link
    from firmware.net import start as net_start
    from host_tools import sync
    from tests.sync.helpers import FakeApp, journal_with, open_pty, session_payloads
    from firmware.link.host_ports import FdPort
    from types import SimpleNamespace
    import json

    db, url, org = one_server
    device, key = uid("box-"), os.urandom(32)
    register(org, device, key)
    j = journal_with(tmp_path / "j", session_payloads(1, device) + session_payloads(2, device, first_seq=20))
    app = FakeApp(j, device)
    master, slave, path = open_pty()
    os.close(slave)
    link = Link(app, FdPort(master), str(tmp_path / "device.key"))
    link._store_key(key)
    proxy = Proxy(int(url.rsplit(":", 1)[1]), ["delay:0.4"] * 3 + ["lose_answer", "delay:0.3"] * 3)
    net = net_start(SimpleNamespace(app=app, link=link), {"driver": "host", "server": proxy.url, "backoff_max": 500}, None)
    stop_ev = threading.Event()
    errors = []

    def loop():  # the device loop: the link's polls and the push's step, one thread as on the box
        try:
            while not stop_ev.is_set():
                busy = link.poll()
                net.step(int(time.monotonic() * 1000))
                if not busy:
                    select.select([master], [master] if link.tx_pending else [], [], 0.003)
        except Exception as e:
            errors.append(e)
            raise

    th = threading.Thread(target=loop, daemon=True)
    th.start()
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({device: key.hex()}))
    try:
        time.sleep(0.5)  # the push has started
        s = sync.sync(path, server=url, key_file=str(keys), wake=0, timeout=0.3)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and j.acked < j.last_seq:
            time.sleep(0.05)
    finally:
        stop_ev.set()
        th.join(5)
        os.close(master)
        proxy.close()
    assert not errors, errors
    last = j.last_seq
    assert last == 38 and j.acked == last
    assert records_on(db, device) == list(range(1, last + 1))  # once each, none missing
    assert s.uploaded + s.known >= 1 and net.pusher.pushes >= 1  # both took part
