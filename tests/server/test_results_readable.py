"""Results that do not mislead mid-event, through the real server on SQLite and PostgreSQL: the
awards are provisional until the sessions they cover are complete and say in words how each is
decided; a player seated at a table that has not played is "pending", not absent, in the
standings CSV; the EMA sheet's tournament cells and names come from what the organizer
registered; times are shown in the hall's time zone; the audit log says what changed."""
from __future__ import annotations

import csv
import datetime
import io
import zoneinfo

from .helpers import hand_rec, session_rec
from .test_standings import T0, device, seat, setup, table_records, upload


def page(server, path):
    st, _h, body = server.anon.request("GET", path)
    assert st == 200, (path, st)
    return body.decode()


def test_awards_are_provisional_until_their_sessions_are_complete(server):
    tid = setup(server, "mcr_000", players="ABCDEFGH", settings={"prelim_sessions": 1, "finalists": 4})
    seat(server, tid, 1, ["ABCD", "EFGH"])
    upload(server, table_records(device(server, tid, 1), tid, 1, 1, {"A": 30, "B": 10, "C": -10, "D": -30}))
    aw = server.anon.get("/api/tournaments/%s/awards" % tid)[1]["awards"]
    assert all(a["provisional"] and a["incomplete_sessions"] == [1] for a in aw.values()), aw
    html = page(server, "/t/%s/awards" % tid)
    assert 'id="provisional"' in html and "session(s) 1 not complete" in html
    for title, how in (("Best attack", "Most hands won"), ("Best defence", "Fewest deal-ins"), ("Biggest hand", "The most fans in one"),
                       ("Self-draw king", "Most wins by self-draw")):
        assert title in html and how in html, title
    assert "Name A: 1 win" in html  # counts say what they count
    # table 2 has no box: the referee ends it; the session is complete, the awards final
    assert server.ref.post("/api/tournaments/%s/tables/1/2/end" % tid, {"reason": "played on paper"})[0] == 201
    aw = server.anon.get("/api/tournaments/%s/awards" % tid)[1]["awards"]
    assert not any(a["provisional"] for a in aw.values()), aw
    assert 'id="provisional"' not in page(server, "/t/%s/awards" % tid)


def test_a_seated_player_at_a_table_that_has_not_played_is_pending_not_absent(server):
    tid = setup(server, "mcr_000", players="ABCDEFGHI")
    seat(server, tid, 1, ["ABCD", "EFGH"])  # I is not seated
    upload(server, table_records(device(server, tid, 1), tid, 1, 1, {"A": 30, "B": 10, "C": -10, "D": -30}))
    text = server.anon.request("GET", "/api/tournaments/%s/export/standings.csv" % tid)[2].decode()
    rows = {r["player"]: (r["s1_table"], r["s1_status"]) for r in csv.DictReader(io.StringIO(text))}
    assert rows["A"] == ("1", "") and rows["E"] == ("2", "pending") and rows["H"] == ("2", "pending") and rows["I"] == ("", "absent"), rows


def test_the_ema_sheet_takes_the_event_and_the_names_as_registered(server):
    tid = setup(server, "mcr_000", settings={"prelim_sessions": 1, "finalists": 4})
    players = [{"id": "A", "name": "李明", "family_name": "李", "ema_id": "04010001", "country": "CHN"},
               {"id": "B", "name": "Anna Martin", "country": "FRA"},
               {"id": "C", "name": "Ouyang Xiu", "family_name": "Ouyang", "country": "CHN"},
               {"id": "D", "name": "Kenji Sato", "country": "JPN"}]
    assert server.org.post("/api/tournaments/%s/players" % tid, players)[0] == 200
    st, t = server.org.json("PATCH", "/api/tournaments/%s" % tid, {"details": {"start_date": "2026-05-30", "end_date": "2026-06-01",
                                                                             "city": "Lyon", "country": "fra", "mers_weight": "1.5"}})
    assert st == 200 and t["details"]["country"] == "FRA" and t["details"]["end_date"] == "2026-06-01", t
    seat(server, tid, 1, ["ABCD"])
    upload(server, table_records(device(server, tid, 1), tid, 1, 1, {"A": 30, "B": 10, "C": -10, "D": -30}))
    sheet = list(csv.reader(io.StringIO(server.anon.request("GET", "/api/tournaments/%s/export/ema.csv" % tid)[2].decode())))
    assert sheet[1][2:5] == ["1", "明", "李"] and sheet[3][3:5] == ["Xiu", "Ouyang"] and sheet[2][3:5] == ["Anna", "Martin"], sheet
    assert sheet[1][11:18] == ["FRA", "Lyon", "1.5", "", "MCR", "30 May - 1 Jun 2026", "3"], sheet[1]
    for details, why in (({"time_zone": "Mars/Olympus"}, "not a time zone"), ({"country": "France"}, "three-letter"),
                         ({"start_date": "2026-06-02"}, "before the first"), ({"mers_weight": "lots"}, "mers_weight"),
                         ({"colour": "red"}, "unknown detail")):
        st, err = server.org.json("PATCH", "/api/tournaments/%s" % tid, {"details": details})
        assert st == 400 and why in err["error"], (details, err)
    assert server.anon.get("/api/tournaments/%s" % tid)[1]["details"]["start_date"] == "2026-05-30"  # refusals change nothing


def test_times_are_the_halls_and_the_audit_log_says_what_changed(server):
    tid = setup(server, "mcr_000", players="ABCD")
    zone = "Pacific/Chatham"  # UTC+12:45 or +13:45: neither the server's UTC nor a whole hour away
    assert server.org.json("PATCH", "/api/tournaments/%s" % tid, {"details": {"time_zone": zone}})[0] == 200
    seat(server, tid, 1, ["ABCD"])
    dev = device(server)
    assert server.org.post("/api/devices/%s/bind" % dev.id, {"tournament": tid, "table": 1})[0] == 200
    before = datetime.datetime.now(zoneinfo.ZoneInfo(zone))
    upload(server, [dev.next(session_rec(tid, 1, 1, list("ABCD"), time=T0))])
    after = datetime.datetime.now(zoneinfo.ZoneInfo(zone))
    html = page(server, "/t/%s/board?session=1" % tid)
    assert any("last sync %s" % x.strftime("%H:%M") in html for x in (before, after)), html[html.index("last sync"):][:60]
    assert "+00:00" not in html
    html = page(server, "/t/%s/tables/1/1" % tid)
    assert any("last sync %s" % x.strftime("%Y-%m-%d %H:%M") in html for x in (before, after))
    # the audit log: what changed, before -> after, in words
    upload(server, [dev.next(hand_rec(tid, 1, 1, 1, list("ABCD"), [24, -8, -8, -8], 0, None, 8, time=T0 + 60))])
    st, _c = server.ref.post("/api/tournaments/%s/corrections" % tid, {"session": 1, "table": 1, "hand": 1,
                                                                      "points": {"A": 32, "B": -16, "C": -8, "D": -8}, "reason": "B dealt in"})
    assert st == 201
    rows = server.org.get("/api/audit?tournament=%s" % tid)[1]
    corr = next(r for r in rows if r["action"] == "correction.add")
    assert "deltas: 24, -8, -8, -8 -> 32, -16, -8, -8" in corr["changes"] and "reason: B dealt in" in corr["changes"], corr["changes"]
    upd = next(r for r in rows if r["action"] == "tournament.update")
    assert "details: " in upd["changes"][0] and "time_zone=-" in upd["changes"][0] and zone in upd["changes"][0], upd["changes"]
    assert not any("{" in line or "'" in line for r in rows for line in r["changes"]), [r["changes"] for r in rows]
