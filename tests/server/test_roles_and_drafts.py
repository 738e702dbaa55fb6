"""Issue 19, items 10 and the planted bugs of its Proof: a role opens only its own pages and API
routes (a referee gives no roles, opens no organizer page; a role in one tournament opens
nothing in another); a draft seating is seen by organizers only, on pages and API; an unknown
tournament id answers 404 on every route, API and pages. SQLite and PostgreSQL."""
from __future__ import annotations

import re

from .conftest import PASSWORD, uid
from .pages import PageSession
from .test_standings import seat

PLAYERS = ["a", "b", "c", "d", "e", "f", "g", "h"]
ORGANIZER_PAGES = ["manage/", "manage/players", "manage/players/a", "manage/accounts", "manage/audit", "manage/boxes", "manage/seating/",
                   "manage/seating/1"]
REFEREE_PAGES = ["referee/", "referee/tables/1/1/enter", "referee/tables/1/1/reseat", "referee/tables/1/1/hands/1/correct",
                 "referee/tables/1/1/hands/1/points"]


def account(server, role_by_tid: dict) -> str:
    name = uid("acct")
    assert server.org.post("/api/accounts", {"username": name, "password": PASSWORD})[0] == 201
    for tid, role in role_by_tid.items():
        assert server.org.post("/api/tournaments/%s/roles" % tid, {"username": name, "role": role})[0] == 200
    return name


def browser(server, name: str) -> PageSession:
    s = PageSession(server.url)
    assert s.login(name) == 302
    return s


def test_a_referee_gives_no_roles(server):
    tid = server.tournament("mcr_000", players=PLAYERS[:4])  # server.ref is its referee
    other = account(server, {})
    for who, role in (("ref", "organizer"), (other, "referee"), (other, "organizer"), ("ref", None)):
        st, body = server.ref.post("/api/tournaments/%s/roles" % tid, {"username": who, "role": role})
        assert st == 403, (who, role, st, body)
    assert server.ref.get("/api/me")[1]["roles"].get(tid) == "referee"
    assert tid not in server.login(other).get("/api/me")[1]["roles"]
    # the organizer of the tournament does give them
    assert server.org.post("/api/tournaments/%s/roles" % tid, {"username": other, "role": "referee"})[0] == 200


def test_each_page_needs_its_own_role(server):
    t = server.tournament("mcr_000", players=PLAYERS[:4])
    u = server.tournament("mcr_000", players=PLAYERS[:4], referee=False)
    seat(server, t, 1, [PLAYERS[:4]])
    referee_t = browser(server, account(server, {t: "referee"}))
    organizer_u = browser(server, account(server, {u: "organizer"}))
    referee_u = browser(server, account(server, {u: "referee"}))
    organizer_t = browser(server, account(server, {t: "organizer"}))
    for p in ORGANIZER_PAGES:
        path = "/t/%s/%s" % (t, p)
        assert referee_t.get(path)[0] == 403, path  # a referee is no organizer
        assert organizer_u.get(path)[0] == 403, path  # an organizer of another tournament is nobody here
        assert referee_u.get(path)[0] == 403, path
        assert organizer_t.get(path)[0] in (200, 302), path  # manage/seating/ goes on to the next session's page
    for p in REFEREE_PAGES[:3]:
        path = "/t/%s/%s" % (t, p)
        assert organizer_u.get(path)[0] == 403, path
        assert referee_u.get(path)[0] == 403, path
        assert referee_t.get(path)[0] == 200, path
        assert organizer_t.get(path)[0] == 200, path
    # a form posted by the wrong role changes nothing
    st, _, _ = referee_t.post_form("/t/%s/manage/players" % t, {"action": "add", "add-id": "zz", "add-name": "Intruder"},
                                   token_from="/t/%s/referee/" % t)
    assert st == 403
    assert not server.sql("SELECT pid FROM tournaments_player WHERE tournament_id = ? AND pid = 'zz'", (t,))


def test_a_draft_seating_is_the_organizers_alone(server):
    tid = server.tournament("mcr_000", players=PLAYERS)
    st, body = server.org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": [PLAYERS[:4], PLAYERS[4:]], "publish": False})
    assert st == 201 and body["published"] is False, body
    names = ["Name " + p for p in PLAYERS]
    # the API: organizers see it, a referee and anyone else get 404
    assert server.org.get("/api/tournaments/%s/seatings/1" % tid)[0] == 200
    for c in (server.anon, server.ref):
        st, body = c.get("/api/tournaments/%s/seatings/1" % tid)
        assert st == 404, (st, body)
    # the pages: projector, sheets, live board, a referee's entry form hold none of its names
    ref = browser(server, "ref")
    tables = ["tables/1/1", "tables/1/2"]  # a table's page exists from publication
    for c, paths in ((PageSession(server.url), ["seating/1", "seating/1/sheets", "board?session=1", "board", ""] + tables),
                     (ref, ["seating/1", "board?session=1", "board", "referee/tables/1/1/enter", "referee/tables/1/2/enter",
                            "referee/tables/1/1/reseat", ""] + tables)):
        for p in paths:
            st, _, page = c.get("/t/%s/%s" % (tid, p))
            text = page.decode()
            assert st in (200, 404), (p, st)
            if "enter" in p:  # the form lists every registered player (public); a draft would fill the chairs
                leaked = re.findall(r'<option value="[a-h]" selected', text)
            else:
                leaked = [n for n in names if re.search(re.escape(n) + r"\b", text)]
            assert not leaked, (p, leaked)
    org = browser(server, "org")
    assert "Name e" in org.get("/t/%s/board?session=1" % tid)[2].decode()
    assert "Name e" in org.get("/t/%s/tables/1/2" % tid)[2].decode()
    # published: everyone sees it
    assert server.org.post("/api/tournaments/%s/seatings/1/publish" % tid)[0] == 200
    assert server.anon.get("/api/tournaments/%s/seatings/1" % tid)[0] == 200
    assert "Name e" in PageSession(server.url).get("/t/%s/board?session=1" % tid)[2].decode()


def _fill(path: str, unknown: str) -> str:
    values = {"tid": unknown, "session": "1", "table": "1", "number": "1", "pid": "a", "device": "nobox", "username": "ref"}
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)


def _page_routes() -> list:
    """The pages' routes that name a tournament, as web/urls.py declares them, each as a pattern."""
    import pathlib

    text = (pathlib.Path(__file__).parents[2] / "host_tools/server/web/urls.py").read_text()
    routes = re.findall(r'path\("t/<str:tid>/([^"]*)"', text)
    assert len(routes) >= 20, routes
    return [re.sub(r"<str:\w+>", "[^/]+", re.sub(r"<int:\w+>", r"\\d+", r)) for r in routes]


def test_unknown_tournament_is_404_everywhere(server):
    unknown = uid("NoSuch")
    spec = server.anon.get("/openapi.json")[1]
    tried = 0
    for path, ops in spec["paths"].items():
        if "{tid}" not in path:
            continue
        for method in ops:
            for c in (server.org, server.ref):
                st, _, body = c.request(method.upper(), _fill(path, unknown), body={} if method in ("post", "patch", "put") else None)
                assert st == 404, (method, path, st, body[:300])
            tried += 1
    assert tried >= 25, tried  # every tournament route of the API was tried
    org = browser(server, "org")
    pages = ["", "standings", "board", "awards", "exports", "tables/1/1", "players/a", "seating/1", "seating/1/sheets", "survival",
             "referee/survival", "manage/boxes/box-1", "live"] + ORGANIZER_PAGES + REFEREE_PAGES
    untried = [r for r in _page_routes() if not any(re.fullmatch(r, p) for p in pages)]
    assert not untried, untried  # every page that names a tournament is tried
    for p in pages:
        st, _, body = org.get("/t/%s/%s" % (unknown, p))
        assert st == 404, (p, st, body[:300])
        assert b"Traceback" not in body
