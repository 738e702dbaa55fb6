"""A whole small event in a real browser (Playwright driving Debian's chromium) against the
real server (gunicorn, SQLite), with four simulated boxes on PTYs and the sync tool:

create the tournament, import 16 players from a CSV, make a referee account, register and bind
four boxes, seat session 1 by draw, swap two players, publish (projector, table sheets); each
box gets its config from the server through the sync tool, plays an MCR session and syncs (box
4 fails before its last hand); the referee corrects a hand by player name, enters box 4's
last hand by hand and ends its table; session 2 is seated by rank and played (a spare box replaces box 4); a
penalty is given by picking a player; standings, awards, exports (CSV, EMA), the audit log,
and the pages in Chinese. With SERVER_SCREENS=1 a screenshot of every page goes to
build/screens/server/ (docs/screens/server/ with SERVER_SCREENS_UPDATE=1: make server-screens)."""
from __future__ import annotations

import csv
import io
import re

import pytest

from host_tools.sync.box_config import ConfigError, fetch_box_config

from .boxes import Box, environ, play_script
from .browser import ARGS, Shots, chromium
from .conftest import PASSWORD, new_database, start_server, stop

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is pinned in requirements-dev.txt")

PLAYERS = [("P%02d" % i, n) for i, n in enumerate(
    ["Anna Martin", "李明", "Jonas Berg", "王芳", "Sofia Rossi", "张伟", "Lukas Novak", "刘洋",
     "Emma Dubois", "陈静", "Mateo García", "杨磊", "Olga Petrova", "赵敏", "Kenji Sato", "黄强"], 1)]
TID = "OPEN"


def players_csv() -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["id", "name", "draw", "ema_id", "country"])
    for i, (pid, name) in enumerate(PLAYERS, 1):
        w.writerow([pid, name, i, "0401%04d" % i if i % 2 else "", "FRA" if i % 2 else "CHN"])
    return buf.getvalue()


@pytest.fixture
def event(request, tmp_path):
    db = new_database(request, "sqlite", tmp_path)
    proc, url = start_server(db, tmp_path, {"MT_TEST_FAST_HASHER": "1"})
    boxes = [Box("box-%d" % i, tmp_path, environ()) for i in range(1, 6)]
    try:
        yield url, boxes, tmp_path
    finally:
        for b in boxes:
            b.stop()
        stop(proc)


def submit(page, selector):
    """Click what submits a form and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def login(page, url, user, password=PASSWORD, shot=None):
    page.goto(url + "/login/")
    if shot is not None:
        shot(page, "login")
    page.fill("#id_username", user)
    page.fill("#id_password", password)
    submit(page, "button[type=submit]")


def ok_message(page):
    return page.locator(".messages .ok").all_inner_texts()


def test_whole_event_in_the_browser(event):
    url, boxes, tmp = event
    shot = Shots()
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860}, locale="en-GB")
        page.set_default_timeout(30000)

        # --- the organizer logs in and creates the tournament
        login(page, url, "org", shot=shot)
        page.goto(url + "/manage/new")
        page.fill("#id_id", TID)
        page.fill("#id_name", "Spring Open 春季公开赛")
        page.select_option("#id_format", "mcr_000")
        shot(page, "new-tournament")
        submit(page, "#new-tournament button")
        assert page.url.endswith("/t/%s/manage/" % TID), page.url
        page.fill("#id_prelim_sessions", "2")
        page.fill("#id_finalists", "4")
        submit(page, "#settings button")
        shot(page, "settings")

        # --- 16 players from a CSV; one checks in
        f = tmp / "players.csv"
        f.write_text(players_csv(), encoding="utf-8")
        page.goto(url + "/t/%s/manage/players" % TID)
        page.set_input_files("#id_csv-file", str(f))
        submit(page, "#import-players button")
        assert "Import done." in ok_message(page)
        assert page.locator("#players tr").count() == 17
        with page.expect_navigation():
            page.locator("#players tr", has_text="P01").locator("button").click()
        assert page.locator("#players tr", has_text="P01").locator("button").inner_text().startswith("checked in")
        shot(page, "players")

        # --- a referee account with the referee role in this tournament
        page.goto(url + "/t/%s/manage/accounts" % TID)
        page.fill("#id_new-username", "ref1")
        page.fill("#id_new-password", PASSWORD)
        page.select_option("#id_new-role", "referee")
        submit(page, "#new-account button")
        assert "Account created." in ok_message(page)
        shot(page, "accounts")

        # --- five boxes: provisioned by the sync tool, registered; four bound to tables 1-4, one spare
        page.goto(url + "/t/%s/manage/boxes" % TID)
        for i, b in enumerate(boxes, 1):
            b.idle()
            key = b.provision()
            page.fill("#id_box-id", b.device)
            page.fill("#id_box-key", key)
            page.fill("#id_box-label", "spare" if i == 5 else "table %d" % i)
            if i < 5:
                page.fill("#id_box-table", str(i))
            submit(page, "#register-box button")
            assert ok_message(page), page.locator("main").inner_text()[:1500]
        assert page.locator("#boxes tr").count() == 6
        with pytest.raises(ConfigError, match="no published seating"):
            fetch_box_config(url, "box-1")

        # --- session 1 by draw, a swap, published: projector and table sheets
        page.goto(url + "/t/%s/manage/seating/" % TID)
        assert page.input_value("#id_gen-method") == "draw"
        submit(page, "#generate button")
        page.select_option("#id_swap-a", "P01")
        page.select_option("#id_swap-b", "P05")
        submit(page, "#swap button")
        assert "Swapped." in ok_message(page)
        submit(page, "#publish button")
        assert "Seating published." in ok_message(page)
        shot(page, "seating-1")
        page.goto(url + "/t/%s/seating/1" % TID)
        shot(page, "projector-seating-1")
        page.goto(url + "/t/%s/seating/1/sheets" % TID)
        shot(page, "table-sheets-1")

        # --- each box gets its table's config from the server (no config written by hand), plays, syncs
        table_of = {}
        for i, b in enumerate(boxes[:4], 1):
            cfg = fetch_box_config(url, b.device)
            assert cfg["tournament"] == TID and cfg["session"] == 1 and cfg["table"] == i and len(cfg["players"]) == 4
            table_of[b.device] = cfg["players"]
            b.push_config(cfg)
            b.stop()
            b.play(play_script(tmp / ("play-%d.txt" % i), until_hand=16 if i == 4 else None))
            out = b.sync("--server", url)
            assert re.search(r"uploaded (\d+), already known 0, refused 0", out), out
        assert "P05" in table_of["box-1"] and "P01" in table_of["box-2"]  # the swap reached the boxes

        page.goto(url + "/t/%s/board?session=1" % TID)
        assert page.locator(".card").count() == 4
        shot(page, "live-board-1")
        page.goto(url + "/t/%s/standings" % TID)
        assert page.locator("#quarantine-flag").count() == 0
        assert page.locator("#standings tr").count() == 17
        shot(page, "standings-1")

        # --- the referee: correct hand 2 of table 1 by player name; enter table 4's last hand by hand
        submit(page, "form[action='/logout/'] button")
        login(page, url, "ref1")
        page.goto(url + "/t/%s/tables/1/1" % TID)
        shot(page, "table-1-1")
        with page.expect_navigation():
            page.locator("#hands tr", has=page.locator("td.n", has_text=re.compile(r"^2$"))).get_by_text("points only").click()
        fields = page.locator("input[id^=id_points_]")
        assert fields.count() == 4
        a, b = fields.nth(0), fields.nth(1)
        va, vb = int(a.input_value()), int(b.input_value())
        a.fill(str(va - 8))
        b.fill(str(vb + 8))
        page.fill("#id_reason", "wrong discarder")
        shot(page, "correct-hand")
        submit(page, "#correction button")
        assert "Hand corrected." in ok_message(page)
        assert page.locator("#hands").inner_text().count("corrected by ref1: wrong discarder") == 1
        # a correction that does not sum to 0 is refused, nothing changes
        page.goto(url + "/t/%s/referee/tables/1/1/hands/3/points" % TID)
        fields.nth(0).fill(str(int(fields.nth(0).input_value()) + 5))
        page.fill("#id_reason", "typo")
        submit(page, "#correction button")
        assert "must sum to 0" in page.locator(".errorlist").inner_text()

        page.goto(url + "/t/%s/tables/1/4" % TID)
        before = page.locator("#hands tr").count()
        with page.expect_navigation():
            page.click("#enter-hand")
        assert page.input_value("#id_hand") == "16" and page.input_value("#id_ev-0-kind") == "win"
        page.select_option("#id_ev-0-chair", "0")  # chair 1 wins on chair 2's discard
        page.select_option("#id_ev-0-source", "1")
        page.fill("#id_ev-0-hand", "123456789m123s55s")
        page.fill("#id_reason", "box 4 failed before its last hand")
        shot(page, "enter-hand")
        submit(page, "#enter-hand button")
        assert "Hand 16 entered." in ok_message(page)
        assert page.locator("#hands tr").count() == before + 1
        assert "entered by a referee" in page.locator("#hands").inner_text()
        # box 4 never sent its session_end: the referee ends the table (the session is complete)
        page.check("#id_end-confirm")
        page.fill("#id_end-reason", "box 4 failed; last hand entered by hand")
        submit(page, "#end-table button")
        assert "Table ended." in ok_message(page) and "finished" in page.locator("#time-left").inner_text()
        shot(page, "table-1-4-entered")

        # a penalty, by picking a player
        page.goto(url + "/t/%s/referee/" % TID)
        page.fill("#id_pen-session", "1")
        page.select_option("#id_pen-player", "P07")
        page.select_option("#id_pen-kind", "points")
        page.fill("#id_pen-points", "-10")
        page.fill("#id_pen-reason", "empty call after the warning")
        submit(page, "#penalty button")
        assert "Penalty recorded." in ok_message(page)
        shot(page, "referee")

        # --- session 2 by rank; box 4 is replaced by the spare
        submit(page, "form[action='/logout/'] button")
        login(page, url, "org")
        page.goto(url + "/t/%s/manage/seating/2" % TID)
        page.fill("#id_gen-session", "2")
        page.select_option("#id_gen-method", "rank")
        submit(page, "#generate button")
        submit(page, "#publish button")
        shot(page, "seating-2")
        page.goto(url + "/t/%s/manage/boxes" % TID)
        page.locator("#boxes tr", has_text="box-4").locator("input[name=table]").fill("")
        with page.expect_navigation():
            page.locator("#boxes tr", has_text="box-4").locator("button").click()
        page.locator("#boxes tr", has_text="box-5").locator("input[name=table]").fill("4")
        with page.expect_navigation():
            page.locator("#boxes tr", has_text="box-5").locator("button").click()
        shot(page, "boxes")
        for i, b in zip((1, 2, 3, 4), boxes[:3] + boxes[4:]):
            cfg = fetch_box_config(url, b.device)
            assert cfg["session"] == 2 and cfg["table"] == i
            b.push_config(cfg, server=url)
            b.stop()
            b.play(play_script(tmp / ("play2-%d.txt" % i)))
            assert "refused 0" in b.sync("--server", url)

        page.goto(url + "/t/%s/board?session=2" % TID)
        shot(page, "live-board-2")
        page.goto(url + "/t/%s/standings" % TID)
        assert page.locator("#quarantine-flag").count() == 0
        rows = page.locator("#standings tr")
        assert rows.count() == 17
        shot(page, "standings-2")
        page.goto(url + "/t/%s/standings?projector=1" % TID)
        shot(page, "standings-projector", full=False)
        page.goto(url + "/t/%s/awards" % TID)
        assert page.locator(".card").count() == 4 and page.locator("#provisional").count() == 0  # both sessions complete
        shot(page, "awards")

        # --- exports: downloads from the exports page
        page.goto(url + "/t/%s/exports" % TID)
        shot(page, "exports")
        got = {}
        for label in ("Standings (CSV)", "Every counted hand (CSV)", "EMA results sheet (CSV)"):
            with page.expect_download() as d:
                page.get_by_text(label).click()
            got[label] = open(d.value.path(), encoding="utf-8").read()
        st = list(csv.reader(io.StringIO(got["Standings (CSV)"])))
        assert st[0][:5] == ["rank", "player", "name", "standard", "match"] and len(st) == 17
        hands = list(csv.reader(io.StringIO(got["Every counted hand (CSV)"])))
        assert len(hands) == 1 + 16 * 8  # two sessions of four tables (table 4's hand 16 entered by hand)
        in_hands = sum(int(x.rsplit(":", 1)[1]) for r in hands[1:] for x in r[8].split(";") if x)
        assert sum(int(r[4]) for r in st[1:]) == in_hands - 10  # the hands (their penalties included) and the one off-table penalty
        ema = list(csv.reader(io.StringIO(got["EMA results sheet (CSV)"])))
        assert ema[0][2:8] == ["Place", "First name", "Last name", "EMA number", "Table points", "Score"] and len(ema) == 17

        page.goto(url + "/t/%s/manage/audit" % TID)
        audit = page.locator("#audit").inner_text()
        for action in ("tournament.create", "players.import", "seating.publish", "correction.add", "hand.enter", "penalty.add", "device.bind"):
            assert action in audit
        shot(page, "audit-log")

        # --- the same pages in Chinese
        with page.expect_navigation():
            page.select_option("header select[name=language]", "zh-hans")
        page.goto(url + "/t/%s/standings" % TID)
        assert "排名" in page.content()
        shot(page, "standings-zh")
        page.goto(url + "/t/%s/manage/players" % TID)
        shot(page, "players-zh")
        browser.close()
    assert len(shot.names) >= 25
