"""HTML pages: escaping, self-refresh, referee login and forms (CSRF), and a real headless
Chromium rendering of the standings page (text from --dump-dom, a PNG screenshot)."""
import re
import subprocess
from pathlib import Path
from urllib.parse import quote, urlencode

from .helpers import Device, hand_rec, session_rec

ROOT = Path(__file__).resolve().parents[2]
SEATS = ["p1", "p2", "p3", "p4"]


def populate(server, tid="T", name="Spring Open 春季赛"):
    assert server.org.post("/api/tournaments", {"id": tid, "name": name, "format": "mcr_000"})[0] == 201
    players = [{"id": "p1", "name": "<b>Ann</b> & \"Bo\"", "draw": 1}, {"id": "p2", "name": "李明", "draw": 2},
               {"id": "p3", "name": "Chen", "draw": 3}, {"id": "p4", "name": "Dirk", "draw": 4}]
    assert server.org.post("/api/tournaments/%s/players" % tid, players)[0] == 200
    dev = Device("pg-%s" % tid)
    server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex()})
    envs = [dev.next(session_rec(tid, 1, 1, SEATS)), dev.next(hand_rec(tid, 1, 1, 1, SEATS, [-8, 56, -40, -8], 1, 2, 32)),
            dev.next(hand_rec(tid, 1, 1, 2, SEATS, [24, -8, -8, -8], 0, None, 8))]
    server.anon.post("/api/records:batch", envs)
    return dev


def test_public_pages_escape_and_refresh(server):
    populate(server)
    st, headers, body = server.anon.request("GET", "/t/T/standings")
    html = body.decode()
    assert st == 200 and headers["Content-Type"].startswith("text/html")
    assert '<meta http-equiv="refresh" content="30">' in html
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Bo&quot;" in html
    assert "李明" in html and "Spring Open 春季赛" in html
    assert "script" not in html.lower()
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    for path in ("/", "/t/T/tables/1/1", "/t/T/players/p2", "/t/T/awards"):
        st, _, body = server.anon.request("GET", path)
        assert st == 200, path
        assert "<b>Ann</b>" not in body.decode()
    assert "平和" in server.anon.request("GET", "/t/T/tables/1/1")[2].decode()
    assert server.org.post("/api/tournaments/T/seatings/2", {"method": "rank"})[0] == 201
    st, _, body = server.anon.request("GET", "/t/T/seating/2")
    assert st == 200 and "李明" in body.decode()
    st, text = server.anon.get("/api/tournaments/T/seatings/2?format=text")
    assert text.splitlines()[:3] == ["Session 2", "Table  Wind  Player", "    1  E     p2  李明"]
    assert server.anon.request("GET", "/t/nope/standings")[0] == 404
    assert server.anon.request("GET", "/t/T/seating/9")[0] == 404
    evil = "<script>x</script>"
    st, _, body = server.anon.request("GET", "/t/%s/standings" % quote(evil, safe=""))
    assert st == 404 and "<script>" not in body.decode()


def _form(client, path, fields, cookie=None):
    h = {"Content-Type": "application/x-www-form-urlencoded"}
    if cookie:
        h["Cookie"] = cookie
    return client.request("POST", path, raw=urlencode(fields).encode(), headers=h)


def test_referee_login_and_forms(server):
    populate(server)
    c = server.client()
    st, _, body = c.request("GET", "/referee")
    assert st == 200 and 'name="password"' not in body.decode() and "name=password" in body.decode()
    st, h, _ = _form(c, "/referee/login", {"username": "ref", "password": "wrong-password"})
    assert st == 303 and "Set-Cookie" not in h
    st, h, _ = _form(c, "/referee/login", {"username": "ref", "password": "referee-pw"})
    assert st == 303 and "HttpOnly" in h["Set-Cookie"] and "SameSite=Strict" in h["Set-Cookie"]
    cookie = h["Set-Cookie"].split(";")[0]
    page = c.request("GET", "/referee/t/T", headers={"Cookie": cookie})[2].decode()
    csrf = re.search(r'name=csrf value="([0-9a-f]+)"', page).group(1)
    # without the CSRF field the form is refused
    st, _, _ = _form(c, "/referee/t/T/penalties", {"session": 1, "player": "p1", "kind": "points", "amount": "-5", "reason": "r"}, cookie)
    assert st == 403
    st, h, _ = _form(c, "/referee/t/T/penalties", {"csrf": csrf, "session": 1, "player": "p1", "kind": "points", "amount": "-5", "reason": "noise"}, cookie)
    assert st == 303 and "saved" in h["Location"]
    st, h, _ = _form(c, "/referee/t/T/corrections", {"csrf": csrf, "device": "pg-T", "seq": 3, "d0": 0, "d1": 0, "d2": 0, "d3": 0, "reason": "void"}, cookie)
    assert st == 303 and "saved" in h["Location"], h
    st, h, _ = _form(c, "/referee/t/T/corrections", {"csrf": csrf, "device": "pg-T", "seq": "x", "d0": 0, "d1": 0, "d2": 0, "d3": 0, "reason": "void"}, cookie)
    assert st == 303 and "refused" in h["Location"]
    pens = server.anon.get("/api/tournaments/T/penalties")[1]
    assert [(p["player"], p["points"], p["referee"]) for p in pens] == [("p1", -5, "ref")]
    st, h, _ = _form(c, "/referee/t/T/penalties/%d/revoke" % pens[0]["id"], {"csrf": csrf}, cookie)
    assert st == 303 and server.anon.get("/api/tournaments/T/penalties")[1][0]["revoked"]
    # without the cookie the referee page sends to the login
    assert c.request("GET", "/referee/t/T")[0] == 303
    _form(c, "/referee/logout", {"csrf": csrf}, cookie)
    assert c.request("GET", "/referee/t/T", headers={"Cookie": cookie})[0] == 303


def chromium(*args):
    return subprocess.run(["bash", str(ROOT / "tools" / "chromium_headless.sh"), *args], capture_output=True, text=True, timeout=600)


def test_standings_page_in_headless_chromium(server, tmp_path):
    populate(server)
    url = server.url + "/t/T/standings"
    out = chromium("--dump-dom", url)
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    assert "Spring Open 春季赛" in dom
    rows = re.findall(r"<tr>(.*?)</tr>", re.search(r'<table class="big" id="standings">(.*?)</table>', dom, re.S).group(1), re.S)
    text = [re.sub(r"<[^>]+>", " ", r).split() for r in rows[1:]]
    # p2 won 56 + lost 8 = 48: 4 points; p1 -8 + 24 = 16: 2; p4 -16: 1; p3 -48: 0
    assert [t[:2] for t in text] == [["1", "p2"], ["2", "p1"], ["3", "p4"], ["4", "p3"]]
    assert "&lt;b&gt;Ann&lt;/b&gt;" in dom
    shot = ROOT / "build" / "screenshots" / "standings.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    if shot.exists():
        shot.unlink()
    out = chromium("--screenshot=%s" % shot, "--window-size=1280,800", "--hide-scrollbars", url)
    assert out.returncode == 0, out.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1280, 800)
