"""The attacks of issue 12, each a test: login floods (throttled per address,
hashing outside any write, uploads go on), numbers that would freeze Fraction, lone surrogates
on every JSON route, malformed requests, key files at 0600, uploads durable once acknowledged,
Secure cookies behind TLS, CSRF on the pages. SQLite and PostgreSQL."""
import os
import signal
import statistics
import stat
import threading
import time

import pytest

from .conftest import PASSWORD, Running, new_database, start_server, stop, uid
from .helpers import Client, Device, hand_rec, session_rec
from .test_standings import seat, table_records, upload


def _own(request, backend, tmp_path):
    db = new_database(request, backend, tmp_path)
    proc, url = start_server(db, tmp_path)
    s = Running(backend, db, proc, url, tmp_path)
    s.org = s.login("org")
    s.ref = s.login("ref")
    return s


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def own_server(request, tmp_path_factory):
    """A server of its own (a fresh login-failure count), with the real limit of 10; the
    throttling tests share it, each from addresses and accounts of its own."""
    s = _own(request, request.param, tmp_path_factory.mktemp("own"))
    yield s
    stop(s.proc)


@pytest.fixture
def doomed_server(request, backend, tmp_path):
    """A server this test may kill."""
    s = _own(request, backend, tmp_path)
    yield s
    stop(s.proc)


def test_login_throttled_per_account_and_address(own_server):
    s = own_server
    victim = uid("victim")
    assert s.org.post("/api/accounts", {"username": victim, "password": PASSWORD})[0] == 201
    attacker = Client(s.url, source="127.0.0.2")
    got = [attacker.post("/api/login", {"username": victim, "password": "wrong %d" % i})[0] for i in range(10)]
    assert got == [401] * 9 + [429]  # the tenth failure locks
    # the password is stored hashed by Django's default hasher (PBKDF2), never as given
    stored = s.sql("SELECT password FROM auth_user WHERE username = ?", (victim,))[0][0]
    assert stored.startswith("pbkdf2_sha256$") and PASSWORD not in stored
    # the attacking address is locked, for this account with the right password too, and for every other
    assert attacker.post("/api/login", {"username": victim, "password": PASSWORD})[0] == 429
    assert attacker.post("/api/login", {"username": "org", "password": PASSWORD})[0] == 429
    # naming another address in X-Forwarded-For does not get it out (no proxy: the header is the client's word)
    spoof = Client(s.url, source="127.0.0.2", headers={"X-Forwarded-For": "10.9.8.7"})
    assert spoof.post("/api/login", {"username": "org", "password": PASSWORD})[0] == 429
    # the account is not locked for others: the victim logs in from their own address (issue 19: anyone
    # could keep a named organizer out), and another address logs in to another account
    assert Client(s.url, source="127.0.0.3").post("/api/login", {"username": victim, "password": PASSWORD})[0] == 200
    assert Client(s.url, source="127.0.0.4").post("/api/login", {"username": "org", "password": PASSWORD})[0] == 200
    # nor can failures spread over addresses add up against the account: nine from each of three
    for n in (5, 6, 7):
        c = Client(s.url, source="127.0.0.%d" % n)
        assert [c.post("/api/login", {"username": victim, "password": "wrong"})[0] for _ in range(9)] == [401] * 9
    assert Client(s.url, source="127.0.0.8").post("/api/login", {"username": victim, "password": PASSWORD})[0] == 200
    # the browser login form is throttled the same way
    st, _, body = attacker.request("POST", "/login/", raw=b"username=org&password=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert st in (403, 429)


def test_login_flood_does_not_stop_uploads(own_server):
    """Two addresses try passwords as fast as they can while a box uploads, and two people log
    in meanwhile: every upload is stored at once (no hash runs inside a write), each attacking
    address is locked after ten failures (no more hashing for it), the people get in."""
    s = own_server
    dev = Device(uid("flood"))
    assert s.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex()})[0] == 201
    failed, good = [], []

    def attack(n):
        c = Client(s.url, source="127.0.1.%d" % n)
        for i in range(25):
            failed.append((n, c.post("/api/login", {"username": "user%d-%d" % (n, i), "password": "guess %d" % i})[0]))

    def person():
        good.append(Client(s.url, source="127.0.2.1").post("/api/login", {"username": "org", "password": PASSWORD})[0])

    threads = [threading.Thread(target=attack, args=(n,)) for n in range(1, 3)] + [threading.Thread(target=person) for _ in range(2)]
    for t in threads:
        t.start()
    lat, statuses = [], []
    c = Client(s.url)
    seats = ["a", "b", "c", "d"]
    for h in range(1, 31):
        t0 = time.perf_counter()
        statuses.append(c.post("/api/records", dev.next(hand_rec("T", 1, 1, h, seats, [24, -8, -8, -8], 0)))[0])
        lat.append(time.perf_counter() - t0)
    for t in threads:
        t.join(120)
    assert statuses == [201] * 30
    # the machine is shared (2 cores, the flood's hashes on them): uploads slow down, they do not stop
    assert statistics.median(lat) < 1 and max(lat) < 15, lat
    assert good == [200] * 2
    for n in range(1, 3):
        mine = [st for m, st in failed if m == n]
        assert mine == [401] * 9 + [429] * 16, (n, mine)


def test_numbers_that_would_freeze_fraction(server):
    tid = server.tournament("guangdong_004", players=["a", "b", "c", "d"])
    seat(server, tid, 1, [["a", "b", "c", "d"]])
    evil = ["1e-10000000", "1e10000000", "9" * 5000, "1/" + "7" * 3000, "-1e-999999", "0x10", "1_000", "５"]
    for v in evil:
        t0 = time.perf_counter()
        st, body = server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "a", "kind": "late", "minutes": v, "reason": "x"})
        assert st == 400 and time.perf_counter() - t0 < 2, (v, st, body)
        t0 = time.perf_counter()
        st, body = server.org.json("PATCH", "/api/tournaments/" + tid, {"settings": {"carry_ratio": v}})
        assert st == 400 and time.perf_counter() - t0 < 2, (v, st, body)
    for raw in (b'{"session": 1, "player": "a", "kind": "points", "points": 1' + b"0" * 5000 + b', "reason": "x"}',
                b'{"session": 1e-10000000, "player": "a", "kind": "points", "points": 1, "reason": "x"}'):
        t0 = time.perf_counter()
        st, _, body = server.ref.request("POST", "/api/tournaments/%s/penalties" % tid, raw=raw, headers={"Content-Type": "application/json"})
        assert st == 400 and time.perf_counter() - t0 < 2, body[:200]
    # a name that looks like a formula and a huge number: the anonymous CSV export answers at once
    server.org.post("/api/tournaments/%s/players" % tid, [{"id": "a", "name": "-1e-10000000", "draw": 1}, {"id": "b", "name": "=1+1", "draw": 2}])
    upload(server, table_records(_device(server), tid, 1, 1, {"a": 10, "b": 0, "c": -5, "d": -5}, "guangdong"))
    t0 = time.perf_counter()
    st, _, body = server.anon.request("GET", "/api/tournaments/%s/export/standings.csv" % tid)
    assert st == 200 and time.perf_counter() - t0 < 2
    text = body.decode()
    assert "'-1e-10000000" in text and "'=1+1" in text


def _device(server):
    dev = Device(uid("n"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex()})[0] == 201
    return dev


def test_lone_surrogates_and_nul_on_every_json_route(server):
    tid = server.tournament("mcr_000", players=["a", "b", "c", "d"])
    routes = [("POST", "/api/records"), ("POST", "/api/records:batch"), ("POST", "/api/login"), ("POST", "/api/tournaments"),
              ("PATCH", "/api/tournaments/" + tid), ("POST", "/api/tournaments/%s/players" % tid), ("POST", "/api/tournaments/%s/penalties" % tid),
              ("POST", "/api/tournaments/%s/corrections" % tid), ("POST", "/api/tournaments/%s/playoffs" % tid), ("POST", "/api/devices"),
              ("POST", "/api/accounts"), ("POST", "/api/tournaments/%s/hands" % tid), ("POST", "/api/tournaments/%s/seatings/1" % tid),
              ("POST", "/api/tournaments/%s/roles" % tid), ("PATCH", "/api/accounts/ref")]
    bodies = [b'{"name": "\\ud800"}', b'[{"id": "\\udfff", "name": "x"}]', b'{"username": "\\ud83d", "password": "x"}', b'{"name": "a\\u0000b"}',
              b'{"name": "\xed\xa0\x80"}', b'{"name": "ok \\ud83d\\ude00 \\ud800"}']
    for method, path in routes:
        for body in bodies:
            st, _, reply = server.org.request(method, path, raw=body, headers={"Content-Type": "application/json"})
            assert st == 400, (method, path, body, st, reply[:200])
    # a well-formed pair is text (an emoji in a name)
    st, body = server.org.post("/api/tournaments/%s/players" % tid, [{"id": "e", "name": "Emoji \U0001F600"}])
    assert st == 200, body
    for path in ("/api/tournaments/%ED%A0%80/standings", "/t/%ED%A0%80/standings", "/api/tournaments/%00/standings", "/t/x/players/%C3%28"):
        assert server.anon.get(path)[0] in (400, 404), path


def test_malformed_requests_are_400(server):
    bad = [
        ("POST", "/api/records", b"x" * 10, {"Content-Type": "application/json"}),
        ("POST", "/api/records", b'{"device": "d", "seq": 1, "payload": "", "sig": "' + b"0" * 64 + b'"', {"Content-Type": "application/json"}),
        ("POST", "/api/tournaments", b"[" * 100000, {"Content-Type": "application/json"}),
        ("POST", "/api/records:batch", b"{" * 5000, {"Content-Type": "application/json"}),
        ("POST", "/api/records", b"\xff" * 100, {"Content-Type": "application/json"}),
        ("POST", "/api/records", b"x" * (3 * 1024 * 1024), {"Content-Type": "application/json"}),
        ("GET", "/api/boxes/x/config?head=" + "9" * 5000, None, {}),
        ("GET", "/api/tournaments/x/tables/1e5/1", None, {}),
    ]
    for method, path, raw, headers in bad:
        st, _, body = server.org.request(method, path, raw=raw, headers=headers)
        assert 400 <= st < 500, (method, path[:60], st, body[:200])
    # larger than the server reads (4 MB): refused (400, or the connection closed before the body is sent)
    c = Client(server.url)
    try:
        st = c.request("POST", "/api/records", raw=b"x" * (5 * 1024 * 1024), headers={"Content-Type": "application/json"})[0]
    except (BrokenPipeError, ConnectionResetError):
        st = 400
    assert st in (400, 413)
    assert server.anon.get("/api/health")[0] == 200


def test_key_files_are_private_and_uploads_durable(doomed_server):
    s = doomed_server
    st, health = s.anon.get("/api/health")
    assert st == 200
    if s.backend == "sqlite":
        assert health["journal_mode"] == "wal" and health["synchronous"] == 2  # FULL: a commit survives a power cut
        path = s.db[len("sqlite:///"):]
        for suffix in ("", "-wal", "-shm", ".secret"):
            f = path + suffix
            if os.path.exists(f):
                assert stat.S_IMODE(os.stat(f).st_mode) == 0o600, f
        assert stat.S_IMODE(os.stat(s.workdir / "secret").st_mode) == 0o600
    # acknowledged, then the server is killed without a chance to flush: the record is there
    dev = Device(uid("dur"))
    assert s.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex()})[0] == 201
    assert s.anon.post("/api/records", dev.next(session_rec("T", 1, 1, ["a", "b", "c", "d"])))[0] == 201
    s.proc.send_signal(signal.SIGKILL)
    s.proc.wait(10)
    time.sleep(0.5)  # the workers notice their master is gone
    assert s.sql("SELECT COUNT(*) FROM boxes_record WHERE device_id = ?", (dev.id,))[0][0] == 1


def test_cookies_secure_behind_tls(request, tmp_path):
    """Not a storage test: SQLite only (a server without --tls: test_pages_need_csrf_and_roles)."""
    db = new_database(request, "sqlite", tmp_path)
    proc, url = start_server(db, tmp_path, args=["--tls"])
    try:
        c = Client(url)
        st, headers, _ = c.request("GET", "/login/", headers={"X-Forwarded-Proto": "https"})
        assert st == 200
        cookie = headers.get("Set-Cookie", "")
        assert "csrftoken=" in cookie and "Secure" in cookie and "SameSite=Lax" in cookie
        assert "max-age=31536000" in headers.get("Strict-Transport-Security", "")
        st, headers, _ = c.request("GET", "/login/")  # plain http to a TLS deployment: sent to https
        assert st == 301 and headers["Location"].startswith("https://")
    finally:
        stop(proc)


def test_pages_need_csrf_and_roles(server):
    # without --tls the cookies are not Secure (plain http on a LAN)
    st, headers, _ = Client(server.url).request("GET", "/login/")
    assert st == 200 and "csrftoken=" in headers.get("Set-Cookie", "") and "Secure" not in headers.get("Set-Cookie", "")
    tid = server.tournament("mcr_000", players=["a", "b", "c", "d"])
    # a form post without the CSRF token is refused, whoever sends it
    st, _, _ = server.anon.request("POST", "/t/%s/manage/players" % tid, raw=b"action=add&add-id=x&add-name=y",
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert st == 403
    st, headers, _ = server.anon.request("GET", "/t/%s/manage/players" % tid)
    assert st == 302 and headers["Location"].startswith("/login/")
    assert server.anon.request("GET", "/t/%s/referee/" % tid)[0] == 302
    # escaped output: a name with markup is shown as text
    server.org.post("/api/tournaments/%s/players" % tid, [{"id": "a", "name": "<script>alert(1)</script>", "draw": 1}])
    page = server.anon.request("GET", "/t/%s/standings" % tid)[2].decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    st, headers, _ = server.anon.request("GET", "/t/%s/standings" % tid)
    assert headers.get("X-Frame-Options") == "DENY" and headers.get("X-Content-Type-Options") == "nosniff"
