"""A hand's record carries the time its result came on the screen (the winning tile's input),
not the time the box got round to preparing the record after drawing it (firmware/scorebook.py
preview -> after_draw -> _prepare_hand). On the stock Pico the work before that preparation
crossed a second the desktop does not, and the chip's journal differed from the desktop's by
one record's time (issue 21, `python -m pico.sim --compare` on mcr_session). Nor does a record that could not be
prepared ahead (a tight heap) take the time of its last confirmation."""
import pytest

from rules_min.tiles import parse_tile
from tests.app.helpers import MCR, WIN, Table


@pytest.mark.parametrize("prepared", [True, False])
def test_the_record_time_is_the_winning_tiles_not_the_preparations(tmp_path, monkeypatch, prepared):
    t = Table(tmp_path, MCR)
    if not prepared:
        # a tight heap: preparing the record ahead fails once, and the last confirmation writes it
        real, failed = t.journal.prepare, []

        def prepare(payload):
            if not failed:
                failed.append(1)
                raise MemoryError
            return real(payload)
        monkeypatch.setattr(t.journal, "prepare", prepare)
    tiles = WIN.split()
    t.keys("A10").tap(" ".join(tiles[:-1]))
    last = parse_tile(tiles[-1])
    t.ms = 1999                                   # the winning tile comes in at 1.999 s
    t.app.tap(bytes((4, last, t.copies.get(last, 0), 1)), last)
    t.app.screen()
    assert t.app.state == "confirm"
    t.ms = 2300                                   # the screen took the chip past the second
    t.app.after_draw()
    assert (t.app.book._ready is not None) == prepared   # prepared ahead, as on the box
    t.ms = 5000
    t.keys("1234")
    hands = [r for r in t.records() if r["kind"] == "hand"]
    assert len(hands) == 1 and hands[0]["hand"] == 1
    assert hands[0]["time"] == 1764400000 + 1
