"""Uploads checked against the registration, the published seating and the box's binding: a
record that fails is stored, quarantined, listed for the referee, flagged on the standings, and
counted only once a referee accepts it. Standings, tables, players, awards and exports never
fail because of the data, in every format (the attacks of issue 12)."""
import time

import pytest

from .conftest import uid
from .helpers import Device, hand_rec, session_rec
from .test_standings import T0, device, seat, standings, table_records, upload

FORMATS = ["mcr_000", "mcr_swiss_001", "sichuan_003", "guangdong_004", "mcr_survival"]
RULES = {"mcr_000": "mcr", "mcr_swiss_001": "mcr", "sichuan_003": "sichuan", "guangdong_004": "guangdong", "mcr_survival": "mcr"}
PLAYERS = ["11", "12", "13", "14", "15", "16", "17", "18"]


def every_page_answers(server, tid, tables):
    paths = ["/api/tournaments/%s/standings" % tid, "/api/tournaments/%s/sessions" % tid, "/api/tournaments/%s/export/standings.csv" % tid,
             "/api/tournaments/%s/export/hands.csv" % tid, "/t/%s/" % tid, "/t/%s/standings" % tid, "/t/%s/awards" % tid, "/t/%s/board" % tid]
    paths += ["/api/tournaments/%s/tables/%d/%d" % (tid, s, t) for s, t in tables] + ["/t/%s/tables/%d/%d" % (tid, s, t) for s, t in tables]
    paths += ["/api/tournaments/%s/players/%s/hands" % (tid, p) for p in PLAYERS[:2]]
    for p in paths:
        st, _, body = server.anon.request("GET", p)
        assert st in (200, 404, 409), (p, st, body[:300])
    for p in ("/api/tournaments/%s/awards" % tid, "/api/tournaments/%s/export/ema.csv" % tid):
        st, _, body = server.anon.request("GET", p)
        assert st in (200, 409), (p, st, body[:300])


def quarantine(server, tid):
    st, q = server.ref.get("/api/tournaments/%s/quarantine" % tid)
    assert st == 200, q
    return q


def test_box_configured_for_other_players_is_quarantined(server):
    """The issue's first report: a box set up for players 101-104 at table 3 syncs into a
    tournament whose players 11-18 are seated at table 1 and 2."""
    tid = server.tournament("mcr_000", players=PLAYERS)
    seat(server, tid, 1, [PLAYERS[:4], PLAYERS[4:]])
    dev = device(server)
    upload(server, table_records(dev, tid, 1, 3, {"101": 50, "102": 0, "103": -20, "104": -30}))
    body = standings(server, tid)
    players = [r["player"] for r in body["standings"]]
    assert "101" not in players and sorted(players) == PLAYERS  # the registered players stay listed
    assert all(r["match"] == "0" for r in body["standings"])
    assert body["quarantined"] == 3 and "quarantine" in body["problems"][0]
    q = quarantine(server, tid)
    assert {x["kind"] for x in q} == {"session", "hand", "session_end"}
    assert any("player 101 is not registered" in p for x in q for p in x["problems"])
    assert any("not seated" in p or "no published" in p or "not registered" in p for x in q for p in x["problems"])
    aw = server.anon.get("/api/tournaments/%s/awards" % tid)[1]["awards"]
    assert all(a["winner"] != "101" for a in aw.values())
    page = server.anon.request("GET", "/t/%s/standings" % tid)[2].decode()
    assert "quarantine" in page.lower()


def test_wrong_table_then_fixed_by_the_seating(server):
    tid = server.tournament("mcr_000", players=PLAYERS)
    dev = device(server, tid, 2)
    upload(server, table_records(dev, tid, 1, 2, dict(zip(PLAYERS[:4], (30, 10, -10, -30)))))
    body = standings(server, tid)
    assert body["quarantined"] == 3  # no published seating for session 1
    seat(server, tid, 1, [PLAYERS[4:], PLAYERS[:4]])  # the seating puts 11-14 at table 2: all fine now
    body = standings(server, tid)
    assert body["quarantined"] == 0 and {r["player"]: r["match"] for r in body["standings"]}["11"] == "30"
    seat(server, tid, 1, [PLAYERS[:4], PLAYERS[4:]])  # re-published with 11-14 at table 1: wrong table
    q = quarantine(server, tid)
    assert len(q) == 3 and any("seated at table 1" in p for x in q for p in x["problems"])


def test_bound_box_on_another_table(server):
    tid = server.tournament("mcr_000", players=PLAYERS)
    seat(server, tid, 1, [PLAYERS[:4], PLAYERS[4:]])
    dev = Device(uid("bound"))
    st, body = server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 2})
    assert st == 201, body
    upload(server, table_records(dev, tid, 1, 1, dict(zip(PLAYERS[:4], (30, 10, -10, -30)))))
    q = quarantine(server, tid)
    assert q and all(any("bound to table 2" in p for p in x["problems"]) for x in q)


@pytest.mark.parametrize("fmt", FORMATS)
def test_fifth_player_and_player_at_two_tables_never_break_results(server, fmt):
    tid = server.tournament(fmt, players=PLAYERS + ["19"], settings={"start_time": T0} if fmt == "mcr_survival" else None)
    seat(server, tid, 1, [PLAYERS[:4], PLAYERS[4:]])
    rules = RULES[fmt]
    d1, d2 = device(server, tid, 1), device(server, tid, 2)
    upload(server, table_records(d1, tid, 1, 1, dict(zip(PLAYERS[:4], (30, 10, -10, -30))), rules))
    upload(server, table_records(d2, tid, 1, 2, dict(zip(PLAYERS[4:], (20, 0, 0, -20))), rules))
    # a fifth player at table 1 (registered, but seated nowhere), and 15 of table 2 at table 1 too
    seats5 = ["11", "12", "13", "19"]
    upload(server, [d1.next(hand_rec(tid, 1, 1, 2, seats5, [24, -8, -8, -8], 0, None, 8, rules, time=T0 + 700))])
    upload(server, [d1.next(hand_rec(tid, 1, 1, 3, ["11", "12", "13", "15"], [24, -8, -8, -8], 0, None, 8, rules, time=T0 + 800))])
    body = standings(server, tid)
    assert body["quarantined"] == 2, body
    every_page_answers(server, tid, [(1, 1), (1, 2)])
    # the referee accepts both: five players at one table, a player at two tables. Still no failure.
    for x in quarantine(server, tid):
        st, r = server.ref.post("/api/tournaments/%s/rulings" % tid, {"record": x["record"], "decision": "accept", "reason": "test"})
        assert st == 201, r
    body = standings(server, tid)
    assert body["quarantined"] == 0
    every_page_answers(server, tid, [(1, 1), (1, 2)])


@pytest.mark.parametrize("session,table", [(2147483647, 1), (10001, 1), (1, 2147483647), (1, 10001), (0, 1), (1, 0)])
def test_session_and_table_out_of_range_are_refused(server, session, table):
    """The box refuses such a config (protocol/config.py), and the server refuses such records
    outright (protocol/record.py): nothing is stored, the standings stay small and fast."""
    tid = server.tournament("mcr_000", players=PLAYERS)
    seat(server, tid, 1, [PLAYERS[:4], PLAYERS[4:]])
    dev = device(server)
    st, body = server.anon.post("/api/records:batch", [dev.next(session_rec(tid, session, table, PLAYERS[:4])),
                                                       dev.next(hand_rec(tid, session, table, 1, PLAYERS[:4], [24, -8, -8, -8], 0))])
    assert st == 200 and [r["status_code"] for r in body["results"]] == [400, 400], body
    assert server.sql("SELECT COUNT(*) FROM boxes_record WHERE device_id = ?", (dev.id,))[0][0] == 0
    t = time.perf_counter()
    body = standings(server, tid)
    assert time.perf_counter() - t < 5 and body["quarantined"] == 0 and body["sessions"] <= 1
    every_page_answers(server, tid, [])


def test_unfinished_session_is_quarantined_until_accepted(server):
    tid = server.tournament("mcr_000", players=PLAYERS[:4])
    dev = device(server, tid, 1)
    seat(server, tid, 1, [PLAYERS[:4]])
    seat(server, tid, 2, [PLAYERS[:4]])
    scores = dict(zip(PLAYERS[:4], (30, 10, -10, -30)))
    upload(server, table_records(dev, tid, 1, 1, scores)[:-1])  # no session_end
    assert standings(server, tid)["quarantined"] == 0  # still playing: fine
    upload(server, table_records(dev, tid, 2, 1, scores))  # the box began session 2
    q = quarantine(server, tid)
    assert len(q) == 1 and "left unfinished" in q[0]["problems"][0]
    assert {r["player"]: r["match"] for r in standings(server, tid)["standings"]}["11"] == "30"
    st, _ = server.ref.post("/api/tournaments/%s/rulings" % tid, {"record": q[0]["record"], "decision": "accept", "reason": "box reset, hands checked"})
    assert st == 201
    assert {r["player"]: r["match"] for r in standings(server, tid)["standings"]}["11"] == "60"
    log = server.org.get("/api/audit?tournament=" + tid)[1]
    assert any(a["action"] == "record.accept" and a["actor"] == "ref" for a in log)


def test_rejected_record_never_counts(server):
    tid = server.tournament("mcr_000", players=PLAYERS[:4])
    seat(server, tid, 1, [PLAYERS[:4]])
    dev = device(server, tid, 1)
    upload(server, table_records(dev, tid, 1, 1, dict(zip(PLAYERS[:4], (30, 10, -10, -30)))))
    upload(server, [dev.next(hand_rec(tid, 1, 1, 1, PLAYERS[:4], [0, 0, 0, 0]))])  # duplicate hand 1
    q = quarantine(server, tid)
    assert len(q) == 1
    assert server.ref.post("/api/tournaments/%s/rulings" % tid, {"record": q[0]["record"], "decision": "reject"})[0] == 201
    body = standings(server, tid)
    assert body["quarantined"] == 0 and {r["player"]: r["match"] for r in body["standings"]}["11"] == "30"
    assert server.anon.post("/api/tournaments/%s/rulings" % tid, {"record": q[0]["record"], "decision": "accept"})[0] == 401




def test_a_draft_seating_is_not_taken_as_published(server):
    """A seating saved but not published seats nobody: the records of its session wait in
    quarantine until it is published (and count then)."""
    tid = server.tournament("mcr_000", players=PLAYERS)
    seat(server, tid, 1, [PLAYERS[:4], PLAYERS[4:]], publish=False)
    dev = Device(uid("draft"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 1})[0] == 201
    upload(server, table_records(dev, tid, 1, 1, dict(zip(PLAYERS[:4], (30, 10, -10, -30)))))
    body = standings(server, tid)
    assert body["quarantined"] == 3 and all(r["match"] == "0" for r in body["standings"]), body
    assert all(x["problems"] == ["session 1 has no published seating"] for x in quarantine(server, tid))
    assert server.org.post("/api/tournaments/%s/seatings/1/publish" % tid)[0] == 200
    body = standings(server, tid)
    assert body["quarantined"] == 0 and {r["player"]: r["match"] for r in body["standings"]}["11"] == "30"
