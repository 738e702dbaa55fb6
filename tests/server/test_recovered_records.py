"""Issue 18.3: records recovered from a dead box merge without duplicates. The box dies after
hand 2; a spare finishes the table (or a referee enters hands from the table page); the dead
box's journal, synced later, brings its own copy of hand 3. A copy that agrees with the counted
hand counts once (a duplicate, waiting for nobody); one that differs is held for the referee
with both versions shown, the counted one counting meanwhile; the referee's ruling decides and
the standings follow. The box's accounting says which. SQLite and PostgreSQL.

The expected scores are sums of the hands' own deltas (the records as uploaded), not of
anything the server computed."""
from .conftest import PASSWORD
from .form_session import FormSession
from .helpers import session_rec
from .test_box_accounting import match, quarantine
from .test_standings import device, seat, setup, upload
from .test_table_day import box_hand

SEATS = "ABCD"
WIN_A = [{"win": 0, "from": 2, "hand": "123m456m789m111s22s"}]  # A wins on C's discard
WIN_B = [{"win": 1, "from": 3, "hand": "123m456m789m111s22s"}]  # B wins on D's discard
WIN_D = [{"win": 3, "from": None, "hand": "123m456m789m111s22s"}]  # D self-draws


def scores(*hands) -> dict:
    out = dict.fromkeys(SEATS, 0)
    for h in hands:
        for p, d in zip(h["seats"], h["deltas"]):
            out[p] += d
    return {p: str(v) for p, v in out.items()}


def dead_box_table(server):
    """Table 1 of session 1: the dead box's session and hands 1-2 uploaded, then the spare bound."""
    tid = setup(server, "mcr_000", players=SEATS)
    seat(server, tid, 1, [SEATS])
    dead, spare = device(server), device(server)
    assert server.org.post("/api/devices/%s/bind" % dead.id, {"tournament": tid, "table": 1})[0] == 200
    assert server.org.post("/api/devices/%s/bind" % spare.id, {"tournament": tid, "table": None})[0] == 200
    h1, h2 = box_hand(tid, 1, 1, 1, SEATS, WIN_A, dealer=0), box_hand(tid, 1, 1, 2, SEATS, WIN_B, dealer=1)
    upload(server, [dead.next(session_rec(tid, 1, 1, list(SEATS))), dead.next(h1), dead.next(h2)])
    st, r = server.ref.post("/api/tournaments/%s/box-swaps" % tid, {"table": 1, "device": spare.id})
    assert st == 200, r
    return tid, dead, spare, [h1, h2]


def accounting(server, dev) -> dict:
    st, acc = server.org.get("/api/devices/%s/records" % dev.id)
    assert st == 200, acc
    return acc


def test_a_recovered_copy_that_agrees_with_the_spare_counts_once(server):
    tid, dead, spare, (h1, h2) = dead_box_table(server)
    # the dead box had confirmed hand 3 before it died, unsynced: the spare's config says hand 3
    # (the server knows 2), and the table keys hand 3 in again on the spare, the same
    assert server.anon.get("/api/boxes/%s/config" % spare.id)[1]["hand"] == 3
    h3, h4 = box_hand(tid, 1, 1, 3, SEATS, WIN_D, dealer=2), box_hand(tid, 1, 1, 4, SEATS, WIN_A, dealer=3)
    upload(server, [spare.next(session_rec(tid, 1, 1, list(SEATS))), spare.next(h3), spare.next(h4)])
    assert match(server, tid) == scores(h1, h2, h3, h4)
    # the dead box's journal recovered: all of it again, hand 3 included (an identical copy)
    upload(server, [dead.next(box_hand(tid, 1, 1, 3, SEATS, WIN_D, dealer=2))])
    assert match(server, tid) == scores(h1, h2, h3, h4)  # hand 3 once
    assert quarantine(server, tid) == []  # nothing waits for a referee
    acc = accounting(server, dead)
    assert (acc["received"], acc["counted"], acc["duplicates"], acc["quarantined"]) == (4, 3, 1, 0), acc
    dup = acc["records"][-1]
    assert dup["status"] == "duplicate" and "hand 3" in dup["reason"] and "box %s" % spare.id in dup["reason"], dup
    assert accounting(server, spare)["counted"] == 3
    page = FormSession(server.url, "org", PASSWORD)
    html = page.get("/t/%s/manage/boxes/%s" % (tid, dead.id))[2]
    assert '<th>Duplicates</th><td class="n">1</td>' in html and "counted once" in html


def test_a_recovered_copy_that_differs_is_held_and_the_ruling_decides(server):
    tid, dead, spare, (h1, h2) = dead_box_table(server)
    h3_spare, h3_dead = box_hand(tid, 1, 1, 3, SEATS, WIN_D, dealer=2), box_hand(tid, 1, 1, 3, SEATS, WIN_B, dealer=2)
    assert h3_spare["deltas"] != h3_dead["deltas"]
    upload(server, [spare.next(session_rec(tid, 1, 1, list(SEATS))), spare.next(h3_spare)])
    upload(server, [dead.next(h3_dead)])
    # held: the spare's version counts meanwhile, the dead box's waits with both versions shown
    assert match(server, tid) == scores(h1, h2, h3_spare)
    q = quarantine(server, tid)
    assert [(x["device"], x["hand"], x["accepted"]) for x in q] == [(dead.id, 3, False)], q
    assert "versions differ (points, winners, payer, fans)" in q[0]["problems"][0], q
    counted, held = q[0]["versions"]
    assert counted["source"] == "box %s record 2" % spare.id and counted["winners"] == ["D"] and counted["payer"] is None
    assert held["source"] == "box %s record 4" % dead.id and held["winners"] == ["B"] and held["payer"] == "D"
    assert held["points"] == dict(zip(SEATS, h3_dead["deltas"])) and counted["points"] == dict(zip(SEATS, h3_spare["deltas"]))
    assert accounting(server, dead)["quarantined"] == 1
    # the spare's config (a reboot) carries the scores of the version that counts
    config_totals = lambda: server.anon.get("/api/boxes/%s/config" % spare.id)[1]["totals"]  # noqa: E731
    assert config_totals() == [int(x) for x in scores(h1, h2, h3_spare).values()]
    ref = FormSession(server.url, "ref", PASSWORD)
    for path in ("/t/%s/referee/" % tid, "/t/%s/tables/1/1" % tid):
        html = ref.get(path)[2]
        assert 'class="versions"' in html and "box %s record 4" % dead.id in html and "box %s record 2" % spare.id in html, path
    # the referee counts the dead box's version: the standings follow, the spare's copy is set aside
    rulings = "/api/tournaments/%s/rulings" % tid
    assert server.ref.post(rulings, {"record": q[0]["record"], "decision": "accept", "reason": "players confirm B won"})[0] == 201
    assert match(server, tid) == scores(h1, h2, h3_dead)
    assert config_totals() == [int(x) for x in scores(h1, h2, h3_dead).values()]
    acc = accounting(server, spare)
    aside = [r for r in acc["records"] if r["hand"] == 3][0]
    assert aside["status"] == "ruled" and aside["ruling"] == "other version" and "box %s" % dead.id in aside["reason"], aside
    assert [r["status"] for r in accounting(server, dead)["records"]][-1] == "ruled"
    assert not [x for x in quarantine(server, tid) if not x["accepted"] and not x["rejected"]]
    # the referee changes their mind: rejecting it brings the spare's version back
    assert server.ref.post(rulings, {"record": q[0]["record"], "decision": "reject", "reason": "on second thought"})[0] == 201
    assert match(server, tid) == scores(h1, h2, h3_spare)
    assert [r["status"] for r in accounting(server, spare)["records"]] == ["counted", "counted"]


def test_a_hand_entered_by_hand_against_the_box_record(server):
    """The box died after hand 2 and the referee entered hands 3 and 4 from the table page; the
    dead box's journal brings hand 3 (the same as the referee's) and hand 4 (not)."""
    tid, dead, _spare, (h1, h2) = dead_box_table(server)
    entered = {}
    for n, events, dealer in ((3, WIN_D, 2), (4, WIN_A, 3)):
        st, h = server.ref.post("/api/tournaments/%s/hands" % tid, {"session": 1, "table": 1, "hand": n, "seats": list(SEATS), "dealer": dealer,
                                                                   "prevalent_wind": "E", "events": events, "reason": "the box died"})
        assert st == 201, h
        entered[n] = {"seats": list(SEATS), "deltas": h["deltas"]}
    h3, h4_box = box_hand(tid, 1, 1, 3, SEATS, WIN_D, dealer=2), box_hand(tid, 1, 1, 4, SEATS, WIN_B, dealer=3)
    assert h3["deltas"] == entered[3]["deltas"] and h4_box["deltas"] != entered[4]["deltas"]
    upload(server, [dead.next(h3), dead.next(h4_box)])
    # hand 3 counts once (the referee's); hand 4 waits, the referee's counting meanwhile
    assert match(server, tid) == scores(h1, h2, entered[3], entered[4])
    acc = accounting(server, dead)
    assert [(r["hand"], r["status"]) for r in acc["records"]] == [(None, "counted"), (1, "counted"), (2, "counted"), (3, "duplicate"),
                                                                  (4, "quarantined")], acc
    assert "entered by a referee" in acc["records"][3]["reason"]
    q = quarantine(server, tid)
    assert len(q) == 1 and q[0]["versions"][0]["source"] == "entered by a referee" and q[0]["versions"][0]["manual"], q
    # the referee takes the box's version of hand 4: the hand entered by hand no longer counts
    assert server.ref.post("/api/tournaments/%s/rulings" % tid, {"record": q[0]["record"], "decision": "accept"})[0] == 201
    assert match(server, tid) == scores(h1, h2, entered[3], h4_box)
    st, tb = server.anon.get("/api/tournaments/%s/tables/1/1" % tid)
    assert st == 200 and [(h["hand"], h["entered_by_referee"]) for h in tb["hands"]] == [(1, False), (2, False), (3, True), (4, False)], tb
