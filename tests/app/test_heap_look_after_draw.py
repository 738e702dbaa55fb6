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
    t.keys("A10").tap(WIN).keys("1234")      # a first win: the first look, made at once
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
