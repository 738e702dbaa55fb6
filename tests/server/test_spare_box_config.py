"""Issue 18.3: a table's box dies mid-session, the referee binds a spare to the table, and the
spare's config carries where the table is (host_tools/server/boxes/table_state.py): the hand to
play next, the match scores so far (a referee's correction included), the dealer where the rule
set needs it; the box (firmware) starts there. A table with no hand yet gives a plain config."""
from firmware.app import App
from firmware.journal import Journal
from protocol import config as pconfig

from .test_standings import device, seat, setup, upload
from .test_table_day import box_hand
from .helpers import session_rec

WINS = [{"win": 0, "from": 2, "hand": "123m456m789m111s22s"}]


def test_the_spare_goes_on_where_the_table_is(server, tmp_path):
    tid = setup(server, "mcr_000", players="ABCDEFGH")
    seat(server, tid, 1, ["ABCD", "EFGH"])
    dead, spare = device(server), device(server)
    assert server.org.post("/api/devices/%s/bind" % dead.id, {"tournament": tid, "table": 1})[0] == 200
    assert server.org.post("/api/devices/%s/bind" % spare.id, {"tournament": tid, "table": None})[0] == 200
    config = lambda d: server.anon.get("/api/boxes/%s/config" % d.id)  # noqa: E731
    st, cfg = config(dead)
    assert st == 200 and "hand" not in cfg and "totals" not in cfg     # nothing played yet
    events = [[{"win": c, "from": (c + 2) % 4, "hand": "123m456m789m111s22s"}] for c in (0, 1, 3)]
    hands = [box_hand(tid, 1, 1, n, "ABCD", events[n - 1], dealer=n - 1) for n in (1, 2, 3)]
    upload(server, [dead.next(session_rec(tid, 1, 1, list("ABCD")))] + [dead.next(h) for h in hands])
    # the box dies after hand 3: the spare takes the table
    st, r = server.ref.post("/api/tournaments/%s/box-swaps" % tid, {"table": 1, "device": spare.id})
    assert st == 200, r
    st, cfg = config(spare)
    want = [sum(h["deltas"][c] for h in hands) for c in range(4)]   # chairs = ABCD until hand 4
    assert st == 200 and cfg["hand"] == 4 and cfg["totals"] == want and "dealer" not in cfg, cfg
    assert pconfig.check(cfg) is None
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id=spare.id)
    assert app.push_config(cfg) is None
    s = app.session
    assert (s.hand, s.dealer, s.totals) == (4, 3, want)              # MCR: hand 4's dealer is chair 4
    # a referee corrects hand 2: the next config's scores follow
    corr = {"session": 1, "table": 1, "hand": 2, "points": {"A": 10, "B": -10, "C": 0, "D": 0}, "reason": "miscounted"}
    assert server.ref.post("/api/tournaments/%s/corrections" % tid, corr)[0] == 201
    st, cfg = config(spare)
    fixed = [want[c] - hands[1]["deltas"][c] + [10, -10, 0, 0][c] for c in range(4)]
    assert cfg["totals"] == fixed


def test_a_table_that_played_its_last_hand_gives_no_takeover(server):
    tid = setup(server, "mcr_000", players="ABCD")
    seat(server, tid, 1, ["ABCD"])
    dead = device(server)
    assert server.org.post("/api/devices/%s/bind" % dead.id, {"tournament": tid, "table": 1})[0] == 200
    hands = [box_hand(tid, 1, 1, n, "ABCD", WINS, dealer=(n - 1) % 4) for n in range(1, 17)]
    upload(server, [dead.next(session_rec(tid, 1, 1, list("ABCD")))] + [dead.next(h) for h in hands])
    st, cfg = server.anon.get("/api/boxes/%s/config" % dead.id)
    assert st == 200 and "hand" not in cfg
