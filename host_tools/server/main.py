"""``python -m host_tools serve``: migrate the database, optionally create an account, then
serve the Django application: gunicorn's master with uvicorn workers (``edge.worker``: one event
loop each that receives every request whole, with deadlines for its headers and body and the body
cap, before a pool of threads runs Django on it: ``asgi``), HTTP/1.1 keep-alive.

    python -m host_tools serve                                    # SQLite in ./tournament.db
    python -m host_tools serve --db postgresql://user@host:5432/tournament
    python -m host_tools serve --create-account alice             # a server organizer (password: $MT_PASSWORD or a prompt)
    python -m host_tools serve --tls --host 127.0.0.1             # behind a TLS reverse proxy (docs/deploy.md)

The web stack is an optional extra (``pip install .[server]``): a laptop that only syncs needs
none of it. Files are created private (umask 077): the SQLite database holds the boxes' keys.
"""
from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path

DEFAULT_WORKERS = 2
DEFAULT_THREADS = 32


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="run the tournament system (Django on uvicorn workers: uploads, standings, the organizer's pages)")
    p.add_argument("--db", default="sqlite:///tournament.db", help="sqlite:///path or postgresql://user@host:port/name (default: sqlite:///tournament.db)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="worker processes (default: %d)" % DEFAULT_WORKERS)
    p.add_argument("--threads", type=int, default=DEFAULT_THREADS, help="threads per worker that run Django's views (default: %d)" % DEFAULT_THREADS)
    p.add_argument("--server", choices=("uvicorn", "gthread"), default="uvicorn",
                   help="uvicorn (default): event-loop workers that hold slow and idle clients without a thread each; "
                        "gthread: gunicorn's threaded workers, the server before, kept for `make server-bench` (70 slow clients stop it)")
    p.add_argument("--tls", action="store_true", help="behind a TLS reverse proxy: Secure cookies, trust X-Forwarded-Proto")
    p.add_argument("--verbose", action="store_true", help="log every request to stderr")
    p.add_argument("--create-account", metavar="NAME", help="create an account (password from $MT_PASSWORD or a prompt) and exit")
    p.add_argument("--role", choices=("organizer", "referee"), default="organizer",
                   help="for --create-account: organizer (of the whole server) or referee (roles per tournament are given in the pages)")
    p.set_defaults(run=main)


def setup(db: str, tls: bool = False) -> None:
    """Environment for settings, then django.setup() (also used by tests and the benchmark)."""
    os.environ["MT_DB"] = db
    if tls:
        os.environ["MT_TLS"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_tools.server.settings")
    import django

    django.setup()


def private_files(db: str) -> None:
    from host_tools.server.dburl import parse

    cfg = parse(db)
    if cfg["ENGINE"].endswith("sqlite_backend"):
        for suffix in ("", "-wal", "-shm", "-writelock", "-results.lock", ".secret"):
            f = Path(str(cfg["NAME"]) + suffix)
            if f.exists():
                os.chmod(f, 0o600)


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def create_account(name: str, role: str) -> int:
    from host_tools.server.errors import Conflict, Invalid
    from host_tools.server.tournaments import actions

    password = os.environ.get("MT_PASSWORD") or getpass.getpass("password for %s: " % name)
    try:
        actions.create_account("cli", name, password, superuser=(role == "organizer"))
    except (Invalid, Conflict) as e:
        print("serve: cannot create %s: %s" % (name, e), file=sys.stderr)
        return 1
    print("created %s (%s)" % (name, role))
    return 0


def main(args) -> int:
    try:
        import django  # noqa: F401
        import gunicorn  # noqa: F401
    except ImportError:
        print("serve: the tournament server needs its web stack: pip install '.[server]'", file=sys.stderr)
        return 2
    os.umask(0o077)
    from host_tools.server.dburl import BadDatabaseUrl, parse

    try:
        parse(args.db)
    except BadDatabaseUrl as e:
        print("serve: %s" % e, file=sys.stderr)
        return 2
    try:
        setup(args.db, args.tls)
        migrate()
    except Exception as e:  # unreachable database, bad credentials: say so and stop
        print("serve: cannot open the database: %s" % e, file=sys.stderr)
        return 2
    private_files(args.db)
    if args.create_account:
        return create_account(args.create_account, args.role)
    from django.db import connections

    connections.close_all()  # the workers open their own
    more_files()
    return run_gunicorn(args)


def more_files(want: int = 65536) -> None:
    """Raise the open-file limit to what the system allows (up to ``want``): each held connection
    is a descriptor, and a laptop's usual 1,024 would refuse new clients once 1,000 slow ones
    are held (nginx's worker_rlimit_nofile does the same)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass


def run_gunicorn(args) -> int:
    from gunicorn.app.base import BaseApplication

    db = args.db
    if args.server == "gthread":
        from host_tools.server.wsgi import application

        worker = {"worker_class": "gthread", "threads": max(1, args.threads), "keepalive": 65}
    else:
        from host_tools.server import asgi
        from host_tools.server.edge import worker as edge

        application = asgi.application(max(1, args.threads))
        worker = {"worker_class": "host_tools.server.edge.worker.Worker", "keepalive": edge.KEEPALIVE_SECONDS}

    class App(BaseApplication):
        def load_config(self):
            cfg = dict(worker, **{
                "bind": "%s:%d" % (args.host, args.port), "workers": max(1, args.workers), "backlog": 2048, "timeout": 120, "graceful_timeout": 10,
                "worker_connections": 2000, "accesslog": "-" if args.verbose else None, "errorlog": "-", "loglevel": "warning",
                "when_ready": lambda server: print("serving on http://%s:%d/ (database: %s)" % (
                    args.host, server.LISTENERS[0].getsockname()[1] if server.LISTENERS else args.port, db.split(":", 1)[0]), flush=True),
                "post_worker_init": lambda worker: private_files(db),
            })
            for k, v in cfg.items():
                if v is not None:
                    self.cfg.set(k, v)

        def load(self):
            return application

    App().run()
    return 0
