"""Heap of the box frozen vs from .mpy files, on the unix port built from the Pico's v1.28.0 source
(tools/unix_frozen.py, 32-bit where the host can build it): the figures behind docs/esp32.md.

    .venv/bin/python bench/frozen_heap.py [--heap 64K] [--scenarios mcr_session,...] [--json]

Each scenario runs through bench/mp_app.py twice on the same binary: with the box's modules from
the binary (MICROPYPATH=.frozen) and from build/mpy's .mpy files (as on a board's filesystem),
both as the App alone ("app") and as the whole box the simulator plays ("box"). Figures in bytes:
after boot (imports and the App), peak held (collected after every step: the session at its
fullest) and the peak extra heap while a hand is scored. `make bench-frozen` builds what it needs.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = ("mcr_session", "penalties_declare", "sichuan_kongs_chajiao", "guangdong_horses", "survival_bust")
MPY = os.path.join(REPO, "build", "mpy")


def binary():
    for bits in (32, 64):
        p = os.path.join(REPO, "build", "unix-frozen", "micropython%d" % bits)
        if os.path.exists(p):
            return p, bits
    raise SystemExit("no frozen unix port: `make unix-frozen` builds it")


def run(exe, scenario, frozen, app_only, heap, pixels=False):
    script = os.path.join(REPO, "simulator", "scenarios", scenario + ".txt")
    with tempfile.TemporaryDirectory() as empty:
        # frozen: from an empty folder, only .frozen on the path; else from build/mpy, as
        # `make mp-sim` runs (the current folder comes first)
        cwd, path = (empty, ".frozen") if frozen else (MPY, MPY)
        cmd = [exe, "-X", "heapsize=" + heap, os.path.join(REPO, "bench", "mp_app.py"), script]
        if app_only:
            cmd.append("app")
        if pixels:
            cmd.append("pixels")
        r = subprocess.run(cmd, cwd=cwd, env=dict(os.environ, MICROPYPATH=path), capture_output=True, text=True,
                           timeout=600)
    out = r.stdout + r.stderr
    m = re.search(r"records (\d+).*?heap after boot (\d+) .*?peak held (\d+)", out, re.S)
    if r.returncode != 0 or m is None:
        return {"error": out.strip().splitlines()[-1] if out.strip() else "exit %d" % r.returncode}
    s = re.search(r"peak extra heap while scoring a hand (\d+)", out)
    return {"records": int(m.group(1)), "after_boot": int(m.group(2)), "peak_held": int(m.group(3)),
            "scoring_extra": int(s.group(1)) if s else 0}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--heap", default="512K", help="the heap each run gets (default 512K: room to measure)")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--pixels", action="store_true", help="box: every screen drawn into the display's frame buffer "
                    "(the fonts, the drawn names), as on a board; without: the screen models only")
    a = ap.parse_args(argv)
    exe, bits = binary()
    rows = []
    for sc in a.scenarios.split(","):
        for what in ("app", "box"):
            row = {"scenario": sc, "what": what, "bits": bits, "heap": a.heap}
            for frozen in (True, False):
                row["frozen" if frozen else "mpy"] = run(exe, sc, frozen, what == "app", a.heap, a.pixels and what == "box")
            rows.append(row)
    if a.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print("MicroPython v1.28.0 unix port, %d-bit, heap %s (bytes; frozen | .mpy)%s" % (bits, a.heap, ", box drawn in pixels" if a.pixels else ""))
    print("%-22s %-4s %17s %17s %15s" % ("scenario", "", "after boot", "peak held", "scoring extra"))
    def cell(r, k, w):
        return ("%*d" % (w, r[k])) if "error" not in r else "%*s" % (w, r["error"].split(":")[0][:w])

    for row in rows:
        f, m = row["frozen"], row["mpy"]
        print("%-22s %-4s %8s | %6s %8s | %6s %15s" % (row["scenario"], row["what"], cell(f, "after_boot", 8),
                                                     cell(m, "after_boot", 6), cell(f, "peak_held", 8),
                                                     cell(m, "peak_held", 6), cell(f, "scoring_extra", 15)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
