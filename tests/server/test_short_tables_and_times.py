"""Short tables, Sichuan lateness and the hall's clock through the API, on SQLite and PostgreSQL,
each worked by hand from the seed's text.

* Seed 000 §一.3 若同桌不足四人: 三人正常比赛，打15盘，标准分计4、2、1分；两人当局不比赛，每人标准分计3分
  （比赛分0分）；一人标准分计4分（比赛分0分）.
* Seed 004 §三.1: three play on; 两人: each the average of every table's top two; 一人: the
  average of every table's first.
* Seed 003 §五.1 迟到10分钟直接判本局弃权，迟到15分钟取消当场参赛资格.
* 单盘最大番 最先达到 and the time limit on absolute times (seed 000 §三.1.4 裁判长宣布比赛时间到).
"""
from __future__ import annotations

from .test_standings import T0, device, fmt_rows, seat, setup, standings, table_records, upload
from .helpers import hand_rec, session_rec


def absent(server, tid, session, player):
    st, body = server.org.post("/api/tournaments/%s/absences" % tid, {"session": session, "player": player, "absent": True, "reason": "no-show"})
    assert st == 200, body


def test_seed_000_short_tables_give_the_present_players_the_seed_results(server):
    tid = setup(server, "mcr_000", players="ABCDEFGHIJKLMNOP")
    seat(server, tid, 1, ["ABCD", "EFGH", "IJKL", "MNOP"])
    box = device(server, tid, 1)
    upload(server, table_records(box, tid, 1, 1, {"A": 30, "B": 10, "C": -10, "D": -30}))
    # table 2: G and H never came: E and F do not play (3 each, match 0); table 3: only I came (4, match 0)
    for p in "GHJKL":
        absent(server, tid, 1, p)
    # table 4: P never came, M N O play as three (4/2/1). A box cannot record a three-player hand
    # yet (the box stream adds it): the referee enters the table's result, a drawn hand with the
    # empty chair, corrected to the table's match scores by name
    st, h = server.ref.post("/api/tournaments/%s/hands" % tid, {"session": 1, "table": 4, "hand": 1, "seats": ["M", "N", "O", None], "dealer": 0,
                                                               "prevalent_wind": "E", "events": [{"wall_end": True}], "reason": "three-player table"})
    assert st == 201 and h["deltas"] == [0, 0, 0, 0], h
    absent(server, tid, 1, "P")
    st, c = server.ref.post("/api/tournaments/%s/corrections" % tid, {"session": 1, "table": 4, "hand": 1, "points": {"M": 20, "N": 0, "O": -20},
                                                                     "reason": "the table's sheet"})
    assert st == 201, c
    body = standings(server, tid)
    rows = {r["player"]: (r["standard"], r["match"], r["sessions"][0]["status"] if r["sessions"][0] else None) for r in body["standings"]}
    assert rows == {
        "A": ("4", "30", ""), "B": ("2", "10", ""), "C": ("1", "-10", ""), "D": ("0", "-30", ""),
        "E": ("3", "0", "no play"), "F": ("3", "0", "no play"), "G": ("0", "0", "forfeit"), "H": ("0", "0", "forfeit"),
        "I": ("4", "0", "no play"), "J": ("0", "0", "forfeit"), "K": ("0", "0", "forfeit"), "L": ("0", "0", "forfeit"),
        "M": ("4", "20", ""), "N": ("2", "0", ""), "O": ("1", "-20", ""), "P": ("0", "0", "forfeit"),
    }, rows
    assert fmt_rows(body["standings"], "rank", "player")[:6] == [(1, "A"), (2, "M"), (3, "I"), (4, "E"), (4, "F"), (6, "B")]
    assert body["problems"] == [], body["problems"]
    # they are in the exports too
    csv_text = server.anon.request("GET", "/api/tournaments/%s/export/standings.csv" % tid)[2].decode()
    assert "\n3,I,Name I,4,0" in csv_text and "\n4,E,Name E,3,0" in csv_text
    # a table of four with no hand yet is not a short table: no result, and the referee is told
    seat(server, tid, 2, ["ABCD", "EFGH", "IJKL", "MNOP"])
    upload(server, table_records(box, tid, 2, 1, {"A": 30, "B": 10, "C": -10, "D": -30}))
    body = standings(server, tid)
    assert "session 2: table 2: 4 players present and no hand yet: no result for E, F, G, H" in body["problems"]


def test_seed_004_short_tables_get_the_averages(server):
    # tables 1 and 2 play: tops 80, 30 and 60, 20. Table 3 (k, l absent): i and j get
    # (80 + 30 + 60 + 20) / 4 = 47.5; table 4 (n, o, p absent): m gets (80 + 60) / 2 = 70
    tid = setup(server, "guangdong_004", players="abcdefghijklmnop")
    seat(server, tid, 1, ["abcd", "efgh", "ijkl", "mnop"])
    upload(server, table_records(device(server, tid, 1), tid, 1, 1, {"a": 80, "b": 30, "c": -40, "d": -70}, "guangdong"))
    upload(server, table_records(device(server, tid, 2), tid, 1, 2, {"e": 60, "f": 20, "g": -30, "h": -50}, "guangdong"))
    for p in "klnop":
        absent(server, tid, 1, p)
    body = standings(server, tid)
    got = {r["player"]: r["match"] for r in body["standings"]}
    assert {p: got[p] for p in "aeijmb"} == {"a": "80", "e": "60", "i": "47.5", "j": "47.5", "m": "70", "b": "30"}, got
    assert [r["player"] for r in body["standings"]][:5] == ["a", "m", "e", "i", "j"]
    assert body["problems"] == [], body["problems"]


def test_sichuan_lateness_forfeits_the_game_or_the_stage(server):
    # Table 1: G1 p4 self-draws (p1 p2 p3 pay 20 each), G2 p3 wins 30 from p2, G3 p1 wins 40
    # from p2. p4 is 12 minutes late for game 1: 本局弃权 -> p4 counts 0 there, the others keep
    # theirs: p1 20, p3 10, p4 0, p2 -90; p2 is exactly 10 minutes late for game 3 (10 counts):
    # p2's -40 there is 0 -> -50. p3 5 minutes late: nothing. Without the lateness p4 (60) and
    # p1 would advance; now p1 and p3 do.
    # Table 2: G1 r2 self-draws 60, G2 r1 wins 20 from r4. r2 is 16 minutes late: 取消当场参赛资格
    # (and game 1 is forfeited): r2 0, ranked last, never advances: r1 0 and r3 -20 advance.
    tid = setup(server, "sichuan_003", players=["p1", "p2", "p3", "p4", "r1", "r2", "r3", "r4"])
    p, r = ["p1", "p2", "p3", "p4"], ["r1", "r2", "r3", "r4"]
    seat(server, tid, 1, [p, r])
    d1, d2 = device(server, tid, 1), device(server, tid, 2)
    upload(server, [d1.next(session_rec(tid, 1, 1, p, "sichuan", time=T0)),
                    d1.next(hand_rec(tid, 1, 1, 1, p, [-20, -20, -20, 60], 3, None, 1, "sichuan", time=T0 + 600)),
                    d1.next(hand_rec(tid, 1, 1, 2, p, [0, -30, 30, 0], 2, 1, 1, "sichuan", time=T0 + 1200)),
                    d1.next(hand_rec(tid, 1, 1, 3, p, [40, -40, 0, 0], 0, 1, 2, "sichuan", time=T0 + 1800))])
    upload(server, [d2.next(session_rec(tid, 1, 2, r, "sichuan", time=T0)),
                    d2.next(hand_rec(tid, 1, 2, 1, r, [-20, 60, -20, -20], 1, None, 1, "sichuan", time=T0 + 600)),
                    d2.next(hand_rec(tid, 1, 2, 2, r, [20, 0, 0, -20], 0, 3, 1, "sichuan", time=T0 + 1200))])
    before = standings(server, tid)["stages"][0]
    assert before["advancing"] == ["p4", "p1", "r2", "r1"]

    def late(player, minutes, game=None, status=201):
        body = {"session": 1, "player": player, "kind": "late", "minutes": minutes, "reason": "late"}
        if game is not None:
            body["game"] = game
        st, out = server.ref.post("/api/tournaments/%s/penalties" % tid, body)
        assert st == status, out
        return out

    assert late("p4", 12)["game"] is None  # the stage's first game
    assert late("p2", "10", game=3)["game"] == 3
    late("p3", 5)
    late("r2", 16)
    late("r3", 11, game=9, status=201)  # stored; no game 9 at this table: the referee is told
    body = standings(server, tid)
    stage = body["stages"][0]
    t1 = [(x["place"], x["player"], x["score"], x["net"], x["wins"]) for x in stage["tables"][0]["places"]]
    assert t1 == [(1, "p1", "20", "20", 1), (2, "p3", "10", "10", 1), (3, "p4", "0", "0", 0), (4, "p2", "-50", "-50", 0)], t1
    assert any("stage 1 table 2" in x and "game 9" in x for x in body["problems"]), body["problems"]
    # the referee revokes the wrong one
    pid = [x for x in server.anon.get("/api/tournaments/%s/penalties" % tid)[1] if x["player"] == "r3"][0]["id"]
    assert server.ref.request("DELETE", "/api/tournaments/%s/penalties/%d" % (tid, pid))[0] == 200
    stage = standings(server, tid)["stages"][0]
    t2 = [(x["place"], x["player"], x["score"]) for x in stage["tables"][1]["places"]]
    assert t2 == [(1, "r1", "0"), (2, "r3", "-20"), (3, "r4", "-40"), (4, "r2", "0")], t2
    assert stage["advancing"] == ["p1", "p3", "r1", "r3"]
    # a game only for a Sichuan late arrival
    other = setup(server, "mcr_000", players="ABCD")
    st, out = server.ref.post("/api/tournaments/%s/penalties" % other, {"session": 1, "player": "A", "kind": "late", "minutes": 5, "game": 2, "reason": "x"})
    assert st == 400 and "Sichuan only" in out["error"], out
    st, out = server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "p1", "kind": "late", "minutes": 5, "game": 0, "reason": "x"})
    assert st == 400, out


def test_first_to_reach_and_the_time_limit_use_the_halls_clock(server):
    # Session 1 starts at T0 for the hall. Table 2 waited 10 minutes for a late player (its box
    # started at T0 + 600). Both tables win 24 fans: table 1 at T0 + 25 min (25 minutes into its
    # own session), table 2 at T0 + 30 min (20 minutes into its own). 最先达到 is table 1's A,
    # although table 2's hand came earlier by its own box's clock.
    tid = setup(server, "mcr_000", players="ABCDEFGH")
    seat(server, tid, 1, ["ABCD", "EFGH"])
    st, clock = server.ref.post("/api/tournaments/%s/sessions/1/start" % tid, {"at": T0})
    assert st == 200 and clock["ends_at"] == T0 + 120 * 60, clock  # seed 000 §三.1.4: 120 minutes
    d1, d2 = device(server, tid, 1), device(server, tid, 2)
    for d, table, seats, t0, win_at in ((d1, 1, list("ABCD"), T0, T0 + 25 * 60), (d2, 2, list("EFGH"), T0 + 600, T0 + 30 * 60)):
        upload(server, [d.next(session_rec(tid, 1, table, seats, time=t0)),
                        d.next(hand_rec(tid, 1, table, 1, seats, [48, -8, -32, -8], 0, 2, 24, time=win_at))])
    aw = server.anon.get("/api/tournaments/%s/awards" % tid)[1]["awards"]["biggest_hand"]
    assert aw["winner"] == "A" and aw["hand"]["table"] == 1, aw
    # the boxes get the hall's deadline with their config: the late table does not play longer (table 2's
    # box is taken off its table for another: what it recorded there still counts)
    assert server.org.post("/api/devices/%s/bind" % d2.id, {"tournament": tid, "table": None})[0] == 200
    st, dev = server.org.post("/api/devices", {"id": "clock-" + tid, "key": "ab" * 32, "tournament": tid, "table": 2})
    assert st == 201, dev
    st, cfg = server.anon.get("/api/boxes/clock-%s/config" % tid)
    assert st == 200 and cfg["ends_at"] == T0 + 7200 and cfg["minutes"] == 120, cfg
    # table 2 keys a hand 6 minutes after time was called (past the 5 minutes of grace): the referee is told
    upload(server, [d2.next(hand_rec(tid, 1, 2, 2, list("EFGH"), [0, 0, 0, 0], time=T0 + 7200 + 360))])
    body = standings(server, tid)
    assert "session 1 table 2: hand 2 was keyed 360 s after time was called: did it end before?" in body["problems"], body["problems"]
    # moving the start moves the deadline for everyone
    st, clock = server.ref.post("/api/tournaments/%s/sessions/1/start" % tid, {"at": T0 + 600})
    assert clock["ends_at"] == T0 + 600 + 7200
    assert not any("after time was called" in p for p in standings(server, tid)["problems"])
    assert server.anon.post("/api/tournaments/%s/sessions/1/start" % tid, {})[0] == 401


def test_a_sichuan_box_gets_no_time_limit_unless_the_organizer_sets_one(server):
    # RULES.md: a Sichuan table has no time limit by default (seed 003 sets none); the box and the
    # server take that from rules_min/tournament.py. The organizer may set one for the tournament.
    tid = setup(server, "sichuan_003", players=["p1", "p2", "p3", "p4"])
    seat(server, tid, 1, [["p1", "p2", "p3", "p4"]])
    st, dev = server.org.post("/api/devices", {"id": "sc-" + tid, "key": "cd" * 32, "tournament": tid, "table": 1})
    assert st == 201, dev
    st, clock = server.ref.post("/api/tournaments/%s/sessions/1/start" % tid, {"at": T0})
    assert st == 200 and clock["ends_at"] is None and clock["minutes"] is None, clock
    st, cfg = server.anon.get("/api/boxes/sc-%s/config" % tid)
    assert st == 200 and cfg["hands"] == 8 and "minutes" not in cfg and "ends_at" not in cfg, cfg
    st, body = server.org.json("PATCH", "/api/tournaments/%s" % tid, {"settings": {"minutes": 90}})
    assert st == 200, body
    st, cfg = server.anon.get("/api/boxes/sc-%s/config" % tid)
    assert st == 200 and cfg["minutes"] == 90 and cfg["ends_at"] == T0 + 90 * 60, cfg
