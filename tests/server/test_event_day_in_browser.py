"""Issue 18's event day in a real browser (Playwright driving Debian's chromium) against the real
server (gunicorn, SQLite), the real sync tool and boxes as simulators on PTYs: 16 players, 4
tables, 2 sessions of a few hands, MCR.

Session 1: table 1's box plays throughout; after hand 3 the referee finds two players in each
other's chairs and re-seats them from the table page (they go back to their chairs); the table
gets 10 more minutes, which reaches its box at its next contact. Table 2 has no box: every hand
is entered on its page, one is corrected by its tiles, the referee ends it. Table 3's box dies
after hand 5 (hands 4 and 5 never synced): a spare is bound to the table from its page, the dead
box's records are recovered over USB and count at table 3, and the spare goes on at hand 6 with
the scores so far. Table 4's box had its session keyed in before the seating reached it: its
records wait in quarantine and the referee claims them from the referee page. Session 2 is
played by the boxes and table 2's page. The box screens show the registered names. At the end
the standings page equals an independent count of the hands (tests/server/event_day.py: fans from
PyMahjongGB, MCR payments and 4/2/1/0 written out) and every box's page accounts for every record
it sent. Screenshots with SERVER_SCREENS=1 (build/screens/server/day-*.png; docs/screens/server/
with make server-screens); the README's "Event day" walks the same steps."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from host_tools.sync.box_config import fetch_box_config

from .boxes import Box, environ
from .browser import ARGS, Shots, Steps, TablePage, chromium, login
from .conftest import PASSWORD, new_database, start_server, stop
from .event_day import END_AT_BOX, KEY_IN, Hand, box_lines, chairs_for_hand, script, standings

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is pinned in requirements-dev.txt")
expect = playwright.expect

NAMES = {"101": "Anna Martin", "102": "Jonas Berg", "103": "Sofia Rossi", "104": "Lukas Novak",
         "105": "李明", "106": "Emma Dubois", "107": "王芳", "108": "Mateo Garcia",
         "109": "Olga Petrova", "110": "Kenji Sato", "111": "Ines Costa", "112": "Tom Weber",
         "113": "Nina Holm", "114": "张伟", "115": "Paul Meyer", "116": "Lena Wolf"}
S1 = [["101", "102", "103", "104"], ["105", "106", "107", "108"], ["109", "110", "111", "112"], ["113", "114", "115", "116"]]
S2 = [["101", "105", "109", "113"], ["102", "106", "110", "114"], ["103", "107", "111", "115"], ["104", "108", "112", "116"]]
# concealed hands without honours (PyMahjongGB gives each at least 8 fans, self-drawn or not)
A = "123456789m123s55s"
B = "123m456m789m111s22s"
C = "234m345m456m678s99s"
D = "123456789p789s11s"


def hand(session, table, n, seating, winner, source, tiles, sat=None) -> Hand:
    return Hand(session, table, n, chairs_for_hand(sat or seating, n), winner, source, tiles)


@pytest.fixture
def day(request, tmp_path):
    db = new_database(request, "sqlite", tmp_path)
    proc, url = start_server(db, tmp_path, {"MT_TEST_FAST_HASHER": "1"})
    boxes = {i: Box("box-%d" % i, tmp_path, environ()) for i in (1, 3, 4, 5)}  # table 2 has none; box-5 is the spare
    try:
        yield url, boxes, tmp_path
    finally:
        for b in boxes.values():
            b.stop()
        stop(proc)


def ok(page):
    return " ".join(page.locator(".messages .ok").all_inner_texts())


def screen_texts(b: Box) -> str:
    """What the box's screens showed in its last run (one text dump a screen)."""
    return "".join(f.read_text(encoding="utf-8") for f in sorted((b.dir / "box" / "screens").glob("*.txt")))


def uploaded(out: str) -> int:
    m = re.search(r"uploaded (\d+), already known (\d+), refused 0", out)
    assert m, out
    return int(m.group(1))


def test_event_day(day):
    from .helpers import Client

    url, boxes, tmp = day
    org = Client(url)
    org.token = org.post("/api/login", {"username": "org", "password": PASSWORD})[1]["token"]
    tid = "DAY"
    # --- before the day (the organizer's pages for these are walked by test_event_in_browser)
    assert org.post("/api/tournaments", {"id": tid, "name": "Event day", "format": "mcr_000", "settings": {}})[0] == 201
    st, body = org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": n, "draw": i} for i, (p, n) in enumerate(NAMES.items(), 1)])
    assert st == 200, body
    assert org.post("/api/tournaments/%s/roles" % tid, {"username": "ref", "role": "referee"})[0] == 200
    for i, b in boxes.items():
        b.idle()
        key = b.provision()
        st, body = org.post("/api/devices", {"id": b.device, "key": key, "tournament": tid, "table": i if i < 5 else None, "label": "case %d" % i})
        assert st == 201, body
    st, body = org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": S1, "publish": True})
    assert st == 201, body

    played = []   # every hand as the tables really played it: the independent count's input
    sent = {b.device: 0 for b in boxes.values()}  # records each box uploaded, by the sync tool's summary

    def sync(b):
        out = b.sync("--server", url)
        sent[b.device] += uploaded(out)
        return out

    def play(b, name, lines, png=False):
        b.stop()
        for f in (b.dir / "box" / "screens").glob("*.*"):  # screen_texts: this run's screens only
            f.unlink()
        if png:  # the box's screens as PNGs too (what the players see)
            b._start(["-m", "simulator", "--script", str(script(tmp / name, lines)), "--out", str(b.dir / "box"), "--serial", "--keep-serving",
                      "--device-id", b.device])
        else:
            b.play(script(tmp / name, lines))

    # --- table 1: the box gets its config (the registered names) and plays hands 1-3; players 102
    # and 103 sat in each other's chairs
    b1 = boxes[1]
    cfg1 = fetch_box_config(url, b1.device)
    assert cfg1["players"] == S1[0] and cfg1["names"] == [NAMES[p] for p in S1[0]], cfg1
    b1.push_config(cfg1, server=url)
    sat = ["101", "103", "102", "104"]
    t1 = [hand(1, 1, 1, S1[0], 1, 3, A, sat), hand(1, 1, 2, S1[0], 2, None, B, sat), hand(1, 1, 3, S1[0], 3, 4, C, sat)]
    play(b1, "t1a.txt", sum((box_lines(h) for h in t1), []), png=True)
    screens = screen_texts(b1)
    for p in S1[0]:
        assert NAMES[p] in screens, p  # the box screens name the players as registered
    shot = Shots("day-")
    if shot.on:  # the box's screen with the most names on it, beside the pages
        best = max((f for f in (b1.dir / "box" / "screens").glob("*.txt")),
                   key=lambda f: ("番" in f.read_text(encoding="utf-8"), sum(NAMES[p] in f.read_text(encoding="utf-8") for p in S1[0]), f.name))
        shutil.copy(best.with_suffix(".png"), shot.dir / "day-box-names.png")
    sync(b1)

    # --- table 3: the box plays hands 1-3 (synced at a referee's round), then 4 and 5, and dies
    b3 = boxes[3]
    b3.push_config(fetch_box_config(url, b3.device), server=url)
    t3 = [hand(1, 3, 1, S1[2], 1, None, A, None), hand(1, 3, 2, S1[2], 4, 2, D, None), hand(1, 3, 3, S1[2], 2, 1, B, None)]
    play(b3, "t3a.txt", sum((box_lines(h) for h in t3), []))
    sync(b3)
    t3 += [hand(1, 3, 4, S1[2], 3, None, C, None), hand(1, 3, 5, S1[2], 1, 4, D, None)]
    play(b3, "t3b.txt", sum((box_lines(h) for h in t3[3:]), []))
    b3.stop()  # dead: hands 4 and 5 are only on its flash

    # --- table 4: no config reached the box: the table keys its session in, plays, ends, syncs
    b4 = boxes[4]
    t4 = [hand(1, 4, 1, S1[3], 2, 1, B, None), hand(1, 4, 2, S1[3], 4, None, C, None)]
    play(b4, "t4.txt", [KEY_IN.format(table=4, session=1, players="#".join(S1[3]))] + sum((box_lines(h) for h in t4), []) + END_AT_BOX)
    sync(b4)
    played += t4

    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
        page.set_default_timeout(30000)
        s = Steps(page)

        def visit(address):
            """Go to a page. The page on screen may be reloading itself at that moment (live.js: a box
            just synced), which aborts the navigation: then go again."""
            for attempt in range(3):
                try:
                    s.goto(address)
                except playwright.Error as e:
                    if "ERR_ABORTED" not in str(e) or attempt == 2:
                        raise
                # the reload can also win without an error: the old page is on screen again
                if page.url == address:
                    return
                page.wait_for_load_state()
            assert page.url == address, (page.url, address)

        login(s, url, "ref", PASSWORD)

        # the live board: where every table stands
        visit(url + "/t/%s/board?session=1" % tid)
        assert page.locator(".card").count() == 4
        shot(page, "live-board")

        # table 1: re-seat hands 1-3 (they go back to the seating's chairs for hand 4)
        table1 = TablePage(s, url, tid, 1, 1)
        visit(url + table1.path)
        assert table1.hands() == 3
        shot(page, "table-1-three-hands")
        s.click("#reseat")
        assert page.input_value("#id_first_hand") == "1" and page.input_value("#id_last_hand") == "3"
        assert not page.is_checked("#id_move_seating")  # a box keeps its session's chairs: they go back to them
        s.choose("#id_chair1", "103")
        s.choose("#id_chair2", "102")
        s.fill("#id_reason", "102 and 103 sat in each other's chairs")
        shot(page, "table-1-reseat")
        s.click("#reseat-form button")
        assert "Table re-seated." in ok(page), page.locator("main").inner_text()[:800]
        assert "Jonas Berg" in table1.hand_row(3).locator("td").nth(2).inner_text()  # chair 3 won hand 3: 102 sat there
        # more time for table 1: it reaches the box at its next contact
        before = fetch_box_config(url, b1.device)["minutes"]
        s.fill("#id_time-minutes", "10")
        s.fill("#id_time-reason", "long ruling at hand 3")
        s.click("#extend button")
        assert "Time extended." in ok(page) and "10 min given by a referee" in page.locator("#time-left").inner_text()
        shot(page, "table-1-extended")
        cfg = fetch_box_config(url, b1.device)
        assert cfg["minutes"] == before + 10, cfg
        b1.push_config(cfg, server=url)  # the sync tool delivers it: the running session takes it (no "a session is running")
        # the box is restarted to play the next scripted hands: the extension is kept across the
        # restart (firmware/session_time.py), nothing gives it again; its first screen shows it
        t1 += [hand(1, 1, 4, S1[0], 4, 1, D), hand(1, 1, 5, S1[0], 1, 2, B)]
        play(b1, "t1b.txt", ["wait 0.25"] + sum((box_lines(h) for h in t1[3:]), []) + END_AT_BOX)
        m = re.search(r"第4/16盘 \S+ (\d+)分", screen_texts(b1))  # the box's hand 4 screen: the minutes left, the extension's included
        assert m and before < int(m.group(1)) <= before + 10, (m, before)
        assert "Anna Martin" in screen_texts(b1)
        sync(b1)
        played += t1

        # table 2 has no box: each hand entered on its page, one corrected by its tiles, ended there
        table2 = TablePage(s, url, tid, 1, 2)
        visit(url + table2.path)
        assert "none" in page.locator("#table-box").inner_text()
        t2 = [hand(1, 2, 1, S1[1], 1, 2, B), hand(1, 2, 2, S1[1], 3, None, A), hand(1, 2, 3, S1[1], 4, 3, C)]
        for i, h in enumerate(t2):
            table2.event(0, chair=h.winner, tiles=h.tiles, **({} if h.source is None else {"source": h.source}))
            if i == 1:
                shot(page, "table-2-quick-hand")
            s.click("#quick-hand button")
            assert "Hand %d entered." % h.number in ok(page), page.locator("main").inner_text()[:800]
            assert table2.hand_row(h.number).locator("td").nth(4).inner_text() == str(h.fans)
        # hand 3 was won by chair 2 on chair 1's discard, with other tiles
        s.click(table2.hand_row(3).get_by_text("Correct", exact=True))
        t2[2] = hand(1, 2, 3, S1[1], 2, 1, D)
        table2.event(0, chair=2, source=1, tiles=D)
        s.fill("#id_reason", "wrong winner keyed")
        shot(page, "table-2-correct-by-tiles")
        s.click("#enter-hand button")
        assert "Hand corrected." in ok(page)
        assert table2.hand_row(3).locator("td").nth(4).inner_text() == str(t2[2].fans)
        s.fill("#id_end-reason", "time called")
        s.tick("#id_end-confirm")
        s.click("#end-table button")
        assert "Table ended." in ok(page)
        shot(page, "table-2-ended")
        played += t2

        # table 3: its box died after hand 5: a spare bound from the table's page
        table3 = TablePage(s, url, tid, 1, 3)
        visit(url + table3.path)
        assert table3.hands() == 3
        s.choose("#id_box-device", boxes[5].device)
        shot(page, "table-3-swap-box")
        s.click("#swap-box button")
        assert boxes[5].device in page.locator("#table-box").inner_text()
        # the dead box's flash read over USB at the desk: hands 4 and 5 count at table 3
        b3.idle()
        assert uploaded(sync(b3)) == 2
        # the table's page, open all along, follows by itself (live.js reloads it when the results move)
        expect(page.locator("#hands-played")).to_have_text("5", timeout=15000)
        shot(page, "table-3-recovered")
        spare = boxes[5]
        cfg = fetch_box_config(url, spare.device)
        assert cfg["hand"] == 6, cfg
        so_far = {p: 0 for p in S1[2]}
        for h in t3:
            for p, d in h.deltas().items():
                so_far[p] += d
        assert cfg["totals"] == [so_far[p] for p in S1[2]], (cfg, so_far)
        spare.push_config(cfg, server=url)
        t3 += [hand(1, 3, 6, S1[2], 2, 3, A)]
        play(spare, "t3c.txt", box_lines(t3[5]) + END_AT_BOX)
        sync(spare)
        played += t3

        # table 4: the keyed-in session waits in quarantine; the referee claims it
        visit(url + "/t/%s/referee/" % tid)
        assert page.locator("form.claim").count() == sent[b4.device] == 4  # its session, 2 hands, its end
        row = page.locator("form.claim").first
        row.locator("input[name=session]").fill("1")
        row.locator("input[name=table]").fill("4")
        shot(page, "referee-claim")
        s.click(row.locator("button"))
        assert "4 records claimed for session 1 table 4" in page.locator(".messages").inner_text(), page.locator(".messages").inner_text()
        assert page.locator("form.claim").count() == 0

        visit(url + "/t/%s/board?session=1" % tid)
        shot(page, "live-board-session-1")

        # --- session 2: the boxes that are at tables 1, 3 (the spare) and 4; table 2 on its page
        st, body = org.post("/api/tournaments/%s/seatings/2" % tid, {"method": "manual", "tables": S2, "publish": True})
        assert st == 201, body
        for t, b, hs in ((1, b1, [(1, None, B), (3, 2, A)]), (3, spare, [(2, 4, C), (4, None, D)]), (4, b4, [(3, 1, A), (1, 3, C)])):
            cfg = fetch_box_config(url, b.device)
            assert cfg["session"] == 2 and cfg["table"] == t and "hand" not in cfg
            b.push_config(cfg, server=url)
            got = [hand(2, t, n, S2[t - 1], w, src, tiles) for n, (w, src, tiles) in enumerate(hs, 1)]
            play(b, "s2-%d.txt" % t, sum((box_lines(h) for h in got), []) + END_AT_BOX)
            sync(b)
            played += got
        table2 = TablePage(s, url, tid, 2, 2)
        visit(url + table2.path)
        h = hand(2, 2, 1, S2[1], 4, 1, B)
        table2.event(0, chair=h.winner, source=h.source, tiles=h.tiles)
        s.click("#quick-hand button")
        assert "Hand 1 entered." in ok(page)
        s.fill("#id_end-reason", "time called")
        s.tick("#id_end-confirm")
        s.click("#end-table button")
        played.append(h)

        # --- the standings equal the independent count
        visit(url + "/t/%s/standings" % tid)
        assert page.locator("#quarantine-flag").count() == 0
        shot(page, "standings")
        want = standings(played)
        got = {}
        for r in page.locator("#standings tr").all()[1:]:
            cells = r.locator("td").all_inner_texts()
            pid = r.locator("td").nth(1).locator(".muted").inner_text()
            got[pid] = (float(cells[2]), int(cells[3]))
        assert got == want

        # --- every record of every box accounted for (the organizer's box pages)
        s.click("form[action='/logout/'] button")
        login(s, url, "org", PASSWORD)
        visit(url + "/t/%s/manage/boxes" % tid)
        shot(page, "boxes")
        for b in boxes.values():
            visit(url + "/t/%s/manage/boxes/%s" % (tid, b.device))
            html = page.content()
            n = sent[b.device]
            for label, v in (("Journal head", n), ("Received", n), ("Counted", n), ("Quarantined", 0), ("Duplicates", 0), ("Not received", 0)):
                assert '<th>%s</th><td class="n">%d</td>' % (label, v) in html, (b.device, label, n)
            if b is b3:
                shot(page, "box-3-dead-accounted")
        browser.close()
