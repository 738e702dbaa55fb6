"""A scenario on the emulated Pico: `make pico-sim SCRIPT=simulator/scenarios/mcr_session.txt`
runs `python -m pico.sim SCRIPT --out build/pico-sim [--frozen] [--compare]`.

The box is the board's own build (make firmware BOARD=pico: main.py, board_config and the .mpy
modules on littlefs, on the stock MicroPython v1.28.0 UF2; --frozen: main.py alone on the frozen
UF2 of make pico-uf2), played by tag taps and key presses (pico/player.py) on the scripted clock
of simulator/runner.py. Written to OUT:
  screens/NNNN.png    the modelled glass at each shot, 4x, as `python -m simulator` draws them
  screens.txt         one line per shot: its number and what it follows
  journal/            the journal read back from the chip's flash (littlefs), file for file
  flash.bin           the whole 2 MiB flash as the chip left it
  timing.txt          per input: the longest the firmware went without sleeping (ms), and the
                      inputs that had to wait for the box
--board pico_w: the Pico W (make firmware BOARD=pico_w; its UF2s from tools/pico_w_uf2.py, the
stock one without --frozen), the radio absent.
--compare plays the scenario on the desktop simulator too (simulator/player.py) and says whether
the journals are the same byte for byte and which screens differ (exit status 1 if a journal
file differs).
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


# board -> (its UF2 folder frozen, stock; the make target that builds them)
UF2_DIRS = {"pico": ("pico-uf2", None, "make pico-uf2"),
            "pico_w": ("pico-w-uf2", "pico-w-uf2-stock", "make pico-w-uf2 / make pico-w-uf2-stock")}


def box_firmware(frozen, fs=None, uf2_dir=None, board="pico"):
    """(Pico kwargs, files to boot from) for the stock or the frozen box."""
    from pico import fsimage
    fs = fs or os.path.join(REPO, "build", board, "fs")
    if not os.path.exists(os.path.join(fs, "main.py")):
        raise SystemExit("no %s/main.py: run `make firmware BOARD=%s` first" % (fs, board))
    frozen_dir, stock_dir, how = UF2_DIRS[board]
    d = uf2_dir or (os.path.join(REPO, "build", frozen_dir if frozen else stock_dir) if frozen or stock_dir else None)
    kw = {"board": board}
    if d:
        uf2 = os.path.join(d, "firmware.uf2")
        if not os.path.exists(uf2):
            raise SystemExit("no %s: run `%s` first" % (uf2, how))
        kw.update(uf2=uf2, elf=os.path.join(d, "firmware.elf"))
    if frozen:
        with open(os.path.join(fs, "main.py"), "rb") as f:
            return kw, {"main.py": f.read()}
    return kw, fsimage.tree(fs)


def play_chip(script, frozen=False, on_shot=None, fs=None, uf2_dir=None, board="pico"):
    """Play on the emulated box: (player, journal files {name: bytes}, flash image)."""
    from pico.harness import Pico
    from pico.player import ChipPlayer
    kw, files = box_firmware(frozen, fs, uf2_dir, board)
    with Pico(**kw) as p:
        pl = ChipPlayer(p, files)
        pl.play_file(script, on_shot)
        flash = p.flash()
        pl.emulated_ms = p.ms
        return pl, pl.journal(), flash


def play_desktop(script, frames=None, board="pico"):
    """The desktop simulator's journal for the same script (the board's screens): {name: bytes}."""
    from simulator import parts
    from simulator.runner import Sim
    with tempfile.TemporaryDirectory(prefix="pico-sim-desk-", dir=os.path.join(REPO, "build")) as d:
        kw = {}
        if frames is not None:
            kw = {"pixels": True, "on_frame": lambda n, f: frames.append(bytes(f.buf))}
        sim = Sim(cfg=parts.for_board(board), folder=d, **kw)
        sim.run(script)
        sim.journal.close()
        jd = os.path.join(d, "journal")
        out = {}
        for n in sorted(os.listdir(jd)):
            with open(os.path.join(jd, n), "rb") as f:
                out[n] = f.read()
        return out


def only_minutes_differ(a, b):
    """The two MONO_VLSB 128x64 frames differ only in the title bar's right end (where the main
    screen shows the minutes left): the rest of the glass is the same."""
    # pages 0-1 are the top 16 rows; "120min" takes the rightmost 48 columns
    for page in range(8):
        for x in range(128):
            i = page * 128 + x
            if a[i] != b[i] and not (page < 2 and x >= 80):
                return False
    return True


def journal_diff(a, b):
    """Names of the journal files that differ (or exist on one side only)."""
    return sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script")
    ap.add_argument("--out", default=os.path.join(REPO, "build", "pico-sim"))
    ap.add_argument("--frozen", action="store_true", help="the frozen UF2 (make pico-uf2) with main.py alone")
    ap.add_argument("--compare", action="store_true", help="and the desktop simulator: same journal?")
    ap.add_argument("--no-png", dest="png", action="store_false")
    ap.add_argument("--board", default="pico", choices=sorted(UF2_DIRS), help="pico_w: the Pico W, radio absent")
    a = ap.parse_args(argv)
    sys.path.insert(0, REPO)
    from pico.run import missing_firmware, node_modules_missing
    from simulator import png
    why = missing_firmware() or node_modules_missing()
    if why:
        print("pico.sim: " + why, file=sys.stderr)
        return 2
    out = a.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "screens"))
    shots = []

    def on_shot(n, what, glass):
        shots.append((what, glass))
        if a.png:
            png.write_framebuf(os.path.join(out, "screens", "%04d.png" % n), glass, 128, 64, png.MONO_VLSB, scale=4)

    t0 = time.time()
    pl, journal, flash = play_chip(a.script, a.frozen, on_shot, board=a.board)
    wall = time.time() - t0
    os.makedirs(os.path.join(out, "journal"))
    for n, data in journal.items():
        with open(os.path.join(out, "journal", n), "wb") as f:
            f.write(data)
    with open(os.path.join(out, "flash.bin"), "wb") as f:
        f.write(flash)
    with open(os.path.join(out, "screens.txt"), "w", encoding="utf-8") as f:
        for i, (what, _) in enumerate(shots, 1):
            f.write("%04d %s\n" % (i, what))
    with open(os.path.join(out, "timing.txt"), "w") as f:
        f.write("# script ms, input, key, longest the firmware went without sleeping (ms)\n")
        for b in pl.bursts:
            f.write("%d %s %s %.1f\n" % b)
        f.write("# inputs that waited for the box: script ms, input, ms\n")
        for lg in pl.lags:
            f.write("# wait %d %s %.1f\n" % lg)
    worst = max(pl.bursts, key=lambda b: b[3]) if pl.bursts else None
    print("%s on the emulated %s (%s): %d screens, journal %s; %.0f emulated s in %.0f s; slowest input %s"
          % (os.path.basename(a.script), "Pico W" if a.board == "pico_w" else "Pico",
             "frozen" if a.frozen else "stock + .mpy", len(shots),
             ", ".join("%s %d B" % kv for kv in ((n, len(d)) for n, d in sorted(journal.items()))),
             pl.emulated_ms / 1000, wall, "%d ms (%s at %d ms)" % (worst[3], worst[1], worst[0]) if worst else "-"))
    print("screens: %s/screens, journal: %s/journal" % (out, out))
    if not a.compare:
        return 0
    frames = []
    desk = play_desktop(a.script, frames, a.board)
    diff = journal_diff(desk, journal)
    bad = [i + 1 for i, ((_, g), f) in enumerate(zip(shots, frames)) if g != f]
    print("desktop simulator: journal %s; screens: %d of %d the same%s" % (
        "the same, byte for byte" if not diff else "DIFFERS in " + ", ".join(diff),
        len(shots) - len(bad), len(shots), (" (differ: %s)" % " ".join(map(str, bad[:20]))) if bad else ""))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
