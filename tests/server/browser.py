"""Playwright for Python driving Debian's chromium (it cannot download its own browsers here):
headless, no sandbox (CI runs as root), no background networking (the machine's network is
closed). Screenshots are taken with SERVER_SCREENS=1 (to build/screens/server/) or
SERVER_SCREENS_UPDATE=1 (to docs/screens/server/, ``make server-screens``: look at each before
committing them); ``make test`` visits the same pages without them."""
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


def screens_wanted() -> bool:
    return os.environ.get("SERVER_SCREENS_UPDATE") == "1" or os.environ.get("SERVER_SCREENS") == "1"


class Shots:
    def __init__(self):
        self.on = screens_wanted()
        self.dir = screens_dir() if self.on else None
        self.n = 0
        self.names = []

    def __call__(self, page, name: str, full: bool = True):
        self.n += 1
        name = "%02d-%s.png" % (self.n, name)
        self.names.append(name)
        if self.on:
            page.screenshot(path=str(self.dir / name), full_page=full)
