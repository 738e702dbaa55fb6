# The App asks heap.roomy() (gc.mem_free(): a walk of the whole heap, ~13 ms on the frozen Pico)
# whether to keep the flows of every hand loaded. A stale answer is not asked again inside an
# input (the last tile of a win drops the tile flow: its result waited for that walk), but once
# the input's screen is out, in after_draw().
from firmware import heap

from rules_min.tiles import parse_tile
from tests.app.helpers import MCR, WIN, Table


def test_a_stale_heap_look_waits_for_after_draw(tmp_path, monkeypatch):
    looks = []
    monkeypatch.setattr(heap, "roomy", lambda need=None: looks.append(1) or True)
    t = Table(tmp_path, MCR)
    t.keys("A10").tap(WIN).keys("1234")
    assert looks and t.app.state == "main"
    tiles = WIN.split()
    t.keys("A10").tap(" ".join(tiles[:-1]))
    t.ms += 6000                             # the last look is now stale (5 s)
    n = len(looks)
    last = parse_tile(tiles[-1])
    t.app.tap(bytes((4, last, 7, 1)), last)  # the 14th tile: the result, scored
    assert t.app.state == "confirm"
    assert len(looks) == n                   # not looked at inside the input
    t.app.screen()
    t.app.after_draw()
    assert len(looks) == n + 1               # looked at once its screen is out
    t.app.after_draw()
    assert len(looks) == n + 1               # and only once


def test_the_first_look_is_made_after_the_first_screen_not_in_the_first_win(tmp_path, monkeypatch):
    # made where it is first needed, it fell inside the session's first win's last tile (and the
    # first win's after every reboot)
    looks = []

    def roomy(need=None):
        if need == heap.HOT:                 # the App's look (the session's start has one of its own)
            looks.append(1)
        return True
    monkeypatch.setattr(heap, "roomy", roomy)
    for boot in range(2):
        t = Table(tmp_path, MCR if boot == 0 else None)
        assert looks == []                   # not as the app starts
        t.app.screen()
        t.app.after_draw()                   # its first screen is out
        assert looks == [1]
        tiles = WIN.split()
        t.keys("A10").tap(" ".join(tiles[:-1]))
        n = len(looks)
        last = parse_tile(tiles[-1])
        t.app.tap(bytes((4, last, 7, 1 + boot)), last)
        assert t.app.state == "confirm"
        assert len(looks) == n               # the last tile's input made no look
        t.app.screen()
        t.app.after_draw()
        t.keys("1234")
        assert t.app.state == "main"
        del looks[:]
