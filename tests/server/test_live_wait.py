"""Issue 20: the live pages' poll held until the version moves (host_tools/server/web/live_wait.py).
``GET /t/<id>/live?wait=1`` with the page's version waits while nothing moved, and answers with
the new version once a pushed hand lands; a stale version, an unknown tournament or an odd id
is answered at once, as the plain poll answers it. On the real server (uvicorn workers), SQLite
and PostgreSQL. Not tested here: the 304 at the end of a 25 s wait (WAIT_S), too slow for the
suite; the bench holds polls through it (bench/push_latency.py)."""
import re
import threading
import time

from .conftest import uid
from .helpers import Client, Device, hand_rec, session_rec
from .test_push import push
from .test_standings import seat


def live_tag(server, tid):
    st, page = server.anon.get("/t/%s/board" % tid)
    m = re.search(r'<meta name="live" content="/t/%s/live" data-etag="([^"]+)">' % tid, page)
    assert st == 200 and m, page[:800]
    return m.group(1).replace("&quot;", '"')


def held_poll(server, path, etag, out):
    c = Client(server.url)
    st, headers, body = c.request("GET", path, headers={"If-None-Match": etag})
    out.append((time.time(), st, headers.get("ETag"), body))


def test_a_held_poll_answers_when_a_pushed_hand_lands(server):
    players = ["w%d" % i for i in range(1, 5)]
    tid = server.tournament(players=players)
    seat(server, tid, 1, [players])
    dev = Device(uid("box-"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 1})[0] == 201
    etag = live_tag(server, tid)
    live = "/t/%s/live?wait=1" % tid
    out: list = []
    th = threading.Thread(target=held_poll, args=(server, live, etag, out), daemon=True)
    th.start()
    th.join(1.5)
    assert out == [], out  # nothing moved: still held (a plain poll answers 304 at once)
    pushed = time.time()
    push(server, dev.id, [dev.next(session_rec(tid, 1, 1, players)), dev.next(hand_rec(tid, 1, 1, 1, players, [24, -8, -8, -8], 0))])
    th.join(15)
    assert len(out) == 1, "the held poll did not answer when the hand landed"
    at, st, new, body = out[0]
    assert st == 200 and new != etag and body.decode() == new and at - pushed < 15, out
    assert new == live_tag(server, tid)  # the version the pages now carry
    # a page with an older version is answered at once, held or not
    t0 = time.time()
    st, headers, body = server.anon.request("GET", live, headers={"If-None-Match": etag})
    assert st == 200 and headers["ETag"] == new and headers["Cache-Control"] == "no-cache" and time.time() - t0 < 5
    # the script asks for the held poll
    st, _h, js = server.anon.request("GET", "/live.js")
    assert st == 200 and b'"?wait=1"' in js


def test_a_held_poll_of_odd_ids_is_refused_at_once(server):
    for path in ("/t/%00/live?wait=1", "/t/%C3%28/live?wait=1", "/t/no-such/live?wait=1", "/t/" + "x" * 70 + "/live?wait=1"):
        t0 = time.time()
        st, _h, _b = server.anon.request("GET", path, headers={"If-None-Match": '"1-0"'})
        assert st in (400, 404) and time.time() - t0 < 10, (path, st)
    assert server.anon.request("GET", "/t/no-such/live?wait=1", headers={"If-None-Match": '"1-0"'})[0] == 404
