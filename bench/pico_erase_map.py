"""Where the flash erases fall in a session on the emulated Pico, and which inputs wait for them
(issue 21, item "a key pressed during a maximum-time erase"): an investigation tool.

    .venv/bin/python bench/pico_erase_map.py [--frozen] [--timing max|typical] [--script FILE]

The shipped MCR session (simulator/scenarios/mcr_session.txt) is played on the box's own main.py
(pico/player.py) with the W25Q16JV's maximum (or typical) erase and program times. Every flash
erase is listed with the input before it (the key or tile, the screen it led to, on the desktop
simulator's reading of the same script) and how long after that input it began; then every
input whose contact fell inside an erase, with how long it waited (the erase's end minus the
contact). Erases are 4 KiB sectors: littlefs erases a block before it programs it (a file's new
data block, a metadata pair's compaction), MicroPython's rp2.Flash passes that on.

pico/player.py applies an input only once the core sleeps, so with it no input lands inside an
erase (the last list stays empty): an erase that begins a few ms after a key (in that key's own
processing, before its screen is drawn) is what delays a key here. Measured at 305e1ca, stock,
maximum times: 21 erases in the 16-hand session; 14 begin 310-400 ms after the last tile of a
win (the record prepared ahead, after the result is drawn) and one more 778 ms after one; 4
begin 29-121 ms after a key that commits or ends (4 -> main twice, # -> main, 4 -> ended: most
likely littlefs compacting the journal directory's metadata pair inside the commit's rename;
with progsize=256 a 4 KiB metadata block holds ~16 commits); one 312 ms after a key of the
wall; one at boot.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

SCRIPT = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")


def erase_map(lines, frozen, timing):
    from bench.pico_glass import desktop_states
    from pico.harness import Pico
    from pico.player import ChipPlayer
    from pico.sim import box_firmware
    from simulator.runner import Script

    kw, files = box_firmware(frozen)
    states = desktop_states(lines)
    inputs = []  # (boot, chip ms, kind, label, screen it led to)
    waits = []  # (boot, kind, start ms, end ms)
    boots = 0
    with Pico(flash_timing=timing, **kw) as p:
        pl = ChipPlayer(p, files)
        sc = Script(pl.keymap, pl.ncols)
        evs = sc.start() + [ev for ln in lines for ev in sc.line(ln)]
        shot = 0
        pending = []
        for ev in evs:
            pl.play([ev])
            name = ev[1]
            if name == "boot":  # a new chip: its clock from 0, its flash log off
                boots += 1
                p.flash_waits(True)
            elif name in ("down", "place", "config", "clock"):
                label = ev[2] if name == "down" else ev[2].hex()[-4:] if name == "place" else name
                pending.append([boots, p.ms, "key" if name == "down" else "tile" if name == "place" else "host",
                                label, "?"])
            elif name == "shot":
                st = states[shot][1] if shot < len(states) else "?"
                shot += 1
                for x in pending:
                    x[4] = st
                inputs += pending
                pending = []
                waits += [(boots,) + tuple(w) for w in p.flash_waits()]
            elif name == "powercut":
                waits += [(boots,) + tuple(w) for w in p.flash_waits()]
        inputs += pending
        waits += [(boots,) + tuple(w) for w in p.flash_waits()]
    return inputs, waits


def report(inputs, waits):
    erases = [w for w in waits if w[1] == "erase"]
    L = ["%d erases, %d programs; erase time in all %.0f ms" % (
        len(erases), len(waits) - len(erases), sum(w[3] - w[2] for w in erases))]
    L.append("-- each erase: after which input, how long after it --")
    for boot, kind, t0, t1 in erases:
        before = [x for x in inputs if x[0] == boot and x[1] <= t0]
        b = before[-1] if before else None
        L.append("boot %d erase %8.1f-%8.1f ms (%5.1f ms)  %s" % (
            boot, t0, t1, t1 - t0, "%5.0f ms after %s %s -> %s" % (t0 - b[1], b[2], b[3], b[4]) if b else "before any input"))
    L.append("-- inputs whose contact fell inside an erase --")
    hit = 0
    for x in inputs:
        for boot, kind, t0, t1 in erases:
            if boot == x[0] and t0 <= x[1] < t1:
                hit += 1
                L.append("%s %s -> %s at %.1f ms: waits %.1f ms for the erase" % (x[2], x[3], x[4], x[1], t1 - x[1]))
    L.append("%d of %d inputs fell inside an erase" % (hit, len(inputs)))
    return "\n".join(L)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frozen", action="store_true")
    ap.add_argument("--timing", choices=("max", "typical"), default="max")
    ap.add_argument("--script", default=SCRIPT)
    a = ap.parse_args(argv)
    with open(a.script) as f:
        lines = f.readlines()
    inputs, waits = erase_map(lines, a.frozen, "max" if a.timing == "max" else True)
    print(report(inputs, waits))
    return 0


if __name__ == "__main__":
    sys.exit(main())
