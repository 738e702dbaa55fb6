"""Issue 18 item 2: nothing a box recorded goes missing. For every box the server accounts for
every record it received (counted, quarantined with its reason, or ruled; duplicates said so); a
session keyed in at the box (tournament "T") waits in the quarantine of the tournament the box is
bound to, and a referee claims it for a session and table in one step that checks the players;
a page per box shows it. Issue 19 item 9: an anonymous config read writes nothing, the box's
journal head comes in a signed report. SQLite and PostgreSQL."""
import hashlib
import hmac
import time

from .conftest import PASSWORD, uid
from .form_session import FormSession, errors_on
from .helpers import Device, correction_rec, end_rec, hand_rec, session_rec
from .test_standings import seat, standings, table_records, upload

P = ["101", "102", "103", "104"]
Q = ["105", "106", "107", "108"]


def bound_box(server, tid, table):
    dev = Device(uid("acc"))
    st, body = server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": table})
    assert st == 201, body
    return dev


def match(server, tid):
    return {r["player"]: r["match"] for r in standings(server, tid)["standings"]}


def quarantine(server, tid):
    st, q = server.ref.get("/api/tournaments/%s/quarantine" % tid)
    assert st == 200, q
    return q


def head_report(dev: Device, head: int, at: int) -> dict:
    """The box's journal head as the sync tool reports it: signed with the box's key (written
    here from protocol/sign.py's description: HMAC-SHA256(key, "head" 0x00 id 0x00 head u32 at u32))."""
    msg = b"head\x00" + dev.id.encode() + b"\x00" + head.to_bytes(4, "big") + at.to_bytes(4, "big")
    return {"head": head, "at": at, "sig": hmac.new(dev.key, msg, hashlib.sha256).hexdigest()}


def unsynced(server, tid, dev):
    st, boxes = server.org.get("/api/devices?tournament=" + tid)
    assert st == 200, boxes
    return next(b for b in boxes if b["id"] == dev.id)["unsynced"]


def test_an_anonymous_config_read_writes_nothing(server):
    t = server.tournament("mcr_000", players=P)
    seat(server, t, 1, [P])
    dev = bound_box(server, t, 1)
    st, cfg = server.anon.get("/api/boxes/%s/config?head=4000000000" % dev.id)
    assert st == 200 and cfg["table"] == 1
    assert server.sql("SELECT reported_head FROM boxes_device WHERE id = ?", (dev.id,))[0][0] is None
    assert unsynced(server, t, dev) == 0
    # the head in a report signed with the box's key: a forged or stale one changes nothing
    now = int(time.time())
    assert server.anon.post("/api/boxes/%s/head" % dev.id, dict(head_report(dev, 9, now), sig="00" * 32))[0] == 403
    assert server.anon.post("/api/boxes/%s/head" % dev.id, head_report(dev, 9, now - 3600))[0] == 409
    assert server.anon.post("/api/boxes/%s/head" % uid("nobody"), head_report(dev, 9, now))[0] == 403
    assert unsynced(server, t, dev) == 0
    st, body = server.anon.post("/api/boxes/%s/head" % dev.id, head_report(dev, 9, now))
    assert st == 200, body
    assert unsynced(server, t, dev) == 9
    assert server.anon.post("/api/boxes/%s/head" % dev.id, head_report(dev, 9, now))[0] == 409  # a replay
    upload(server, table_records(dev, t, 1, 1, dict(zip(P, (30, 10, -10, -30)))))
    assert unsynced(server, t, dev) == 6


def test_every_record_a_box_sent_is_accounted_for(server):
    t = server.tournament("mcr_000", players=P + Q)
    seat(server, t, 1, [P, Q])
    dev = bound_box(server, t, 1)
    recs = table_records(dev, t, 1, 1, dict(zip(P, (30, 10, -10, -30))), hands=2)  # seq 1-4: counted
    recs.append(dev.next(hand_rec(t, 1, 1, 1, P, [30, 10, -10, -30], 0)))  # seq 5: hand 1 again, identical deltas
    recs.append(dev.next(hand_rec(t, 1, 2, 1, Q, [24, -8, -8, -8], 0)))  # seq 6: table 2, where the box never was
    recs.append(dev.next(correction_rec(dev.id, 3, [8, -8, 0, 0], seats=P, was=[0, 0, 0, 0])))  # seq 7: corrects hand 2
    recs.append(dev.next(session_rec("T", 1, 1, P)))  # seq 8: keyed in at the box
    st, body = server.anon.post("/api/records:batch", recs)
    assert st == 200 and all(r["status_code"] == 201 for r in body["results"]), body
    places = [r["place"] for r in body["results"]]
    assert places[0] == {"status": "table", "tournament": t, "session": 1, "table": 1}
    assert places[5]["status"] == "quarantine" and places[5]["tournament"] == t and "table 2" in places[5]["reason"]
    assert places[7]["status"] == "quarantine" and places[7]["tournament"] == t and "keyed in at the box" in places[7]["reason"]
    q = {x["seq"]: x for x in quarantine(server, t)}
    reject = q[6]["record"]
    assert server.ref.post("/api/tournaments/%s/rulings" % t, {"record": reject, "decision": "reject", "reason": "wrong table"})[0] == 201
    st, acc = server.org.get("/api/devices/%s/records" % dev.id)
    assert st == 200, acc
    assert (acc["received"], acc["counted"], acc["quarantined"], acc["ruled"], acc["duplicates"]) == (8, 5, 1, 1, 1), acc
    by_seq = {r["seq"]: r for r in acc["records"]}
    assert sorted(by_seq) == list(range(1, 9))  # every record received, once
    assert by_seq[5]["status"] == "duplicate" and "hand 1" in by_seq[5]["reason"]
    assert by_seq[6]["status"] == "ruled" and by_seq[6]["ruling"] == "reject"
    assert by_seq[7]["status"] == "counted" and by_seq[7]["kind"] == "correction"
    assert by_seq[8]["status"] == "quarantined" and by_seq[8]["tournament"] == t
    # the box's page says the same
    page = FormSession(server.url, "org", PASSWORD)
    st, _, html = page.get("/t/%s/manage/boxes/%s" % (t, dev.id))
    assert st == 200
    for label, n in (("Received", 8), ("Counted", 5), ("Quarantined", 1), ("Ruled", 1), ("Duplicates", 1)):
        assert '<th>%s</th><td class="n">%d</td>' % (label, n) in html, label
    assert "keyed in at the box" in html
    assert page.get("/t/%s/manage/boxes/%s" % (server.tournament("mcr_000"), dev.id))[0] == 404  # not that tournament's box


def test_a_session_keyed_in_at_the_box_is_claimed_in_one_step(server):
    """The box keyed its session in (tournament "T", session 1, table 1) before the seating
    reached it; it is bound to table 4 of the real tournament; its records wait in that
    tournament's quarantine; the referee claims them for session 1 table 4."""
    t = server.tournament("mcr_000", players=Q + P)
    server.org.post("/api/tournaments/%s/players" % t, [{"id": str(i), "name": "N%d" % i} for i in range(109, 117)])
    seat(server, t, 1, [Q, ["109", "110", "111", "112"], ["113", "114", "115", "116"], P])
    dev = bound_box(server, t, 4)
    scores = dict(zip(P, (30, 10, -10, -30)))
    keyed = [dev.next(session_rec("T", 1, 1, P)), dev.next(hand_rec("T", 1, 1, 1, P, [30, 10, -10, -30], 0)),
             dev.next(end_rec("T", 1, 1, 1, scores))]
    upload(server, keyed)
    assert match(server, t)["101"] == "0"
    q = quarantine(server, t)
    assert len(q) == 3 and all(x["claimable"] for x in q) and all("keyed in at the box for tournament T" in x["problems"][0] for x in q)
    claim = "/api/tournaments/%s/claims" % t
    # the players keyed must be the tournament's (and the seated ones of that table)
    st, body = server.ref.post(claim, {"device": dev.id, "seq": q[0]["seq"], "session": 1, "table": 1})
    assert st == 400 and "table 1 of session 1 seats 105, 106, 107, 108" in body["error"], body
    st, body = server.ref.post(claim, {"device": dev.id, "seq": q[0]["seq"], "session": 1, "table": 4, "players": {"104": "199"}})
    assert st == 400 and "199 is not registered" in body["error"], body
    assert server.anon.post(claim, {"device": dev.id, "seq": q[0]["seq"], "session": 1, "table": 4})[0] == 401
    assert match(server, t)["101"] == "0"
    # on the referee page, one form: session and table
    page = FormSession(server.url, "ref", PASSWORD)
    home = "/t/%s/referee/" % t
    assert "claim" in page.get(home)[2].lower()
    st, _, _ = page.post(home, {"action": "claim", "device": dev.id, "seq": str(q[1]["seq"]), "session": "1", "table": "4"})
    assert st == 302
    assert "3 records claimed for session 1 table 4" in errors_on(page.get(home)[2])
    got = match(server, t)
    assert {p: got[p] for p in P} == {p: str(v) for p, v in scores.items()} and set(got.values()) == {"0", "30", "10", "-10", "-30"}
    assert quarantine(server, t) == [] and not [p for p in standings(server, t)["problems"] if "table 4" in p]  # session_end agrees
    # claimed once: again is refused; the box's accounting calls them ruled (claimed)
    assert server.ref.post(claim, {"device": dev.id, "seq": q[0]["seq"], "session": 1, "table": 4})[0] == 404
    acc = server.org.get("/api/devices/%s/records" % dev.id)[1]
    assert (acc["received"], acc["counted"], acc["ruled"]) == (3, 3, 0) and all(r["claimed"] for r in acc["records"])
    log = server.org.get("/api/audit?tournament=" + t)[1]
    assert any(a["action"] == "records.claim" and a["actor"] == "ref" for a in log)
