# pico/player.py's pace, against a stand-in chip that is busy a while after each key it takes:
# a slot waits for the box, and a key the table types twice ("1 1") is still released between
# its presses, as a finger must. Without MIN_GAP_MS the late second press came the instant the
# first was released: the box never saw it open (make pico-test-full's penalties_declare-stock
# lost an empty call's second "1"). No emulator here: the player's own arithmetic.
from pico.player import MIN_GAP_MS, ChipPlayer

BUSY_MS = {"C": 700}  # what the stand-in chip takes over a key pressed (a slow first screen)
BUSY_DEFAULT_MS = 90  # less than a key is held: done by the time it goes up


class BusyChip:
    parts = {"keypad": {"keymap": "123A456B789C*0#D", "cols": (10, 11, 12, 13)}}
    cut = reset = None

    def __init__(self):
        self.ms = 0.0
        self.busy_until = 0.0
        self.contacts = []  # (chip ms, key, down)

    def boot(self, **kw):
        self.ms = 0.0

    def run(self, ms):
        self.ms += ms
        return True

    def idle(self, ms, jump_ms=1000):
        return self.run(ms)

    def settle(self, max_ms=1000):
        self.ms = max(self.ms, self.busy_until)
        return True

    def burst(self):
        return 0.0

    def key(self, k, down):
        self.contacts.append((self.ms, k, down))
        if down:
            self.busy_until = self.ms + BUSY_MS.get(k, BUSY_DEFAULT_MS)


def test_a_late_box_still_sees_a_key_typed_twice_released_between_presses():
    chip = BusyChip()
    pl = ChipPlayer(chip, files={}, jump=False)
    evs = [(0, "boot")]
    t = 500
    for k in "C11#":  # as simulator/runner.py lays out "keys C1 1#": a key every 250 ms, held 100
        evs += [(t, "down", k, 0, 0), (t + 100, "up", k, 0, 0)]
        t += 250
    pl.play(evs)
    c = chip.contacts
    assert [(k, d) for _, k, d in c] == [(k, d) for k in "C11#" for d in (True, False)]
    downs = [ms for ms, k, d in c if d]
    assert downs[1] == downs[0] + 700  # "1" waited for the box
    # the box was done with the first "1" before it went up, and the slot was late: the second
    # "1" went down MIN_GAP_MS after the first went up, not at that instant
    assert c[3][0] < c[4][0] == c[3][0] + MIN_GAP_MS
    # a different key is not held back: "#" went down as the "1" before it went up
    assert c[6][0] == c[5][0]
    assert len(pl.lags) == 3
