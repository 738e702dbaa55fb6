"""The size of a hand's record with no events (firmware/scorebook.py _skeleton_size), which a
penalty's or a wall end's preview needs to check that the hand stays recordable, is found once a
hand after its first screen is drawn (after_draw), not on that key's way to the glass (issue 21:
~20 ms of the Pico's time on the pen_ok and wall_ok keys)."""
from firmware.scorebook import record_module
from tests.app.helpers import MCR, WIN, Table


def test_the_record_size_is_found_after_the_first_screen_not_on_the_penalty_key(tmp_path, monkeypatch):
    t = Table(tmp_path, MCR)
    rec = record_module()
    made = []
    orig = rec.hand

    def hand(*a, **k):
        made.append(a[1])   # the hand number
        return orig(*a, **k)
    monkeypatch.setattr(rec, "hand", hand)
    t.app.screen()
    t.app.after_draw()
    assert made == [1]
    t.keys("C11")   # a penalty on seat 1, the first kind: its consequence previewed
    assert t.app.state == "pen_ok" and made == [1]
    t.keys("*")
    t.app.go("main")
    t.app.screen()
    t.app.after_draw()
    assert made == [1]   # kept for the hand

    # a new hand: its own size, not the last hand's
    t.keys("A10").tap(WIN).keys("1234")
    assert t.app.session.hand == 2
    assert made[-1] == 2
    n = len(made)
    size = t.app.book._skeleton_size()
    t.app.book._skeleton = None
    assert t.app.book._skeleton_size() == size and made[-1] == 2 and len(made) == n + 1
    assert t.app.book._skeleton[0][1] == 2
