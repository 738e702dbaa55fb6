"""Playwright for Python driving Debian's chromium (it cannot download its own browsers here):
headless, no sandbox (CI runs as root), no background networking (the machine's network is
closed). Screenshots go to build/screens/server/, or to docs/screens/server/ with
SERVER_SCREENS_UPDATE=1 (``make server-screens``): look at each before committing them."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions", "--mute-audio"]


def chromium() -> str:
    if not os.path.exists(CHROMIUM) and shutil.which("chromium") is None:
        subprocess.run(["bash", str(ROOT / "tools" / "chromium_headless.sh"), "--version"], check=True, capture_output=True, timeout=900)
    return CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")


def screens_dir() -> Path:
    d = ROOT / ("docs/screens/server" if os.environ.get("SERVER_SCREENS_UPDATE") == "1" else "build/screens/server")
    d.mkdir(parents=True, exist_ok=True)
    return d


class Shots:
    def __init__(self):
        self.dir = screens_dir()
        self.n = 0
        self.names = []

    def __call__(self, page, name: str, full: bool = True):
        self.n += 1
        path = self.dir / ("%02d-%s.png" % (self.n, name))
        page.screenshot(path=str(path), full_page=full)
        self.names.append(path.name)
        return path
