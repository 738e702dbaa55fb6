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
# last pushed scan (Y) and pushed only when they differ, with a stamp: the low 14 bits of a
# count of scans (OSR, counted down, as `jmp x--` is the PIO's only arithmetic). After a push
# the machine waits 5 ms (counted as 3 scans), so the bounce that follows a contact's first
# touch (<= 5 ms on flat membrane keypads) costs no FIFO word: an edge is one word, and the
# FIFO holds 8 edges, four whole taps, while the core cannot look. `push block`: with the FIFO
# full the machine waits, and goes on with the matrix as it is then.
# At 10 kHz a scan takes 16 cycles, 1.6 ms; a row is driven for 100 us before its columns are
# read (the columns' recovery through the pull-ups takes ~4 us).
#
# The core applies the debounce rules (Keypad._update) once per call, as to a software scan,
# with what the stamps tell: a word's state counts once when it arrives, and again for each
# 5 ms step (the device loop's, firmware/main.py LOOP_MS) it lasted before the next word that
# the core did not already count by calling. So a release that lasted 40 ms while the core was
# busy (a tap, then the same key again: "1 1" typed during a flash erase or a slow config) is a
# release, and the second press counts; an opening of 1-6 ms between two words (a bounce, a
# contact that chatters under a finger) is not. Words 16 bits of matrix (low: pressed) over 14
# of stamp: under 2**30, a small int that allocates nothing on MicroPython.
#
# The program is assembled here by hand (its words are checked against MicroPython's own
# assembler, rp2.asm_pio, in tests/drivers/test_keypad_pio.py) and loaded through the built-in
# _rp2 module: importing rp2 would build its assembler's classes in the heap (~1 KB the stock
# build cannot spare) to assemble 16 words.
from array import array

from firmware.drivers.keypad import Keypad

FREQ = 10000
_EXECCTRL = 24 << 12 | 1 << 7  # wrap from 24 back to 1
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
    0xA027,  # 10     mov x, osr           the scan count
    0x004C,  # 11     jmp x--, 12          one more
    0xA0E1,  # 12     mov osr, x
    0xA026,  # 13     mov x, isr           this scan
    0x00B1,  # 14     jmp x != y, 17       changed since the last push?
    0xA0C3,  # 15     mov isr, null        no: drop it
    0x0001,  # 16     jmp 1
    0xA041,  # 17     mov y, x             yes: remember it
    0x40EE,  # 18     in osr, 14           the stamp under it
    0x8020,  # 19     push block           and queue it
    0xA027,  # 20     mov x, osr           then 5 ms the bounce may take,
    0x0F56,  # 21     jmp x--, 22 [15]     counted as 3 scans of 16 cycles
    0x0F57,  # 22     jmp x--, 23 [15]
    0x0F58,  # 23     jmp x--, 24 [15]
    0xA0E1,  # 24     mov osr, x
)
_TICK_US = 1600  # one scan: 16 cycles at FREQ
_STAMP = 0x3FFF


def program():
    """The program in the form rp2.StateMachine takes (what rp2.asm_pio returns)."""
    return [array("H", _PROGRAM), -1, -1, -1, _EXECCTRL, _SHIFTCTRL, None, (0, 0, 0, 0), None]


def _consecutive(pins):
    return all(pins[i] == pins[0] + i for i in range(len(pins)))


class PioKeypad(Keypad):
    def __init__(self, StateMachine, sm_id, rows, cols, keymap, Pin=None, freq=FREQ, step_ms=5, **kw):
        # rows, cols: GPIO numbers; the columns' pull-ups are the caller's (Pin(n, IN, PULL_UP));
        # step_ms: how often the caller calls scan() (the debounce counts those calls)
        if len(rows) != 4 or len(cols) != 4 or not _consecutive(rows) or not _consecutive(cols):
            raise ValueError("keypad: the PIO scanner needs 4 consecutive row pins and 4 consecutive column pins")
        self._sm_args = (StateMachine, sm_id, rows, cols, Pin, freq)
        self._step_us = step_ms * 1000
        self._stamp = -1  # the last word's, none yet
        self._held = 0  # calls that counted the last word's state
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
            if self._held < 255:
                self._held += 1
            return self._update()  # the matrix as the last word left it, one scan later
        raw = self._raw
        while n:
            w = sm.get()
            s = w & _STAMP
            if self._stamp >= 0 and raw != self._stable:  # (a settled state: the counts are done)
                # the steps the last word's state lasted, less those already counted
                k = 1 + ((self._stamp - s) & _STAMP) * _TICK_US // self._step_us - self._held
                if k > self._n:
                    k = self._n
                while k > 0:
                    self._update()
                    k -= 1
            self._stamp = s
            w = ~w >> 14  # a pressed key reads low
            raw[0] = w >> 12 & 15
            raw[1] = w >> 8 & 15
            raw[2] = w >> 4 & 15
            raw[3] = w & 15
            self._update()
            self._held = 1
            n -= 1
        return self._len

    def deinit(self):
        self._sm.active(0)
