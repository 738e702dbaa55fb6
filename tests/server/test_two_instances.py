"""Issue 19, "more than one machine": two `serve` instances on one PostgreSQL database, as
docs/deploy.md sets them up behind the proxy. Uploads to one, standings and pages from the other,
current and equal after every change; a login, a page session and a login lockout made on one
hold on the other; one instance killed while a box uploads to it loses nothing (the box sends
again what was not acknowledged, to the instance still up) and counts nothing twice."""
from __future__ import annotations

import http.client
import json
import os
import random
import signal
import threading

import pytest

from host_tools.tournament.exports import format_score

from .conftest import PASSWORD, Running, new_database, start_server, stop, uid
from .helpers import Client, Device, synthetic_session
from .pages import PageSession

PLAYERS = ["P%02d" % i for i in range(1, 17)]


@pytest.fixture
def pair(request, tmp_path):
    db = new_database(request, "postgresql", tmp_path)
    # one secret for both (sessions are signed with it), as deploy.md says
    a = start_server(db, tmp_path)
    b = start_server(db, tmp_path)
    ra, rb = Running("postgresql", db, a[0], a[1], tmp_path), Running("postgresql", db, b[0], b[1], tmp_path)
    yield ra, rb
    for p in (a[0], b[0]):
        if p.poll() is None:
            stop(p)


def children(pid: int) -> list:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = open("/proc/%s/stat" % d).read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d))
    return out


def standings(s: Running, tid: str):
    st, _, body = s.anon.request("GET", "/api/tournaments/%s/standings" % tid)
    assert st == 200, body[:200]
    return json.loads(body)


def test_two_instances_on_one_database(pair):
    a, b = pair
    org_a = a.login("org")
    tid = uid("T")
    assert org_a.post("/api/tournaments", {"id": tid, "name": "Two", "format": "mcr_000", "settings": {}})[0] == 201
    assert org_a.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": "Name " + p, "draw": i + 1} for i, p in enumerate(PLAYERS)])[0] == 200
    tables = [(n + 1, PLAYERS[4 * n:4 * n + 4]) for n in range(4)]
    assert org_a.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": [t for _, t in tables], "publish": True})[0] == 201
    # a token issued by one instance works on the other; a browser session too
    org_b = Client(b.url, token=org_a.token)
    assert org_b.get("/api/me")[1]["username"] == "org"
    page = PageSession(a.url)
    assert page.login("org") == 302
    page.client = Client(b.url)  # the same cookies, the other instance
    assert page.get("/t/%s/manage/players" % tid)[0] == 200
    devices = {}
    rng = random.Random(19)
    envs, scores = synthetic_session(tid, 1, tables, devices, rng, hands=8)
    for d in devices.values():
        assert org_b.post("/api/devices", {"id": d.id, "key": d.key.hex()})[0] == 201
        assert org_a.post("/api/devices/%s/bind" % d.id, {"tournament": tid, "table": int(d.id.split("-")[1])})[0] == 200
    # uploads to A in four parts: after each, B's standings are current and equal A's
    seen = []
    for part in range(4):
        chunk = envs[part::4]
        st, body = a.anon.post("/api/records:batch", chunk)
        assert st == 200 and all(r["status_code"] in (200, 201) for r in body["results"]), body
        sb = standings(b, tid)  # B first: its cache must notice the version A bumped
        sa = standings(a, tid)
        assert sb == sa
        seen.append(sb)
    assert len({json.dumps(x, sort_keys=True) for x in seen}) == 4  # each part changed them
    rows = {r["player"]: r for r in seen[-1]["standings"]}
    assert {p: rows[p]["match"] for p in PLAYERS} == {p: format_score(scores[p]) for p in PLAYERS}
    # the pages from B show what A took
    html = PageSession(b.url).get("/t/%s/standings" % tid)[2].decode()
    assert all(("Name " + p) in html for p in PLAYERS)
    # a lockout made through A holds on B (axes counts in the database)
    attacker_a = Client(a.url, source="127.0.0.2")
    assert [attacker_a.post("/api/login", {"username": "org", "password": "x%d" % i})[0] for i in range(10)][-1] == 429
    assert Client(b.url, source="127.0.0.2").post("/api/login", {"username": "org", "password": PASSWORD})[0] == 429
    assert Client(b.url, source="127.0.0.3").post("/api/login", {"username": "org", "password": PASSWORD})[0] == 200


def test_an_instance_killed_mid_upload_loses_nothing(pair):
    a, b = pair
    org = a.login("org")
    tid = uid("K")
    assert org.post("/api/tournaments", {"id": tid, "name": "Kill", "format": "mcr_000", "settings": {}})[0] == 201
    assert org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": p, "draw": i + 1} for i, p in enumerate(PLAYERS)])[0] == 200
    tables = [(n + 1, PLAYERS[4 * n:4 * n + 4]) for n in range(4)]
    assert org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": [t for _, t in tables], "publish": True})[0] == 201
    devices = {n: Device(uid("k%d-" % n)) for n, _ in tables}
    envs, scores = synthetic_session(tid, 1, tables, devices, random.Random(7), hands=16)
    for n, d in devices.items():  # each bound to the table it plays (a box bound nowhere counts nowhere)
        assert org.post("/api/devices", {"id": d.id, "key": d.key.hex(), "tournament": tid, "table": n})[0] == 201
    acked, pending = set(), list(envs)
    killed = threading.Event()

    def box(dev_id):
        """One box: its records one by one to A; once A is gone, what A did not acknowledge to B."""
        mine = [e for e in pending if e["device"] == dev_id]
        target = Client(a.url)
        for e in mine:
            while True:
                try:
                    st = target.post("/api/records", e)[0]
                except (OSError, http.client.HTTPException):  # the kill can cut an answer after its headers
                    st = None
                if st in (200, 201):
                    acked.add((e["device"], e["seq"]))
                    break
                assert st is None or st >= 500, st
                killed.wait(10)
                target = Client(b.url)

    threads = [threading.Thread(target=box, args=(d.id,)) for d in devices.values()]
    for t in threads:
        t.start()
    while len(acked) < len(envs) // 3:
        threading.Event().wait(0.01)
    for pid in [a.proc.pid] + children(a.proc.pid):  # the machine dies: master and workers at once, no graceful stop
        os.kill(pid, signal.SIGKILL)
    a.proc.wait(10)
    killed.set()
    for t in threads:
        t.join(120)
    assert len(acked) == len(envs)
    # every record is there once, and the standings from B add up to what the boxes played
    rows = b.sql("SELECT device_id, seq FROM boxes_record WHERE device_id IN (%s)" % ",".join("?" * len(devices)),
                 tuple(d.id for d in devices.values()))
    assert sorted(rows) == sorted(acked)
    st = standings(b, tid)
    assert {r["player"]: r["match"] for r in st["standings"]} == {p: format_score(scores[p]) for p in PLAYERS}
