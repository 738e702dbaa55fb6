"""Boot on the emulated Pico, where its time goes (issue 21): the box's main.py with a probe that
times every import that loads a module (builtins.__import__ wrapped, nested imports inside their
parent's time and listed under it) and boot() itself, up to the first screen on the bus.

    .venv/bin/python bench/pico_boot.py [--only stock|frozen] [--top 30] [--fs build/pico/fs]

A fresh flash (no journal, no config: the idle screen). Printed: bench/pico_score.py's boot
figure (the box's own main.py: power on to the first lit pixel, 20 ms steps), then with the
probe (a little slower): the first lit pixel, the chip's ms at main.py's
start, after the imports, after boot(), and at the first screen's show; the imports by time.
The probe's text goes into a bytearray the harness reads from SRAM (Pico.peek).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)
sys.path.insert(0, HERE)

MAGIC = bytes((i * 29 + 3) & 255 for i in range(12))
SIZE = 6000
PROBE_MAIN = """# bench/pico_boot.py: the box's main.py, boot timed
import time
_t0 = time.ticks_us()
import builtins
import sys
_P = bytearray(12 + %(size)d)
for _i in range(12):
    _P[_i] = (_i * 29 + 3) & 255
_o = [12, 0]  # write offset, depth
_imp = builtins.__import__


def _say(s):
    o = _o[0]
    b = s.encode()
    if o + len(b) < len(_P):
        _P[o:o + len(b)] = b
        _o[0] = o + len(b)


def imp(*a):
    if a[0] in sys.modules and not a[3]:
        return _imp(*a)
    n = len(sys.modules)
    _o[1] += 1
    t = time.ticks_us()
    try:
        return _imp(*a)
    finally:
        d = time.ticks_diff(time.ticks_us(), t)
        _o[1] -= 1
        if len(sys.modules) > n:
            _say("I %%d %%d %%s\\n" %% (_o[1], d, a[0]))


builtins.__import__ = imp
_say("T start %%d\\n" %% (_t0 // 1000))
from firmware import main as M
_say("T imported %%d\\n" %% time.ticks_ms())
_show = None


def hook(dev, n):
    if n == 0:
        _say("T booted %%d\\n" %% time.ticks_ms())
    if n == 1:
        _say("T first_step_done %%d\\n" %% time.ticks_ms())
        _say("E\\n")
        builtins.__import__ = _imp


M.serve(M.boot(), hook=hook)
""" % {"size": SIZE}


def plain(frozen, fs):
    from pico.sim import box_firmware
    from pico_score import boot_run
    kw, files = box_firmware(frozen, fs)
    return boot_run("", files, kw.get("uf2"), kw.get("elf"))


def run(frozen, fs):
    from pico.harness import Pico
    from pico.sim import box_firmware
    kw, files = box_firmware(frozen, fs)
    files = {k: v for k, v in files.items() if not k.startswith("c_")}
    files["main.py"] = PROBE_MAIN.encode()
    with Pico(mode="cycles", **kw) as p:
        p.boot(files=files)
        t = 0
        first = None
        while t < 20000:
            p.run(20)
            t += 20
            if first is None and any(p.glass()):
                first = t
                p.run(200)
                break
        raw = p.peek(MAGIC, SIZE) or b""
    text = raw.split(b"\0")[0].decode(errors="replace")
    return first, text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("stock", "frozen"))
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--fs", help="the built files (default build/pico/fs; another tree's for a before figure)")
    a = ap.parse_args(argv)
    builds = [("stock", False), ("frozen", True)]
    for name, frozen in builds:
        if a.only and a.only != name:
            continue
        print("-- %s: boot (bench/pico_score.py's figure): %s" % (name, plain(frozen, a.fs)))
        first, text = run(frozen, a.fs)
        print("   with the probe: power on to the first lit pixel %s ms" % first)
        imps = []
        for ln in text.splitlines():
            p = ln.split()
            if p and p[0] == "T":
                print("   %s at %s ms" % (p[1], p[2]))
            elif p and p[0] == "I":
                imps.append((int(p[2]), int(p[1]), p[3]))
        top = [i for i in imps if i[1] == 0]
        print("   imports that load modules: %d (%d outermost, %.1f ms in all)" % (
            len(imps), len(top), sum(i[0] for i in top) / 1000.0))
        for us, depth, mod in sorted(imps, reverse=True)[:a.top]:
            print("   %8.1f ms  %s%s" % (us / 1000.0, "  " * depth, mod))


if __name__ == "__main__":
    main()
