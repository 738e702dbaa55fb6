"""Storage: a thin layer over sqlite3 and psycopg 3, the only place that knows which one is in use.

    db = open_database("sqlite:///build/t.db")        # or "postgresql://user@127.0.0.1:5432/name"
    with db.tx(write=True) as tx:                      # or db.autocommit() for one statement
        tx.execute("INSERT INTO t (a, b) VALUES (?, ?)", (1, "x"))
        new_id = tx.insert("INSERT INTO t (a) VALUES (?)", (2,))   # the new row's id
        rows = tx.all("SELECT a, b FROM t WHERE a > ?", (0,))       # list of dicts
        row = tx.one("SELECT ...", (...))                           # dict or None

* SQL is written once with ``?`` placeholders (parameters only, never string formatting); for
  PostgreSQL they become ``%s``. Rows come back as plain dicts; BLOB/BYTEA as ``bytes``.
* Connections live in a small pool, one per transaction at a time, so the server's request
  threads never share a connection. ``tx()`` commits on success and rolls back on any exception.
* SQLite allows one writer at a time: write transactions take a process lock and BEGIN IMMEDIATE,
  so concurrent uploads queue in the server instead of spinning on SQLITE_BUSY. WAL mode lets
  readers go on while one thread writes.
* ``IntegrityError`` is raised for either backend's constraint violations.
"""
from __future__ import annotations

import queue
import sqlite3
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Optional, Sequence
from urllib.parse import urlsplit


class IntegrityError(Exception):
    """A UNIQUE / PRIMARY KEY / CHECK / FOREIGN KEY constraint refused a write (either backend)."""


class DatabaseError(Exception):
    pass


def _pg_sql(sql: str) -> str:
    # our SQL never holds a literal "?" or "%": placeholders only
    return sql.replace("%", "%%").replace("?", "%s")


class Tx:
    """One transaction on one connection. Obtained from Database.tx(); not thread-safe."""

    def __init__(self, db: "Database", conn: Any):
        self.db = db
        self._conn = conn
        self.dialect = db.dialect

    def _cursor(self, sql: str, params: Sequence[Any]):
        if self.dialect == "postgresql":
            import psycopg

            try:
                cur = self._conn.cursor()
                cur.execute(_pg_sql(sql), tuple(params))
                return cur
            except psycopg.errors.IntegrityError as e:
                raise IntegrityError(str(e)) from None
        try:
            return self._conn.execute(sql, tuple(params))
        except sqlite3.IntegrityError as e:
            raise IntegrityError(str(e)) from None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; returns the number of rows it changed."""
        cur = self._cursor(sql, params)
        return cur.rowcount

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        if self.dialect == "postgresql":
            import psycopg

            try:
                with self._conn.cursor() as cur:
                    cur.executemany(_pg_sql(sql), [tuple(r) for r in rows])
            except psycopg.errors.IntegrityError as e:
                raise IntegrityError(str(e)) from None
        else:
            try:
                self._conn.executemany(sql, [tuple(r) for r in rows])
            except sqlite3.IntegrityError as e:
                raise IntegrityError(str(e)) from None

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[dict]:
        cur = self._cursor(sql, params)
        rows = cur.fetchall()
        if self.dialect == "postgresql":
            return [_pg_row(r) for r in rows]
        return [dict(r) for r in rows]

    def one(self, sql: str, params: Sequence[Any] = ()) -> Optional[dict]:
        rows = self.all(sql, params)
        return rows[0] if rows else None

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.one(sql, params)
        return None if row is None else next(iter(row.values()))

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """INSERT into a table with an ``id`` column; returns the new id (RETURNING works on both:
        SQLite >= 3.35, PostgreSQL)."""
        row = self.one(sql + " RETURNING id", params)
        return int(row["id"])


def _pg_row(r: dict) -> dict:
    return {k: (bytes(v) if isinstance(v, memoryview) else v) for k, v in r.items()}


class Database:
    """A pool of connections to one database. dialect: "sqlite" or "postgresql"."""

    def __init__(self, url: str, pool_size: int = 8):
        self.url = url
        self.dialect, self._target = _parse(url)
        # every SQLite :memory: connection is its own database: keep one
        self.pool_size = 1 if self._target == ":memory:" else pool_size
        self._pool: "queue.LifoQueue" = queue.LifoQueue()
        self._made = 0
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()  # SQLite only: one writer at a time
        self._all: list = []

    # -- connections
    def _connect(self):
        if self.dialect == "postgresql":
            import psycopg
            from psycopg.rows import dict_row

            conn = psycopg.connect(self._target, autocommit=True, row_factory=dict_row)
            return conn
        conn = sqlite3.connect(self._target, timeout=30, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 30000")
        conn.execute("PRAGMA foreign_keys = ON")
        if self._target != ":memory:":
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def _get(self):
        try:
            return self._pool.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if self._made < self.pool_size:
                self._made += 1
                make = True
            else:
                make = False
        if make:
            try:
                conn = self._connect()
            except Exception:
                with self._lock:
                    self._made -= 1
                raise
            with self._lock:
                self._all.append(conn)
            return conn
        return self._pool.get(timeout=60)

    def _put(self, conn) -> None:
        self._pool.put(conn)

    def _discard(self, conn) -> None:
        try:
            conn.close()
        except Exception:
            pass
        with self._lock:
            self._made -= 1
            if conn in self._all:
                self._all.remove(conn)

    @contextmanager
    def tx(self, write: bool = False) -> Iterator[Tx]:
        """A transaction: commit on normal exit, roll back on an exception."""
        conn = self._get()
        broken = False
        locked = False
        try:
            if self.dialect == "postgresql":
                try:
                    with conn.transaction():
                        yield Tx(self, conn)
                except Exception:
                    broken = conn.closed or conn.broken
                    raise
            else:
                if write:
                    self._write_lock.acquire()
                    locked = True
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield Tx(self, conn)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        finally:
            if locked:
                self._write_lock.release()
            if broken:
                self._discard(conn)
            else:
                self._put(conn)

    @contextmanager
    def autocommit(self, write: bool = False) -> Iterator[Tx]:
        """A connection without a transaction: each statement commits by itself. For single
        statements on hot paths (the upload's lookup and insert): saves the BEGIN and COMMIT
        round trips. SQLite writes still take the process write lock."""
        conn = self._get()
        broken = False
        locked = False
        try:
            if self.dialect == "sqlite" and write:
                self._write_lock.acquire()
                locked = True
            try:
                yield Tx(self, conn)
            except Exception:
                if self.dialect == "postgresql":
                    broken = conn.closed or conn.broken
                raise
        finally:
            if locked:
                self._write_lock.release()
            if broken:
                self._discard(conn)
            else:
                self._put(conn)

    def close(self) -> None:
        with self._lock:
            conns, self._all = self._all, []
            self._made = 0
        for c in conns:
            try:
                c.close()
            except Exception:
                pass
        self._pool = queue.LifoQueue()


def _parse(url: str) -> tuple[str, str]:
    """sqlite:///relative.db, sqlite:////absolute.db, sqlite:///:memory:, a bare path (SQLite),
    postgresql://user:pass@host:port/name (passed to psycopg as is)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql", url
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://"):]
        if not rest.startswith("/"):
            raise DatabaseError("sqlite URL must be sqlite:///path (three slashes): %r" % url)
        path = rest[1:]
        if not path:
            raise DatabaseError("sqlite URL without a path: %r" % url)
        return "sqlite", path
    if "://" in url:
        raise DatabaseError("unsupported database URL %r (sqlite:///path or postgresql://...)" % urlsplit(url).scheme)
    return "sqlite", url


def open_database(url: str, pool_size: int = 8) -> Database:
    """Open the database and bring its schema up to date (see migrations)."""
    from host_tools.server import migrations

    db = Database(url, pool_size)
    migrations.migrate(db)
    return db
