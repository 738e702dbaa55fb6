# The stock box answers the host after a power cut late in a session (issue 21). On the stock
# build (MicroPython v1.28.0 + the .mpy files on littlefs) the code lives in the heap; booting on
# a journal of several hands, the session's replay leaves ~45 KB free in runs too short for the
# USB link's 2 KB buffers. The link, made after the replay, failed with MemoryError at boot: the
# box sat at the REPL and the host got no reply to HELLO (the traceback went to the CDC, where
# the host's idle fill discards it). The fix makes the link's buffers first, while the heap is one
# run (firmware/main.py boot, firmware/link/engine.py Buffers).
#
# The journal is the one the shipped MCR session (simulator/scenarios/mcr_session.txt) has at its
# power cut, after 8 hands, written by the desktop simulator (the chip writes the same records;
# tests/pico/test_scenarios.py), so the box boots on it at once instead of playing 8 hands. Its
# main.py is bench/pico_heap.py's: the board's loop with a heap probe, a few hundred bytes more
# than the box's own, which was enough to tip the boot before the fix (the box's own main.py
# failed the same way at d8e3e53 and passed at 8204428 by a hair).
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FS = os.path.join(REPO, "build", "pico", "fs")
SCENARIO = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")
BOOT_MS = 3000  # the script's first line after a power cut comes this long after it (simulator/runner.py)


def lines_to_cut():
    out = []
    with open(SCENARIO) as f:
        for ln in f:
            if ln.strip() == "powercut":
                return out
            out.append(ln)
    raise AssertionError("the scenario has no power cut")


def test_stock_box_answers_hello_after_a_cut_late_in_the_session(node_ready):
    sys.path.insert(0, os.path.join(REPO, "bench"))
    from pico_heap import PROBE_MAIN

    from host_tools.sync.client import Box, HostLink
    from pico import fsimage
    from pico.cdc import ChipSerial
    from pico.harness import Pico
    from pico.sim import play_desktop
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        script = os.path.join(d, "to_cut.txt")
        with open(script, "w") as f:
            f.writelines(lines_to_cut())
        journal = play_desktop(script)
    assert sum(len(v) for v in journal.values()) > 3000, journal.keys()  # 8 hands, not an empty session
    files = fsimage.tree(FS)
    files["main.py"] = PROBE_MAIN.encode()
    for n, data in journal.items():
        files["journal/" + n] = data
    with Pico() as p:  # the stock UF2
        p.boot(files=files)
        assert p.run(BOOT_MS)
        console = p.read()
        assert b"Error" not in console, console.decode(errors="replace")
        link = HostLink(ChipSerial(p), timeout=60, retries=0)
        box = Box(link)
        link.wake(pause=0)
        p.run(12)
        info = box.hello()
    assert info["device"] == "box-000000"
    assert info["last"] >= 9, info  # the session's record and its 8 hands
