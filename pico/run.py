"""Run one script on an emulated Pico (real MicroPython v1.28.0 in rp2040js) and print its output.

    python -m pico.run bench/x.py --files build/pico/fs     # .mpy tree of `make firmware`
    python -m pico.run bench/x.py --files build/mpy --uf2 build/pico-frozen/firmware.uf2

The filesystem image is built on the host (littlefs-python, pico/fsimage.py) from the --files
folders (their main.py left out: it would run the box at boot) and --file SRC:DEST pairs, with the
script as /run.py, which runs through the raw REPL once the board is up. stdout is the script's
output (USB CDC); an exception goes to stderr with exit status 1; 124 is a timeout.

From Python: run_script(source, files={...}) -> Result(rc, out, err, flash).
"""
import argparse
import os
import subprocess
import sys
import tempfile

from pico import fsimage

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RUN_MJS = os.path.join(HERE, "run.mjs")


def firmware_dir():
    return os.path.abspath(os.environ.get("PICO_FIRMWARE_DIR") or os.path.join(REPO, "..", "shared", "pico"))


def missing_firmware():
    """Why the emulated Pico cannot run here (None when it can): the firmware files or node."""
    d = firmware_dir()
    for name in ("micropython-v1.28.0-RPI_PICO.uf2", "micropython-v1.28.0-RPI_PICO.elf", "rp2040-bootrom-b1.bin"):
        if not os.path.exists(os.path.join(d, name)):
            return "the Pico firmware files are not here: %s (set PICO_FIRMWARE_DIR to the folder " \
                   "with MicroPython v1.28.0 for RPI_PICO and the RP2040 boot ROM)" % os.path.join(d, name)
    return None


def node_modules_missing():
    if not os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        return "pico/node_modules is missing: run `make pico-deps` (npm ci in pico/)"
    return None


class Result:
    def __init__(self, rc, out, err, flash=None):
        self.rc = rc
        self.out = out
        self.err = err
        self.flash = flash

    def __repr__(self):
        return "Result(rc=%r, out=%r, err=%r)" % (self.rc, self.out[-200:], self.err[-200:])


def run_script(source, files=None, uf2=None, elf=None, timeout=600, mode="cycles", flash=None,
               keep_flash=False, flash_timing=True, board="pico"):
    """Run `source` (str) on the chip with `files` ({device path: bytes}) on its filesystem, or
    on a whole flash image `flash` (bytes) from an earlier run. flash_timing: True (the flash's
    typical erase / program times), "max" (its maximum ones) or False (none). board="pico_w": the
    filesystem where the Pico W's firmware keeps it (give its uf2/elf too)."""
    with tempfile.TemporaryDirectory(prefix="pico-run-") as tmp:
        args = ["node", RUN_MJS, "--timeout", str(timeout), "--mode", mode,
                "--fs-offset", str(fsimage.layout(board)[0])]
        if flash is not None:
            fl = os.path.join(tmp, "flash.bin")
            with open(fl, "wb") as f:
                f.write(flash)
            args += ["--flash", fl]
            args += ["--exec", source]
        else:
            all_files = dict(files or {})
            all_files["run.py"] = source.encode()
            img = os.path.join(tmp, "fs.img")
            with open(img, "wb") as f:
                f.write(fsimage.build(all_files, board))
            args += ["--fs", img, "--run", "/run.py"]
        if uf2:
            args += ["--uf2", uf2]
        if elf:
            args += ["--elf", elf]
        if not flash_timing:
            args.append("--no-flash-timing")
        elif flash_timing == "max":
            args += ["--flash-timing", "max"]  # the W25Q16JV's maximum erase / program times
        saved = os.path.join(tmp, "after.bin")
        if keep_flash:
            args += ["--save-flash", saved]
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout + 60)
        data = None
        if keep_flash and os.path.exists(saved):
            with open(saved, "rb") as f:
                data = f.read()
        return Result(p.returncode, p.stdout, p.stderr, data)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script")
    ap.add_argument("--files", action="append", default=[], help="a folder copied to / (main.py left out)")
    ap.add_argument("--file", action="append", default=[], help="SRC:DEST, one file")
    ap.add_argument("--keep-main", action="store_true", help="keep the folders' main.py")
    ap.add_argument("--uf2")
    ap.add_argument("--elf")
    ap.add_argument("--timeout", type=float, default=600, help="wall-clock seconds")
    ap.add_argument("--mode", default="cycles", choices=("cycles", "scripted"))
    ap.add_argument("--save-flash", help="write the 2 MiB flash image here after the run")
    ap.add_argument("--board", default="pico", help="pico_w: the Pico W's flash layout (with its --uf2/--elf)")
    a = ap.parse_args(argv)
    why = missing_firmware() or node_modules_missing()
    if why:
        print("pico.run: " + why, file=sys.stderr)
        return 2
    files = {}
    for d in a.files:
        files.update(fsimage.tree(d, skip=() if a.keep_main else ("main.py",)))
    for pair in a.file:
        src, _, dest = pair.partition(":")
        with open(src, "rb") as f:
            files[dest or os.path.basename(src)] = f.read()
    with open(a.script) as f:
        source = f.read()
    r = run_script(source, files, uf2=a.uf2, elf=a.elf, timeout=a.timeout, mode=a.mode,
                   keep_flash=bool(a.save_flash), board=a.board)
    sys.stdout.write(r.out)
    sys.stderr.write(r.err)
    if a.save_flash and r.flash is not None:
        with open(a.save_flash, "wb") as f:
            f.write(r.flash)
    return r.rc


if __name__ == "__main__":
    sys.exit(main())
