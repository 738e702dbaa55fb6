"""Event day at a seated table, through the real server on SQLite and PostgreSQL (the same
actions as the table's page, through the JSON API; the page's own path is the browser test's,
test_table_page_in_browser): the table's page from the moment its seating is published, a hand
corrected by its tiles (every figure of it follows, checked against PyMahjongGB and the seed's
payment rule), players found in the wrong chairs, more time for one table or all, ending a
table, swapping its box, checking in every present player at once."""
from __future__ import annotations

import re
import time

import oracle
from host_tools.tournament.seating import mcr_round_chairs
from rules_min.settle_request import settle

from .helpers import end_rec, hand_rec, session_rec
from .test_standings import T0, device, seat, setup, standings, upload


def box_hand(tid, session, table, number, seats, events, dealer=0, wind="E", at=None):
    """A hand record as the box writes it: settled by rules_min from the table's events."""
    h = settle({"dealer": dealer, "prevalent_wind": wind, "events": events}, "mcr")
    wins = [{"seat": s, "from": src, "total": total, "fans": fans} for s, src, fans, total in h.wins]
    rec = hand_rec(tid, session, table, number, list(seats), h.deltas(), time=at or T0 + 300 * number, events=events,
                   transfers=[[a, b, p, "x"] for a, b, p, _why in h.settled()])
    rec.update(wins=wins, winners=[w["seat"] for w in wins], discarder=wins[0]["from"] if wins else None, next_dealer=h.next_dealer,
               dealer=dealer, prevalent_wind=wind)
    return rec


def page(server, path):
    st, _h, body = server.anon.request("GET", path)
    return st, body.decode()


def hands_csv(server, tid):
    text = server.anon.request("GET", "/api/tournaments/%s/export/hands.csv" % tid)[2].decode()
    return [line.split(",") for line in text.strip().splitlines()[1:]]


# --------------------------------------------------------------------------- the page

def test_every_seated_table_has_a_page_from_the_moment_its_seating_is_published(server):
    tid = setup(server, "mcr_000", players="ABCDEFGH")
    seat(server, tid, 1, ["ABCD", "EFGH"])
    seat(server, tid, 2, ["ACEG", "BDFH"], publish=False)  # a draft is nobody's business yet
    dev = device(server)
    assert server.org.post("/api/devices/%s/bind" % dev.id, {"tournament": tid, "table": 1})[0] == 200
    for table, players in ((1, "ABCD"), (2, "EFGH")):
        st, html = page(server, "/t/%s/tables/1/%d" % (tid, table))
        assert st == 200, html[:300]
        for chair, p in enumerate(players, 1):  # chair, wind and name of each player
            assert re.search(r'<td class="n">%d</td><td>%s</td><td><a [^>]*>Name %s</a>' % (chair, "ESWN"[chair - 1], p), html), (p, html)
        assert 'id="hands-played">0</b> / 16' in html
    assert dev.id in page(server, "/t/%s/tables/1/1" % tid)[1]
    assert "none: hands are entered here" in page(server, "/t/%s/tables/1/2" % tid)[1]
    assert page(server, "/t/%s/tables/1/3" % tid)[0] == 404  # not seated
    assert page(server, "/t/%s/tables/2/1" % tid)[0] == 404  # a draft
    # reached from the live board, the projector's seating and the table sheets
    for path in ("/t/%s/board?session=1", "/t/%s/seating/1", "/t/%s/seating/1/sheets"):
        html = page(server, path % tid)[1]
        assert 'href="/t/%s/tables/1/1"' % tid in html and 'href="/t/%s/tables/1/2"' % tid in html, path


# --------------------------------------------------------------------------- a hand by its tiles

def mcr_payments(total, winner, discarder):
    """Seed 000/001: every loser pays the base 8; the discarder (all three on a self-draw) the fans too."""
    out = [0, 0, 0, 0]
    for s in range(4):
        if s != winner:
            pay = 8 + (total if discarder is None or s == discarder else 0)
            out[s] -= pay
            out[winner] += pay
    return out


def test_a_hand_corrected_by_its_tiles_changes_every_figure_of_it(server):
    tid = setup(server, "mcr_000", players="ABCD", settings={"prelim_sessions": 1, "finalists": 4})
    seat(server, tid, 1, ["ABCD"])
    dev = device(server, tid, 1)
    keyed = [{"win": 0, "from": 2, "hand": "[345m3]258m1488s369p7s"}]  # what the box was told: A on C's discard
    upload(server, [dev.next(session_rec(tid, 1, 1, list("ABCD"), time=T0)), dev.next(box_hand(tid, 1, 1, 1, "ABCD", keyed))])
    box_fans = oracle.oracle_score({"hand": keyed[0]["hand"]})[1]
    assert [r[3:7] for r in hands_csv(server, tid)] == [["A", "C", "0", str(box_fans)]]
    # what happened: B won by self-draw, out on the replacement tile of a concealed kong (杠上开花)
    truth = "[5555p]123m456m789m11s"
    events = [{"kong": "concealed", "seat": 1}, {"win": 1, "from": None, "hand": truth, "kong": True}]
    st, c = server.ref.post("/api/tournaments/%s/tables/1/1/hands/1/rescore" % tid,
                            {"dealer": 0, "prevalent_wind": "E", "events": events, "reason": "wrong winner keyed"})
    assert st == 201, c
    fans, total = oracle.oracle_score({"hand": truth, "self_drawn": True, "kong": True, "seat_wind": "S"})
    assert ("杠上开花", 8, 1) in fans
    deltas = mcr_payments(total, 1, None)
    assert c["deltas"] == deltas and c["fans"] == total and c["winners"] == "1" and c["discarder"] is None, (c, fans)
    # every figure: the hands export, the table, the standings, the awards' counts
    assert [r[3:7] for r in hands_csv(server, tid)] == [["B", "", "1", str(total)]]
    tj = server.anon.get("/api/tournaments/%s/tables/1/1" % tid)[1]
    assert tj["hands"][0]["winners"] == ["B"] and tj["hands"][0]["discarder"] is None and tj["hands"][0]["fans"] == total
    assert {r["player"]: int(r["match"]) for r in standings(server, tid)["standings"]} == dict(zip("ABCD", deltas))
    aw = server.anon.get("/api/tournaments/%s/awards" % tid)[1]["awards"]
    assert aw["most_self_draws"]["winner"] == "B" and aw["biggest_hand"]["hand"]["fans"] == total
    assert aw["fewest_deal_ins"]["ranking"][-1]["value"] == 0  # C no longer dealt in
    # a later correction of the points only keeps the hand's figures; the page offers both
    pts = {p: d for p, d in zip("ABCD", deltas)}
    pts["A"], pts["C"] = pts["A"] + 5, pts["C"] - 5
    assert server.ref.post("/api/tournaments/%s/corrections" % tid, {"session": 1, "table": 1, "hand": 1, "points": pts, "reason": "x"})[0] == 201
    assert [r[3:7] for r in hands_csv(server, tid)] == [["B", "", "1", str(total)]]
    # a hand that does not settle changes nothing
    st, err = server.ref.post("/api/tournaments/%s/tables/1/1/hands/1/rescore" % tid,
                              {"events": [{"win": 1, "from": None, "hand": "123m456m789m11s22s"}], "reason": "x"})
    assert st == 400 and "does not settle" in err["error"], err
    assert [r[3:7] for r in hands_csv(server, tid)] == [["B", "", "1", str(total)]]
    assert server.anon.post("/api/tournaments/%s/tables/1/1/hands/1/rescore" % tid, {"events": events, "reason": "x"})[0] == 401


# --------------------------------------------------------------------------- players in the wrong chairs

def test_players_found_in_the_wrong_chairs_are_re_seated_with_their_hands(server):
    tid = setup(server, "mcr_000", players="ABCD")
    seat(server, tid, 1, ["ABCD"])
    dev = device(server)
    assert server.org.post("/api/devices/%s/bind" % dev.id, {"tournament": tid, "table": 1})[0] == 200
    envs = [dev.next(session_rec(tid, 1, 1, list("ABCD"), time=T0))]
    hands = [  # (winner chair, discarder chair, tiles): five hands, the chairs change after the fourth (换位)
        (0, 2, "[345m3]258m1488s369p7s"), (1, None, "123m456m789m111s22s"), (3, 1, "123m456m789m111s22s"),
        (2, 0, "[345m3]258m1488s369p7s"), (0, 3, "123m456m789m111s22s"),
    ]
    recorded = []
    for n, (w, src, tiles) in enumerate(hands, 1):
        chairs = mcr_round_chairs(list("ABCD"))[(n - 1) // 4]
        rec = box_hand(tid, 1, 1, n, chairs, [{"win": w, "from": src, "hand": tiles}], dealer=(n - 1) % 4, wind="ESWN"[(n - 1) // 4])
        recorded.append((chairs, rec["deltas"]))
        envs.append(dev.next(rec))
    box_totals = {}
    for chairs, d in recorded:
        for p, x in zip(chairs, d):
            box_totals[p] = box_totals.get(p, 0) + x
    envs.append(dev.next(end_rec(tid, 1, 1, 5, box_totals)))  # the box's own totals, by the chairs it recorded
    upload(server, envs)
    # A and B sat in each other's chairs from the start: what the box recorded for A was B's, and the other way round
    st, r = server.ref.post("/api/tournaments/%s/tables/1/1/reseat" % tid,
                            {"chairs": ["B", "A", "C", "D"], "first_hand": 1, "last_hand": 5, "reason": "A and B swapped chairs"})
    assert st == 201 and r["players"] == {"A": "B", "B": "A"}, r
    really = {"A": "B", "B": "A", "C": "C", "D": "D"}
    expected = {really[p]: x for p, x in box_totals.items()}
    body = standings(server, tid)
    assert {row["player"]: int(row["match"]) for row in body["standings"]} == expected
    assert body["problems"] == [], body["problems"]  # the box's session_end still agrees with what it recorded
    assert [r[3] for r in hands_csv(server, tid)] == [really[chairs[w]] for (chairs, _d), (w, _s, _t) in zip(recorded, hands)]
    cfg = server.anon.get("/api/boxes/%s/config" % dev.id)[1]
    assert cfg["players"] == ["B", "A", "C", "D"]  # the seating and the box follow where they sit
    audit = server.org.get("/api/audit?tournament=%s" % tid)[1]
    assert audit[0]["action"] == "table.reseat" and audit[0]["actor"] == "ref"
    st, err = server.ref.post("/api/tournaments/%s/tables/1/1/reseat" % tid, {"chairs": ["B", "A", "C", "E"], "last_hand": 5, "reason": "x"})
    assert st == 400 and "name the table's players" in err["error"]


# --------------------------------------------------------------------------- time

def test_more_time_for_one_table_or_every_table_reaches_the_boxes_and_the_time_check(server):
    tid = setup(server, "mcr_000", players="ABCDEFGH")
    seat(server, tid, 1, ["ABCD", "EFGH"])
    devs = [device(server), device(server)]
    for i, d in enumerate(devs, 1):
        assert server.org.post("/api/devices/%s/bind" % d.id, {"tournament": tid, "table": i})[0] == 200
    start = int(time.time()) - 3 * 3600
    assert server.ref.post("/api/tournaments/%s/sessions/1/start" % tid, {"at": start})[0] == 200
    config = lambda d: server.anon.get("/api/boxes/%s/config" % d.id)[1]  # noqa: E731
    assert (config(devs[0])["ends_at"], config(devs[0])["minutes"]) == (start + 120 * 60, 120)
    # a hand keyed 20 minutes after time was called at table 1: the referee is told
    late = start + 140 * 60
    upload(server, [devs[0].next(session_rec(tid, 1, 1, list("ABCD"), time=start)),
                    devs[0].next(box_hand(tid, 1, 1, 1, "ABCD", [{"win": 0, "from": 2, "hand": "123m456m789m111s22s"}], at=late))])
    assert any("table 1: hand 1 was keyed" in p for p in standings(server, tid)["problems"])
    st, r = server.ref.post("/api/tournaments/%s/sessions/1/extend" % tid, {"table": 1, "minutes": 15, "reason": "a long ruling"})
    assert st == 201 and r["tables"] == {"1": {"minutes": 135, "ends_at": start + 135 * 60}}, r
    st, r = server.ref.post("/api/tournaments/%s/sessions/1/extend" % tid, {"minutes": 5, "reason": "the hall started late"})
    assert st == 201, r
    assert (config(devs[0])["ends_at"], config(devs[0])["minutes"]) == (start + 140 * 60, 140)
    assert (config(devs[1])["ends_at"], config(devs[1])["minutes"]) == (start + 125 * 60, 125)
    assert not any("table 1: hand 1" in p for p in standings(server, tid)["problems"])  # keyed within its time
    assert "+20 min" in page(server, "/t/%s/board?session=1" % tid)[1]
    for body, why in (({"table": 2, "minutes": -10, "reason": "x"}, "minutes less"), ({"minutes": 0, "reason": "x"}, "not 0"),
                      ({"table": 1, "minutes": 241, "reason": "x"}, "minutes"), ({"minutes": 5, "reason": " "}, "reason")):
        st, err = server.ref.post("/api/tournaments/%s/sessions/1/extend" % tid, body)
        assert st == 400 and why in err["error"], (body, err)
    assert config(devs[1])["minutes"] == 125  # refusals change nothing
    sc = setup(server, "sichuan_003", players="ABCD")
    st, err = server.ref.post("/api/tournaments/%s/sessions/1/extend" % sc, {"minutes": 5, "reason": "x"})
    assert st == 400 and "no time limit" in err["error"]


# --------------------------------------------------------------------------- end, box, check-in

def test_a_referee_ends_a_table_swaps_its_box_and_players_check_in_at_once(server):
    tid = setup(server, "mcr_000", players="ABCDEFGH")
    seat(server, tid, 1, ["ABCD", "EFGH"])
    dead, spare, other = device(server), device(server), device(server)
    assert server.org.post("/api/devices/%s/bind" % dead.id, {"tournament": tid, "table": 1})[0] == 200
    assert server.org.post("/api/devices/%s/bind" % spare.id, {"tournament": tid, "table": None})[0] == 200
    elsewhere = setup(server, "mcr_000")
    assert server.org.post("/api/devices/%s/bind" % other.id, {"tournament": elsewhere, "table": None})[0] == 200
    # the box of table 1 dies: the spare takes the table, the dead one stays with the tournament
    st, r = server.ref.post("/api/tournaments/%s/box-swaps" % tid, {"table": 1, "device": spare.id})
    assert st == 200 and r == {"device": spare.id, "tournament": tid, "table": 1}, r
    rows = dict(server.sql("SELECT id, \"table\" FROM boxes_device WHERE tournament_id = ?", (tid,)))
    assert rows == {dead.id: None, spare.id: 1}
    assert server.anon.get("/api/boxes/%s/config" % spare.id)[1]["players"] == list("ABCD")
    st, err = server.ref.post("/api/tournaments/%s/box-swaps" % tid, {"table": 2, "device": other.id})
    assert st == 409 and "belongs to tournament" in err["error"]  # never another tournament's box
    loose = device(server)  # a box of no tournament is given one by a server administrator only (boxes.ownership)
    st, err = server.ref.post("/api/tournaments/%s/box-swaps" % tid, {"table": 2, "device": loose.id})
    assert st == 403 and "belongs to no tournament" in err["error"], err
    # table 2 has no box: the referee ends it from its page
    st, r = server.ref.post("/api/tournaments/%s/tables/1/2/end" % tid, {"reason": "time called"})
    assert st == 201 and r["hands"] == 0, r
    assert server.ref.post("/api/tournaments/%s/tables/1/2/end" % tid, {"reason": "again"})[0] == 409
    html = page(server, "/t/%s/board?session=1" % tid)[1]
    card = html[html.index('id="table-2"'):]
    assert "finished" in card[:card.index("</div>")]
    assert "ended by ref: time called" in page(server, "/t/%s/tables/1/2" % tid)[1]
    assert server.ref.json("DELETE", "/api/tournaments/%s/tables/1/2/end" % tid)[0] == 200
    assert "ended by" not in page(server, "/t/%s/tables/1/2" % tid)[1]
    assert server.ref.post("/api/tournaments/%s/tables/1/3/end" % tid, {"reason": "x"})[0] == 404  # not seated
    # check-in in one step: the players present; then who left is no longer checked in
    st, r = server.org.post("/api/tournaments/%s/players:checkin" % tid, {"players": list("ABCDEFG")})
    assert st == 200 and r == {"checked_in": 7}, r
    assert server.org.post("/api/tournaments/%s/players:checkin" % tid, {"players": list("ABCDEFH")})[0] == 200
    got = dict(server.sql("SELECT pid, checked_in FROM tournaments_player WHERE tournament_id = ?", (tid,)))
    assert {p for p, v in got.items() if v} == set("ABCDEFH")
    st, err = server.org.post("/api/tournaments/%s/players:checkin" % tid, {"players": ["A", "Z"]})
    assert st == 404 and "Z" in err["error"]
    assert server.ref.post("/api/tournaments/%s/players:checkin" % tid, {"players": ["A"]})[0] == 403  # the organizer's
    actions = [a["action"] for a in server.org.get("/api/audit?tournament=%s" % tid)[1]]
    for a in ("table.swap_box", "table.end", "table.reopen", "players.check_in"):
        assert a in actions, a


def test_a_hand_of_a_three_player_table_is_settled_among_the_three(server):
    """Seed 000 §一.3 (三人正常比赛): the empty chair neither pays nor is paid (the box's settle option
    ``absent``); entered by hand it was refused ("the empty seat cannot score") when the fourth
    chair would have paid a self-draw."""
    tid = setup(server, "mcr_000", players="ABCDEFG")
    seat(server, tid, 1, ["ABCD", "EFG"])
    tiles = "123m456m789m111s22s"
    st, h = server.ref.post("/api/tournaments/%s/hands" % tid, {"session": 1, "table": 2, "hand": 1, "seats": ["E", "F", "G", None], "dealer": 0,
                                                               "prevalent_wind": "E", "events": [{"win": 1, "hand": tiles}], "reason": "no box"})
    each = 8 + oracle.oracle_score({"hand": tiles, "self_drawn": True, "seat_wind": "S"})[1]
    assert st == 201 and h["deltas"] == [-each, 2 * each, -each, 0], h
