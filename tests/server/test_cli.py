"""`python -m host_tools serve` as a subprocess: create an organizer, serve, log in, shut down."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_serve_subprocess(tmp_path, pg_dsn):
    for url in ("sqlite:///" + str(tmp_path / "cli.db"), pg_dsn):
        env = dict(os.environ, MT_PASSWORD="cli-password")
        out = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", url, "--create-account", "boss-%d" % len(url)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--db", url, "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()
            assert "serving on http://127.0.0.1:%d/" % port in line
            req = urllib.request.Request("http://127.0.0.1:%d/api/login" % port, json.dumps({"username": "boss-%d" % len(url), "password": "cli-password"}).encode(), {"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                assert json.loads(r.read())["role"] == "organizer"
        finally:
            proc.terminate()
            proc.wait(10)
    bad = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", "mysql://x"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unsupported" in bad.stderr
