"""Accounts and roles per tournament, tournaments and players, seatings (generate, swap,
publish, box configs), the boxes' status, and the OpenAPI document."""
import json
import re
import time

from protocol import sign as psign

from .conftest import PASSWORD, uid
from .helpers import Device


def test_roles_and_accounts(server):
    tid = server.tournament(referee=False)
    body = {"id": uid("T"), "name": "T", "format": "mcr_000"}
    assert server.anon.post("/api/tournaments", body)[0] == 401
    assert server.ref.post("/api/tournaments", body)[0] == 403
    assert server.client("not-a-token").post("/api/tournaments", body)[0] == 401
    assert server.anon.post("/api/login", {"username": "ref", "password": "nope-nope"})[0] == 401
    assert server.ref.get("/api/me")[1]["username"] == "ref"
    # a referee without a role in the tournament may not rule on it; with the role, may
    assert server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "x", "kind": "disqualification", "reason": "r"})[0] == 403
    name = uid("acct")
    assert server.org.post("/api/accounts", {"username": name, "password": "short", "tournament": tid, "role": "referee"})[0] == 400
    st, _ = server.org.post("/api/accounts", {"username": name, "password": PASSWORD, "tournament": tid, "role": "referee"})
    assert st == 201
    assert server.org.post("/api/accounts", {"username": name, "password": PASSWORD})[0] == 409
    other = server.login(name)
    assert other.get("/api/me")[1]["roles"] == {tid: "referee"}
    assert other.json("PATCH", "/api/tournaments/" + tid, {"name": "x"})[0] == 403  # a referee is no organizer
    assert other.post("/api/tournaments/%s/players" % tid, [{"id": "p", "name": "P"}])[0] == 403
    # a tournament organizer (role) manages that tournament, not the server
    assert server.org.post("/api/tournaments/%s/roles" % tid, {"username": name, "role": "organizer"})[0] == 200
    assert other.post("/api/tournaments/%s/players" % tid, [{"id": "p", "name": "P"}])[0] == 200
    assert other.post("/api/tournaments", dict(body, id=uid("T")))[0] == 403
    assert other.get("/api/accounts")[0] == 403
    # deactivation ends the tokens; the last server organizer stays
    assert server.org.json("PATCH", "/api/accounts/" + name, {"active": False})[0] == 200
    assert other.get("/api/me")[0] == 401
    assert server.anon.post("/api/login", {"username": name, "password": PASSWORD})[0] == 401
    st, accounts = server.org.get("/api/accounts")
    assert st == 200 and {a["username"]: a["active"] for a in accounts}[name] is False
    assert "password" not in json.dumps(accounts)
    assert server.org.json("PATCH", "/api/accounts/org", {"superuser": False})[0] == 409
    log = server.org.get("/api/audit")[1]
    assert {"account.create", "account.update", "role.set"} <= {a["action"] for a in log}
    c = server.login("ref")
    assert c.post("/api/logout")[0] == 200 and c.get("/api/me")[0] == 401


def test_tournaments_and_players(server):
    tid = uid("T")
    assert server.org.post("/api/tournaments", {"id": tid, "name": "T", "format": "bogus"})[0] == 400
    assert server.org.post("/api/tournaments", {"id": "a/b", "name": "T", "format": "mcr_000"})[0] == 400
    assert server.org.post("/api/tournaments", {"id": tid, "name": "T", "format": "mcr_000", "settings": {"finalists": "16"}})[0] == 400
    assert server.org.post("/api/tournaments", {"id": tid, "name": "T", "format": "mcr_000", "settings": {"nope": 1}})[0] == 400
    assert server.org.post("/api/tournaments", {"id": tid, "name": "T", "format": "guangdong_004", "settings": {"carry_ratio": 0.3}})[0] == 400
    st, t = server.org.post("/api/tournaments", {"id": tid, "name": "Open", "format": "mcr_000", "settings": {"prelim_sessions": 4}})
    assert st == 201 and t["settings"] == {"prelim_sessions": 4, "finalists": 16}
    assert server.org.post("/api/tournaments", {"id": tid, "name": "Open", "format": "mcr_000"})[0] == 409
    assert server.org.json("PATCH", "/api/tournaments/" + tid, {"name": "Open 2"})[1]["name"] == "Open 2"
    assert any(x["name"] == "Open 2" for x in server.anon.get("/api/tournaments")[1])
    csv_text = "id,name,draw,ema_id,country\nx1,Ann Martin,1,04010012,FRA\nx2,Li Ming,2,,CHN\nx3,Sub,,,,\n".replace(",,,,\n", ",,,\n")
    st, _, body = server.org.request("POST", "/api/tournaments/%s/players" % tid, raw=csv_text.encode(), headers={"Content-Type": "text/csv"})
    assert st == 200 and json.loads(body) == {"added": 3, "updated": 0}, body
    assert server.org.post("/api/tournaments/%s/players" % tid, [{"id": "x4", "name": "C", "draw": 1}])[0] == 409  # draw 1 taken
    assert server.org.post("/api/tournaments/%s/players" % tid, [{"id": "x1", "name": "Ann M.", "draw": 1}])[1] == {"added": 0, "updated": 1}
    # swapping two draw numbers in one import works
    assert server.org.post("/api/tournaments/%s/players" % tid, [{"id": "x1", "name": "Ann M.", "draw": 2}, {"id": "x2", "name": "Li Ming", "draw": 1}])[0] == 200
    players = server.anon.get("/api/tournaments/%s/players" % tid)[1]
    assert [(p["id"], p["draw"]) for p in players][:2] == [("x2", 1), ("x1", 2)]
    for bad in (b"id,nom\nx,y\n", b"id,name,draw\nx,y,1e5\n", b"id,name\n\xff,y\n", b"id,name\nx\x00,y\n"):
        assert server.org.request("POST", "/api/tournaments/%s/players" % tid, raw=bad, headers={"Content-Type": "text/csv"})[0] == 400, bad
    st, p = server.org.json("PATCH", "/api/tournaments/%s/players/x3" % tid, {"substitute": True, "checked_in": True, "withdrawn_from": 3})
    assert st == 200 and p["substitute"] and p["checked_in"] and p["withdrawn_from"] == 3
    assert server.org.json("PATCH", "/api/tournaments/%s/players/nobody" % tid, {"name": "x"})[0] == 404
    assert server.org.json("PATCH", "/api/tournaments/%s/players/x3" % tid, {"withdrawn_from": 0})[0] == 400


def test_seatings_publish_and_box_configs(server):
    tid = server.tournament("guangdong_004", players=["g%02d" % i for i in range(1, 17)])
    s = "/api/tournaments/%s/seatings/" % tid
    st, s1 = server.org.post(s + "1", {"method": "preset"})
    assert st == 201 and s1["tables"][0]["players"] == ["g01", "g02", "g03", "g04"] and not s1["published"]
    sessions = [s1["tables"]] + [server.org.post(s + str(n), {"method": "preset"})[1]["tables"] for n in (2, 3)]
    met = set()
    for tables in sessions:
        for t in tables:
            ps = t["players"]
            for i in range(4):
                for j in range(i + 1, 4):
                    pair = frozenset((ps[i], ps[j]))
                    assert pair not in met
                    met.add(pair)
    assert server.org.post(s + "4", {"method": "preset"})[0] == 400
    st, sw = server.org.post(s + "4", {"method": "swiss", "save": False})
    assert st == 200 and sw["info"]["repeats"] >= 0
    st, sn = server.org.post(s + "4", {"method": "snake"})
    assert st == 201 and sn["tables"][0]["players"] == ["g01", "g08", "g09", "g16"]
    assert server.org.post(s + "5", {"method": "manual", "tables": [["g01", "g01", "g02", "g03"]]})[0] == 400
    assert server.org.post(s + "5", {"method": "manual", "tables": [["g01", "g02", "g03", "nobody"]]})[0] == 400
    for bad in ("0", "10001", "99999999999999999999", "1e3"):
        assert server.org.post(s + bad, {"method": "draw"})[0] in (400, 404), bad
    # a box bound to table 2 gets its config from the latest published seating
    dev = Device(uid("cfg"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 2})[0] == 201
    assert server.anon.get("/api/boxes/%s/config" % dev.id)[0] == 409  # nothing published yet
    st, pub = server.org.post(s + "1/swap", {"a": "g01", "b": "g05"})
    assert st == 200 and pub["tables"][1]["players"][0] == "g01"
    assert server.org.post(s + "1/publish")[0] == 200
    st, cfg = server.anon.get("/api/boxes/%s/config" % dev.id)
    from protocol.sign import pin_mac_hex
    assert st == 200 and cfg == {"rules": "guangdong", "tournament": tid, "session": 1, "table": 2, "players": ["g01", "g06", "g07", "g08"],
                                 "first_dealer": 0, "hands": 12, "minutes": 50, "lang": "cn",  # issue 18.6: the boxes' settings
                                 "pin_mac": pin_mac_hex(dev.key, dev.id, "2580"),
                                 "names": ["Name g01", "Name g06", "Name g07", "Name g08"]}
    assert server.anon.get("/api/boxes/%s/config" % uid("nobody"))[0] == 404
    # the sync tool reports the box's journal head, signed with its key (protocol/sign.py)
    at = int(time.time())
    assert server.anon.post("/api/boxes/%s/head" % dev.id, {"head": 7, "at": at, "sig": psign.head_sig_hex(dev.key, dev.id, 7, at)})[0] == 200
    st, boxes = server.org.get("/api/devices?tournament=" + tid)
    assert st == 200 and boxes[0]["unsynced"] == 7 and boxes[0]["table"] == 2  # the box said it holds 7 records
    other = Device(uid("cfg"))
    server.org.post("/api/devices", {"id": other.id, "key": other.key.hex()})
    assert server.org.post("/api/devices/%s/bind" % other.id, {"tournament": tid, "table": 2})[0] == 409  # table 2 has a box
    log = server.org.get("/api/audit?tournament=" + tid)[1]
    assert sum(1 for a in log if a["action"] == "seating.save") == 4 and any(a["action"] == "seating.publish" for a in log)
    # 15 players cannot sit in fours in Guangdong
    t2 = server.tournament("guangdong_004", players=["h%d" % i for i in range(1, 16)])
    assert server.org.post("/api/tournaments/%s/seatings/1" % t2, {"method": "draw"})[0] == 409


def test_absent_and_substitute_players_are_seated_right(server):
    tid = server.tournament("mcr_000", players=["p%02d" % i for i in range(1, 9)])
    server.org.post("/api/tournaments/%s/players" % tid, [{"id": "sub", "name": "Sub", "substitute": True}])
    assert server.org.post("/api/tournaments/%s/absences" % tid, {"session": 1, "player": "p03"})[0] == 200
    st, s1 = server.org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "draw"})
    seated = [p for t in s1["tables"] for p in t["players"]]
    assert st == 201 and "p03" not in seated and "sub" in seated and len(seated) == 8
    server.org.json("PATCH", "/api/tournaments/%s/players/p05" % tid, {"withdrawn_from": 2})
    st, s2 = server.org.post("/api/tournaments/%s/seatings/2" % tid, {"method": "draw"})
    seated = [p for t in s2["tables"] for p in t["players"]]
    assert "p05" not in seated and "p03" in seated and "sub" in seated
    rows = server.anon.get("/api/tournaments/%s/standings" % tid)[1]["standings"]
    assert "sub" not in {r["player"] for r in rows}  # substitutes are not ranked


def test_openapi_documents_every_api_route(server):
    st, doc = server.anon.get("/openapi.json")
    assert st == 200 and doc["openapi"].startswith("3.")
    ops = {(m.upper(), p) for p, item in doc["paths"].items() for m in item}
    for op in (("POST", "/api/records"), ("POST", "/api/records:batch"), ("GET", "/api/tournaments/{tid}/standings"),
               ("GET", "/api/boxes/{device}/config"), ("POST", "/api/tournaments/{tid}/corrections"), ("POST", "/api/tournaments/{tid}/hands")):
        assert op in ops, op
    env = doc["components"]["schemas"]["Envelope"]
    assert env["additionalProperties"] is False and set(env["required"]) == {"device", "seq", "payload", "sig"}
    assert env["properties"]["seq"]["maximum"] == 2**32 - 1
    for path, item in doc["paths"].items():
        for m, op in item.items():
            assert op.get("summary") and op.get("responses"), (m, path)
            names = re.findall(r"\{(\w+)\}", path)
            assert [p["name"] for p in op.get("parameters", []) if p["in"] == "path"] == names


def test_unknown_routes_and_methods(server):
    assert server.anon.get("/api/nothing")[0] == 404
    st, body = server.anon.json("PUT", "/api/records", {})
    assert st == 405
    assert server.anon.get("/api/health")[1]["status"] == "ok"
