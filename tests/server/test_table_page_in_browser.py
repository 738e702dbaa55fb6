"""A table's page in a real browser (Playwright driving Debian's chromium) against the real
server (gunicorn, SQLite): the referee runs a table without a box from its page alone, reached
from the referee page: enters hands (a kong and 杠上开花 among them), corrects one by its tiles,
gives the table more time, re-seats two players found in each other's chairs, records a
penalty, ends the table; the organizer checks in every present player in one step. Each
action's clicks and page loads are counted (browser.Steps) and bounded. The hand form of an
MCR event has no Sichuan or Guangdong field, a Sichuan event's no MCR one. Screenshots with
SERVER_SCREENS=1 (build/screens/server/table-*.png; docs/screens/server/ with make server-screens)."""
from __future__ import annotations

import re

import pytest

import oracle

from .browser import ARGS, Shots, Steps, TablePage, chromium, login
from .conftest import PASSWORD, Running, new_database, start_server, stop

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is pinned in requirements-dev.txt")

NAMES = {"P1": "Anna Martin", "P2": "李明", "P3": "Jonas Berg", "P4": "王芳", "P5": "Sofia Rossi", "P6": "张伟", "P7": "Lukas Novak", "P8": "刘洋"}


@pytest.fixture
def site(request, tmp_path):
    db = new_database(request, "sqlite", tmp_path)
    proc, url = start_server(db, tmp_path, {"MT_TEST_FAST_HASHER": "1"})
    s = Running("sqlite", db, proc, url, tmp_path)
    s.org = s.login("org")
    yield s
    stop(proc)


def event(site, fmt="mcr_000"):
    tid = site.tournament(fmt, name="Table day " + fmt)
    st, body = site.org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": n, "draw": i} for i, (p, n) in enumerate(NAMES.items(), 1)])
    assert st == 200, body
    st, body = site.org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": [["P1", "P2", "P3", "P4"], ["P5", "P6", "P7", "P8"]],
                                                                      "publish": True})
    assert st == 201, body
    return tid


def ok(page):
    return " ".join(page.locator(".messages .ok").all_inner_texts())


def test_a_table_without_a_box_runs_from_its_page(site):
    url = site.url
    tid = event(site)
    sc = event(site, "sichuan_003")
    shot = Shots("table-")  # table-NN-name.png beside the event test's NN-name.png
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
        page.set_default_timeout(30000)
        s = Steps(page)
        login(s, url, "ref", PASSWORD)
        table = TablePage(s, url, tid, 1, 2)

        # reached from the referee page, before the table has a hand
        s.goto(url + "/t/%s/referee/" % tid)
        s.click(page.locator("#tables a", has_text="Table 2"))
        assert page.url.endswith(table.path)
        assert "张伟" in page.locator("#table-players").inner_text() and "none" in page.locator("#table-box").inner_text()
        assert table.hands() == 0
        shot(page, "before-hands")

        # enter hand 1: Sofia Rossi (chair 1) wins on Lukas Novak's (chair 3) discard
        before = s.counts()
        s.click("#enter-hand")
        assert page.input_value("#id_hand") == "1" and page.input_value("#id_ev-0-kind") == "win"
        assert page.locator("#id_ev-0-flowers").count() == 1
        assert page.locator("#id_ev-0-missing_suit").count() == 0 and page.locator("#id_ev-0-horses").count() == 0
        flags = page.locator("input[name='ev-0-flags']")
        assert sorted(flags.evaluate_all("els => els.map(e => e.value)")) == sorted(
            ["kong", "last_tile", "last_of_kind", "win_tile_mixed", "replacement_flower", "misnamed"])
        table.event(0, chair=1, source=3, tiles="[345m3]258m1488s369p7s")
        shot(page, "enter-hand")
        s.click("#enter-hand button")
        enter_one = s.since(before)
        assert "Hand 1 entered." in ok(page), page.locator("main").inner_text()[:800]
        assert enter_one["loads"] == 2 and enter_one["clicks"] == 4 and enter_one["fields"] == 1 and enter_one["addresses"] == 0, enter_one
        row = table.hand_row(1)
        assert "Sofia Rossi" in row.locator("td").nth(2).inner_text() and "Lukas Novak" in row.locator("td").nth(3).inner_text()
        assert row.locator("td").nth(4).inner_text() == str(oracle.oracle_score({"hand": "[345m3]258m1488s369p7s"})[1])

        # hand 2: 张伟 (chair 2) makes a concealed kong and wins on its replacement tile (杠上开花)
        s.click("#enter-hand")
        assert page.input_value("#id_hand") == "2" and page.input_value("#id_dealer") == "1"  # the dealer passes (MCR)
        table.event(0, kind="kong", chair=2, kong="concealed")
        table.event(1, kind="win", chair=2, tiles="[5555p]123m456m789m11s", flags=["kong"])
        s.click("#enter-hand button")
        assert "Hand 2 entered." in ok(page), page.locator("main").inner_text()[:800]
        fans = oracle.oracle_score({"hand": "[5555p]123m456m789m11s", "self_drawn": True, "kong": True, "seat_wind": "E"})[1]
        assert table.hand_row(2).locator("td").nth(4).inner_text() == str(fans)

        # hand 3, a plain win, keyed on the table's page itself: Lukas Novak (chair 3) on Sofia Rossi's discard
        assert page.locator("#quick-hand h2").inner_text() == "Hand 3: a win"
        before = s.counts()
        table.event(0, chair=3, source=1, tiles="123m456m789m111s22s")
        shot(page, "quick-hand")
        s.click("#quick-hand button")
        quick = s.since(before)
        assert "Hand 3 entered." in ok(page) and table.hands() == 3, page.locator("main").inner_text()[:800]
        assert quick == {"clicks": 3, "fields": 1, "addresses": 0, "loads": 1}, quick
        row = table.hand_row(3)
        assert "Lukas Novak" in row.locator("td").nth(2).inner_text() and "Sofia Rossi" in row.locator("td").nth(3).inner_text()
        shot(page, "three-hands")

        # correct hand 1 by its tiles: it was 王芳? no: Sofia won, but on 刘洋's discard (chair 4), with another hand
        before = s.counts()
        s.click(table.hand_row(1).get_by_text("Correct", exact=True))
        assert page.input_value("#id_ev-0-hand") == "[345m3]258m1488s369p7s" and page.input_value("#id_ev-0-source") == "2"  # as keyed
        table.event(0, source=4, tiles="123m456m789m111s22s")
        s.fill("#id_reason", "wrong tiles keyed")
        shot(page, "correct-by-tiles")
        s.click("#enter-hand button")
        correct_one = s.since(before)
        assert "Hand corrected." in ok(page)
        row = table.hand_row(1)
        assert "刘洋" in row.locator("td").nth(3).inner_text() and "corrected by ref: wrong tiles keyed" in row.inner_text()
        assert row.locator("td").nth(4).inner_text() == str(oracle.oracle_score({"hand": "123m456m789m111s22s"})[1])
        assert correct_one["loads"] == 2 and correct_one["clicks"] == 3 and correct_one["fields"] == 2, correct_one

        # more time for this table
        before = s.counts()
        s.fill("#id_time-minutes", "10")
        s.fill("#id_time-reason", "long ruling")
        s.click("#extend button")
        extend = s.since(before)
        assert "Time extended." in ok(page) and "10 min given by a referee" in page.locator("#time-left").inner_text()
        assert extend == {"clicks": 1, "fields": 2, "addresses": 0, "loads": 1}, extend

        # Sofia Rossi and 张伟 sat in each other's chairs all along
        before = s.counts()
        s.click("#reseat")
        s.choose("#id_chair0", "P6")
        s.choose("#id_chair1", "P5")
        s.fill("#id_reason", "swapped chairs")
        shot(page, "reseat")
        s.click("#reseat-form button")
        reseat = s.since(before)
        assert "Table re-seated." in ok(page)
        assert "张伟" in table.hand_row(1).locator("td").nth(2).inner_text() and "Sofia Rossi" in table.hand_row(2).locator("td").nth(2).inner_text()
        chairs = page.locator("#table-players tr").all_inner_texts()
        assert "张伟" in chairs[1] and "Sofia Rossi" in chairs[2]
        assert reseat == {"clicks": 4, "fields": 1, "addresses": 0, "loads": 2}, reseat

        # a penalty, then the table's end (confirmed)
        s.choose("#id_pen-player", "P7")
        s.fill("#id_pen-points", "-5")
        s.fill("#id_pen-reason", "slow play")
        s.click("#table-penalty button")
        assert "Penalty recorded." in ok(page)
        s.fill("#id_end-reason", "time called")
        s.click("#end-table button", navigates=False)  # not confirmed: the browser keeps the form (a required box)
        assert page.locator("#id_end-confirm").evaluate("e => e.validity.valueMissing") and "ended by" not in page.locator("#time-left").inner_text()
        s.tick("#id_end-confirm")
        s.click("#end-table button")
        assert "Table ended." in ok(page) and "ended by ref: time called" in page.locator("#time-left").inner_text()
        shot(page, "ended")

        # the board shows it finished, with a link back
        s.goto(url + "/t/%s/board?session=1" % tid)
        assert "finished" in page.locator("#table-2").inner_text()
        assert page.locator("#table-2 a").get_attribute("href") == table.path

        # a Sichuan event's hand form: missing suits and 杠上炮, no flowers, no MCR flags
        s.goto(url + "/t/%s/referee/tables/1/1/enter" % sc)
        assert page.locator("#id_ev-0-missing_suit").count() == 1 and page.locator("#id_ev-0-flowers").count() == 0
        got = sorted(page.locator("input[name='ev-0-flags']").evaluate_all("els => els.map(e => e.value)"))
        assert got == ["kong", "kong_discard", "last_tile"], got
        assert page.locator("#id_still0").count() == 1  # 查叫: the hands still in at the end of the wall

        # the organizer checks in every present player in one step (P8 is missing)
        s.click("form[action='/logout/'] button")
        login(s, url, "org", PASSWORD)
        s.goto(url + "/t/%s/manage/players" % tid)
        before = s.counts()
        s.tick("input[name=present][value=P8]", False)
        s.click("#check-in-all button")
        checkin = s.since(before)
        assert re.search(r"7 present", ok(page)) and checkin == {"clicks": 2, "fields": 0, "addresses": 0, "loads": 1}, checkin
        assert page.locator("#players tr", has_text="P8").locator("button").inner_text() == "check in"
        browser.close()
