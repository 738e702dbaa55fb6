"""Fixtures for the server tests.

* ``pg_dsn``: TEST_PG_DSN when set, else a throwaway cluster started by tools/pg_test_server.sh
  (installed from Debian if absent) and stopped at the end of the session. Never skipped.
* ``db``: every storage test runs twice, on SQLite (a file under tmp_path) and on PostgreSQL (a
  fresh schema per test, selected through the connection's search_path).
* ``server``: a real HTTP server on 127.0.0.1, free port, in a thread, over ``db``; with an
  organizer account and a logged-in ``Client`` (``server.org``).
"""
from __future__ import annotations

import os
import subprocess
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

from host_tools.server import auth
from host_tools.server.app import serve_in_thread
from host_tools.server.db import open_database

from .helpers import Client

ROOT = Path(__file__).resolve().parents[2]


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


def _pg_schema_url(dsn: str, schema: str) -> str:
    sep = "&" if "?" in dsn else "?"
    return dsn + sep + "options=" + quote("-c search_path=%s" % schema)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        d = open_database("sqlite:///" + str(tmp_path / "t.db"))
        yield d
        d.close()
        return
    import psycopg

    dsn = request.getfixturevalue("pg_dsn")
    schema = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("CREATE SCHEMA " + schema)
    d = open_database(_pg_schema_url(dsn, schema), pool_size=8)
    yield d
    d.close()
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("DROP SCHEMA %s CASCADE" % schema)


class Running:
    def __init__(self, db, srv):
        self.db = db
        self.srv = srv
        host, port = srv.server_address[:2]
        self.url = "http://%s:%d" % (host, port)
        self.anon = Client(self.url)
        self.org = Client(self.url)
        self.ref = Client(self.url)

    def client(self, token=None) -> Client:
        return Client(self.url, token)


@pytest.fixture
def server(db):
    with db.tx(write=True) as tx:
        auth.create_account(tx, "org", "organizer-pw", "organizer")
        auth.create_account(tx, "ref", "referee-pw", "referee")
    srv, th = serve_in_thread(db)
    r = Running(db, srv)
    st, body = r.anon.post("/api/login", {"username": "org", "password": "organizer-pw"})
    assert st == 200, body
    r.org.token = body["token"]
    st, body = r.anon.post("/api/login", {"username": "ref", "password": "referee-pw"})
    r.ref.token = body["token"]
    yield r
    for c in (r.anon, r.org, r.ref):
        c.close()
    srv.shutdown()
    srv.server_close()
    th.join(5)
