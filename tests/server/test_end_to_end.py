"""End to end: a synthetic MCR tournament (32 players, 3 sessions of 16 hands, seated by draw
then by rank and published through the API) uploaded by 8 concurrent sync clients as signed
records; the standings must equal host_tools.tournament's own computation from the generated
scores, and nothing is quarantined."""
import random
import threading

from host_tools.tournament.exports import format_score
from host_tools.tournament.formats.mcr_000 import mcr_standings

from .conftest import uid
from .helpers import Device, synthetic_session


def test_synthetic_tournament(server):
    rng = random.Random(7)
    players = ["P%02d" % i for i in range(1, 33)]
    tid = server.tournament("mcr_000", players=players, settings={"prelim_sessions": 3})
    tag = uid("e2e")
    devices = {n: Device("%s-%d" % (tag, n)) for n in range(1, 9)}
    for n, d in devices.items():
        assert server.org.post("/api/devices", {"id": d.id, "key": d.key.hex(), "tournament": tid, "table": n})[0] == 201
    expected_sessions = []
    for s in (1, 2, 3):
        st, seat = server.org.post("/api/tournaments/%s/seatings/%d" % (tid, s), {"method": "draw" if s == 1 else "rank", "publish": True})
        assert st == 201 and seat["published"]
        tables = [(t["table"], t["players"]) for t in seat["tables"]]
        envs, scores = synthetic_session(tid, s, tables, devices, rng, 16, t0=1_700_000_000 + s * 10_000)
        expected_sessions.append([{p: scores[p] for p in ps} for _, ps in tables])
        # 8 sync clients in parallel, batches of 20, each device's records by its own client
        by_dev = {}
        for e in envs:
            by_dev.setdefault(e["device"], []).append(e)
        errors = []

        def sync(items):
            c = server.client()
            try:
                for i in range(0, len(items), 20):
                    st, body = c.post("/api/records:batch", items[i:i + 20])
                    if st != 200 or any(r["status_code"] != 201 for r in body["results"]):
                        errors.append(body)
            finally:
                c.close()

        threads = [threading.Thread(target=sync, args=(items,)) for items in by_dev.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not errors
    body = server.anon.get("/api/tournaments/%s/standings" % tid)[1]
    assert body["problems"] == [] and body["quarantined"] == 0
    want = mcr_standings(expected_sessions, players)
    got = [(r["rank"], r["player"], r["standard"], r["match"]) for r in body["standings"]]
    assert got == [(s.rank, s.player, format_score(s.standard), format_score(s.match)) for s in want]
    assert server.sql("SELECT COUNT(*) FROM boxes_record WHERE tournament = ?", (tid,))[0][0] == 3 * 8 * 18
    # session 2 was seated by the standings after session 1
    after1 = [s.player for s in mcr_standings(expected_sessions[:1], players)]
    seat2 = server.anon.get("/api/tournaments/%s/seatings/2" % tid)[1]
    assert [p for t in seat2["tables"] for p in t["players"]] == after1
