"""Issue 19, item 10: every key file is 0600 whatever the umask: the simulated box's device.key
(its signing key, written by firmware/link_store.py as on flash), the sync tool's key file, and
the server's session secret (the SQLite database and its files: test_security)."""
from __future__ import annotations

import os
import stat
import subprocess
import sys

from .boxes import ROOT, Box, environ


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_key_files_are_0600(tmp_path):
    old = os.umask(0o022)  # a user's usual umask: files 0644 unless made private
    try:
        box = Box("keybox", tmp_path, environ())
        try:
            box.idle()
            key = box.provision()
        finally:
            box.stop()
        assert len(key) == 64
        assert mode(box.dir / "box" / "device.key") == 0o600
        assert mode(box.keys) == 0o600
        secret = tmp_path / "server.secret"
        p = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--db", "sqlite:///" + str(tmp_path / "k.db"), "--create-account", "k"],
                           env=dict(os.environ, MT_PASSWORD="a long enough password", MT_SECRET_KEY_FILE=str(secret)), cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        assert mode(secret) == 0o600 and mode(tmp_path / "k.db") == 0o600
    finally:
        os.umask(old)
