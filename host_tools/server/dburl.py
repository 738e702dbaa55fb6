"""``--db`` URLs -> Django ``DATABASES`` entries: ``sqlite:///relative.db``, ``sqlite:////abs/path.db``,
``postgresql://user:password@host:port/name?options=...`` (psycopg 3).

SQLite is opened for durability and for one writer at a time (see ``sqlite_backend``): WAL with
``synchronous=FULL``, so an upload acknowledged to a box survives a power cut (WAL with NORMAL
may lose the last commits), and ``BEGIN IMMEDIATE`` so a write transaction never has to be
upgraded (and retried) halfway.
"""
from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit


class BadDatabaseUrl(ValueError):
    pass


def parse(url: str) -> dict:
    u = urlsplit(url)
    if u.scheme == "sqlite":
        path = unquote(u.path[1:] if u.path.startswith("/") else u.path)
        if not path:
            raise BadDatabaseUrl("sqlite URLs name a file: sqlite:///tournament.db")
        return {
            "ENGINE": "host_tools.server.sqlite_backend",
            "NAME": path,
            "OPTIONS": {
                "timeout": 30,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=30000",
            },
        }
    if u.scheme in ("postgresql", "postgres"):
        q = {k: v[-1] for k, v in parse_qs(u.query).items()}
        opts = {}
        if "options" in q:
            opts["options"] = q.pop("options")
        if "sslmode" in q:
            opts["sslmode"] = q.pop("sslmode")
        if q:
            raise BadDatabaseUrl("unknown PostgreSQL URL parameters: %s" % ", ".join(sorted(q)))
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(u.path.lstrip("/")) or "postgres",
            "USER": unquote(u.username or ""),
            "PASSWORD": unquote(u.password or ""),
            "HOST": u.hostname or "",
            "PORT": str(u.port or ""),
            "CONN_MAX_AGE": 600,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": opts,
        }
    raise BadDatabaseUrl("--db must be sqlite:///PATH or postgresql://USER@HOST:PORT/NAME, not %r" % url)
