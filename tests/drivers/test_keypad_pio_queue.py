# firmware/drivers/keypad_pio.py, the core's side: the words the PIO program queues (16 bits of
# matrix, a pressed key low, over a 14-bit stamp of scans counted down), as the core finds them
# in the RX FIFO, some live and some queued while the core could not look. The program itself is
# checked in test_keypad_pio.py and runs on the emulated chip in tests/pico/test_keypad_erase.py.
# Runs under pytest and on the MicroPython unix port (test_drivers_on_micropython.py).
import gc

import emu_path
from firmware.drivers import keypad_pio
from firmware.drivers.keypad import DOWN, GHOST, is_down, key_index

KEYMAP = "123A456B789C*0#D"
STEP_MS = 5  # the device loop's step: the core calls scan() this often when it is free
TICK_MS = 1.6  # one scan of the program: 16 cycles at 10 kHz


class FakeSM:
    """The state machine as the core sees it: words waiting in the RX FIFO."""

    def __init__(self, sm_id, program, freq, set_base, in_base):
        self.args = (sm_id, freq, set_base, in_base)
        self.program = program
        self.fifo = []
        self.on = 0

    def active(self, v=None):
        if v is not None:
            self.on = v
        return self.on

    def rx_fifo(self):
        return len(self.fifo)

    def get(self):
        return self.fifo.pop(0)


def word(ms, *keys):
    """The word the program pushes at `ms` after it started (the scan count at 0, counted down
    once a scan) with these keys down."""
    w = 0xFFFF
    for k in keys:
        r, c = divmod(KEYMAP.index(k), 4)
        w &= ~(1 << (4 * (3 - r) + c))
    return w << 14 | (-int(ms / TICK_MS)) & 0x3FFF


def kp():
    k = keypad_pio.PioKeypad(FakeSM, 0, (6, 7, 8, 9), (10, 11, 12, 13), KEYMAP, debounce=3, eager=True,
                             step_ms=STEP_MS)
    return k, k._sm


def events(k):
    out = []
    while True:
        ev = k.get()
        if ev < 0:
            return out
        out.append(KEYMAP[key_index(ev)] + ("v" if is_down(ev) else "^"))


def scans(k, n):
    for _ in range(n):
        k.scan()


def test_the_machine_is_set_up_on_the_boards_pins():
    k, sm = kp()
    assert sm.args == (0, keypad_pio.FREQ, 6, 10) and sm.on == 1
    k.deinit()
    assert sm.on == 0


def test_the_pins_must_be_consecutive():
    for rows, cols in (((6, 7, 9, 8), (10, 11, 12, 13)), ((6, 7, 8, 9), (10, 12, 11, 13)),
                       ((6, 7, 8), (10, 11, 12, 13))):
        try:
            keypad_pio.PioKeypad(FakeSM, 0, rows, cols, KEYMAP)
        except ValueError as e:
            assert "consecutive" in str(e)
            continue
        assert False, (rows, cols)


def test_live_a_press_counts_at_once_and_a_release_only_after_the_debounce():
    # one word per call, 5 ms apart, as when the core is free
    k, sm = kp()
    sm.fifo = [word(0, "A")]
    k.scan()
    assert events(k) == ["Av"]
    sm.fifo = [word(40)]
    k.scan()
    k.scan()
    assert events(k) == []  # two calls open: may still be the contact's bounce
    sm.fifo = [word(50, "A")]  # it was: closed again 10 ms later
    k.scan()
    assert events(k) == []
    sm.fifo = [word(120)]
    scans(k, 2)
    assert events(k) == []
    k.scan()  # the third call that reads it open
    assert events(k) == ["A^"]
    scans(k, 5)
    assert events(k) == []


def test_a_key_tapped_twice_while_the_core_was_busy_is_two_presses():
    # "1 1" typed while the core worked (a slow config, a flash erase): the program queued each
    # edge; each state lasted 40 ms, the player's tap
    k, sm = kp()
    sm.fifo = [word(0, "C"), word(40), word(80, "1"), word(120), word(160, "1"), word(200),
               word(240, "#"), word(280)]
    k.scan()
    assert events(k) == ["Cv", "C^", "1v", "1^", "1v", "1^", "#v"]
    k.scan()
    assert events(k) == []  # the last release is only as old as the calls that saw it
    k.scan()
    assert events(k) == ["#^"]


def test_the_queue_counts_a_release_no_longer_than_a_bounce_as_none():
    # two words 6.4 ms apart (the program's wait after a push, and a scan): a contact that
    # opened under the finger, or bounced longer than the wait, is not a release; one 12.8 ms
    # long (more than two steps) is
    for gap_ms, want in ((6.4, ["5v"]), (9.6, ["5v"]), (12.8, ["5v", "5^", "5v"])):
        k, sm = kp()
        sm.fifo = [word(0, "5"), word(20), word(20 + gap_ms, "5")]
        k.scan()
        assert events(k) == want, gap_ms


def test_a_word_after_calls_that_already_counted_its_state():
    # the release was seen live by one call, then the core was busy for 100 ms; the press after
    # it counts whole: the release had lasted long enough
    k, sm = kp()
    sm.fifo = [word(0, "7")]
    k.scan()
    sm.fifo = [word(40)]
    k.scan()
    assert events(k) == ["7v"]
    sm.fifo = [word(140, "7")]
    k.scan()
    assert events(k) == ["7^", "7v"]
    # and calls that already counted a state are not counted twice: open seen by two calls,
    # then closed 3 ms after the second (7.8 ms in all): still the same press
    sm.fifo = [word(200)]
    k.scan()
    k.scan()
    sm.fifo = [word(207.8, "7")]
    k.scan()
    assert events(k) == []


def test_two_keys_and_a_ghost():
    k, sm = kp()
    sm.fifo = [word(0, "1"), word(6.4, "1", "#")]
    k.scan()
    assert events(k) == ["1v", "#v"]
    # three corners of a rectangle: 1, 2, 4 pull 5 too: ambiguous, one GHOST event
    k2, sm2 = kp()
    sm2.fifo = [word(0, "1", "2", "4", "5")]
    k2.scan()
    assert k2.get() == GHOST and k2.get() == -1 and k2.ghost_scans == 1
    assert DOWN == 0x80


def test_stamps_wrap_around():
    # the count runs down through 0 to 0x3FFF (26 s of scans): a gap across it is still a gap
    k, sm = kp()
    sm.fifo = [word(0x3FFF * TICK_MS - 30, "9"), word(0x3FFF * TICK_MS + 10), word(0x3FFF * TICK_MS + 50, "9")]
    k.scan()
    assert events(k) == ["9v", "9^", "9v"]


def test_the_words_are_small_ints_and_a_scan_allocates_nothing_on_micropython():
    assert word(0) < 1 << 30 and word(12345.6) < 1 << 30  # MicroPython's small ints: no heap
    k, sm = kp()
    k.scan()
    emu_path.needs_micropython()
    words = [word(i * 20, KEYMAP[i % 16]) if i % 2 else word(i * 20) for i in range(100)]
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for w in words:
            sm.fifo.append(w)
            k.scan()
            k.scan()
            while k.get() >= 0:
                pass
        after = gc.mem_alloc()
    finally:
        gc.enable()
    print("PIO keypad scan: %d bytes allocated over 200 scans" % (after - before))
    assert after - before < 100
