"""The storage layer on both backends: migrations, transactions, constraints, bytes."""
import threading

import pytest

from host_tools.server import migrations
from host_tools.server.db import Database, DatabaseError, IntegrityError, open_database


def test_migrations_are_recorded_and_idempotent(db):
    assert migrations.current_version(db) == len(migrations.STEPS)
    assert migrations.migrate(db) == len(migrations.STEPS)
    with db.tx() as tx:
        rows = tx.all("SELECT version, description FROM schema_version ORDER BY version")
    assert [r["version"] for r in rows] == [s[0] for s in migrations.STEPS]


def test_transactions_roll_back_and_constraints(db):
    with pytest.raises(RuntimeError):
        with db.tx(write=True) as tx:
            tx.execute("INSERT INTO devices (id, key, label, active, created_at) VALUES (?, ?, ?, 1, ?)", ("d1", b"\x00\xff" * 16, "", "now"))
            raise RuntimeError("boom")
    with db.tx() as tx:
        assert tx.scalar("SELECT COUNT(*) FROM devices") == 0
    with db.tx(write=True) as tx:
        tx.execute("INSERT INTO devices (id, key, label, active, created_at) VALUES (?, ?, ?, 1, ?)", ("d1", b"\x00\xff" * 16, "", "now"))
    with pytest.raises(IntegrityError):
        with db.tx(write=True) as tx:
            tx.execute("INSERT INTO devices (id, key, label, active, created_at) VALUES (?, ?, ?, 1, ?)", ("d1", b"", "", "now"))
    with db.tx() as tx:
        assert tx.one("SELECT key FROM devices WHERE id = ?", ("d1",))["key"] == b"\x00\xff" * 16
    with pytest.raises(IntegrityError):
        with db.tx(write=True) as tx:
            tx.execute("INSERT INTO accounts (username, password_hash, role, active, created_at) VALUES (?, ?, ?, 1, ?)", ("x", "h", "admin", "now"))


def test_insert_returns_ids_and_placeholders_stay_parameters(db):
    with db.tx(write=True) as tx:
        a = tx.insert("INSERT INTO audit_log (at, actor, action, tournament, target) VALUES (?, ?, ?, ?, ?)", ("t", "%s", "?", None, "'; DROP TABLE audit_log; --"))
        b = tx.insert("INSERT INTO audit_log (at, actor, action, tournament, target) VALUES (?, ?, ?, ?, ?)", ("t", "a", "b", None, "c"))
    assert b == a + 1
    with db.tx() as tx:
        row = tx.one("SELECT actor, action, target FROM audit_log WHERE id = ?", (a,))
    assert row == {"actor": "%s", "action": "?", "target": "'; DROP TABLE audit_log; --"}


def test_concurrent_writers(db):
    errors = []

    def work(k):
        try:
            for i in range(20):
                with db.tx(write=True) as tx:
                    tx.execute("INSERT INTO audit_log (at, actor, action, tournament, target) VALUES (?, ?, ?, ?, ?)", ("t", "w%d" % k, "x", None, str(i)))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with db.tx() as tx:
        assert tx.scalar("SELECT COUNT(*) FROM audit_log") == 240


def test_urls():
    with pytest.raises(DatabaseError):
        Database("mysql://x")
    with pytest.raises(DatabaseError):
        Database("sqlite://relative")
    assert Database("sqlite:////tmp/x.db")._target == "/tmp/x.db"
    assert Database("sqlite:///rel.db")._target == "rel.db"
    mem = open_database("sqlite:///:memory:")
    with mem.tx() as tx:
        assert tx.scalar("SELECT COUNT(*) FROM tournaments") == 0
