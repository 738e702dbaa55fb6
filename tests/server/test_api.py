"""Accounts and roles, tournaments CRUD, player import, seatings, OpenAPI coverage."""
import json

from host_tools.server.openapi import document

from .helpers import Device, hand_rec, session_rec


def test_roles_and_accounts(server):
    assert server.anon.post("/api/tournaments", {"id": "T", "name": "T", "format": "mcr_000"})[0] == 401
    assert server.ref.post("/api/tournaments", {"id": "T", "name": "T", "format": "mcr_000"})[0] == 403
    bad = server.client("not-a-token")
    assert bad.post("/api/tournaments", {"id": "T", "name": "T", "format": "mcr_000"})[0] == 401
    assert server.anon.post("/api/login", {"username": "ref", "password": "nope-nope"})[0] == 401
    assert server.ref.get("/api/me") == (200, {"username": "ref", "role": "referee"})
    st, body = server.org.post("/api/accounts", {"username": "ref2", "password": "short", "role": "referee"})
    assert st == 400
    assert server.org.post("/api/accounts", {"username": "ref2", "password": "long enough", "role": "referee"})[0] == 201
    assert server.org.post("/api/accounts", {"username": "ref2", "password": "long enough", "role": "referee"})[0] == 409
    token = server.anon.post("/api/login", {"username": "ref2", "password": "long enough"})[1]["token"]
    ref2 = server.client(token)
    assert ref2.get("/api/me")[0] == 200
    assert server.org.json("PATCH", "/api/accounts/ref2", {"active": False})[0] == 200
    assert ref2.get("/api/me")[0] == 401  # deactivation revokes tokens
    assert server.org.json("PATCH", "/api/accounts/org", {"role": "referee"})[0] == 409  # last organizer stays
    st, accounts = server.org.get("/api/accounts")
    assert {a["username"]: a["active"] for a in accounts} == {"org": True, "ref": True, "ref2": False}
    assert "password" not in json.dumps(accounts)
    log = server.org.get("/api/audit")[1]
    assert {"account.create", "account.update"} <= {a["action"] for a in log}
    assert server.anon.post("/api/logout")[0] == 200
    assert server.ref.post("/api/logout")[0] == 200 and server.ref.get("/api/me")[0] == 401


def test_tournament_crud_and_players(server):
    assert server.org.post("/api/tournaments", {"id": "T", "name": "T", "format": "bogus"})[0] == 400
    assert server.org.post("/api/tournaments", {"id": "T", "name": "T", "format": "mcr_000", "settings": {"finalists": "16"}})[0] == 400
    assert server.org.post("/api/tournaments", {"id": "T", "name": "T", "format": "guangdong_004", "settings": {"carry_ratio": 0.3}})[0] == 400
    st, t = server.org.post("/api/tournaments", {"id": "T", "name": "Open", "format": "mcr_000", "settings": {"prelim_sessions": 4}})
    assert st == 201 and t["settings"] == {"prelim_sessions": 4, "finalists": 16}
    assert server.org.post("/api/tournaments", {"id": "T", "name": "Open", "format": "mcr_000"})[0] == 409
    assert server.org.json("PATCH", "/api/tournaments/T", {"name": "Open 2"})[1]["name"] == "Open 2"
    assert server.anon.get("/api/tournaments")[1][0]["name"] == "Open 2"
    csv_text = "id,name,draw,ema_id,country\nx1,Ann Martin,1,04010012,FRA\nx2,Li Ming,2,,CHN\n"
    st, _, body = server.org.request("POST", "/api/tournaments/T/players", raw=csv_text.encode(), headers={"Content-Type": "text/csv"})
    assert st == 200 and json.loads(body) == {"added": 2, "updated": 0}
    assert server.org.post("/api/tournaments/T/players", [{"id": "x3", "name": "C", "draw": 1}])[0] == 409  # draw 1 taken
    assert server.org.post("/api/tournaments/T/players", [{"id": "x1", "name": "Ann M.", "draw": 1}])[1] == {"added": 0, "updated": 1}
    players = server.anon.get("/api/tournaments/T/players")[1]
    assert [(p["id"], p["name"], p["draw"], p["country"]) for p in players] == [("x1", "Ann M.", 1, ""), ("x2", "Li Ming", 2, "CHN")]
    assert server.org.request("POST", "/api/tournaments/T/players", raw=b"id,nom\nx,y\n", headers={"Content-Type": "text/csv"})[0] == 400
    assert server.org.json("DELETE", "/api/tournaments/T")[0] == 200
    assert server.anon.get("/api/tournaments/T")[0] == 404


def test_seatings(server):
    server.org.post("/api/tournaments", {"id": "G", "name": "G", "format": "guangdong_004"})
    server.org.post("/api/tournaments/G/players", [{"id": "g%02d" % i, "name": "P%d" % i, "draw": i} for i in range(1, 17)])
    st, s1 = server.org.post("/api/tournaments/G/seatings/1", {"method": "preset"})
    assert st == 201 and s1["tables"][0]["players"] == ["g01", "g02", "g03", "g04"]
    sessions = [s1["tables"]] + [server.org.post("/api/tournaments/G/seatings/%d" % s, {"method": "preset"})[1]["tables"] for s in (2, 3)]
    met = set()
    for tables in sessions:
        for t in tables:
            ps = t["players"]
            for i in range(4):
                for j in range(i + 1, 4):
                    pair = frozenset((ps[i], ps[j]))
                    assert pair not in met
                    met.add(pair)
    assert server.org.post("/api/tournaments/G/seatings/4", {"method": "preset"})[0] == 400
    st, sw = server.org.post("/api/tournaments/G/seatings/4", {"method": "swiss", "save": False})
    assert st == 200 and sw["repeats"] >= 0 and not sw["saved"]
    st, sn = server.org.post("/api/tournaments/G/seatings/4", {"method": "snake"})
    assert st == 201 and sn["tables"][0]["players"] == ["g01", "g08", "g09", "g16"] and sn["waiting"] == []
    assert server.anon.get("/api/tournaments/G/seatings/4")[1]["method"] == "snake"
    assert server.org.post("/api/tournaments/G/seatings/5", {"method": "manual", "tables": [["g01", "g01", "g02", "g03"]]})[0] == 400
    # 15 players cannot sit in fours in Guangdong
    server.org.post("/api/tournaments", {"id": "H", "name": "H", "format": "guangdong_004"})
    server.org.post("/api/tournaments/H/players", [{"id": "h%d" % i, "name": "P", "draw": i} for i in range(1, 16)])
    assert server.org.post("/api/tournaments/H/seatings/1", {"method": "draw"})[0] == 409
    log = server.org.get("/api/audit?tournament=G")[1]
    assert sum(1 for a in log if a["action"] == "seating.save") == 4


def test_openapi_covers_every_route(server):
    st, doc = server.anon.get("/openapi.json")
    assert st == 200 and doc["openapi"].startswith("3.")
    ops = {(m.upper(), p) for p, item in doc["paths"].items() for m in item}
    import re

    routes = {(r.method, re.sub(r"\{(\w+)(?::\w+)?\}", r"{\1}", r.pattern)) for r in server.srv.app.router.routes}
    assert routes == ops
    assert ("POST", "/api/records") in ops and ("POST", "/api/records:batch") in ops
    for path, item in doc["paths"].items():
        for m, op in item.items():
            assert op["summary"] and op["responses"], (m, path)
            names = re.findall(r"\{(\w+)\}", path)
            assert [p["name"] for p in op.get("parameters", [])] == names
    assert doc == document(server.srv.app.router)


def test_unknown_routes_and_methods(server):
    assert server.anon.get("/api/nothing")[0] == 404
    st, body = server.anon.json("PUT", "/api/records", {})
    assert st == 405 and body["allow"] == ["POST"]
    st, _, _ = server.anon.request("POST", "/api/records", raw=b"x" * 10, headers={"Content-Length": "99999999999"})
    assert st in (400, 413)
    assert server.anon.get("/api/health")[1]["status"] == "ok"
