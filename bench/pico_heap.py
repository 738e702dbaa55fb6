"""Heap of the box on the emulated Pico through the device loop: the board's own main.py loop
(firmware.main.run) with a probe hooked in before each step, the scenario played by key presses,
tag taps and the host's requests over the USB CDC (pico/player.py, as `make pico-sim`), on the
stock UF2 (.mpy files on littlefs) and on the frozen UF2 (make pico-uf2).

    .venv/bin/python bench/pico_heap.py [--script simulator/scenarios/mcr_session.txt] [--only stock|frozen]
                                        [--board pico_w]   # the Pico W builds of tools/pico_w_uf2.py

Figures (bytes, one JSON line per firmware):
  heap              the MicroPython heap (gc.mem_free() + gc.mem_alloc() at the first step)
  after_boot_free   free at the first step of the loop: the box booted (boot() collects first),
                    at the first power-on
  min_free_raw      the lowest gc.mem_free() before any step of the session: what the allocator
                    had left between inputs, garbage included (it collects when it runs out)
  min_free_live     the lowest free right after a gc.collect(), one every COLLECT_EVERY steps:
                    the live data between inputs at the session's peak
  end_free_live     after a collection at the end
  after_cut_boot_free  free at the first step after each power cut's reboot (the session replayed
                    from the journal: the tightest boot)
  power_ons         the figures of each power-on apart (the probe's RAM goes with the power: they
                    are read before each cut; before, only the last power-on's were reported)
The probe sees the heap between loop steps only: inside a step (a hand being scored) the
transient peak is not sampled. It leaves its figures in a bytearray of its own, which the host
reads from the chip's SRAM (Pico.peek): nothing on the USB port, nothing on flash. The journal is
compared with the desktop simulator's too (the probe's collections take time on the chip).
"""
import argparse
import json
import os
import struct
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

COLLECT_EVERY = 40
MAGIC = bytes((i * 37 + 11) & 255 for i in range(12))  # built on the chip too: no literal in RAM
SLOTS = ("heap", "after_boot_free", "min_free_raw", "min_free_live", "steps", "end_free_live")
PROBE_MAIN = """# bench/pico_heap.py: the board's main.py loop with a heap probe before each step
import gc
from firmware.main import run
_H = bytearray(12 + 4 * %(n)d)
for _i in range(12):
    _H[_i] = (_i * 37 + 11) & 255
_lo = [0, 1 << 30, 1 << 30]


def _put(slot, v):
    o = 12 + 4 * slot
    _H[o] = v & 255
    _H[o + 1] = (v >> 8) & 255
    _H[o + 2] = (v >> 16) & 255
    _H[o + 3] = (v >> 24) & 255


def _probe(dev, n):
    f = gc.mem_free()
    if n == 0:
        _put(0, f + gc.mem_alloc())
        _put(1, f)
    if f < _lo[1]:
        _lo[1] = f
        _put(2, f)
    if n %% %(every)d == 0:
        gc.collect()
        f = gc.mem_free()
        _put(5, f)
        if f < _lo[2]:
            _lo[2] = f
            _put(3, f)
    _put(4, n)
    return False


run(hook=_probe)
""" % {"n": len(SLOTS), "every": COLLECT_EVERY}


def measure(script, frozen, board="pico"):
    from pico.harness import Pico
    from pico.player import ChipPlayer
    from pico.sim import box_firmware, journal_diff, play_desktop
    kw, files = box_firmware(frozen, board=board)
    files = dict(files)
    files["main.py"] = PROBE_MAIN.encode()
    t = time.time()
    from simulator.runner import events
    runs = []  # the probe's figures of each power-on: its RAM goes with the power

    def figures():
        raw = p.peek(MAGIC, 4 * len(SLOTS))
        if raw is None:
            raise SystemExit("the probe's figures are not in SRAM: did main.py run?")
        runs.append(dict(zip(SLOTS, struct.unpack("<%dI" % len(SLOTS), raw))))
    with Pico(**kw) as p:
        pl = ChipPlayer(p, files)
        with open(script) as f:
            evs = list(events(f, pl.keymap, pl.ncols))
        for ev in evs:
            if ev[1] == "powercut":
                pl.run_to(ev[0])
                figures()
            pl.play([ev])
        pl.run_to(pl.power_at + p.ms + 3 * COLLECT_EVERY * 5 + 500)  # a last collection
        figures()
        journal = pl.journal()
    wall = time.time() - t
    # the session's figures over every power-on; the boot after a power cut replays the session
    # from the journal, so its heap after boot is listed apart
    out = {"heap": runs[0]["heap"], "after_boot_free": runs[0]["after_boot_free"],
           "min_free_raw": min(r["min_free_raw"] for r in runs),
           "min_free_live": min(r["min_free_live"] for r in runs),
           "steps": sum(r["steps"] for r in runs), "end_free_live": runs[-1]["end_free_live"],
           "after_cut_boot_free": [r["after_boot_free"] for r in runs[1:]],
           "power_ons": runs}
    out.update({"firmware": ("frozen (make pico-uf2)" if frozen else "stock v1.28.0 + .mpy on littlefs")
                if board == "pico" else ("frozen (make pico-w-uf2)" if frozen else "stock (make pico-w-uf2-stock) + .mpy"),
                "board": board,
                "script": os.path.relpath(script, REPO), "records": None, "wall_s": round(wall, 1),
                "journal_as_desktop": journal_diff(play_desktop(script, board=board), journal) == []})
    from firmware.journal import Journal
    import tempfile
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        for n, data in journal.items():
            with open(os.path.join(d, n), "wb") as f:
                f.write(data)
        j = Journal(d)
        out["records"] = sum(1 for _ in j.records(1))
        j.close()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--script", default=os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt"))
    ap.add_argument("--only", choices=("stock", "frozen"))
    ap.add_argument("--board", default="pico", choices=("pico", "pico_w"))
    a = ap.parse_args(argv)
    for frozen in (False, True):
        if a.only == ("frozen" if not frozen else "stock"):
            continue
        print(json.dumps(measure(os.path.abspath(a.script), frozen, a.board)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
