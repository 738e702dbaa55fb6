# MicroPython's own names, with stand-ins for the firmware on CPython (the desktop simulator, the
# tests): the one home of those stand-ins.
#
#   from firmware.compat import const, ticks_ms, ticks_diff, sleep_ms, sleep_us, kbd_intr, MICROPYTHON
#
# On MicroPython every name here is the port's own. `const` stays the built-in, and the modules
# that take it from here still have their `X = const(1)` folded by mpy-cross: the compiler folds
# by the name `const`, wherever it was imported from (py/parse.c; tests/hw/test_firmware_build.py
# checks the compiled modules). The clock on CPython counts milliseconds from 0 at start-up, as
# ticks_ms() does from the chip's reset.
import sys

MICROPYTHON = sys.implementation.name == "micropython"

if MICROPYTHON or sys.implementation.name == "circuitpython":
    from micropython import const

    try:
        from micropython import kbd_intr
    except ImportError:  # CircuitPython
        kbd_intr = None
else:
    # CPython. Not `try: from micropython import const`: a desktop venv may hold a stand-in
    # `micropython` package (Adafruit Blinka's) that imports typing.
    def const(x):
        return x

    kbd_intr = None  # the link's Ctrl-C switch (micropython.kbd_intr): nothing to switch here

try:
    from time import sleep_ms, sleep_us, ticks_diff, ticks_ms
except ImportError:  # CPython, CircuitPython
    import time as _time

    _T0 = _time.monotonic()

    def ticks_ms():
        return int((_time.monotonic() - _T0) * 1000)

    def ticks_diff(a, b):
        return a - b

    def sleep_ms(ms):
        _time.sleep(ms / 1000)

    def sleep_us(us):
        _time.sleep(us / 1000000)
