# Once a win's 13th tile is in, the garbage is collected after that screen is drawn (the score
# book's after_draw), not during the last tile's way to its result (firmware/flows/tiles.py).
import gc

from rules_min.tiles import parse_tile
from tests.app.helpers import MCR, WIN, Table


def test_the_garbage_is_collected_after_the_13th_tile_is_drawn(tmp_path, monkeypatch):
    t = Table(tmp_path, MCR)
    calls = []
    real = gc.collect
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(t.app.state) or real(*a))
    tiles = WIN.split()
    t.keys("A10").tap(" ".join(tiles[:12]))
    assert calls == []                       # not at every tile
    last = None
    for i, name in ((12, tiles[12]), (13, tiles[13])):
        tile = parse_tile(name)
        t.app.tap(bytes((4, tile, 9, i)), tile)
        if i == 12:
            assert calls == []               # not inside the input
            t.app.screen()
            t.app.after_draw()
            assert calls == ["tiles"]        # once its screen is out
            last = len(calls)
    assert t.app.state == "confirm"
    assert len(calls) == last                # the last tile's input and result: no collection
