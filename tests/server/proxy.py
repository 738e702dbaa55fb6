"""Debian's nginx in front of a test server, configured with the `location /` block of
docs/deploy.md as printed there (only its upstream port changed, and plain http on a free
loopback port instead of TLS on 443: the test has no certificate). Installed on demand by
tools/nginx_install.sh (without starting Debian's own service)."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from pathlib import Path

from .helpers import free_port

ROOT = Path(__file__).resolve().parents[2]


def deploy_location_block() -> str:
    """The first nginx block of docs/deploy.md, its `location / { ... }` part."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    conf = re.search(r"```nginx\n(.*?)```", text, re.S).group(1)
    m = re.search(r"^(\s*location / \{.*?^\s*\})", conf, re.S | re.M)
    assert m, "docs/deploy.md has no `location / {}` block"
    return m.group(1)


def nginx_binary() -> str:
    out = subprocess.run(["bash", str(ROOT / "tools" / "nginx_install.sh")], check=True, capture_output=True, text=True, timeout=900)
    return out.stdout.strip().splitlines()[-1]


class Nginx:
    def __init__(self, upstream_port: int, workdir: Path):
        self.dir = workdir / ("nginx-%d" % upstream_port)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        location = deploy_location_block().replace("127.0.0.1:8000", "127.0.0.1:%d" % upstream_port)
        d = self.dir
        user = "user root;" if os.geteuid() == 0 else ""  # temp files in the test's directory, not nobody's
        (d / "nginx.conf").write_text("""
%(user)s
worker_processes 1;
daemon off;
pid %(d)s/nginx.pid;
events { worker_connections 2048; }
http {
    access_log off;
    client_body_temp_path %(d)s/body;
    proxy_temp_path %(d)s/proxy;
    fastcgi_temp_path %(d)s/fastcgi;
    uwsgi_temp_path %(d)s/uwsgi;
    scgi_temp_path %(d)s/scgi;
    server {
        listen 127.0.0.1:%(port)d;
        client_max_body_size 4m;
%(location)s
    }
}
""" % {"user": user, "d": d, "port": self.port, "location": location})
        self.proc = subprocess.Popen([nginx_binary(), "-p", str(d), "-c", str(d / "nginx.conf"), "-e", str(d / "error.log")],
                                     stdout=subprocess.DEVNULL, stderr=open(d / "stderr.log", "w"))
        end = time.time() + 20
        while time.time() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("nginx did not start: %s" % (d / "stderr.log").read_text())
                time.sleep(0.1)
        self.url = "http://127.0.0.1:%d" % self.port

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
