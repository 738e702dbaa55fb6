"""Seconds from a box's upload to the standings page (issue 18's figure).

    .venv/bin/python bench/upload_to_standings.py [--tables 8] [--hands 60] [--viewers 0] [--json FILE]

The server: `python -m host_tools serve` on SQLite, as bench/push_latency.py starts it (a
tournament of 4 x tables players seated at `tables` tables, a box registered and bound at each).
The boxes: the firmware's own push code (firmware/net, CPython) over real sockets, the route a
box on the hall's Wi-Fi takes (`POST /api/boxes/<id>/push`). A reader polls the standings page
(/t/<id>/standings, the HTML a person reads) back to back, 20 times a second at most.

One hand at a time, at a box picked in turn: the hand is confirmed on the box (appended to its
journal), the box pushes it, and the hand's time is from the confirmation to the end of the
first standings page whose match scores include it (all four players' totals as the hands so
far add up). Split into the push (confirmation to the server's received_at) and the page (the
rest). With `--viewers N`, N pollers of /t/<id>/live load the server as the live pages do.
"""
import argparse
import multiprocessing
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from bench import push_latency as pl  # noqa: E402  (the served server, the boxes, their hands)

# a player's row on the standings page (web/templates/web/standings.html): the id, then the
# plain number cells (standard score when the format has one, then the match score)
ROW = re.compile(r'<span class="muted">([^<]+)</span></td>((?:<td class="n">[^<]*</td>)+)')
CELL = re.compile(r'<td class="n">([^<]*)</td>')


def match_scores(page: str, std: bool) -> dict:
    out = {}
    for pid, cells in ROW.findall(page):
        c = CELL.findall(cells)
        if len(c) > int(std):
            out[pid] = c[int(std)]
    return out


def reader(url, tid, stop, log):
    """Polls the standings page back to back: [(end, {player: match})]."""
    import http.client
    from urllib.parse import urlsplit
    u = urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    std = None
    while not stop.is_set():
        t0 = time.time()
        conn.request("GET", "/t/%s/standings" % tid, headers={"Accept-Language": "en"})
        r = conn.getresponse()
        page = r.read().decode()
        if std is None:
            std = ">Standard</th>" in page
        log.append((time.time(), match_scores(page, std)))
        time.sleep(max(0.0, 0.05 - (time.time() - t0)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--viewers", type=int, default=0, help="pollers of the live version loading the server meanwhile")
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args(argv)
    from tests.server.helpers import Client
    work = tempfile.mkdtemp(prefix="upload-standings-")
    db = "sqlite:///" + os.path.join(work, "t.db")
    proc, url = pl.start(db, work)
    try:
        org = Client(url)
        org.token = org.post("/api/login", {"username": "org", "password": pl.PASSWORD})[1]["token"]
        tid = "BENCH"
        players = ["p%03d" % i for i in range(1, 4 * a.tables + 1)]
        assert org.post("/api/tournaments", {"id": tid, "name": "Bench", "format": "mcr_000", "settings": {}})[0] == 201
        assert org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": p, "draw": i + 1} for i, p in enumerate(players)])[0] == 200
        st, body = org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "publish": True,
                                                                    "tables": [players[4 * i:4 * i + 4] for i in range(a.tables)]})
        assert st == 201, body
        boxes = pl.make_boxes(org, tid, players, a.tables, url, work)
        pl.step_all(boxes, time.time() + 3)  # the session records
        vp = None
        if a.viewers:
            q = multiprocessing.Queue()
            every, query = pl.live_js(url)
            vp = multiprocessing.Process(target=pl.viewers_main, args=(url, "/t/%s/live%s" % (tid, query), a.viewers, time.time() + 3600, q,
                                                                       every), daemon=True)
            vp.start()
            time.sleep(3)
        stop, log = threading.Event(), []
        rd = threading.Thread(target=reader, args=(url, tid, stop, log), daemon=True)
        rd.start()
        totals = dict.fromkeys(players, 0)
        samples, timeouts = [], 0
        cpu0, c0 = pl.server_cpu(proc.pid), time.time()
        for i in range(a.hands):
            b = boxes[i % len(boxes)]
            pl.confirm(b, tid)
            seq = b.j.last_seq
            tc = b.confirmed[b.j.last_seq]
            rec = b.last_hand  # the hand as the box recorded it: the four totals the page must show
            for p, d in zip(rec["seats"], rec["deltas"]):
                totals[p] += d
            want = {p: str(totals[p]) for p in rec["seats"]}
            start = len(log)
            shown = None
            deadline = tc + 30
            while shown is None and time.time() < deadline:
                pl.step_all(boxes, time.time() + 0.01)
                for end, got in log[start:]:
                    if all(got.get(p) == v for p, v in want.items()):
                        shown = end
                        break
            if shown is None:
                timeouts += 1
            else:
                samples.append((b.id, seq, tc, shown))
            pl.step_all(boxes, time.time() + random.uniform(0.3, 1.0))
        cores = (pl.server_cpu(proc.pid) - cpu0) / (time.time() - c0)
        stop.set()
        rd.join(10)
        if vp is not None:
            vp.terminate()
        got = pl.received(db, boxes)
        total = [e - tc for _d, _s, tc, e in samples]
        push = [got[(d, s)] - tc for d, s, tc, _e in samples if (d, s) in got]
        page = [e - got[(d, s)] for d, s, _tc, e in samples if (d, s) in got]
        res = {"tables": a.tables, "hands": a.hands, "viewers": a.viewers, "not_shown_in_30_s": timeouts, "standings_reads": len(log),
               "upload_to_standings_median_s": round(statistics.median(total), 3), "upload_to_standings_p99_s": round(pl.pct(total, 99), 3),
               "upload_to_standings_max_s": round(max(total), 3),
               "push_median_s": round(statistics.median(push), 3), "push_p99_s": round(pl.pct(push, 99), 3),
               "stored_to_page_median_s": round(statistics.median(page), 3), "stored_to_page_p99_s": round(pl.pct(page, 99), 3),
               "server_cpu_cores": round(cores, 3)}
        pl.report(res, a.json)
    finally:
        pl.stop(proc)


if __name__ == "__main__":
    main()
