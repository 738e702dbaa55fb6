"""The sync tool against the tournament server of host_tools/server (SQLite): the contract test
the minimal server of miniserver.py stands in for elsewhere."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from host_tools import sync

from .helpers import REPO, FakeApp, ThreadDevice, journal_with, key_for, session_payloads, write_keys

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def call(url, method, path, body=None, token=None):
    req = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(), method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_sync_to_the_tournament_server(tmp_path):
    from firmware.link.engine import Link
    env = dict(os.environ, MT_PASSWORD="a long enough password")
    db = "sqlite:///%s" % (tmp_path / "t.db")
    subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", db, "--create-account", "org"],
                   check=True, capture_output=True, env=env, cwd=str(REPO), timeout=60)
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    srv = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", db, "--port", str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=str(REPO))
    j = journal_with(tmp_path / "j", session_payloads(1, "box-9"))
    app = FakeApp(j, "box-9")
    dev = ThreadDevice(lambda port_: Link(app, port_, str(tmp_path / "key")))
    keys = write_keys(tmp_path / "keys.json", ["box-9"])
    try:
        dev.link._store_key(key_for("box-9"))
        for _ in range(100):
            try:
                st, body = call(url, "POST", "/api/login", {"username": "org", "password": env["MT_PASSWORD"]})
                break
            except OSError:
                time.sleep(0.05)
        assert st == 200, body
        token = body["token"]
        # not registered yet: 403, nothing acknowledged
        with pytest.raises(sync.ServerError, match="403"):
            sync.sync(dev.path, server=url, key_file=keys, wake=0, timeout=0.3)
        assert j.acked == 0
        # the session the box played names tournament T, session 1, table 7: the box is bound there
        st, body = call(url, "POST", "/api/tournaments", {"id": "T", "name": "T", "format": "mcr_000"}, token)
        assert st == 201, body
        st, body = call(url, "POST", "/api/devices", {"id": "box-9", "key": key_for("box-9").hex(), "tournament": "T", "table": 7}, token)
        assert st in (200, 201), body
        s = sync.sync(dev.path, server=url, key_file=keys, wake=0, timeout=0.3)
        assert s.line() == "pulled 19, uploaded 19, already known 0, refused 0, set aside 0" and j.acked == 19
        # where each record went, as the server answered it (and the box's head, signed, was taken)
        assert s.details() == ["to T session 1 table 7: 18 record(s)", "corrections of hands: 1 record(s)"] and s.head == ""
        s = sync.sync(dev.path, server=url, key_file=keys, wake=0, timeout=0.3)
        assert s.line() == "pulled 0, uploaded 0, already known 0, refused 0, set aside 0"
        # the same records from another copy of the journal: known, one by one and in a batch
        for batch in (False, True):
            j2 = journal_with(tmp_path / ("j2%d" % batch), session_payloads(1, "box-9"))
            d2 = ThreadDevice(lambda port_: Link(FakeApp(j2, "box-9"), port_, str(tmp_path / "key")))
            s = sync.sync(d2.path, server=url, key_file=keys, wake=0, timeout=0.3, batch=batch)
            d2.close()
            assert s.line() == "pulled 19, uploaded 0, already known 19, refused 0, set aside 0" and j2.acked == 19
            assert s.details()[0] == "to T session 1 table 7: 18 record(s)"
            j2.close()
        # a different record under a stored (device, seq): 409, refused, not acknowledged
        other = session_payloads(2, "box-9")
        j3 = journal_with(tmp_path / "j3", other[:4])
        d3 = ThreadDevice(lambda port_: Link(FakeApp(j3, "box-9"), port_, str(tmp_path / "key")))
        with pytest.raises(sync.SyncError) as e:
            sync.sync(d3.path, server=url, key_file=keys, wake=0, timeout=0.3)
        d3.close()
        assert e.value.exit_code == sync.EXIT_REFUSED and "409" in str(e.value)
        assert e.value.summary.refused >= 1 and j3.acked < 4
        j3.close()
    finally:
        dev.close()
        j.close()
        srv.terminate()
        srv.wait(10)
