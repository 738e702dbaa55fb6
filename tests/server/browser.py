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
    """Screenshots numbered in the order taken: PREFIXNN-name.png."""

    def __init__(self, prefix: str = ""):
        self.on = screens_wanted()
        self.dir = screens_dir() if self.on else None
        self.n = 0
        self.names = []
        self.prefix = prefix

    def __call__(self, page, name: str, full: bool = True):
        self.n += 1
        name = "%s%02d-%s.png" % (self.prefix, self.n, name)
        self.names.append(name)
        if self.on:
            page.screenshot(path=str(self.dir / name), full_page=full)


class Steps:
    """What a person does on the pages, counted: clicks (a link, a button, a box ticked, a
    choice in a list), fields typed into, addresses typed, and page loads (every document the
    browser loads, redirects after a form included). The table page's browser test and
    bench/event_day_clicks.py count the referee's actions with it."""

    def __init__(self, page):
        self.page = page
        self.clicks = self.typed = self.addresses = self.loads = 0
        page.on("load", self._loaded)

    def _loaded(self, _page):
        self.loads += 1

    def counts(self) -> dict:
        return {"clicks": self.clicks, "fields": self.typed, "addresses": self.addresses, "loads": self.loads}

    def since(self, before: dict) -> dict:
        return {k: v - before[k] for k, v in self.counts().items()}

    def goto(self, url: str):
        """An address typed (or a bookmark)."""
        self.addresses += 1
        self.page.goto(url)

    def click(self, target, navigates: bool = True):
        """``target``: a selector or a locator."""
        loc = self.page.locator(target) if isinstance(target, str) else target
        self.clicks += 1
        if navigates:
            with self.page.expect_navigation():
                loc.click()
        else:
            loc.click()

    def fill(self, selector: str, text: str):
        self.typed += 1
        self.page.fill(selector, text)

    def choose(self, selector: str, value: str):
        self.clicks += 1
        self.page.select_option(selector, value)

    def tick(self, selector: str, on: bool = True):
        self.clicks += 1
        self.page.set_checked(selector, on)


def login(steps: "Steps", url: str, user: str, password: str):
    """Log in through the login page, counted."""
    steps.goto(url + "/login/")
    steps.fill("#id_username", user)
    steps.fill("#id_password", password)
    steps.click("button[type=submit]")


class TablePage:
    """Page object of a table's page (/t/ID/tables/S/N) and the referee's forms behind it."""

    def __init__(self, steps: Steps, url: str, tid: str, session: int, table: int):
        self.s, self.page = steps, steps.page
        self.url, self.tid, self.session, self.table = url, tid, session, table

    @property
    def path(self) -> str:
        return "/t/%s/tables/%d/%d" % (self.tid, self.session, self.table)

    def hands(self) -> int:
        return self.page.locator("#hands tr").count() - 1 if self.page.locator("#hands").count() else 0

    def hand_row(self, n: int):
        import re

        return self.page.locator("#hands tr", has=self.page.locator("td.n", has_text=re.compile(r"^%d$" % n)))

    def event(self, row: int, kind: str = None, chair: int = None, source: int = None, tiles: str = None, flags=(), **more):
        """Fill event row ``row`` (0-based) of the hand form; chairs 1-4 as people number them."""
        p = "#id_ev-%d-" % row
        if kind is not None and self.page.input_value(p + "kind") != kind:
            self.s.choose(p + "kind", kind)
        if chair is not None:
            self.s.choose(p + "chair", str(chair - 1))
        if source is not None:
            self.s.choose(p + "source", str(source - 1))
        if tiles is not None:
            self.s.fill(p + "hand", tiles)
        for f in flags:
            self.s.tick("input[name='ev-%d-flags'][value='%s']" % (row, f))
        for k, v in more.items():
            if k in ("kong", "penalty", "bar", "missing_suit"):
                self.s.choose(p + k, v)
            else:
                self.s.fill(p + k, str(v))

    def save_hand(self, reason: str):
        self.s.fill("#id_reason", reason)
        self.s.click("#enter-hand button")
