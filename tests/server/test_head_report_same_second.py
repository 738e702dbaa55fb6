"""The sync tool reports a box's journal head signed with the box's key, its time in whole
seconds (host_tools/server/boxes/actions.py report_head). Two syncs of one box within a second
(a config pushed, the session played, synced: the event-day browser test does it) both count:
the later report with a higher head is no replay; the same report again, or an older head with
the same second, still is."""
import time

from .test_box_accounting import bound_box, head_report, unsynced


def test_a_second_report_within_the_same_second_moves_the_head(server):
    t = server.tournament("mcr_000", players=["101", "102", "103", "104"])
    dev = bound_box(server, t, 1)
    now = int(time.time())
    assert server.anon.post("/api/boxes/%s/head" % dev.id, head_report(dev, 5, now))[0] == 200
    assert unsynced(server, t, dev) == 5
    st, body = server.anon.post("/api/boxes/%s/head" % dev.id, head_report(dev, 7, now))
    assert st == 200, body
    assert unsynced(server, t, dev) == 7
    for head in (7, 6):  # the same report replayed, an older head in the same second
        assert server.anon.post("/api/boxes/%s/head" % dev.id, head_report(dev, head, now))[0] == 409
    assert server.anon.post("/api/boxes/%s/head" % dev.id, head_report(dev, 9, now - 1))[0] == 409  # an older second
    assert unsynced(server, t, dev) == 7
