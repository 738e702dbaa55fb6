# The box frozen into the MicroPython unix port built from the Pico's own v1.28.0 source
# (tools/unix_frozen.py; 32-bit where the host compiler can, as an ESP32 or the RP2040 is): the
# figures behind docs/esp32.md. Every shipped scenario plays through the whole box (the
# simulator's device loop) in a heap an ESP32 without PSRAM has to spare with room (68 KB on a
# 32-bit build; a 64-bit build's objects are about twice as big, so 128 KB there) and writes the
# desktop simulator's journal byte for byte; frozen, the box's code is out of the heap.
# Here because it builds from the same source bundle as the Pico firmware (the pico lane).
import os
import subprocess
import sys
import tempfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools"))
sys.path.insert(0, os.path.join(REPO, "bench"))
import unix_frozen  # noqa: E402
from pico.sim import play_desktop  # noqa: E402

SCEN = os.path.join(REPO, "simulator", "scenarios")


@pytest.fixture(scope="module")
def frozen():
    exe, bits = unix_frozen.build()
    return exe, bits


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(SCEN) if n.endswith(".txt")))
def test_every_scenario_in_a_small_heap_frozen(frozen, name):
    exe, bits = frozen
    # 68 KB on 32 bits: the firmware in sub-packages (issue 17) holds ~1.9 KB more of module objects
    # from boot, and the MCR session's ninth hand, scored at its peak, no longer fits in 64 KB
    heap = "68K" if bits == 32 else "128K"
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        os.mkdir(out)
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        # only the binary's frozen modules on the path (the script's folder, simulator/, holds
        # no package of the box's)
        r = subprocess.run([exe, "-X", "heapsize=" + heap, os.path.join(REPO, "simulator", "sim_main.py"),
                            os.path.join(SCEN, name), out], cwd=empty, env=dict(os.environ, MICROPYPATH=".frozen"),
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        screens = open(os.path.join(out, "screens.txt")).read()
        assert "MemoryError" not in screens, name  # the app reset itself: the heap was too small
        jd = os.path.join(out, "journal")
        chip = {n: open(os.path.join(jd, n), "rb").read() for n in sorted(os.listdir(jd))}
        assert chip and chip == play_desktop(os.path.join(SCEN, name), board="sim")


def test_frozen_the_code_is_out_of_the_heap(frozen):
    import frozen_heap
    exe, _ = frozen
    subprocess.run(["make", "-s", "sim-mpy"], cwd=REPO, check=True, capture_output=True)
    f = frozen_heap.run(exe, "mcr_session", True, False, "512K")
    m = frozen_heap.run(exe, "mcr_session", False, False, "512K")
    assert "error" not in f and "error" not in m, (f, m)
    assert f["records"] == m["records"] > 16
    # the same binary, the same session: from .mpy files the modules' bytecode is in the heap
    assert 2 * f["after_boot"] < m["after_boot"] and 2 * f["peak_held"] < m["peak_held"], (f, m)
