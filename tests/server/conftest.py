"""Fixtures for the server tests: a real server (``python -m host_tools serve``: Django on
gunicorn) per database, shared by the tests of a session, each test on its own tournament and
boxes (``uid``).

* ``pg_dsn``: TEST_PG_DSN when set, else a throwaway cluster started by tools/pg_test_server.sh
  (installed from Debian if absent) and stopped at the end. Never skipped.
* ``new_database``: a database of its own for a test's server, copied from one migrated per
  session and backend (``db_templates``: the migrations run once; ``test_cli`` migrates empty
  databases) that holds the accounts ``org`` (server organizer) and ``ref``.
* ``server``: parametrized over SQLite and PostgreSQL: a running server with a server organizer
  (``server.org``, bearer token), a referee account (``server.ref``: given the referee role by
  ``server.tournament``) and an anonymous client; ``server.sql(...)`` reads the database
  directly (sqlite3 / psycopg), independently of the server's code. Its passwords are hashed
  fast (``MT_TEST_FAST_HASHER``); the throttling tests run servers with the real hasher.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from .helpers import Client, free_port

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a long enough password"


@pytest.fixture(scope="session")
def pg_dsn():
    dsn = os.environ.get("TEST_PG_DSN")
    if dsn:
        yield dsn
        return
    script = ROOT / "tools" / "pg_test_server.sh"
    out = subprocess.run(["bash", str(script), "start"], check=True, capture_output=True, text=True, timeout=600)
    dsn = out.stdout.strip().splitlines()[-1]
    try:
        yield dsn
    finally:
        subprocess.run(["bash", str(script), "stop"], capture_output=True, timeout=120)


def pg_database(dsn: str) -> str:
    """A fresh database on the cluster; its DSN."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("CREATE DATABASE " + name)
    return dsn.rsplit("/", 1)[0] + "/" + name


class Running:
    def __init__(self, backend: str, db: str, proc, url: str, workdir: Path):
        self.backend, self.db, self.proc, self.url, self.workdir = backend, db, proc, url, workdir
        self.anon = Client(url)
        self.org = Client(url)
        self.ref = Client(url)

    def client(self, token=None) -> Client:
        return Client(self.url, token)

    def login(self, username: str, password: str = PASSWORD) -> Client:
        c = Client(self.url)
        st, body = c.post("/api/login", {"username": username, "password": password})
        assert st == 200, body
        c.token = body["token"]
        return c

    def sql(self, query: str, params=()) -> list:
        """Rows from the database, read directly (not through the server)."""
        if self.backend == "sqlite":
            import sqlite3

            c = sqlite3.connect(self.db[len("sqlite:///"):])
            try:
                return c.execute(query, params).fetchall()
            finally:
                c.close()
        import psycopg

        with psycopg.connect(self.db) as c:
            return c.execute(query.replace("?", "%s"), params).fetchall()

    def tournament(self, fmt: str = "mcr_000", players=(), settings=None, name=None, referee: bool = True) -> str:
        tid = uid("T")
        st, body = self.org.post("/api/tournaments", {"id": tid, "name": name or "Test " + tid, "format": fmt, "settings": settings or {}})
        assert st == 201, body
        if players:
            st, body = self.org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": "Name " + p, "draw": i + 1} for i, p in enumerate(players)])
            assert st == 200, body
        if referee:
            st, body = self.org.post("/api/tournaments/%s/roles" % tid, {"username": "ref", "role": "referee"})
            assert st == 200, body
        return tid


def uid(prefix: str = "x") -> str:
    return "%s%s" % (prefix, uuid.uuid4().hex[:8])


def start_server(db: str, workdir: Path, env_extra=None, workers: int = 2, threads: int = 8, args=()):
    """Serve ``db`` (from ``new_database``: it has the accounts org and ref); the organizer's client logs in."""
    # the tests' clients all come from loopback addresses: no rate limits unless a test asks for them
    env = dict(os.environ, MT_PASSWORD=PASSWORD, PYTHONUNBUFFERED="1", MT_SECRET_KEY_FILE=str(workdir / "secret"), MT_RATE_LIMITS="off")
    env.update(env_extra or {})
    port = free_port()
    log = open(workdir / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", db, "--port", str(port), "--workers", str(workers),
                             "--threads", str(threads)] + list(args), stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=ROOT)
    line = proc.stdout.readline()
    if "serving" not in line:
        proc.kill()
        raise RuntimeError("server did not start: %r %s" % (line, (workdir / "server.log").read_text()))
    url = "http://127.0.0.1:%d" % port
    try:
        org = Client(url, headers={"X-Forwarded-Proto": "https"} if "--tls" in args else None)
        st, body = org.post("/api/login", {"username": "org", "password": PASSWORD})
        assert st == 200, body
        org.token = body["token"]
    except BaseException:
        stop(proc)
        raise
    return proc, url


def stop(proc) -> None:
    """Gunicorn's quick shutdown (SIGINT): a graceful one waits for idle keep-alive connections."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Templates:
    """One migrated database per backend with the accounts org and ref, made at its first use."""

    def __init__(self, workdir: Path):
        self.dir, self.made = workdir, {}

    def get(self, request, backend: str) -> str:
        if backend not in self.made:
            db = "sqlite:///" + str(self.dir / "template.db") if backend == "sqlite" else pg_database(request.getfixturevalue("pg_dsn"))
            env = dict(os.environ, MT_PASSWORD=PASSWORD, MT_SECRET_KEY_FILE=str(self.dir / "secret"))
            for name, role in (("org", "organizer"), ("ref", "referee")):
                subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", db, "--create-account", name, "--role", role], check=True,
                               capture_output=True, env=env, cwd=ROOT, timeout=120)
            self.made[backend] = db
        return self.made[backend]


@pytest.fixture(scope="session")
def db_templates(tmp_path_factory):
    return Templates(tmp_path_factory.mktemp("templates"))


def new_database(request, backend: str, workdir: Path) -> str:
    """A copy of the session's migrated database of this backend (accounts org and ref)."""
    template = request.getfixturevalue("db_templates").get(request, backend)
    if backend == "sqlite":
        path = workdir / ("t-%s.db" % uuid.uuid4().hex[:8])
        shutil.copyfile(template[len("sqlite:///"):], path)
        os.chmod(path, 0o600)
        return "sqlite:///" + str(path)
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(request.getfixturevalue("pg_dsn"), autocommit=True) as c:  # the template has no sessions open: it can be copied
        c.execute("CREATE DATABASE %s TEMPLATE %s" % (name, template.rsplit("/", 1)[1]))
    return template.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request):
    return request.param


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    workdir = tmp_path_factory.mktemp("server-" + request.param)
    db = new_database(request, request.param, workdir)
    # many tests log in from 127.0.0.1, some with wrong passwords on purpose: the shared server
    # locks out late; test_security runs its own servers with the real limit
    proc, url = start_server(db, workdir, {"MT_LOGIN_FAILURES": "1000", "MT_TEST_FAST_HASHER": "1"})
    s = Running(request.param, db, proc, url, workdir)
    s.org = s.login("org")
    s.ref = s.login("ref")
    yield s
    stop(proc)


def wait_for(pred, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False
