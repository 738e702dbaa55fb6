"""Clicks, typed fields, typed addresses and page loads of a referee's and an organizer's
event-day actions, counted in a real browser (Playwright driving Debian's chromium) against the
real server; issue 18's figures. Not part of `make test` (the browser test
tests/server/test_table_page_in_browser.py bounds the same counts).

    .venv/bin/python bench/event_day_clicks.py [--before SRC] [--json FILE]

The actions, each from where a person is when it comes up: enter a table's first hand by hand
at a table without a box (from the live board) and its next one (from where the first left
the referee), correct a hand by its tiles (from the table's page), give
the table more time (from the table's page), re-seat two players found in each other's chairs
after three hands (from the table's page), check in the 15 of 16 players present (from the
players page). ``--before SRC``: the same actions against a server started from SRC, a checkout
of the code before issue 18 (``git archive 6781a93 | tar -x -C SRC``), as its pages allow them
(an action they do not offer is reported as not possible).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.browser import ARGS, Steps, TablePage, chromium, login  # noqa: E402
from tests.server.helpers import Client, free_port  # noqa: E402

PASSWORD = "a long enough password"
PLAYERS = ["P%02d" % i for i in range(1, 17)]


def serve(src: Path, work: Path):
    env = dict(os.environ, MT_PASSWORD=PASSWORD, MT_SECRET_KEY_FILE=str(work / "secret"), MT_TEST_FAST_HASHER="1",
               PYTHONPATH=str(src), PYTHONUNBUFFERED="1")
    db = "sqlite:///" + str(work / "t.db")
    py = str(ROOT / ".venv" / "bin" / "python")
    for name, role in (("org", "organizer"), ("ref", "referee")):
        subprocess.run([py, "-m", "host_tools", "serve", "--db", db, "--create-account", name, "--role", role], check=True,
                       capture_output=True, env=env, cwd=src, timeout=300)
    port = free_port()
    proc = subprocess.Popen([py, "-m", "host_tools", "serve", "--db", db, "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=open(work / "server.log", "w"), text=True, env=env, cwd=src)
    if "serving" not in proc.stdout.readline():
        proc.kill()
        raise RuntimeError((work / "server.log").read_text())
    return proc, "http://127.0.0.1:%d" % port


def setup(url: str) -> str:
    org = Client(url)
    st, body = org.post("/api/login", {"username": "org", "password": PASSWORD})
    org.token = body["token"]
    tid = "DAY"
    assert org.post("/api/tournaments", {"id": tid, "name": "Event day", "format": "mcr_000", "settings": {}})[0] == 201
    assert org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": "Name " + p, "draw": i} for i, p in enumerate(PLAYERS, 1)])[0] == 200
    assert org.post("/api/tournaments/%s/roles" % tid, {"username": "ref", "role": "referee"})[0] == 200
    tables = [PLAYERS[i:i + 4] for i in range(0, 16, 4)]
    st, body = org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": tables, "publish": True})
    assert st == 201, body
    return tid


def measured(s, fn):
    before = s.counts()
    fn()
    return s.since(before)


def after(page, url, tid) -> dict:
    s = Steps(page)
    login(s, url, "ref", PASSWORD)
    t = TablePage(s, url, tid, 1, 2)
    out = {}
    s.goto(url + "/t/%s/board?session=1" % tid)

    def enter(n, chair, source, tiles):
        def go():
            if n == 1:
                s.click(page.locator("#table-2 h3 a"))
            t.event(0, chair=chair, source=source, tiles=tiles)  # a plain win: on the table's page
            s.click("#quick-hand button")
            assert page.url.endswith(t.path) and t.hands() == n, page.url
        return go

    out["enter a table's first hand (from the board)"] = measured(s, enter(1, 1, 3, "[345m3]258m1488s369p7s"))
    out["enter its next hand"] = measured(s, enter(2, 2, 4, "123m456m789m111s22s"))
    enter(3, 3, 1, "123m456m789m111s22s")()

    def correct():
        s.click(t.hand_row(1).get_by_text("Correct", exact=True))
        t.event(0, source=4, tiles="123m456m789m111s22s")
        s.fill("#id_reason", "wrong tiles keyed")
        s.click("#enter-hand button")
    out["correct a hand by its tiles"] = measured(s, correct)

    def extend():
        s.fill("#id_time-minutes", "10")
        s.fill("#id_time-reason", "long ruling")
        s.click("#extend button")
    out["extend one table's time"] = measured(s, extend)

    def reseat():
        s.click("#reseat")
        s.choose("#id_chair0", "P06")
        s.choose("#id_chair1", "P05")
        s.fill("#id_reason", "swapped chairs")
        s.click("#reseat-form button")
    out["re-seat after 3 hands"] = measured(s, reseat)

    s.click("form[action='/logout/'] button")
    login(s, url, "org", PASSWORD)
    s.goto(url + "/t/%s/manage/players" % tid)

    def check_in():
        s.tick("input[name=present][value=P16]", False)
        s.click("#check-in-all button")
    out["check in 15 of 16 players"] = measured(s, check_in)
    return out


def before(page, url, tid) -> dict:
    s = Steps(page)
    login(s, url, "ref", PASSWORD)
    out = {}
    s.goto(url + "/t/%s/board?session=1" % tid)

    def enter(n, winner, discarder, tiles):
        def go():
            if n == 1:
                # the board's "Table 2" answers Not Found until the table has a hand: the form is
                # reached by typing its address (read from the URL patterns)
                s.goto(url + "/t/%s/referee/tables/1/2/enter" % tid)
            else:  # from the table's page, which exists once it has a hand
                s.click(page.get_by_text("Enter a hand by hand"))
            s.choose("#id_winner", winner)
            s.choose("#id_discarder", discarder)
            s.fill("#id_notation", tiles)
            s.fill("#id_reason", "no box at table 2")
            s.click("#enter-hand button")
        return go

    out["enter a table's first hand (from the board)"] = measured(s, enter(1, "P05", "P07", "[345m3]258m1488s369p7s"))
    out["enter its next hand"] = measured(s, enter(2, "P06", "P08", "123m456m789m111s22s"))
    enter(3, "P07", "P05", "123m456m789m111s22s")()

    def correct_points():
        s.click(page.locator("#hands tr").nth(1).get_by_text("Correct"))
        a, b = page.locator("input[id^=id_points_]").nth(2), page.locator("input[id^=id_points_]").nth(3)
        s.fill("#" + a.get_attribute("id"), str(int(a.input_value()) + 8))
        s.fill("#" + b.get_attribute("id"), str(int(b.input_value()) - 8))
        s.fill("#id_reason", "wrong discarder")
        s.click("#correction button")
    c = measured(s, correct_points)
    out["correct a hand by its tiles"] = dict(c, note="not possible: points only (winner, fans and deal-ins stay as keyed)")
    out["extend one table's time"] = {"note": "not possible"}
    out["re-seat after 3 hands"] = {"note": "not possible (a points correction per hand; winners, fans, deal-ins stay wrong)"}
    s.click("form[action='/logout/'] button")
    login(s, url, "org", PASSWORD)
    s.goto(url + "/t/%s/manage/players" % tid)

    def check_in():
        for p in PLAYERS[:15]:
            s.click(page.locator("#players tr", has_text=p).locator("button"))
    out["check in 15 of 16 players"] = measured(s, check_in)
    return out


def run(src: Path, flow) -> dict:
    with tempfile.TemporaryDirectory() as d:
        proc, url = serve(src, Path(d))
        try:
            tid = setup(url)
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium(), headless=True, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
                page.set_default_timeout(30000)
                out = flow(page, url, tid)
                browser.close()
            return out
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def cell(x: dict) -> str:
    if "clicks" not in x:
        return x.get("note", "")
    text = "%d clicks, %d fields, %d addresses, %d loads" % (x["clicks"], x["fields"], x["addresses"], x["loads"])
    return text + (" (%s)" % x["note"] if x.get("note") else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="a checkout of the code before issue 18")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    args = ap.parse_args()
    t0 = time.time()
    figures = {"after": run(ROOT, after)}
    if args.before:
        figures["before"] = run(args.before.resolve(), before)
    for action in figures["after"]:
        print("%-30s" % action)
        if "before" in figures:
            print("    before: %s" % cell(figures["before"][action]))
        print("    after:  %s" % cell(figures["after"][action]))
    print("(%.0f s)" % (time.time() - t0))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
