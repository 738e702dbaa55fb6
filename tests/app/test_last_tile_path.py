# The way of a win's last tile to its result: work that used to fall on it is done before.
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


def test_the_fan_names_index_is_built_as_the_session_opens(tmp_path, monkeypatch):
    # the first win's result would otherwise build it between its last tile and the screen
    from firmware.ui import fan_names
    monkeypatch.setattr(fan_names, "_index", {})
    Table(tmp_path, MCR)
    assert "mcrcn" in fan_names._index
    monkeypatch.setattr(fan_names, "_index", {})
    Table(tmp_path, dict(MCR, lang="en"), name="en")
    assert "mcren" in fan_names._index


def test_the_fan_names_index_is_built_as_a_session_resumes_after_a_reboot(tmp_path, monkeypatch):
    # the first win after a power cut: its index was built between the last tile and the result
    from firmware.ui import fan_names
    t = Table(tmp_path, dict(MCR, lang="en"))
    t.keys("A10").tap(WIN).keys("1234")
    monkeypatch.setattr(fan_names, "_index", {})
    t.boot()
    assert t.app.session is not None and t.app.lang == "en"
    assert "mcren" in fan_names._index


def test_the_garbage_is_collected_before_the_confirmation_that_commits(tmp_path, monkeypatch):
    # seat by seat: after the third confirmation's screen, not inside any confirmation's key
    t = Table(tmp_path, MCR)
    t.keys("A10").tap(WIN)
    assert t.app.state == "confirm"
    t.app.after_draw()
    calls = []
    real = gc.collect
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(t.app.state) or real(*a))
    for n, k in enumerate("123"):
        t.app.press(k)
        assert calls == [], "collected inside confirmation %d's key" % (n + 1)
        t.app.screen()
        t.app.after_draw()
        assert calls == ([] if n < 2 else ["confirm"])
    t.app.press("4")
    assert calls == ["confirm"]      # the committing key itself does not collect
    assert t.app.state != "confirm"  # the hand is committed
