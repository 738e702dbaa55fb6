"""`python -m host_tools serve` as a subprocess: create an organizer, serve, log in, shut down;
SQLite and PostgreSQL; a bad --db is refused."""
import os
import subprocess
import sys
from pathlib import Path

from .conftest import pg_database
from .helpers import Client, free_port

ROOT = Path(__file__).resolve().parents[2]


def test_serve_subprocess(tmp_path, pg_dsn):
    for url in ("sqlite:///" + str(tmp_path / "cli.db"), pg_database(pg_dsn)):
        env = dict(os.environ, MT_PASSWORD="cli-password", MT_SECRET_KEY_FILE=str(tmp_path / "secret"))
        out = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", url, "--create-account", "boss"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0 and "created boss (organizer)" in out.stdout, out.stderr
        again = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", url, "--create-account", "boss"], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=120)
        assert again.returncode == 1 and "exists" in again.stderr
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", url, "--port", str(port), "--workers", "1"], cwd=ROOT,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()
            assert "serving on http://127.0.0.1:%d/" % port in line
            st, body = Client("http://127.0.0.1:%d" % port).post("/api/login", {"username": "boss", "password": "cli-password"})
            assert st == 200 and body["superuser"] is True
        finally:
            proc.terminate()
            proc.wait(15)
    for bad in ("mysql://x", "sqlite://", "postgresql://nobody@127.0.0.1:1/x"):
        p = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", bad], cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, MT_SECRET_KEY="x"))
        assert p.returncode == 2 and "serve:" in p.stderr, (bad, p.stderr)
