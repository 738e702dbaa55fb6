"""Issue 20: the projector follows the boxes that push. The standings projector page, the live
board and table 1's page are open in a real browser (Playwright driving Debian's chromium)
against the real server (gunicorn, SQLite) while two simulated boxes online (``python -m
simulator --push URL``: each confirmed hand pushed as it is committed, signed with the box's key)
play their sessions one hand at a time, in turn. Nobody reloads the pages: after each pushed
hand they show it by themselves (the board's hand count, the table page's hand with its fans,
the projector's match scores, checked against the hand's fans from PyMahjongGB and the MCR
payments written out in tests/server/event_day.py; at the end the standard scores too). How fast
is bench/push_latency.py's business, not this test's: it waits up to 15 s a hand."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from firmware.link import store
from host_tools.sync.box_config import fetch_box_config

from .browser import ARGS, Shots, chromium
from .conftest import PASSWORD, ROOT, new_database, start_server, stop
from .event_day import END_AT_BOX, Hand, box_lines, script, standings

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is pinned in requirements-dev.txt")
expect = playwright.expect

PLAYERS = {"201": "Anna Martin", "202": "Jonas Berg", "203": "Sofia Rossi", "204": "Lukas Novak",
           "205": "Emma Dubois", "206": "Kenji Sato", "207": "Ines Costa", "208": "Tom Weber"}
TABLES = [["201", "202", "203", "204"], ["205", "206", "207", "208"]]
# (table, winner's chair, discarder's chair or None, tiles): the two boxes push in turn
HANDS = [(1, 1, 3, "123456789m123s55s"), (2, 2, None, "123m456m789m111s22s"), (1, 2, None, "123m456m789m111s22s"),
         (2, 4, 1, "234m345m456m678s99s"), (1, 4, 2, "234m345m456m678s99s")]


@pytest.fixture
def site(request, tmp_path):
    db = new_database(request, "sqlite", tmp_path)
    proc, url = start_server(db, tmp_path, {"MT_TEST_FAST_HASHER": "1"})
    try:
        yield url, tmp_path
    finally:
        stop(proc)


def push(url, device, out, path, lines):
    """The box online plays ``lines`` and pushes what it commits; it returns once the server has
    acknowledged every record (or after 30 s)."""
    p = subprocess.run([sys.executable, "-m", "simulator", "--script", str(script(path, lines)), "--out", str(out), "--no-png",
                        "--device-id", device, "--push", url, "--push-wait", "30"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert p.returncode == 0, (p.stdout, p.stderr)


def test_the_projector_shows_each_pushed_hand_without_a_reload(site):
    from .helpers import Client

    url, tmp = site
    org = Client(url)
    org.token = org.post("/api/login", {"username": "org", "password": PASSWORD})[1]["token"]
    tid = "LIVE"
    assert org.post("/api/tournaments", {"id": tid, "name": "Pushed live", "format": "mcr_000", "settings": {}})[0] == 201
    st, body = org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": n, "draw": i} for i, (p, n) in enumerate(PLAYERS.items(), 1)])
    assert st == 200, body
    st, body = org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": TABLES, "publish": True})
    assert st == 201, body
    boxes = {}
    for t in (1, 2):
        device, out, key = "box-p%d" % t, tmp / ("box-p%d" % t), os.urandom(32)
        out.mkdir()
        store.store_key(str(out / "device.key"), key)
        st, body = org.post("/api/devices", {"id": device, "key": key.hex(), "tournament": tid, "table": t})
        assert st == 201, body
        boxes[t] = (device, out, fetch_box_config(url, device))

    shot = Shots("projector-")
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), headless=True, args=ARGS)
        projector = browser.new_page(viewport={"width": 1280, "height": 720}, locale="en-GB")
        board = browser.new_page(viewport={"width": 1280, "height": 720}, locale="en-GB")
        table1 = browser.new_page(viewport={"width": 1280, "height": 720}, locale="en-GB")
        projector.goto(url + "/t/%s/standings?projector=1" % tid)
        board.goto(url + "/t/%s/board?session=1" % tid)
        table1.goto(url + "/t/%s/tables/1/1" % tid)
        assert board.locator("#table-1 b").first.inner_text() == "0" and table1.locator("#no-hands").count() == 1
        shot(projector, "before")

        totals = {p: 0 for p in PLAYERS}
        count = {1: 0, 2: 0}
        played = []
        for k, (t, winner, source, tiles) in enumerate(HANDS, 1):
            device, out, cfg = boxes[t]
            count[t] += 1
            h = Hand(1, t, count[t], TABLES[t - 1], winner, source, tiles)
            last = count[t] == sum(1 for x in HANDS if x[0] == t)
            lines = (["config " + json.dumps(cfg)] if count[t] == 1 else []) + box_lines(h) + (END_AT_BOX if last else [])
            push(url, device, out, tmp / ("hand-%d.txt" % k), lines)
            played.append(h)
            for p, d in h.deltas().items():
                totals[p] += d
            # the pages follow by themselves (nobody calls goto or reload from here on); expect() retries
            # through the page's own reloads (live.js reloads it when the tournament's version moves)
            expect(board.locator("#table-%d b" % t).first).to_have_text(str(count[t]), timeout=15000)
            if t == 1:
                expect(table1.locator("#hands-played")).to_have_text(str(count[t]), timeout=15000)
                row = table1.locator("#hands tr", has=table1.locator("td.n", has_text=re.compile("^%d$" % count[t])))
                expect(row.locator("td").nth(4)).to_have_text(str(h.fans), timeout=15000)  # #, points, winner, from, fans
            for p, v in totals.items():
                row = projector.locator("#standings tr", has=projector.locator("td .muted", has_text=re.compile("^%s$" % p)))
                expect(row.locator("td").nth(3)).to_have_text(str(v), timeout=15000)  # Rank, Player, Standard, Match
            shot(projector, "hand-%d" % k, full=False)
        for t in (1, 2):
            expect(board.locator("#table-%d" % t)).to_contain_text("finished", timeout=15000)
        for p, (std, match) in standings(played).items():
            row = projector.locator("#standings tr", has=projector.locator("td .muted", has_text=re.compile("^%s$" % p)))
            expect(row.locator("td").nth(2)).to_have_text(re.compile(r"^%s(\.0)?$" % re.escape(("%g" % std))), timeout=15000)
            assert int(row.locator("td").nth(3).inner_text()) == match
        browser.close()
