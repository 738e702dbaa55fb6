"""The survival event (seed 000 §三.2 勇者争先赛) live through the API, on SQLite and PostgreSQL:
the individual event's preliminary ranking gives the entrants and the first (snake) tables; the
boxes get their configs from the server, play, and upload signed records built by
protocol/record.py; at each bust the referee gets the proposed next tables, confirms or swaps;
the standings show the survivors and the places as they are decided, and the last table ends
the event with 冠亚季殿军 and the 追平胜 tie rule.

Every number is the hand-worked one of tests/tournament/test_survival_event_live.py (the same
event, the same hands), there checked against the seed's text clause by clause; here it arrives
as a box sends it. MCR payments: a discard win of f fans gives the winner 24 + f, the discarder
pays 8 + f and the other two 8; a self-draw of f fans: each of the three pays 8 + f."""
from __future__ import annotations

from .conftest import uid
from .helpers import Device, end_rec, hand_rec, session_rec
from .survival_box import SurvivalBox

T0 = 1_760_000_000  # the survival event's start (比赛开始), epoch seconds


def at(minutes: int) -> int:
    return T0 + 60 * minutes


def individual_event(server) -> str:
    """32 players, one preliminary session of 8 tables: table k (0-7) seats draw numbers
    4k+1 .. 4k+4 scoring 40+k, 10+k, -10-k, -40-k. Ranks 17-32 are the third places
    (1 point) by match -10, -11, ..., -17, then the fourth places."""
    players = [str(i) for i in range(1, 33)]
    tid = server.tournament("mcr_000", players=players)
    tables = [players[4 * k:4 * k + 4] for k in range(8)]
    st, body = server.org.post("/api/tournaments/%s/seatings/1" % tid, {"method": "manual", "tables": tables, "publish": True})
    assert st == 201, body
    envs = []
    for k, seats in enumerate(tables, 1):
        dev = Device(uid("ind"))  # a box per table, bound there
        assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": k})[0] == 201
        d = [40 + k - 1, 10 + k - 1, -10 - k + 1, -40 - k + 1]
        # two hands: a win on the last seat's discard, then a settling transfer (both sum to d)
        h1 = [24, -8, -8, -8]
        h2 = [a - b for a, b in zip(d, h1)]
        envs += [dev.next(session_rec(tid, 1, k, seats, time=T0 - 86400)),
                 dev.next(hand_rec(tid, 1, k, 1, seats, h1, 0, None, 8, time=T0 - 86000)),
                 dev.next(hand_rec(tid, 1, k, 2, seats, h2, None, None, 0, time=T0 - 85000)),
                 dev.next(end_rec(tid, 1, k, 2, dict(zip(seats, d)), time=T0 - 84000))]
    st, body = server.anon.post("/api/records:batch", envs)
    assert st == 200 and body["counts"] == {"201": 32}, body
    return tid


ENTRANTS = ["3", "7", "11", "15", "19", "23", "27", "31", "4", "8", "12", "16", "20", "24", "28", "32"]


def test_whole_event_through_the_api(server):
    ind = individual_event(server)
    sid = server.tournament("mcr_survival", settings={"individual": ind, "finalists": 16, "start_time": T0})
    api = "/api/tournaments/%s/survival" % sid
    ref, org = server.ref, server.org

    def state():
        st, body = server.anon.get(api)
        assert st == 200, body
        return body

    def proposals():
        st, body = ref.get(api + "/proposals")
        assert st == 200, body
        return [(tuple(p["seats"]), p["scores"], p["final"], p["hall_table"]) for p in body]

    def confirm(*tables, status=201):
        st, body = ref.post(api + "/tables", {"tables": [{"seats": list(t)} if not isinstance(t, dict) else t for t in tables]})
        assert st == status, body
        return body

    def places():
        return [(r["rank"], r["player"]) for r in state()["standings"] if r["rank"] is not None]

    # not drawn yet: nothing to propose, nothing to confirm
    assert ref.get(api + "/proposals")[0] == 409
    # §三.2.1 未进入个人决赛的选手可参与; 选手编号与个人赛一致: the draw is the individual event's
    # preliminary ranking below its 16 finalists, registered here with their ids and names
    assert ref.post(api + "/draw")[0] == 403  # the organizer's
    st, d = org.post(api + "/draw")
    assert st == 200 and d["ranked"] == ENTRANTS, d
    players = {p["id"]: p for p in server.anon.get("/api/tournaments/%s/players" % sid)[1]}
    assert sorted(players, key=int) == sorted(ENTRANTS, key=int) and players["31"]["name"] == "Name 31"

    # §三.2.3 首盘座次根据个人赛预赛成绩蛇形排位; 每位选手起始50分
    T1, T2, T3, T4 = ("3", "31", "4", "32"), ("7", "27", "8", "28"), ("11", "23", "12", "24"), ("15", "19", "16", "20")
    assert proposals() == [(T1, [50] * 4, False, 1), (T2, [50] * 4, False, 2), (T3, [50] * 4, False, 3), (T4, [50] * 4, False, 4)]
    assert server.anon.post(api + "/tables", {"tables": [{"seats": list(T1)}]})[0] == 401
    got = confirm(T1, T2, T3, T4)
    assert [(x["number"], x["hall_table"], tuple(x["seats"]), x["as_proposed"]) for x in got] == [
        (1, 1, T1, True), (2, 2, T2, True), (3, 3, T3, True), (4, 4, T4, True)]
    assert org.post(api + "/draw")[0] == 409  # the draw is final once a table plays

    boxes = {h: SurvivalBox(server, sid, h) for h in (1, 2, 3, 4)}
    first = {}
    for h, box in boxes.items():
        first[h] = box.start(at(0))
        c = box.cfg
        # each table of the event is a session of its box: session = the table's number, table = the hall table
        assert (c["session"], c["table"], c["players"], c["mode"], c["scores"], c["event_start"], c["final"]) == (
            h, h, list((T1, T2, T3, T4)[h - 1]), "survival", [50] * 4, T0, False), c
    b1, b2, b3, b4 = (boxes[h] for h in (1, 2, 3, 4))

    # 0:12 table 2: 7 wins 42 fans on 28's discard: 7 +66 = 116, 28 pays 50 -> 0: out (比赛分为0分)
    b2.upload([first[2], b2.hand(at(0), at(12), "7", "28", 42), b2.end(at(12))])
    assert b2.scores == [116, 42, 42, 0]
    assert proposals() == []  # three waiting: no table
    assert places() == [(16, "28")]  # decided at once
    assert b2.fetch_config()[0] == 409  # its table has ended: nothing to play until the referee seats one

    # 0:18 table 1: 3 wins 16 on 32; 31 self-draws 18 -> 3 64, 31 120, 4 16, 32 0: out. This box
    # keys one more hand after the bust: it does not count, the table stands
    b1.upload([first[1], b1.hand(at(0), at(9), "3", "32", 16), b1.hand(at(10), at(18), "31", None, 18),
               b1.hand(at(19), at(22), "4", "32", 16), b1.end(at(22))])
    assert places() == [(15, "32"), (16, "28")]

    # re-tabling at 0:18 (§三.2.3): 先结束的先配桌; 同时结束的比赛分最低和最高者优先; 每桌选手按照比赛分由高到低依次就座东南西北位
    assert proposals() == [(("31", "7", "27", "8"), [120, 116, 42, 42], False, 1)]
    confirm(("31", "7", "27", "8"))
    T5 = ("31", "7", "27", "8")
    first[5] = b1.start(at(20))
    assert (b1.cfg["session"], b1.cfg["table"], b1.cfg["scores"]) == (5, 1, [120, 116, 42, 42])

    # table 3: 12 wins 10 on 11; hand 2 rolled at 0:26 (x1: 在进行中 at 30:00, 从下一盘起翻倍),
    # keyed at 0:33: 24 self-draws 24 -> 11 0: out; 23 10, 12 52, 24 138
    b3.upload([first[3], b3.hand(at(0), at(25), "12", "11", 10), b3.hand(at(26), at(33), "24", None, 24), b3.end(at(33))])
    assert b3.scores == [0, 10, 52, 138]
    assert proposals() == [(("24", "3", "4", "23"), [138, 64, 16, 10], False, 2)]
    # the referee swaps 23 for 12 (his call); players out or still playing are refused
    st, body = ref.post(api + "/tables", {"tables": [{"seats": ["24", "3", "4", "32"]}]})
    assert st == 400 and "is out" in body["error"], body
    st, body = ref.post(api + "/tables", {"tables": [{"seats": ["24", "3", "4", "7"]}]})
    assert st == 400 and "plays at table 5" in body["error"], body
    st, body = ref.post(api + "/tables", {"tables": [{"seats": ["24", "3", "12", "4"], "hall_table": 1}]})
    assert st == 409 and "still plays at hall table 1" in body["error"], body
    got = confirm(("24", "3", "12", "4"))
    assert (got[0]["number"], got[0]["hall_table"], got[0]["as_proposed"]) == (6, 2, False)
    T6 = ("24", "3", "12", "4")
    first[6] = b2.start(at(35))
    assert (b2.cfg["session"], b2.cfg["players"], b2.cfg["scores"]) == (6, list(T6), [138, 64, 52, 16])

    # table 5: 27 wins 12 on 8 (x1); the roll at exactly 30:00 is x2: 31 wins 8 on 8 -> 8 -10: out
    b1.upload([first[5], b1.hand(at(21), at(29), "27", "8", 12), b1.hand(at(30), at(38), "31", "8", 8), b1.end(at(38))])
    assert b1.scores == [176, 92, 62, -10]
    st, t5 = server.anon.get("/api/tournaments/%s/tables/5/1" % sid)
    assert st == 200 and [h["deltas"] for h in t5["hands"]] == [[-8, -8, 36, -20], [32, -8, -8, -16]]
    assert [t["multipliers"] for t in state()["tables"] if t["number"] == 5] == [[1, 2]]
    assert proposals() == [(("31", "7", "27", "23"), [176, 92, 62, 10], False, 1)]
    confirm(("31", "7", "27", "23"))
    T7 = ("31", "7", "27", "23")
    first[7] = b1.start(at(40))

    # table 6 x2: 24 wins 8 on 4 -> 4 -16: out; nobody to seat
    b2.upload([first[6], b2.hand(at(36), at(44), "24", "4", 8), b2.end(at(44))])
    assert proposals() == []

    # table 4: 15 wins 8 on 16; 20 self-draws 8 at x2; at 0:41 16 declares a 错和 (10 to each, not
    # multiplied) and 15 wins 8 on 19: x2 -> 19 -12, 16 -44: two out at once and one dealt in:
    # 若当盘为出局者点炮，则未点炮者列前 -> 16 above 19
    b4.upload([first[4], b4.hand(at(0), at(20), "15", "16", 8), b4.hand(at(31), at(40), "20", None, 8),
               b4.hand(at(41), at(45), "15", "19", 8, penalties=(("16", "15", 10), ("16", "19", 10), ("16", "20", 10))), b4.end(at(45))])
    assert b4.scores == [124, -12, -44, 132]
    decided = [(10, "16"), (11, "19"), (12, "4"), (13, "8"), (14, "11"), (15, "32"), (16, "28")]
    assert places() == decided

    assert proposals() == [(("24", "20", "3", "12"), [202, 132, 48, 36], False, 2)]
    confirm(("24", "20", "3", "12"))
    T8 = ("24", "20", "3", "12")
    first[8] = b2.start(at(46))
    # the projector: players still in by score and where they are, then the decided places
    lines = state()["standings"]
    assert [(x["player"], x["status"], x["table"], x["hall_table"]) for x in lines[:3]] == [
        ("24", "playing", 8, 2), ("31", "playing", 7, 1), ("20", "playing", 8, 2)]
    assert [x["player"] for x in lines if x["status"] == "waiting"] == ["15"]
    assert [x["rank"] for x in lines[9:]] == [10, 11, 12, 13, 14, 15, 16]

    # table 8 x2: 3 self-draws 16 -> 12 -12: out
    b2.upload([first[8], b2.hand(at(47), at(55), "3", None, 16), b2.end(at(55))])
    assert proposals() == [(("3", "24", "15", "20"), [192, 154, 124, 84], False, 2)]  # table 7 still plays: not the last
    confirm(("3", "24", "15", "20"))
    T9 = ("3", "24", "15", "20")
    first[9] = b2.start(at(56))

    # table 7 x2: 23 wins 20 on 7; 31 self-draws 10 -> 7 0: out
    b1.upload([first[7], b1.hand(at(41), at(50), "23", "7", 20), b1.hand(at(51), at(58), "31", None, 10), b1.end(at(58))])
    assert b1.scores == [268, 0, 10, 62] and proposals() == []

    # table 9: 20 wins 12 on 15 x2; at 1:06 (x4) 3 self-draws 13 -> 15 0: out
    b2.upload([first[9], b2.hand(at(57), at(65), "20", "15", 12), b2.hand(at(66), at(72), "3", None, 13), b2.end(at(72))])
    assert [t["multipliers"] for t in state()["tables"] if t["number"] == 9] == [[2, 4]]
    assert proposals() == [(("3", "31", "23", "27"), [428, 268, 62, 10], False, 1)]
    confirm(("3", "31", "23", "27"))
    first[10] = b1.start(at(73))

    # table 10 x4: 3 self-draws 8 -> 23 -2, 27 -54: two out on a self-draw: 前一盘比赛分高者列前
    b1.upload([first[10], b1.hand(at(74), at(80), "3", None, 8), b1.end(at(80))])
    # four are left: the last table (§三.2.5)
    assert proposals() == [(("3", "31", "20", "24"), [620, 204, 72, 54], True, 1)]
    confirm(("3", "31", "20", "24"))
    first[11] = b1.start(at(81))
    assert (b1.cfg["session"], b1.cfg["final"], b1.cfg["scores"]) == (11, True, [620, 204, 72, 54])
    assert state()["ended"] is False

    # the last table x4: 31 wins 36 on 3; rolled at 1:29 (x4), 20 wins 8 on 24 -> 24 -42: out, the end.
    # The box keys one more hand: not counted
    b1.upload([first[11], b1.hand(at(82), at(88), "31", "3", 36), b1.hand(at(89), at(96), "20", "24", 8),
               b1.hand(at(97), at(99), "3", None, 8), b1.end(at(99))])
    doc = state()
    assert doc["ended"] is True
    # 冠亚季殿军: 3 and 31 level on 412, level before the last hand too (444); one more hand back
    # 31 had 204 against 620: 31 was behind and caught up (追平胜) -> 31 is champion
    assert [(x["title"], x["player"], x["score"]) for x in doc["podium"]] == [
        ("冠军", "31", "412"), ("亚军", "3", "412"), ("季军", "20", "168"), ("殿军", "24", "-42")]
    assert [(r["rank"], r["player"]) for r in doc["standings"]] == [
        (1, "31"), (2, "3"), (3, "20"), (4, "24"), (5, "23"), (6, "27"), (7, "15"), (8, "7"), (9, "12")] + decided
    # every payment and the 错和 are transfers: the 16 x 50 points are all still there
    assert sum(int(r["score"]) for r in doc["standings"]) == 16 * 50
    survival_problems = [p for p in doc["problems"] if p.startswith("table ")]
    assert survival_problems == [
        "table 1: hand 3 was keyed after the table ended (a player was out after hand 2): it does not count",
        "table 11: hand 3 was keyed after the table ended (a player was out after hand 2): it does not count"], doc["problems"]
    assert not [p for p in doc["problems"] if "differ" in p or "showed" in p]  # the boxes' scores and totals agree
    # after the end: nothing to seat, nothing for the boxes
    assert proposals() == []
    st, body = ref.post(api + "/tables", {"tables": [{"seats": ["3", "31", "20", "23"]}]})
    assert st == 400 and "ended" in body["error"]
    assert b1.fetch_config()[0] == 409
    # the standings document and the exports list all 16
    st, body = server.anon.get("/api/tournaments/%s/standings" % sid)
    assert st == 200 and [r["player"] for r in body["standings"]][:4] == ["31", "3", "20", "24"] and body["survival"]["ended"]
    st, _h, csv_text = server.anon.request("GET", "/api/tournaments/%s/export/standings.csv" % sid)
    lines = csv_text.decode().splitlines()
    assert st == 200 and len(lines) == 17 and lines[1].startswith("1,31,Name 31,412,placed")
    # the pages answer, in both languages
    for lang in ("en", "zh-hans"):
        st, _h, page = server.anon.request("GET", "/t/%s/survival" % sid, headers={"Accept-Language": lang})
        assert st == 200 and "冠军" in page.decode() and "Name 31" in page.decode()


def test_four_players_one_table_old_records_and_a_hand_entered_by_the_referee(server):
    """Four entrants without an individual event: the registered players in draw order, one table,
    the last. Hands 1-2 come from a box with their dice rolls; hand 3 from a box that does not send
    hand_start (it cannot count: its multiplier is unknown), so the referee enters it by hand.
    Start 50 each. Hand 1 (rolled 0:00): A self-draws 8, x1: A 98, B 34, C 34, D 34. Hand 2
    rolled at 0:26, keyed 0:33: in progress at 30:00, x1: B wins 10 on C: A 90, B 68, C 16, D 26.
    Hand 3: D wins 8 fans on A's discard, x2 (entered by hand: it counts from 0:33, the end of
    hand 2): (-16, -8, -8, 32) x2 -> A 58, B 52, C 0: out, D 90. The event ends: D A B C."""
    sid = server.tournament("mcr_survival", players="ABCD", settings={"start_time": T0})
    api = "/api/tournaments/%s/survival" % sid
    assert server.anon.get(api)[1]["drawn"] is False
    st, d = server.org.post(api + "/draw")
    assert st == 200 and d["ranked"] == list("ABCD"), d
    st, props = server.ref.get(api + "/proposals")
    assert [(p["seats"], p["final"]) for p in props] == [(list("ABCD"), True)]
    st, body = server.ref.post(api + "/tables", {"tables": [{"seats": list("ABCD"), "hall_table": 3}]})
    assert st == 201 and body[0]["hall_table"] == 3, body
    box = SurvivalBox(server, sid, 3)
    first = box.start(at(1))
    assert (box.cfg["session"], box.cfg["table"], box.cfg["final"]) == (1, 3, True)
    old = hand_rec(sid, 1, 3, 3, list("ABCD"), [-16, -8, -8, 32], 3, 0, 8, time=at(40))  # no hand_start, no multiplier
    box.upload([first, box.hand(at(1), at(10), "A", None, 8), box.hand(at(26), at(33), "B", "C", 10), old])
    doc = server.anon.get(api)[1]
    assert [(r["player"], r["score"], r["status"]) for r in doc["standings"]] == [
        ("A", "90", "playing"), ("B", "68", "playing"), ("D", "26", "playing"), ("C", "16", "playing")]
    assert "table 1: hand 3 has no hand start: its multiplier is unknown" in doc["problems"]
    st, h = server.ref.post("/api/tournaments/%s/hands" % sid, {
        "session": 1, "table": 3, "hand": 3, "seats": list("ABCD"), "dealer": 2, "prevalent_wind": "E",
        "events": [{"win": 3, "from": 0, "hand": "[123m1][456p1][789s1]NN234m"}], "reason": "the box sent no dice roll"})
    assert st == 201 and h["deltas"] == [-16, -8, -8, 32], h
    doc = server.anon.get(api)[1]
    assert doc["ended"] and [(x["title"], x["player"], x["score"]) for x in doc["podium"]] == [
        ("冠军", "D", "90"), ("亚军", "A", "58"), ("季军", "B", "52"), ("殿军", "C", "0")]
    assert doc["tables"][0]["multipliers"] == [1, 1, 2]
    assert any("entered by a referee: its multiplier counts from %d" % at(33) in p for p in doc["problems"]), doc["problems"]


def test_a_correction_changes_the_win_and_keeps_the_penalty(server):
    """Hand 1, rolled at 0:31 (x2): A wins 8 on B's discard and C declared a 错和 (10 to each):
    deltas 32+10, -16+10, -8-30, -8+10 = 42, -6, -38, 2. x2 on the win's part only: A 50+64+10
    = 124, B 50-32+10 = 28, C 50-16-30 = 4, D 50-16+10 = 44. The referee corrects the win to 10
    fans (A 44, B -8, C -38, D 2 by name): the 错和 stays as keyed, the win's part becomes 34,
    -18, -8, -8: A 50+68+10 = 128, B 50-36+10 = 24, C 4, D 44."""
    sid = server.tournament("mcr_survival", players="ABCDEFGH", settings={"start_time": T0})
    api = "/api/tournaments/%s/survival" % sid
    assert server.org.post(api + "/draw")[0] == 200
    st, props = server.ref.get(api + "/proposals")
    assert [p["seats"] for p in props] == [list("ADEH"), list("BCFG")]  # the snake of 8: ranks 1 4 5 8 | 2 3 6 7
    assert server.ref.post(api + "/tables", {"tables": [{"seats": list("ABCD")}]})[0] == 201  # the referee's own table
    box = SurvivalBox(server, sid, 1)
    first = box.start(at(30))
    box.upload([first, box.hand(at(31), at(36), "A", "B", 8, penalties=(("C", "A", 10), ("C", "B", 10), ("C", "D", 10)))])
    scores = {r["player"]: r["score"] for r in server.anon.get(api)[1]["standings"]}
    assert [scores[p] for p in "ABCD"] == ["124", "28", "4", "44"]
    st, c = server.ref.post("/api/tournaments/%s/corrections" % sid, {"session": 1, "table": 1, "hand": 1,
                                                                     "points": {"A": 44, "B": -8, "C": -38, "D": 2}, "reason": "10 fans, not 8"})
    assert st == 201, c
    doc = server.anon.get(api)[1]
    scores = {r["player"]: r["score"] for r in doc["standings"]}
    assert [scores[p] for p in "ABCD"] == ["128", "24", "4", "44"]
    # the box's own scores (124, 28, ...) now differ from the server's: shown to the referee
    assert "table 1 hand 1: the box showed scores [124, 28, 4, 44], the server counts [128, 24, 4, 44]" in doc["problems"]


def test_bad_confirmations_are_refused_and_two_referees_never_seat_a_player_twice(server):
    import threading

    sid = server.tournament("mcr_survival", players="ABCDEFGH", settings={"start_time": T0})
    api = "/api/tournaments/%s/survival" % sid
    other = server.tournament("mcr_000", players="ABCD")
    assert server.ref.get("/api/tournaments/%s/survival/proposals" % other)[0] == 400  # not a survival event
    st, body = server.org.json("PATCH", "/api/tournaments/%s" % sid, {"settings": {"individual": sid}})
    assert st == 200, body
    st, body = server.org.post(api + "/draw")
    assert st == 400 and "mcr_000" in body["error"], body  # the individual event must be one
    assert server.org.json("PATCH", "/api/tournaments/%s" % sid, {"settings": {"individual": None}})[0] == 200
    assert server.org.post(api + "/draw")[0] == 200
    for tables, code in (([{"seats": ["A", "B", "C", "C"]}], 400), ([{"seats": ["A", "B", "C", "Z"]}], 400), ([{"seats": ["A", "B", "C"]}], 400),
                         ([{"seats": list("ABCD"), "hall_table": 0}], 400), ([{"seats": list("ABCD"), "hall_table": 10001}], 400),
                         ([{"seats": list("ABCD")}] * 65, 400), ([{"seats": list("ABCD")}, {"seats": list("AEFG")}], 400), ([], 400)):
        st, body = server.ref.post(api + "/tables", {"tables": tables})
        assert st == code and "error" in body, (tables, st, body)
    assert server.anon.get(api)[1]["tables"] == []  # all or none: nothing was stored
    results = []

    def go():
        c = server.login("ref")
        results.append(c.post(api + "/tables", {"tables": [{"seats": list("ABCD")}]})[0])

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [201, 400, 400, 400], results
    assert [x["seats"] for x in server.anon.get(api)[1]["tables"]] == [list("ABCD")]
