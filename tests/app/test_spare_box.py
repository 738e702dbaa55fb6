"""Issue 18.3 on the box: a spare box bound to a table whose box died starts from the table's
state the server's config gives (the hand to play next, its dealer, the match scores so far) and
the table plays on: the same hands, dealers, chair changes and totals as the box that died would
have had; after a power cut the spare is back at the same place."""
from tests.app.helpers import GD, MCR, WIN, SC_WIN, Table


def state(app):
    s = app.session
    return s.hand, s.dealer, s.prevalent, list(s.chairs), list(s.totals), s.seats()


def play_mcr(t, n):
    for _ in range(n):
        t.keys("A10").tap(WIN).keys("1234")


def test_an_mcr_spare_goes_on_exactly_where_the_dead_box_was(tmp_path):
    dead = Table(tmp_path, MCR, name="dead")
    play_mcr(dead, 5)                                    # 5 hands: a chair change after hand 4
    spare = Table(tmp_path, dict(MCR, hand=6, totals=list(dead.app.session.totals)), name="spare")
    assert state(spare.app) == state(dead.app)
    dead.app.msg = ""                                    # ("Saved", from its last hand)
    assert spare.app.screen() == dead.app.screen()
    play_mcr(dead, 4)
    play_mcr(spare, 4)
    assert state(spare.app) == state(dead.app)           # the next chair change too
    hands = lambda t: [(r["hand"], r["seats"], r["dealer"], r["deltas"]) for r in t.records() if r["kind"] == "hand"]
    assert hands(spare) == hands(dead)[5:]
    spare.boot()                                         # a power cut: the spare is back at hand 10
    assert state(spare.app)[:5] == state(dead.app)[:5]


def test_a_guangdong_spare_takes_the_dealer_from_the_config(tmp_path):
    t = Table(tmp_path, dict(GD, hand=4, dealer=2, totals=[10, -4, -2, -4]))
    s = t.app.session
    assert (s.hand, s.dealer, s.totals) == (4, 2, [10, -4, -2, -4])
    t.keys("A30").tap(SC_WIN).keys("1234")               # chair 3, the dealer, self-draws
    rec = [r for r in t.records() if r["kind"] == "hand"][-1]
    assert rec["hand"] == 4 and rec["dealer"] == 2 and rec["winners"] == [2]
    assert t.app.session.totals == [a + b for a, b in zip([10, -4, -2, -4], rec["deltas"])]
    assert t.app.session.hand == 5


def test_the_session_ends_after_its_last_hand(tmp_path):
    t = Table(tmp_path, dict(MCR, hand=16, totals=[1, 2, 3, -6]))
    play_mcr(t, 1)
    assert t.app.state == "ended" and t.records()[-1]["reason"] == "hands"


def test_bad_takeovers_are_refused():
    from protocol import config
    for bad in (dict(MCR, hand=0), dict(MCR, hand=17, hands=16), dict(MCR, totals=[1, 2, 3]),
                dict(MCR, totals=[1, 2, 3, "4"]), dict(MCR, dealer=4), dict(MCR, totals=[10 ** 7, 0, 0, 0])):
        assert config.check(bad) is not None, bad
    assert config.check(dict(MCR, hand=16, dealer=3, totals=[-5, 5, 0, 0])) is None
