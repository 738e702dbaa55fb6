# The key matrix scanned by one of the RP2040's PIO state machines, so that a key pressed while
# the core cannot run is not lost. While the flash erases a sector (littlefs, up to 400 ms on a
# W25Q16JV), MicroPython's rp2 port runs with interrupts off and the core waits: no code reads
# the flash it runs from. A software scan (firmware/drivers/keypad.py) sees nothing then, and a
# tap that comes and goes inside the erase is gone. The PIO runs from its own instruction memory:
# it keeps driving the rows and reading the columns, and queues each change of the whole matrix
# in its RX FIFO (8 words, joined), where the core finds them afterwards.
#
#   kp = PioKeypad(StateMachine, 0, row_pins, col_pins, "123A456B789C*0#D", debounce=3, eager=True)
#   kp.scan(); kp.get()            # as Keypad
#
# The program (RP2040 datasheet §3.4): the rows' output latches low once; then for each row in
# turn only that row's pin is an output (open-drain, as the software scan drives them), one
# cycle later the 4 columns are read into the ISR; the 16 bits of a scan are compared with the
# last pushed scan (Y) and pushed only when they differ. `push block`: with the FIFO full the
# machine waits, and goes on with the matrix as it is then, so the first changes (the press)
# and the present state always reach the core; changes in between may merge.
# At 10 kHz a scan takes 15 cycles, 1.5 ms; a row is driven for 100 us before its columns are
# read (the columns' recovery through the pull-ups takes ~4 us).
#
# Each word the core takes counts as one scan of the debounce rules (Keypad._update); a call
# that finds none counts one scan of the last word, as the matrix still reads that. So eager
# presses count at once, a release after `debounce` calls without a change (every 5 ms), as with
# the software scan.
#
# The program is assembled here by hand (its words are checked against MicroPython's own
# assembler, rp2.asm_pio, in tests/drivers/test_keypad_pio.py) and loaded through the built-in
# _rp2 module: importing rp2 would build its assembler's classes in the heap (~1 KB the stock
# build cannot spare) to assemble 16 words.
from array import array

from firmware.drivers.keypad import Keypad

FREQ = 10000
_EXECCTRL = 15 << 12 | 1 << 7  # wrap from 15 back to 1
_SHIFTCTRL = 2 << 30  # RX FIFO joined (8 words); shift left; no autopush
_PROGRAM = (
    0xE000,  # 0      set pins, 0          the rows' latches low
    0xE081,  # 1 wrap set pindirs, 0b0001  row 0 driven low, the others float
    0x4004,  # 2      in pins, 4           its 4 columns
    0xE082,  # 3      set pindirs, 0b0010
    0x4004,  # 4      in pins, 4
    0xE084,  # 5      set pindirs, 0b0100
    0x4004,  # 6      in pins, 4
    0xE088,  # 7      set pindirs, 0b1000
    0x4004,  # 8      in pins, 4
    0xE080,  # 9      set pindirs, 0       no row driven
    0xA026,  # 10     mov x, isr           this scan
    0x00AE,  # 11     jmp x != y, 14       changed since the last push?
    0xA0C3,  # 12     mov isr, null        no: drop it
    0x0001,  # 13     jmp 1
    0xA041,  # 14     mov y, x             yes: remember it
    0x8020,  # 15     push block           and queue it
)


def program():
    """The program in the form rp2.StateMachine takes (what rp2.asm_pio returns)."""
    return [array("H", _PROGRAM), -1, -1, -1, _EXECCTRL, _SHIFTCTRL, None, (0, 0, 0, 0), None]


def _consecutive(pins):
    return all(pins[i] == pins[0] + i for i in range(len(pins)))


class PioKeypad(Keypad):
    def __init__(self, StateMachine, sm_id, rows, cols, keymap, Pin=None, freq=FREQ, **kw):
        # rows, cols: GPIO numbers; the columns' pull-ups are the caller's (Pin(n, IN, PULL_UP))
        if len(rows) != 4 or len(cols) != 4 or not _consecutive(rows) or not _consecutive(cols):
            raise ValueError("keypad: the PIO scanner needs 4 consecutive row pins and 4 consecutive column pins")
        self._sm_args = (StateMachine, sm_id, rows, cols, Pin, freq)
        Keypad.__init__(self, rows, cols, keymap, **kw)

    def _pins(self, rows, cols):
        StateMachine, sm_id, rows, cols, Pin, freq = self._sm_args
        self._sm_args = None
        pin = Pin or (lambda n: n)
        self._sm = sm = StateMachine(sm_id, program(), freq=freq, set_base=pin(rows[0]), in_base=pin(cols[0]))
        sm.active(1)

    def scan(self):
        sm = self._sm
        n = sm.rx_fifo()
        if not n:
            return self._update()  # the matrix as the last word left it, one scan later
        raw = self._raw
        while n:
            w = ~sm.get()  # a pressed key reads low
            raw[0] = w >> 12 & 15
            raw[1] = w >> 8 & 15
            raw[2] = w >> 4 & 15
            raw[3] = w & 15
            self._update()
            n -= 1
        return self._len

    def deinit(self):
        self._sm.active(0)
