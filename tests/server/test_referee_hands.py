"""A hand a referee enters (the box failed) is stored as the box's record of the same hand is:
same deltas, winners, discarder, deductions and fans, on SQLite and PostgreSQL. Seed 004's
hands count a multiplier, not fans: a Guangdong 清一色 (Full Flush) is x4 in the hand table, and
the referee's row must say so as the box's does (it said 0: the fans were read out of settle's
English reason text, which for Guangdong reads "win 清一色 x4")."""
from rules_min import guangdong
from rules_min.settle_request import settle

from .helpers import hand_rec, session_rec
from .test_standings import T0, device, seat, setup, upload

# East wins Full Flush by self-draw: every other player pays the base 2 x 4
EVENTS = [{"win": 0, "from": None, "hand": "11122233344455m"}]
COLUMNS = "p0, p1, p2, p3, d0, d1, d2, d3, dealer, winners, discarder, fans, fan_names, deductions"


def box_record(tid, seats):
    """The hand as a box records it: its deltas, transfers and wins as rules_min settled them."""
    h = settle({"dealer": 0, "prevalent_wind": "E", "events": EVENTS}, "guangdong")
    wins = [{"seat": s, "from": src, "total": total, "fans": fans} for s, src, fans, total in h.wins]
    rec = hand_rec(tid, 1, 1, 1, seats, h.deltas(), rules="guangdong", time=T0 + 300, events=EVENTS,
                   transfers=[[a, b, p, 0] for a, b, p, _why in h.settled()])  # all three settled by event 0
    rec.update(wins=wins, winners=[w["seat"] for w in wins], discarder=None, next_dealer=h.next_dealer)
    return rec


def test_a_guangdong_hand_entered_by_the_referee_counts_its_multiplier(server):
    tid = setup(server, "guangdong_004", players="ABCD")
    seats = list("ABCD")
    seat(server, tid, 1, [seats])
    dev = device(server, tid, 1)
    upload(server, [dev.next(session_rec(tid, 1, 1, seats, "guangdong", time=T0)), dev.next(box_record(tid, seats))])
    st, h = server.ref.post("/api/tournaments/%s/hands" % tid, {"session": 1, "table": 1, "hand": 2, "seats": seats, "dealer": 0,
                                                               "prevalent_wind": "E", "events": EVENTS, "reason": "the box failed"})
    full_flush = [row[2] for row in guangdong.HAND_TABLE if row[1] == "Full Flush"]
    assert st == 201 and h["deltas"] == [24, -8, -8, -8] and [h["fans"]] == full_flush == [4], h
    rows = server.sql("SELECT number, device, entered_by, %s FROM boxes_hand WHERE tournament = ? ORDER BY number" % COLUMNS, (tid,))
    assert [r[:3] for r in rows] == [(1, dev.id, None), (2, None, "ref")]
    assert rows[0][3:] == rows[1][3:]  # the referee's row says of the hand what the box's says
    hands = server.anon.request("GET", "/api/tournaments/%s/export/hands.csv" % tid)[2].decode().splitlines()
    assert [line.split(",")[:7] for line in hands[1:]] == [["1", "1", "1", "A", "", "1", "4"], ["1", "1", "2", "A", "", "1", "4"]]
