"""The survival event's pages in a real browser (Playwright driving Debian's chromium) against the
real server (gunicorn, SQLite): the organizer draws the entrants from the individual event and
the referee confirms the snake's first tables; the boxes play (signed records through the API,
as test_survival_live); the referee confirms the next table as proposed, then swaps a player
in the next one; the projector follows the survivors and the places, and ends with 冠亚季殿军,
in English and Chinese. Screenshots: build/screens/server/survival-*.png (docs/screens/server/
with SERVER_SCREENS_UPDATE=1)."""
from __future__ import annotations

import time

import pytest

from .browser import ARGS, Shots, chromium
from .conftest import Running, new_database, start_server, stop
from .survival_box import EVENT_HANDS, EVENT_STEPS, SurvivalBox, play_table
from .test_survival_live import individual_event

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is pinned in requirements-dev.txt")


class SurvivalShots(Shots):
    def __call__(self, page, name: str, full: bool = True):
        self.n += 1
        name = "survival-%02d-%s.png" % (self.n, name)
        self.names.append(name)
        if self.on:   # pictures only with SERVER_SCREENS(_UPDATE)=1, as the base class
            page.screenshot(path=str(self.dir / name), full_page=full)


@pytest.fixture(scope="module")
def site(request, tmp_path_factory):
    workdir = tmp_path_factory.mktemp("survival-browser")
    db = new_database(request, "sqlite", workdir)   # the session's migrated copy: accounts org and ref
    proc, url = start_server(db, workdir)
    s = Running("sqlite", db, proc, url, workdir)
    s.org, s.ref = s.login("org"), s.login("ref")
    yield s
    stop(proc)


def submit(page, selector):
    with page.expect_navigation():
        page.click(selector)


def test_survival_event_in_the_browser(site):
    ind = individual_event(site)
    # the event started 47 minutes ago: the pages' clock (x2 now, x4 from ...) is the one at the
    # projector screenshot, taken when the script is at 0:46
    t0 = int(time.time()) - 47 * 60
    sid = site.tournament("mcr_survival", settings={"individual": ind, "finalists": 16, "start_time": t0}, name="Brave Open 2025")
    api = "/api/tournaments/%s/survival" % sid
    shot = SurvivalShots()
    hall = {}
    boxes = {}

    def play(n):
        h = hall[n]
        if h not in boxes:
            boxes[h] = SurvivalBox(site, sid, h)
        play_table(boxes[h], t0, EVENT_HANDS[n])

    def learn_halls():
        for x in site.anon.get(api)[1]["tables"]:
            hall[x["number"]] = x["hall_table"]

    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860}, locale="en-GB")
        page.set_default_timeout(30000)
        page.goto(site.url + "/login/")
        page.fill("#id_username", "org")
        page.fill("#id_password", "a long enough password")
        submit(page, "button[type=submit]")
        page.goto(site.url + "/t/%s/manage/" % sid)
        assert page.input_value("#id_individual") == ind and page.input_value("#id_finalists") == "16"
        shot(page, "settings")

        # the draw, then the snake's four tables as proposed
        page.goto(site.url + "/t/%s/referee/survival" % sid)
        submit(page, "#draw button")
        assert page.locator(".proposal").count() == 4
        assert page.input_value("#id_p0-seat0") == "3" and page.input_value("#id_p0-seat3") == "32"
        shot(page, "draw-and-first-tables")
        submit(page, "#confirm-all")
        assert "Tables confirmed" in page.locator(".messages").inner_text()
        learn_halls()
        assert hall == {1: 1, 2: 2, 3: 3, 4: 4}

        steps = list(EVENT_STEPS)
        # tables 2 and 1 end; the referee confirms table 5 as proposed, in the page
        for kind, n in steps[:2]:
            play(n)
        page.goto(site.url + "/t/%s/referee/survival" % sid)
        assert [page.input_value("#id_p0-seat%d" % i) for i in range(4)] == ["31", "7", "27", "8"]
        shot(page, "proposal")
        submit(page, "#proposal-1 button")
        learn_halls()
        # table 3 ends: the proposal is 24 3 4 23; the referee swaps 23 for 12 (12 waits too)
        play(3)
        page.goto(site.url + "/t/%s/referee/survival" % sid)
        assert [page.input_value("#id_p0-seat%d" % i) for i in range(4)] == ["24", "3", "4", "23"]
        page.select_option("#id_p0-seat2", "12")
        page.select_option("#id_p0-seat3", "4")
        shot(page, "swap")
        submit(page, "#proposal-1 button")
        assert "Table confirmed" in page.locator(".messages").inner_text()
        learn_halls()
        doc = site.anon.get(api)[1]
        assert [(x["number"], x["seats"], x["as_proposed"]) for x in doc["tables"]][-1] == (6, ["24", "3", "12", "4"], False)

        # the rest through the API, as the referee's other laptop would; the projector mid-way
        for kind, arg in steps[5:]:
            if kind == "play":
                play(arg)
            else:
                props = site.ref.get(api + "/proposals")[1]
                assert props and props[0]["seats"] == list(arg), props
                st, body = site.ref.post(api + "/tables", {"tables": [{"seats": list(arg)}]})
                assert st == 201, body
                learn_halls()
            if (kind, arg) == ("confirm", ("24", "20", "3", "12")):
                page.goto(site.url + "/t/%s/survival" % sid)
                assert page.locator("#running .card").count() == 2 and page.locator("#places tr").count() == 8  # header + 7 places
                assert page.inner_text("#multiplier") == "×2"
                shot(page, "projector-live")
        page.goto(site.url + "/t/%s/survival?projector=1" % sid)
        assert page.locator("#podium tr").count() == 4
        assert "Champion · 冠军" in page.locator("#podium").inner_text() and "Name 31" in page.locator("#podium tr").first.inner_text()
        shot(page, "final")
        page.goto(site.url + "/t/%s/referee/survival" % sid)
        assert "The event has ended." in page.inner_text("main")
        shot(page, "referee-end")
        zh = browser.new_page(viewport={"width": 1280, "height": 860}, locale="zh-CN", extra_http_headers={"Accept-Language": "zh-hans"})
        zh.goto(site.url + "/t/%s/survival" % sid)
        assert "最终名次" in zh.inner_text("main") and "冠军" in zh.locator("#podium").inner_text()
        shot(zh, "final-zh")
        browser.close()
