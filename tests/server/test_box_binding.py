"""Issue 19 items 1 and 2: a box belongs to one tournament at a time, and only that tournament's
organizers (or a server administrator) register, bind, unbind or move it, on the Boxes page's
forms as on the API; a record counts only for the tournament and table its box was bound to when
the record was made (the binding history), and a record quarantined for it leaves quarantine
only by a ruling. SQLite and PostgreSQL."""
import time

from .conftest import PASSWORD, uid
from .form_session import FormSession, errors_on
from .helpers import Device, hand_rec
from .test_standings import seat, standings, table_records, upload

P = ["p1", "p2", "p3", "p4"]
SCORES = dict(zip(P, (30, 10, -10, -30)))


def organizer_of(server, tid: str) -> str:
    """A new account, organizer of ``tid`` only."""
    name = uid("orgof")
    st, body = server.org.post("/api/accounts", {"username": name, "password": PASSWORD, "tournament": tid, "role": "organizer"})
    assert st == 201, body
    return name


def bound_box(server, tid: str, table: int) -> Device:
    dev = Device(uid("box"))
    st, body = server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": table})
    assert st == 201, body
    return dev


def binding(server, dev: Device) -> tuple:
    return tuple(server.sql("SELECT tournament_id, \"table\" FROM boxes_device WHERE id = ?", (dev.id,))[0])


def match(server, tid: str) -> dict:
    return {r["player"]: r["match"] for r in standings(server, tid)["standings"]}


def quarantine(server, tid: str) -> list:
    st, q = server.ref.get("/api/tournaments/%s/quarantine" % tid)
    assert st == 200, q
    return q


def test_another_tournaments_organizer_cannot_take_a_box_on_the_boxes_page(server):
    t = server.tournament("mcr_000", players=P)
    seat(server, t, 1, [P])
    dev = bound_box(server, t, 1)
    upload(server, table_records(dev, t, 1, 1, SCORES))
    assert match(server, t)["p1"] == "30"
    u = server.tournament("mcr_000", players=["q1", "q2", "q3", "q4"])
    page = FormSession(server.url, organizer_of(server, u), PASSWORD)
    boxes = "/t/%s/manage/boxes" % u
    # the register form with T's box id and any key
    st, _, body = page.post(boxes, {"action": "register", "box-id": dev.id, "box-key": "ab" * 32, "box-label": "", "box-table": "1"})
    assert st == 200 and "belongs to tournament %s" % t in errors_on(body), errors_on(body)
    # the row form "bind", with an empty table (unbind) and with a table of U
    for table in ("", "3"):
        st, _, _ = page.post(boxes, {"action": "bind", "device": dev.id, "table": table})
        assert st == 302
        assert "belongs to tournament %s" % t in errors_on(page.get(boxes)[2])
        assert binding(server, dev) == (t, 1), table
    # the API refuses it as well: register again, bind, unbind
    api = server.login(organizer_of(server, u))
    assert api.post("/api/devices", {"id": dev.id, "key": "ab" * 32, "tournament": u, "table": 1})[0] in (403, 409)
    assert api.post("/api/devices/%s/bind" % dev.id, {"tournament": u, "table": 2})[0] == 403
    assert api.post("/api/devices/%s/bind" % dev.id, {"tournament": None, "table": None})[0] == 403
    assert binding(server, dev) == (t, 1)
    # T's records still count and the box still gets T's config
    assert match(server, t)["p1"] == "30" and quarantine(server, t) == []
    assert server.anon.get("/api/boxes/%s/config" % dev.id)[0] == 200
    assert not [a for a in server.org.get("/api/audit?tournament=" + u)[1] if a["action"].startswith("device.")]


def test_a_released_box_is_taken_only_by_a_server_administrator(server):
    t = server.tournament("mcr_000", players=P)
    u = server.tournament("mcr_000", players=["q1", "q2", "q3", "q4"])
    dev = bound_box(server, t, 1)
    t_org = server.login(organizer_of(server, t))
    u_org = server.login(organizer_of(server, u))
    # T's organizer takes the box off its table on the Boxes page: it stays T's
    page = FormSession(server.url, organizer_of(server, t), PASSWORD)
    assert page.post("/t/%s/manage/boxes" % t, {"action": "bind", "device": dev.id, "table": ""})[0] == 302
    assert binding(server, dev) == (t, None)
    assert dev.id in page.get("/t/%s/manage/boxes" % t)[2]
    # releases it from the tournament (API): nobody's box, which U's organizer cannot take
    st, body = t_org.post("/api/devices/%s/bind" % dev.id, {"tournament": None, "table": None})
    assert st == 200 and body["tournament"] is None
    assert u_org.post("/api/devices/%s/bind" % dev.id, {"tournament": u, "table": 1})[0] == 403
    assert binding(server, dev) == (None, None)
    page_u = FormSession(server.url, organizer_of(server, u), PASSWORD)
    st, _, body = page_u.post("/t/%s/manage/boxes" % u, {"action": "register", "box-id": dev.id, "box-key": dev.key.hex(), "box-label": "",
                                                         "box-table": "1"})
    assert st == 200 and "server administrator" in errors_on(body) and binding(server, dev) == (None, None)
    # a server administrator gives it to U
    assert server.org.post("/api/devices/%s/bind" % dev.id, {"tournament": u, "table": 1})[0] == 200
    assert binding(server, dev) == (u, 1)
    # U's organizer moves it between U's tables, not back to T (that needs T's organizer too)
    assert u_org.post("/api/devices/%s/bind" % dev.id, {"tournament": u, "table": 2})[0] == 200
    assert u_org.post("/api/devices/%s/bind" % dev.id, {"tournament": t, "table": 2})[0] == 403
    # the history: T table 1, T (no table), none, U table 1, U table 2
    hist = server.org.get("/api/devices/%s/bindings" % dev.id)[1]
    assert [(b["tournament"], b["table"]) for b in hist] == [(t, 1), (t, None), (u, 1), (u, 2)]
    assert all(b["until"] for b in hist[:-1]) and hist[-1]["until"] is None
    assert t_org.get("/api/devices/%s/bindings" % dev.id)[0] == 403  # U's box now: T's organizer reads nothing of it


def test_a_box_never_bound_to_the_tournament_counts_nowhere_in_it(server):
    """A box registered under U and then unbound, and a box bound to U, write records into T's
    latest and earlier sessions: none of them counts; each waits in T's quarantine with why."""
    t = server.tournament("mcr_000", players=P)
    u = server.tournament("mcr_000", players=["q1", "q2", "q3", "q4"])
    seat(server, t, 1, [P])
    seat(server, t, 2, [P])
    loose = bound_box(server, u, 1)
    assert server.org.post("/api/devices/%s/bind" % loose.id, {"tournament": None, "table": None})[0] == 200
    upload(server, table_records(loose, t, 2, 1, SCORES))  # T's latest session
    at_u = bound_box(server, u, 2)
    upload(server, table_records(at_u, t, 1, 1, SCORES))  # T's earlier session
    assert set(match(server, t).values()) == {"0"}
    q = quarantine(server, t)
    assert len(q) == 6 and not any(x["accepted"] for x in q)
    why = {x["device"]: x["problems"] for x in q}
    assert any("was not bound to tournament %s" % t in p for p in why[loose.id]), why
    assert any("was not bound to tournament %s" % t in p and "bound to tournament %s table 2" % u in p for p in why[at_u.id]), why
    # a referee's ruling is what lets them count
    for x in q:
        if x["device"] == at_u.id:
            assert server.ref.post("/api/tournaments/%s/rulings" % t, {"record": x["record"], "decision": "accept", "reason": "lent box"})[0] == 201
    assert match(server, t)["p1"] == "30"


def test_a_quarantined_record_leaves_quarantine_only_by_a_ruling(server):
    """Today publishing session 2 released a record of U's box quarantined in T's session 1."""
    t = server.tournament("mcr_000", players=P)
    u = server.tournament("mcr_000", players=["q1", "q2", "q3", "q4"])
    seat(server, t, 1, [P])
    at_u = bound_box(server, u, 1)
    upload(server, table_records(at_u, t, 1, 1, SCORES))
    before = quarantine(server, t)
    assert len(before) == 3 and match(server, t)["p1"] == "0"
    seat(server, t, 2, [P])
    after = quarantine(server, t)
    assert [x["record"] for x in after] == [x["record"] for x in before] and not any(x["accepted"] for x in after)
    assert match(server, t)["p1"] == "0"
    server.org.post("/api/tournaments/%s/seatings/3" % t, {"method": "manual", "tables": [P], "publish": True})
    assert len(quarantine(server, t)) == 3


def test_records_count_where_the_box_was_bound_when_they_were_made(server):
    """A box moves from table 1 to table 2 between sessions: session 1's records, synced after
    the move, still count at table 1 (the box was there when it made them); a record it makes
    for table 1 after the move (its own time says so) does not."""
    t = server.tournament("mcr_000", players=P + ["p5", "p6", "p7", "p8"])
    seat(server, t, 1, [P, ["p5", "p6", "p7", "p8"]])
    seat(server, t, 2, [["p5", "p6", "p7", "p8"], P])
    dev = bound_box(server, t, 1)
    recs = table_records(dev, t, 1, 1, SCORES)  # made at table 1 (their time is before the move)
    assert server.org.post("/api/devices/%s/bind" % dev.id, {"tournament": t, "table": 2})[0] == 200
    upload(server, recs)
    upload(server, table_records(dev, t, 2, 2, SCORES))
    assert match(server, t)["p1"] == "60" and quarantine(server, t) == []
    late = dev.next(hand_rec(t, 1, 1, 2, P, [24, -8, -8, -8], 0, time=int(time.time()) + 60))
    upload(server, [late])
    q = quarantine(server, t)
    assert len(q) == 1 and q[0]["seq"] == late["seq"] and "was not bound to tournament %s table 1" % t in q[0]["problems"][0], q
    assert match(server, t)["p1"] == "60"


def test_a_box_swapped_out_at_its_table_keeps_what_it_made_there(server):
    """A table's box dies and a referee swaps in a spare (the table page's action, boxes.swap):
    the dead box's records, recovered after the swap, count at the table it was at when it made
    them; one it makes for that table after the swap does not."""
    t = server.tournament("mcr_000", players=P)
    seat(server, t, 1, [P])
    dead = bound_box(server, t, 1)
    spare = Device(uid("box"))
    assert server.org.post("/api/devices", {"id": spare.id, "key": spare.key.hex(), "tournament": t, "table": None})[0] == 201
    recs = table_records(dead, t, 1, 1, SCORES)  # made before it died
    st, body = server.ref.post("/api/tournaments/%s/box-swaps" % t, {"table": 1, "device": spare.id})
    assert st == 200 and binding(server, dead) == (t, None) and binding(server, spare) == (t, 1), body
    upload(server, recs)
    assert match(server, t)["p1"] == "30" and quarantine(server, t) == []
    late = dead.next(hand_rec(t, 1, 1, 2, P, [24, -8, -8, -8], 0, time=int(time.time()) + 60))
    upload(server, [late])
    q = quarantine(server, t)
    assert len(q) == 1 and q[0]["seq"] == late["seq"] and "was not bound to tournament %s table 1" % t in q[0]["problems"][0], q
    assert match(server, t)["p1"] == "30"
