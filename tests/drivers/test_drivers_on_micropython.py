"""The driver tests again on the MicroPython unix port (so `make test` covers both interpreters),
the allocation measurements only MicroPython can make, mpy-cross on the device modules, and the
CPython stand-in for `framebuf` against the real one."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BIN = Path(sys.executable).parent
MICROPYTHON = BIN / "micropython"
MPY_CROSS = BIN / "mpy-cross"
HEAP = "128K"  # less than an RP2040 leaves free to the application

PLAIN = ["test_mfrc522.py", "test_pn532.py", "test_tile_tag.py", "test_keypad.py",
         "test_keypad_pio_queue.py", "test_ssd1306.py", "test_st7789.py"]
# CPython only: checks the PIO keypad's program with MicroPython's own assembler from its source
CPYTHON_ONLY = ["test_keypad_pio.py"]
DEVICE_MODULES = ["firmware/drivers/mfrc522.py", "firmware/drivers/pn532.py",
                  "firmware/drivers/keypad.py", "firmware/drivers/keypad_pio.py", "firmware/drivers/ssd1306.py",
                  "firmware/drivers/st7789.py", "firmware/tags/tile_tag.py"]



def count_tests(path):
    return len(re.findall(r"^def test_\w+\(", path.read_text(), re.M))


_runs = {}


def mp_run(module):
    # one interpreter per module: each driver's tests get the whole 128K heap, as a driver on a
    # board gets what the application leaves (modules compiled from source stay in RAM)
    if module not in _runs:
        _runs[module] = subprocess.run(
            [str(MICROPYTHON), "-X", "heapsize=" + HEAP, "tests/mp_run.py",
             "tests/drivers/" + module],
            capture_output=True, text=True, timeout=60, cwd=REPO,
        )
    return _runs[module]


def test_plain_modules_list_is_complete():
    found = sorted(p.name for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    assert found == sorted(PLAIN + CPYTHON_ONLY)


@pytest.mark.parametrize("module", PLAIN)
def test_driver_tests_pass_on_micropython(module):
    expected = count_tests(HERE / module)
    assert expected >= 5
    proc = mp_run(module)
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    assert (proc.returncode, last) == (0, "%d passed, 0 failed" % expected), \
        proc.stdout + proc.stderr


@pytest.mark.parametrize("module, what, per", [
    ("test_mfrc522.py", "MFRC522 empty poll", "100 polls"),
    ("test_pn532.py", "PN532 empty poll", "100 polls"),
    ("test_keypad.py", "keypad scan", "100 scans"),
    ("test_keypad_pio_queue.py", "PIO keypad scan", "200 scans"),
    ("test_ssd1306.py", "SSD1306 show", "10 frames"),
])
def test_no_allocation_measured_on_micropython(module, what, per):
    out = mp_run(module).stdout
    m = re.search(r"^%s: (\d+) bytes allocated over %s$" % (re.escape(what), per), out, re.M)
    assert m, "measurement missing from the MicroPython run:\n" + out
    assert int(m.group(1)) == 0


def test_empty_poll_transaction_count_reported():
    out = mp_run("test_mfrc522.py").stdout
    m = re.search(r"^MFRC522 empty poll: (\d+) transactions", out, re.M)
    assert m and int(m.group(1)) < 30


@pytest.mark.parametrize("src", DEVICE_MODULES)
def test_device_modules_compile_with_mpy_cross(src, tmp_path):
    out = tmp_path / (Path(src).stem + ".mpy")
    proc = subprocess.run([str(MPY_CROSS), "-o", str(out), str(REPO / src)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0


DRAW = """
import framebuf
def draw(fmt, w, h, colours):
    buf = bytearray(w * h * 2)
    fb = framebuf.FrameBuffer(buf, w, h, fmt)
    a, b = colours
    fb.fill(b)
    fb.rect(1, 2, w - 3, h - 4, a)
    fb.fill_rect(-3, 5, 9, 40, a)
    fb.fill_rect(6, 7, 4, 3, b)
    fb.hline(-2, h - 2, w + 4, a)
    fb.vline(w - 5, -1, h + 2, a)
    fb.rect(3, 3, 7, 5, b, True)
    for x1, y1, x2, y2 in ((0, 0, w - 1, h - 1), (w - 1, 0, 0, h - 1), (2, 20, 30, 22),
                           (5, h + 4, 9, -6), (-10, 3, w + 10, 9), (12, 12, 12, 12),
                           (30, 2, 4, 17)):
        fb.line(x1, y1, x2, y2, a)
    for i in range(0, w * h, 37):
        fb.pixel(i % w, i // w, a if i % 2 else b)
    fb.pixel(-1, 0, a)
    fb.pixel(w, h, a)
    return buf.hex() + " " + str(fb.pixel(2, 2)) + " " + str(fb.pixel(w, 0))
for fmt, colours in ((framebuf.MONO_VLSB, (1, 0)), (framebuf.MONO_HLSB, (1, 0)),
                     (framebuf.RGB565, (0xF81F, 0x07E0)), (framebuf.GS8, (0xA5, 0x11))):
    print(draw(fmt, 37, 29, colours))
"""


def test_the_cpython_framebuf_shim_draws_what_micropython_draws():
    real = subprocess.run([str(MICROPYTHON), "-c", DRAW], capture_output=True, text=True,
                          timeout=60)
    assert real.returncode == 0, real.stderr
    shim = subprocess.run([sys.executable, "-c", DRAW], capture_output=True, text=True,
                          timeout=60, env={"PYTHONPATH": os.pathsep.join((str(REPO / "tests" / "shims"), str(REPO)))})
    assert shim.returncode == 0, shim.stderr
    assert len(real.stdout.splitlines()) == 4
    assert shim.stdout == real.stdout
