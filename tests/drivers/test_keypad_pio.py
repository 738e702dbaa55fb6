"""firmware/drivers/keypad_pio.py: the PIO keypad scanner's program and the core's side.

The program's words are checked against MicroPython v1.28.0's own PIO assembler (rp2.asm_pio,
ports/rp2/modules/rp2.py from ../shared/pico's source, run here with its two imports stood in),
written in its assembly language from the datasheet's instruction set. The core's side, driven
with the words the program pushes: test_keypad_pio_queue.py; the program itself runs on the
emulated chip (rp2040js's PIO), tests/pico/test_keypad_erase.py."""
import os
import sys
import tarfile
import types

import pytest

from firmware.drivers import keypad_pio

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(REPO, "..", "shared", "pico", "micropython-1.28.0-rp2-src.tar.xz")


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
    mov(x, osr)
    jmp(x_dec, "count")
    label("count")
    mov(osr, x)
    mov(x, isr)
    jmp(x_not_y, "changed")
    mov(isr, null)
    jmp("top")
    label("changed")
    mov(y, x)
    in_(osr, 14)
    push(block)
    mov(x, osr)
    jmp(x_dec, "b1")[15]
    label("b1")
    jmp(x_dec, "b2")[15]
    label("b2")
    jmp(x_dec, "b3")[15]
    label("b3")
    mov(osr, x)
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


def test_the_scanner_counts_the_device_loops_step():
    # the debounce counts calls of scan(); the queue's stamps turn into calls at this step
    import inspect

    from firmware import main
    assert inspect.signature(keypad_pio.PioKeypad).parameters["step_ms"].default == main.LOOP_MS
