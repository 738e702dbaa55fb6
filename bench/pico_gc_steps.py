"""Where the stock build loses time (issue 21): garbage collections and module imports inside the
steps that carry an input to its screen, on the emulated Pico.

    .venv/bin/python bench/pico_gc_steps.py [--only stock|frozen] [--script FILE] [--json F]

The 16-hand MCR session of bench/pico_glass.py (typical flash times), on the board's main.py with
a light probe instead of --profile's (which the stock heap cannot hold): before and after every
loop step it reads gc.mem_free() (a step after which more is free than before collected the
garbage: nothing else frees), the modules it loaded (len(sys.modules)), and the time spent loading
flows (firmware.flows.load wrapped: a wrapper of builtins.__import__ overflows the chip's recursion
limit). Only steps that took >= STEP_MS, collected or loaded modules are kept, 14 bytes each, in a bytearray the harness reads from SRAM (Pico.peek).
For each input (as pico_glass matches it to its screen): the steps between its contact and its
last byte on the bus, the collections among them and the time of the steps that collected, the
time spent importing. Also the time of one gc.collect() after boot on the chip.
Per screen: n, p50 / max to the glass, inputs with a collection, the p50 / max of those steps'
time, import time p50 / max.
"""
import argparse
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)
sys.path.insert(0, HERE)

import pico_glass as G  # noqa: E402

N = 180
STEP_MS = 8
MAGIC = bytes((i * 71 + 5) & 255 for i in range(12))
PROBE_MAIN = """# bench/pico_gc_steps.py: the board's main.py loop, collections and imports per step
import gc
import sys
import time
from firmware import flows
from firmware import main as M
_P = bytearray(20 + 14 * %(n)d)
for _i in range(12):
    _P[_i] = (_i * 71 + 5) & 255
_T = time.ticks_us
_F = gc.mem_free
_c = [0, 0]  # records, flows.load us in this step
_load = flows.load


def _put(o, v, w):
    for i in range(w):
        _P[o + i] = (v >> (8 * i)) & 255


def load(name):
    if flows.loaded(name):
        return _load(name)
    t = _T()
    r = _load(name)
    _c[1] += time.ticks_diff(_T(), t)
    return r


flows.load = load
_step = M.Device.step


def step(self):
    _c[1] = 0
    m = len(sys.modules)
    f = _F()
    ms = time.ticks_ms()
    t = _T()
    r = _step(self)
    d = time.ticks_diff(_T(), t)
    g = _F()
    n = _c[0]
    if n < %(n)d and (d >= %(step_us)d or g > f or len(sys.modules) > m):
        o = 20 + 14 * n
        _put(o, ms, 4)
        _put(o + 4, min(d // 10, 65535), 2)
        _put(o + 6, f >> 4, 2)
        _put(o + 8, g >> 4, 2)
        _put(o + 10, min(_c[1] // 10, 65535), 2)
        _put(o + 12, min(max(len(sys.modules) - m, 0), 255), 2)
        _c[0] = n + 1
        _put(12, n + 1, 4)
    if self.steps == 1:
        gc.collect()
        t = _T()
        gc.collect()
        _put(16, time.ticks_diff(_T(), t), 4)
    return r


M.Device.step = step
M.run()
""" % {"n": N, "step_us": STEP_MS * 1000}


def records(p):
    head = p.peek(MAGIC, 8)
    if head is None:
        raise SystemExit("the probe's records are not in SRAM: did main.py run?")
    n, collect_us = struct.unpack("<II", head)
    raw = p.peek(MAGIC, 8 + 14 * n)[8:]
    out = []
    for i in range(n):
        ms, d, f, g, imp, nm = struct.unpack_from("<I5H", raw, 14 * i)
        out.append({"ms": ms, "step_ms": d / 100.0, "free": f << 4, "after": g << 4,
                    "import_ms": imp / 100.0, "new_modules": nm, "collected": g > f})
    return out, collect_us


def run(lines, frozen):
    from pico.harness import Pico
    from pico.player import ChipPlayer
    from pico.sim import box_firmware
    from simulator.runner import Script
    kw, files = box_firmware(frozen)
    states = G.desktop_states(lines)
    files = dict(files)
    files["main.py"] = PROBE_MAIN.encode()
    rows, recs, collects = [], [], []
    with Pico(flash_timing=True, **kw) as p:
        pl = ChipPlayer(p, files)
        sc = Script(pl.keymap, pl.ncols)
        evs = sc.start() + [ev for ln in lines for ev in sc.line(ln)]
        pl.play(evs[:1])
        p.display_writes(True)
        p.flash_waits(True)
        inputs, pending, shot = [], None, 0

        def flush():
            got = G.match(inputs, p.display_writes(), p.flash_waits())
            r, c = records(p)
            collects.append(c)
            for row in got:
                attach(row, r)
            rows.extend(got)
            recs.extend(r)
            del inputs[:]
        for ev in evs[1:]:
            if ev[1] == "powercut":
                flush()
            pl.play([ev])
            name = ev[1]
            if name == "boot":
                p.display_writes(True)
                p.flash_waits(True)
            elif name in ("down", "place"):
                pending = ("key" if name == "down" else "tile", ev[2] if name == "down" else ev[2].hex(), p.ms)
            elif name == "shot":
                state = states[shot][1] if shot < len(states) else "?"
                shot += 1
                if pending is not None:
                    inputs.append(pending + (state,))
                pending = None
        p.run(2000)
        flush()
    return rows, recs, collects


def attach(row, recs):
    """The probe's steps that started between the input's contact and its last byte (the step
    that draws the screen ends after it)."""
    t0, end = row["t0"], row["end"]
    mine = [r for r in recs if t0 - 1 <= r["ms"] < end]
    row["gc"] = [r["step_ms"] for r in mine if r["collected"]]
    row["import_ms"] = round(sum(r["import_ms"] for r in mine), 2)


def summary(rows, recs, collects):
    by = {}
    for r in rows:
        by.setdefault(("commit" if r.get("flash_ms") is not None else r["kind"], r["state"]), []).append(r)
    out = []
    for k, rs in sorted(by.items()):
        v = [r["ms"] for r in rs]
        g = [r for r in rs if r.get("gc")]
        imp = [r.get("import_ms", 0) for r in rs]
        out.append({"input": k[0], "screen": k[1], "n": len(v), "p50_ms": G.pct(v, 50), "max_ms": max(v),
                    "with_gc": len(g), "gc_step_p50_ms": G.pct([max(r["gc"]) for r in g], 50) if g else None,
                    "gc_step_max_ms": max(max(r["gc"]) for r in g) if g else None,
                    "import_p50_ms": G.pct(imp, 50), "import_max_ms": max(imp)})
    keys = [r["ms"] for r in rows if r["kind"] == "key" and r["flash_ms"] is None]
    res = [r["ms"] for r in rows if r["kind"] == "tile" and r["state"] == "confirm"]
    return {"screens": out, "collections": sum(1 for r in recs if r["collected"]),
            "in_inputs": sum(len(r.get("gc", ())) for r in rows), "collect_us_after_boot": collects,
            "records": len(recs), "keys": len(keys), "key_p50_ms": G.pct(keys, 50), "key_p99_ms": G.pct(keys, 99),
            "result_max_ms": max(res) if res else None,
            "import_total_ms": round(sum(r["import_ms"] for r in recs), 1),
            "min_free_between": min(r["free"] for r in recs) if recs else None}


def report(name, s):
    print("-- %s: %d keys p50 %.1f p99 %.1f ms, last tile -> result max %s ms (this probe's run)" % (
        name, s["keys"], s["key_p50_ms"], s["key_p99_ms"], s["result_max_ms"]))
    print("   gc.collect() after boot on the chip: %s us; collections in the session: %d, %d of them inside "
          "an input's way to its screen; imports: %.1f ms in all; lowest free before a step %s" % (
              s["collect_us_after_boot"], s["collections"], s["in_inputs"], s["import_total_ms"], s["min_free_between"]))
    print("   %-6s %-12s %4s %8s %8s %7s %11s %11s %10s %10s" % (
        "input", "screen", "n", "p50", "max", "w/ gc", "gc step p50", "gc step max", "import p50", "import max"))
    for r in s["screens"]:
        f = lambda v: "-" if v is None else "%.1f" % v  # noqa: E731
        print("   %-6s %-12s %4d %8.1f %8.1f %7d %11s %11s %10s %10s" % (
            r["input"], r["screen"], r["n"], r["p50_ms"], r["max_ms"], r["with_gc"], f(r["gc_step_p50_ms"]),
            f(r["gc_step_max_ms"]), f(r["import_p50_ms"]), f(r["import_max_ms"])))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("stock", "frozen"))
    ap.add_argument("--script", default=G.SCRIPT)
    ap.add_argument("--json", default=os.path.join(REPO, "build", "bench", "pico_gc_steps.json"))
    a = ap.parse_args(argv)
    with open(a.script) as f:
        lines = f.readlines()
    res = {}
    for name, frozen in G.firmwares(a.only):
        rows, recs, collects = run(lines, frozen)
        res[name] = summary(rows, recs, collects)
        report(name, res[name])
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
