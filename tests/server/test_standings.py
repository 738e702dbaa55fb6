"""Standings recomputed from uploaded records, corrections, penalties and play-offs; the
expected values are the hand-worked ones of tests/tournament (same tournaments, now arriving
as signed hand records through HTTP, on SQLite and on PostgreSQL)."""
from fractions import Fraction as F

from host_tools.tournament.exports import format_score

from .conftest import uid
from .helpers import Device, correction_rec, end_rec, hand_rec, session_rec

T0 = 1_700_000_000


def setup(server, fmt, settings=None, players=None):
    return server.tournament(fmt, players=players or (), settings=settings)


def device(server, tid=None, table=None):
    """A registered box; with ``tid`` (and ``table``) bound there: records count only where their box
    was bound when they were made (boxes.placement)."""
    dev = Device(uid("t"))
    body = {"id": dev.id, "key": dev.key.hex()}
    if tid is not None:
        body.update(tournament=tid, table=table)
    st, reply = server.org.post("/api/devices", body)
    assert st == 201, reply
    return dev


def bind(server, dev, tid, table):
    st, body = server.org.post("/api/devices/%s/bind" % dev.id, {"tournament": tid, "table": table})
    assert st == 200, body


def upload(server, envs):
    st, body = server.anon.post("/api/records:batch", envs)
    assert st == 200 and all(r["status_code"] in (200, 201) for r in body["results"]), body
    return body


def seat(server, tid, session, tables, publish=True):
    """Publish a manual seating: tables is a list of player lists (E S W N)."""
    st, body = server.org.post("/api/tournaments/%s/seatings/%d" % (tid, session), {"method": "manual", "tables": [list(t) for t in tables], "publish": publish})
    assert st == 201, body
    return body


def table_records(dev, tid, session, table, scores, rules="mcr", hands=1):
    """One session record and hands whose deltas add up to ``scores`` (player -> match score)."""
    seats = list(scores) + [None] * (4 - len(scores))
    deltas = [scores.get(p, 0) if p else 0 for p in seats]
    envs = [dev.next(session_rec(tid, session, table, seats, rules, time=T0))]
    w = max(range(len(scores)), key=lambda i: deltas[i])
    envs.append(dev.next(hand_rec(tid, session, table, 1, seats, deltas, w, None, 8, rules, time=T0 + 600)))
    for h in range(2, hands + 1):
        envs.append(dev.next(hand_rec(tid, session, table, h, seats, [0, 0, 0, 0], None, None, 0, rules, time=T0 + 600 * h)))
    envs.append(dev.next(end_rec(tid, session, table, hands, {p: scores[p] for p in scores}, time=T0 + 600 * hands + 60)))
    return envs


def play(server, tid, session, tables, devs, rules="mcr", publish=True):
    """Seat ``tables`` (dicts player -> match score) for the session, then upload their records."""
    seat(server, tid, session, [list(t) for t in tables], publish)
    for t, scores in enumerate(tables, 1):
        bind(server, devs[t - 1], tid, t)
        upload(server, table_records(devs[t - 1], tid, session, t, scores, rules))


def fmt_rows(rows, *cols):
    return [tuple(r[c] for c in cols) for r in rows]


def standings(server, tid):
    st, body = server.anon.get("/api/tournaments/%s/standings" % tid)
    assert st == 200, body
    return body


# seed 000, as test_standings_three_sessions_by_hand
S1 = [{"A": 50, "B": 20, "C": -20, "D": -50}, {"E": 30, "F": 30, "G": -30, "H": -30}]
S2 = [{"A": -10, "E": 40, "C": -10, "G": -20}, {"B": 35, "F": 5, "D": -10, "H": -30}]
S3 = [{"A": 0, "F": 0, "D": 0, "H": 0}, {"B": 10, "E": -10, "C": 25, "G": -25}]


def test_mcr_three_sessions_by_hand(server):
    tid = setup(server, "mcr_000", players="ABCDEFGH")
    devs = [device(server), device(server)]
    for s, session in enumerate([S1, S2, S3], 1):
        play(server, tid, s, session, devs)
    body = standings(server, tid)
    assert fmt_rows(body["standings"], "rank", "player", "standard", "match") == [
        (1, "B", "8", "65"), (2, "E", "8", "60"), (3, "A", "7.25", "40"), (4, "F", "6.75", "35"),
        (5, "C", "6.5", "-5"), (6, "D", "2.75", "-60"), (7, "H", "2.25", "-60"), (8, "G", "0.5", "-75"),
    ]
    assert body["problems"] == [] and body["quarantined"] == 0
    # per-table standard scores sum to the format's total (7 at four players)
    for s in (1, 2, 3):
        for t in (1, 2):
            tb = server.anon.get("/api/tournaments/%s/tables/%d/%d" % (tid, s, t))[1]
            assert sum(F(p["standard_exact"]) for p in tb["players"]) == 7


def test_correction_by_name_and_penalties_change_standings(server):
    tid = setup(server, "mcr_000", players="ABCD")
    dev = device(server)
    play(server, tid, 1, [{"A": 30, "B": 10, "C": -10, "D": -30}], [dev])
    # the referee moves 40 points from A to D on hand 1, naming the players
    corr = {"session": 1, "table": 1, "hand": 1, "points": {"A": -10, "B": 10, "C": -10, "D": 10}, "reason": "wrong winner"}
    st, c = server.ref.post("/api/tournaments/%s/corrections" % tid, corr)
    assert st == 201, c
    assert c["deltas"] == [-10, 10, -10, 10] and c["seats"] == ["A", "B", "C", "D"]
    rows = standings(server, tid)["standings"]
    # B 10, D 10 tie first (3 each), A -10, C -10 tie third (1/2 each)
    assert fmt_rows(rows, "player", "standard", "match") == [("B", "3", "10"), ("D", "3", "10"), ("A", "0.5", "-10"), ("C", "0.5", "-10")]
    # refused: a sum that is not 0, a player not at the hand, a player left out, a hand that does not exist
    for bad in (dict(corr, points={"A": 5, "B": 0, "C": 0, "D": 0}), dict(corr, points={"A": -10, "B": 10, "C": -10, "X": 10}),
                dict(corr, points={"A": 0, "B": 0, "C": 0})):
        st, body = server.ref.post("/api/tournaments/%s/corrections" % tid, bad)
        assert st == 400, body
    assert server.ref.post("/api/tournaments/%s/corrections" % tid, dict(corr, hand=9))[0] == 404
    assert server.anon.post("/api/tournaments/%s/corrections" % tid, corr)[0] == 401
    # late 5 minutes (seed 000: -10) for D
    st, p = server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "D", "kind": "late", "minutes": 5, "reason": "late"})
    assert st == 201, p
    rows = standings(server, tid)["standings"]
    assert fmt_rows(rows, "player", "standard", "match") == [("B", "4", "10"), ("D", "2", "0"), ("A", "0.5", "-10"), ("C", "0.5", "-10")]
    # a penalty for a player who does not exist, or minutes that are not a short number, are refused
    assert server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "nobody", "kind": "points", "points": -5, "reason": "x"})[0] == 400
    for m in ("1e-10000000", "1/0", "9" * 50, "NaN", "-3"):
        st, body = server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "D", "kind": "late", "minutes": m, "reason": "x"})
        assert st == 400, (m, body)
    # revoke it: back to the tie
    assert server.ref.json("DELETE", "/api/tournaments/%s/penalties/%d" % (tid, p["id"]))[0] == 200
    assert standings(server, tid)["standings"][0]["standard"] == "3"
    # disqualify A: forfeits, listed last without rank; the other three score 4/2/1
    server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "A", "kind": "disqualification", "reason": "有意诈和"})
    rows = standings(server, tid)["standings"]
    assert fmt_rows(rows, "rank", "player", "standard", "status") == [(1, "B", "3", ""), (1, "D", "3", ""), (3, "C", "1", ""), (None, "A", "0", "disqualified")]
    # every change is in the audit log, with before/after
    log = server.org.get("/api/audit?tournament=" + tid)[1]
    actions = [a["action"] for a in log]
    assert {"correction.add", "penalty.add", "penalty.revoke"} <= set(actions)
    a = next(a for a in log if a["action"] == "correction.add")
    assert a["before"]["deltas"] == [30, 10, -10, -30] and a["after"]["deltas"] == [-10, 10, -10, 10] and a["actor"] == "ref"


def test_referee_correction_wins_over_the_box(server):
    tid = setup(server, "mcr_000", players="ABCD")
    dev = device(server)
    play(server, tid, 1, [{"A": 30, "B": 10, "C": -10, "D": -30}], [dev])
    st, _ = server.ref.post("/api/tournaments/%s/corrections" % tid, {"session": 1, "table": 1, "hand": 1, "points": {"A": 0, "B": 0, "C": 0, "D": 0}, "reason": "void"})
    assert st == 201
    # the box corrects the same hand afterwards: the referee's ruling stands
    upload(server, [dev.next(correction_rec(dev.id, 2, [40, 0, 0, -40], "box", "x", T0 + 9, seats=list("ABCD"), was=[30, 10, -10, -30]))])
    rows = standings(server, tid)["standings"]
    assert {r["player"]: r["match"] for r in rows} == {"A": "0", "B": "0", "C": "0", "D": "0"}
    # another box cannot correct this box's records: stored, quarantined, not counted
    other = device(server)
    upload(server, [other.next(correction_rec(dev.id, 2, [99, -33, -33, -33], "hostile", "x", T0 + 10, seats=list("ABCD"), was=[30, 10, -10, -30]))])
    body = standings(server, tid)
    assert {r["player"]: r["match"] for r in body["standings"]} == {"A": "0", "B": "0", "C": "0", "D": "0"}
    q = server.ref.get("/api/tournaments/%s/quarantine" % tid)[1]
    assert any(x["kind"] == "correction" and "cannot correct" in x["problems"][0] for x in q)


def test_late_forfeit_seated_player_swiss_by_hand(server):
    # seed 001, as test_swiss_standings_by_hand: H forfeits session 1 (late 20 min)
    tid = setup(server, "mcr_swiss_001", players="ABCDEFGH")
    d1, d2 = device(server, tid, 1), device(server, tid, 2)
    seat(server, tid, 1, [list("ABCD"), list("EFGH")])
    upload(server, table_records(d1, tid, 1, 1, {"A": 40, "B": 10, "C": -20, "D": -30}))
    upload(server, table_records(d2, tid, 1, 2, {"E": 20, "F": 0, "G": -20, "H": 0}))  # H is seated but forfeits
    server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "H", "kind": "late", "minutes": "20", "reason": "late"})
    play(server, tid, 2, [{"A": 5, "E": 5, "F": -5, "B": -5}, {"C": 10, "D": 10, "G": 10, "H": -30}], [d1, d2])
    rows = standings(server, tid)["standings"]
    assert fmt_rows(rows, "rank", "player", "standard", "match") == [
        (1, "A", "7", "1045"), (2, "E", "6", "1025"), (3, "C", format_score(F(10, 3)), "990"), (4, "B", "2.5", "1005"),
        (5, "G", format_score(F(7, 3)), "990"), (6, "D", format_score(F(7, 3)), "980"), (7, "F", "1.5", "995"), (8, "H", "0", "470"),
    ]
    assert rows[-1]["sessions"][0]["status"] == "forfeit"


# every table's points add up (nothing is credited from nobody: boxes.invariants); each player's
# total and tie-breaks (best session, then the next) are those the expected standings were worked with
GD_PRELIM = [
    [{"a": 170, "b": 70, "g": -100, "h": -140}, {"c": -50, "d": 40, "e": 10, "f": 0}],
    [{"a": -70, "c": 120, "e": 0, "g": -50}, {"b": 30, "d": 20, "f": 10, "h": -60}],
    [{"a": 0, "d": 0, "f": -10, "g": 10}, {"b": -10, "c": -10, "e": 0, "h": 20}],
    [{"a": 0, "b": 10, "c": -10, "d": -10}, {"e": -10, "f": 0, "g": 10, "h": 0}],
]


def test_guangdong_final_needs_ratio(server):
    tid = setup(server, "guangdong_004", players="abcdefgh")
    devs = [device(server), device(server)]
    for s, session in enumerate(GD_PRELIM, 1):
        play(server, tid, s, session, devs, "guangdong")
    rows = standings(server, tid)["standings"]
    assert fmt_rows(rows, "rank", "player", "match") == [(1, "a", "100"), (2, "b", "100"), (3, "c", "50"), (4, "d", "50"), (5, "e", "0"), (5, "f", "0"), (7, "g", "-130"), (8, "h", "-180")]
    st, s5 = server.org.post("/api/tournaments/%s/seatings/5" % tid, {"method": "rank", "save": False})
    assert st == 200 and s5["tables"][0]["players"] == ["a", "b", "c", "d"]
    play(server, tid, 5, [{"a": -20, "b": 30, "c": 5, "d": -20}], devs, "guangdong")
    body = standings(server, tid)
    assert any("ratio" in p for p in body["problems"])  # refused without the organizer's ratio
    assert body["standings"][0]["player"] == "a"  # preliminary standings still shown
    for bad in ("1e-10000000", "1/0", "2", "x"):
        assert server.org.json("PATCH", "/api/tournaments/" + tid, {"settings": {"carry_ratio": bad}})[0] == 400, bad
    assert server.org.json("PATCH", "/api/tournaments/" + tid, {"settings": {"carry_ratio": "1/2"}})[0] == 200
    body = standings(server, tid)
    assert fmt_rows(body["standings"], "rank", "player", "match")[:4] == [(1, "b", "80"), (2, "a", "30"), (3, "c", "30"), (4, "d", "5")]
    assert body["problems"] == []


def test_sichuan_stage1_ties_and_playoff(server):
    tid = setup(server, "sichuan_003", players=["p1", "p2", "p3", "p4", "r1", "r2", "r3", "r4"])
    d1, d2 = device(server, tid, 1), device(server, tid, 2)

    def games(dev, table, totals, wins):
        seats = list(totals)
        envs = [dev.next(session_rec(tid, 1, table, seats, "sichuan", time=T0))]
        envs.append(dev.next(hand_rec(tid, 1, table, 1, seats, [totals[p] for p in seats], None, None, 0, "sichuan", time=T0 + 60, winners=[])))
        h = 1
        for i, p in enumerate(seats):
            for _ in range(wins[p]):
                h += 1
                envs.append(dev.next(hand_rec(tid, 1, table, h, seats, [0, 0, 0, 0], None, None, 1, "sichuan", time=T0 + 60 * h, winners=[i])))
        return envs

    seat(server, tid, 1, [["p1", "p2", "p3", "p4"], ["r1", "r2", "r3", "r4"]])
    # as test_stage1_ties_by_net_then_wins: p2 lost 10 to an off-table penalty (score 50, net 60)
    upload(server, games(d1, 1, {"p1": 120, "p2": 60, "p3": 50, "p4": -230}, {"p1": 3, "p2": 2, "p3": 3, "p4": 0}))  # adds up
    server.ref.post("/api/tournaments/%s/penalties" % tid, {"session": 1, "player": "p2", "kind": "points", "points": -10, "reason": "tier 1"})
    # as test_tie_across_the_cut_needs_the_playoff: r2 and r3 tie on everything across 2nd place
    upload(server, games(d2, 2, {"r1": 100, "r2": 0, "r3": 0, "r4": -100}, {"r1": 3, "r2": 1, "r3": 1, "r4": 0}))
    body = standings(server, tid)
    assert any("play-off" in p for p in body["problems"])
    st, _ = server.ref.post("/api/tournaments/%s/playoffs" % tid, {"session": 1, "table": 2, "scores": {"r2": -10, "r3": 20}})
    assert st == 201
    body = standings(server, tid)
    assert body["problems"] == []
    assert body["stages"][0]["advancing"] == ["p1", "p2", "r1", "r3"]
    t1 = body["stages"][0]["tables"][0]["places"]
    assert [(x["player"], x["score"], x["net"], x["wins"]) for x in t1][:3] == [("p1", "120", "120", 3), ("p2", "50", "60", 2), ("p3", "50", "50", 3)]


def test_duplicate_hand_and_session_end_cross_check(server):
    tid = setup(server, "mcr_000", players="ABCD")
    dev = device(server)
    play(server, tid, 1, [{"A": 30, "B": 10, "C": -10, "D": -30}], [dev])
    upload(server, [dev.next(hand_rec(tid, 1, 1, 1, list("ABCD"), [0, 0, 0, 0]))])  # hand 1 again
    upload(server, [dev.next(end_rec(tid, 1, 1, 1, {"A": 30, "B": 10, "C": -10, "D": -31}))])  # a second end, disagreeing
    body = standings(server, tid)
    assert body["quarantined"] == 1 and any("quarantine" in p for p in body["problems"])
    assert any("differ" in p for p in body["problems"])
    assert body["standings"][0]["match"] == "30"  # the first stored hand counts
    tb = server.anon.get("/api/tournaments/%s/tables/1/1" % tid)[1]
    assert tb["problems"] and len(tb["quarantine"]) == 1 and "stored twice" in tb["quarantine"][0]["problems"][0]


def test_player_hands_awards_exports(server):
    tid = setup(server, "mcr_000", players="ABCD")
    server.org.post("/api/tournaments/%s/players" % tid, [{"id": "A", "name": "Martin, Anna", "draw": 1, "ema_id": "04010012", "country": "FRA"}])
    dev = device(server, tid, 1)
    seats = list("ABCD")
    seat(server, tid, 1, [seats])
    envs = [dev.next(session_rec(tid, 1, 1, seats, time=T0))]
    envs.append(dev.next(hand_rec(tid, 1, 1, 1, seats, [24, -8, -8, -8], 0, None, 8, time=T0 + 300)))
    envs.append(dev.next(hand_rec(tid, 1, 1, 2, seats, [-32, 48, -8, -8], 1, 0, 24, time=T0 + 900)))
    envs.append(dev.next(hand_rec(tid, 1, 1, 3, seats, [0, 0, 0, 0], None, None, 0, time=T0 + 1500)))
    upload(server, envs)
    st, ph = server.anon.get("/api/tournaments/%s/players/A/hands" % tid)
    assert st == 200 and [h["delta"] for h in ph["hands"]] == [24, -32, 0]
    assert server.anon.get("/api/tournaments/%s/players/nobody/hands" % tid)[0] == 404
    aw = server.anon.get("/api/tournaments/%s/awards" % tid)[1]["awards"]
    assert aw["biggest_hand"]["winner"] == "B" and aw["biggest_hand"]["hand"]["fans"] == 24
    assert aw["most_self_draws"]["winner"] == "A"
    assert aw["fewest_deal_ins"]["winner"] == "B"  # A dealt in once; B, C, D none: B ranks best
    st, headers, csv_text = server.anon.request("GET", "/api/tournaments/%s/export/standings.csv" % tid)
    assert st == 200 and headers["Content-Type"].startswith("text/csv")
    lines = csv_text.decode().splitlines()
    assert lines[0].startswith("rank,player,name,standard,match") and lines[1].startswith("1,B,Name B,4,40")
    hands = server.anon.request("GET", "/api/tournaments/%s/export/hands.csv" % tid)[2].decode().splitlines()
    assert hands[1] == "1,1,1,A,,1,8,%d,A:24;B:-8;C:-8;D:-8" % (T0 + 300)  # at: the record's absolute time
    ema = server.anon.request("GET", "/api/tournaments/%s/export/ema.csv" % tid)[2].decode().splitlines()
    assert ema[0].startswith("Tournament,Players,Place,First name,Last name,EMA number,Table points,Score,EMA member,Country")
    assert ema[1].startswith("Test %s,4,1,Name,B,,4,40,0," % tid)
    assert "2,Anna,Martin,04010012,2,-8,1,FRA" in ema[2]
