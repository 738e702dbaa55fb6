# A key pressed while the flash erases is not lost (issue 21), on the emulated Pico with the
# W25Q16JV's maximum sector erase (400 ms), the board's own main.py on the stock firmware: a win's
# result is drawn, littlefs erases a sector for the hand's record prepared ahead, and a player
# taps "*" twice (40 ms down, 40 ms up) 20 ms into that erase. The core waits for the flash the
# whole time, so a software scan never sees the taps; the PIO scanner
# (firmware/drivers/keypad_pio.py) queued each edge with its scan count, and once the erase is
# over the core counts both: the win's last tile and the one before it taken back, the glass the
# same taps give after the erase. The emulator steps the scanner's state machine on the chip's
# clock, the core's wait included (pico/lib/chip.mjs). bench/pico_erase_key.py measures the
# latencies. Each hand() is ~15 s of emulation: the runs are shared between the tests.
import pytest

from bench.pico_erase_key import INTO_ERASE_MS, hand
from bench.pico_glass import first_burst_end


@pytest.fixture(scope="module")
def erase(node_ready):
    """The first erase after the win's last tile, on a run without a key: (start, end, writes)."""
    ops, writes, t_tile = hand(False, "max")
    erases = [op for op in ops if op[0] == "erase" and op[1] > t_tile]
    assert erases, "no erase after the win's result: the record is no longer prepared ahead?"
    _, s, e = erases[0]
    assert e - s >= 399  # the maximum erase
    return s, e, writes


@pytest.fixture(scope="module")
def twice_during(erase):
    s, e, _ = erase
    taps = [(s + INTO_ERASE_MS, 40, "*"), (s + INTO_ERASE_MS + 80, 40, "*")]
    assert taps[-1][0] + 40 < e  # both taps are over before the erase is
    _, writes, _, glass = hand(False, "max", taps=taps, glass=True)
    return taps[0][0], writes, glass


def test_a_tap_during_a_maximum_erase_reaches_the_glass(erase, twice_during):
    s, e, quiet = erase
    at, writes, _ = twice_during
    assert first_burst_end(quiet, at) is None or first_burst_end(quiet, at) > at + 1000  # nothing without a key
    end = first_burst_end(writes, at)
    assert end is not None, "the taps during the erase were lost"
    first = min(t for t in writes if t >= at)
    assert first >= e  # drawn after the erase (the core could not run before)
    assert end - at < (e - at) + 200  # and soon after it


def test_a_key_tapped_twice_during_a_maximum_erase_counts_twice(erase, twice_during):
    _, e, _ = erase
    later = [(e + 200, 40, "*"), (e + 400, 40, "*")]
    _, _, _, after = hand(False, "max", taps=later, glass=True)
    _, _, _, once = hand(False, "max", taps=later[:1], glass=True)
    assert after != once  # the second "*" shows
    assert twice_during[2] == after
