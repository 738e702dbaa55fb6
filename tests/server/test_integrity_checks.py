"""results/integrity.py on snapshots built by hand (no database): the checks that only it makes,
where the published seating does not already catch the trouble."""
from host_tools.server.results import integrity
from host_tools.server.results.snapshot import Group, HandRow, Snapshot


def snapshot(fmt: str, players: list, hands: list, seatings=None) -> Snapshot:
    """hands: (record id, box, session, table, number, seats); each hand its own record."""
    rows = {}
    groups = {}
    for rid, dev, s, t, n, seats in hands:
        seats = tuple(seats)
        rows.setdefault((s, t), []).append(HandRow(rid, rid, dev, rid, s, t, n, "mcr", seats, (8, -8, 0, 0), (8, -8, 0, 0), 0, (0,), 1, 8, 0,
                                                   (0, 0, 0, 0), False))
        g = groups.get((dev, s, t, seats))
        groups[(dev, s, t, seats)] = Group(1, (8, -8, 0, 0), n, n, 0) if g is None else Group(g.n + 1, g.sums, g.first, n, 0)

    def reader(_snap, keys):
        return {k: rows.get(k, []) for k in keys}

    return Snapshot(tournament={"id": "T", "name": "T", "format": fmt, "settings": {}, "results_version": 1},
                    players=[{"id": p, "name": p} for p in players], seatings=seatings or {}, starts=[], ends=[], corrections=[],
                    rulings={}, penalties=[], playoffs=[], groups=groups, reader=reader)


def test_a_player_at_two_tables_of_one_session_is_flagged():
    """The survival event forms its tables live (no seating to check against): a player whose
    records name two tables of one session is flagged at both, as at three."""
    ps = ["p%d" % i for i in range(1, 11)]
    two = [(1, "a", 1, 1, 1, ps[0:4]), (2, "b", 1, 2, 1, [ps[0]] + ps[4:7])]
    v = integrity.check(snapshot("mcr_survival", ps, two))
    assert v.excluded == {1, 2}, v.problems
    assert all("player p1 plays at tables 1, 2 of session 1" in v.problems[r] for r in (1, 2))
    three = two + [(3, "c", 1, 3, 1, [ps[0]] + ps[7:10])]
    assert integrity.check(snapshot("mcr_survival", ps, three)).excluded == {1, 2, 3}
    # one table per player: nothing to flag (the test can pass)
    ok = [(1, "a", 1, 1, 1, ps[0:4]), (2, "b", 1, 2, 1, ps[4:8])]
    assert integrity.check(snapshot("mcr_survival", ps, ok)).problems == {}
