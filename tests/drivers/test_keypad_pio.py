"""firmware/drivers/keypad_pio.py: the PIO keypad scanner's program and the core's side.

The program's words are checked against MicroPython v1.28.0's own PIO assembler (rp2.asm_pio,
ports/rp2/modules/rp2.py from ../shared/pico's source, run here with its two imports stood in),
written in its assembly language from the datasheet's instruction set. The core's side is driven
with the words the program pushes; the program itself runs on the emulated chip (rp2040js's PIO),
tests/pico/test_keypad_erase.py."""
import os
import sys
import tarfile
import types

import pytest

from firmware.drivers import keypad_pio
from firmware.drivers.keypad import DOWN, is_down, key_index

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(REPO, "..", "shared", "pico", "micropython-1.28.0-rp2-src.tar.xz")
KEYMAP = "123A456B789C*0#D"


def micropython_asm_pio():
    """rp2.asm_pio from MicroPython's source, on CPython."""
    if not os.path.exists(SRC):
        pytest.skip("no MicroPython source at ../shared/pico (the PIO assembler's reference)")
    with tarfile.open(SRC) as t:
        for m in t:
            if m.name.endswith("ports/rp2/modules/rp2.py"):
                code = t.extractfile(m).read().decode()
                break
    rp2c = types.ModuleType("_rp2")
    rp2c.PIO = types.SimpleNamespace(SHIFT_LEFT=0, SHIFT_RIGHT=1, JOIN_NONE=0, JOIN_TX=1, JOIN_RX=2,
                                     IN_LOW=0, IN_HIGH=1, OUT_LOW=2, OUT_HIGH=3)
    rp2c.__all__ = ["PIO"]
    mp = types.ModuleType("micropython")
    mp.const = lambda x: x
    saved = {k: sys.modules.get(k) for k in ("_rp2", "micropython")}
    sys.modules.update({"_rp2": rp2c, "micropython": mp})
    try:
        g = {"__name__": "rp2"}
        exec(compile(code, "rp2.py", "exec"), g)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return g["asm_pio"], rp2c.PIO


def test_the_program_is_what_micropythons_assembler_makes():
    asm_pio, PIO = micropython_asm_pio()
    src = '''
def scan():
    set(pins, 0)
    wrap_target()
    set(pindirs, 0b0001)
    in_(pins, 4)
    set(pindirs, 0b0010)
    in_(pins, 4)
    set(pindirs, 0b0100)
    in_(pins, 4)
    set(pindirs, 0b1000)
    in_(pins, 4)
    set(pindirs, 0)
    mov(x, isr)
    jmp(x_not_y, "changed")
    mov(isr, null)
    jmp("top")
    label("changed")
    mov(y, x)
    push(block)
    wrap()
'''
    # "top" is the wrap target: the assembler's labels are instruction numbers
    src = src.replace("    wrap_target()\n", "    wrap_target()\n    label(\"top\")\n")
    g = {}
    exec(src, g)
    ref = asm_pio(set_init=(PIO.IN_LOW,) * 4, in_shiftdir=PIO.SHIFT_LEFT, fifo_join=PIO.JOIN_RX)(g["scan"])
    ours = keypad_pio.program()
    assert list(ours[0]) == list(ref[0])
    assert ours[1:] == ref[1:]


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


def word(*keys):
    """The scan word the program pushes with these keys down (a pressed key reads low)."""
    w = 0xFFFF
    for k in keys:
        i = KEYMAP.index(k)
        r, c = divmod(i, 4)
        w &= ~(1 << (4 * (3 - r) + c))
    return w


def kp(**kw):
    k = keypad_pio.PioKeypad(FakeSM, 0, (6, 7, 8, 9), (10, 11, 12, 13), KEYMAP, debounce=3, eager=True, **kw)
    return k, k._sm


def events(k):
    out = []
    while True:
        ev = k.get()
        if ev < 0:
            return out
        out.append((KEYMAP[key_index(ev)], is_down(ev)))


def test_the_machine_is_set_up_on_the_boards_pins():
    k, sm = kp()
    assert sm.args == (0, keypad_pio.FREQ, 6, 10) and sm.on == 1
    k.deinit()
    assert sm.on == 0


def test_the_pins_must_be_consecutive():
    for rows, cols in (((6, 7, 9, 8), (10, 11, 12, 13)), ((6, 7, 8, 9), (10, 12, 11, 13)), ((6, 7, 8), (10, 11, 12, 13))):
        with pytest.raises(ValueError, match="consecutive"):
            keypad_pio.PioKeypad(FakeSM, 0, rows, cols, KEYMAP)


def test_a_tap_that_came_and_went_while_the_core_waited_is_one_press():
    # the whole tap, bounces and all, queued while the flash erased: the words come at once
    k, sm = kp()
    sm.fifo = [0xFFFF, word("5"), 0xFFFF, word("5"), 0xFFFF, word("5"), 0xFFFF]
    k.scan()
    assert events(k) == [("5", True)]
    for _ in range(3):  # the release: three calls without a change, as with the software scan
        k.scan()
    assert events(k) == [("5", False)]
    for _ in range(5):
        k.scan()
    assert events(k) == []


def test_a_press_counts_at_once_and_a_release_only_after_the_debounce():
    k, sm = kp()
    sm.fifo = [word("A")]
    k.scan()
    assert events(k) == [("A", True)]
    sm.fifo = [0xFFFF]
    k.scan()
    k.scan()
    assert events(k) == []  # two scans open: may still be the contact's bounce
    sm.fifo = [word("A")]  # it was
    k.scan()
    assert events(k) == []
    sm.fifo = [0xFFFF]
    for _ in range(3):
        k.scan()
    assert events(k) == [("A", False)]


def test_two_keys_and_a_ghost():
    k, sm = kp()
    sm.fifo = [word("1"), word("1", "#")]
    k.scan()
    assert events(k) == [("1", True), ("#", True)]
    # three corners of a rectangle: 1, 2, 4 pull 5 too: ambiguous, one GHOST event
    k2, sm2 = kp()
    sm2.fifo = [word("1", "2", "4", "5")]
    k2.scan()
    assert k2.get() == 0x7F and k2.get() == -1 and k2.ghost_scans == 1
    assert DOWN == 0x80
