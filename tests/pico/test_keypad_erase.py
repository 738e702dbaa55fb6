# A key pressed while the flash erases is not lost (issue 21), on the emulated Pico with the
# W25Q16JV's maximum sector erase (400 ms), the board's own main.py on the stock firmware: a win's
# result is drawn, littlefs erases a sector for the hand's record prepared ahead, and player 1
# taps their confirmation key (80 ms, bounces and all) 20 ms into that erase. The core waits for
# the flash the whole time, so a software scan never sees the key; the PIO scanner
# (firmware/drivers/keypad_pio.py) queued it, and the box shows player 1's confirmation once the
# erase is over. The emulator steps the scanner's state machine on the chip's clock, the core's
# wait included (pico/lib/chip.mjs). bench/pico_erase_key.py measures the latencies.
from bench.pico_erase_key import INTO_ERASE_MS, hand
from bench.pico_glass import first_burst_end


def test_a_tap_during_a_maximum_erase_reaches_the_glass(node_ready):
    ops, writes, t_tile = hand(False, "max")
    erases = [op for op in ops if op[0] == "erase" and op[1] > t_tile]
    assert erases, "no erase after the win's result: the record is no longer prepared ahead?"
    _, s, e = erases[0]
    assert e - s >= 399  # the maximum erase
    at = s + INTO_ERASE_MS
    assert first_burst_end(writes, at) is None or first_burst_end(writes, at) > at + 1000  # nothing without the key
    _, w, _ = hand(False, "max", press=(at, 80))
    end = first_burst_end(w, at)
    assert end is not None, "the tap during the erase was lost"
    first = min(t for t in w if t >= at)
    assert first >= e  # drawn after the erase (the core could not run before)
    assert end - at < (e - at) + 200  # and soon after it


def test_a_key_tapped_twice_during_a_maximum_erase_counts_twice(node_ready):
    # "*" twice, 40 ms down and 40 ms up, both inside the erase: the win's last tile and the one
    # before it taken back. The PIO queued each edge with its scan count, so the core tells the
    # 40 ms release from a bounce; the glass is the one the same taps give after the erase.
    ops, _, t_tile = hand(False, "max")
    _, s, e = [op for op in ops if op[0] == "erase" and op[1] > t_tile][0]
    twice = [(s + INTO_ERASE_MS, 40, "*"), (s + INTO_ERASE_MS + 80, 40, "*")]
    assert twice[-1][0] + 40 < e  # both taps are over before the erase is
    _, _, _, during = hand(False, "max", taps=twice, glass=True)
    later = [(e + 200, 40, "*"), (e + 400, 40, "*")]
    _, _, _, after = hand(False, "max", taps=later, glass=True)
    _, _, _, once = hand(False, "max", taps=later[:1], glass=True)
    assert after != once  # the second "*" shows
    assert during == after
