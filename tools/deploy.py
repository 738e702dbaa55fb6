"""Install a firmware build on a board with mpremote and verify what landed:
`make deploy BOARD=pico PORT=/dev/ttyACM0` runs `python tools/deploy.py --board pico --port ...`.
`make deploy BOARD=pico FROZEN=1` flashes the frozen UF2 first (--uf2, below).

1. inventory: `mpremote exec` runs INVENTORY on the board, which prints one line per file under
   the build's top-level folders and files: "F <path> <size> <sha256>" (hashlib on the board);
2. copies the files whose hash differs or that are missing (`fs mkdir`, `fs cp`), and removes
   files in the build's folders that the build does not have (a stale firmware/app.py would be
   imported before the new app.mpy); the journal, the key and the tag settings live outside them
   and are never touched;
3. inventory again: every file must be there with the local sha256 and size, and nothing extra.
Exit status 0 only when the check passes; the report names each file that does not.

The pieces that do not need a board are plain functions (plan, parse_inventory, check), unit
tested with a fake transport; tests/hw/test_deploy.py also deploys for real to the MicroPython
unix port behind a pty, which speaks the same raw REPL as a board.

The frozen firmware (--uf2 build/pico-uf2/firmware.uf2; tools/uf2_flash.py):
0. the UF2 is checked (RP2040 blocks, none in the filesystem: the journal survives the update);
1. the board goes to BOOTSEL (`mpremote bootloader`, unless its RPI-RP2 drive is already there);
2. the UF2 is copied to the drive (--via drive, the default; --drive DIR or found among the
   mounts) or loaded with picotool (--via picotool); the board reboots into it;
3. once the port is back, the filesystem gets the frozen build's main.py and loses the .mpy
   modules of an earlier deploy (they would shadow the frozen ones: '' comes before '.frozen' in
   sys.path); the journal, key and tag settings stay;
4. the board must then import the box's packages from '.frozen', and the box is reset to start.
tests/pico/test_deploy_uf2.py runs this against the emulated Pico, the test acting as the boot
ROM's drive, with a folder as the drive and a script as picotool.
"""
import argparse
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tools"))

from firmware_build import file_list  # noqa: E402
import uf2_flash  # noqa: E402

# Runs on the board. TOPS is replaced by the build's top-level names.
INVENTORY = """
import os, hashlib, binascii
def _h(p):
    h = hashlib.sha256()
    n = 0
    with open(p, 'rb') as f:
        while True:
            b = f.read(512)
            if not b:
                break
            h.update(b)
            n += len(b)
    return n, binascii.hexlify(h.digest()).decode()
def _walk(p):
    try:
        st = os.stat(p)
    except OSError:
        return
    if st[0] & 0x4000:
        for e in os.listdir(p):
            _walk(p + '/' + e)
    else:
        n, d = _h(p)
        print('F', p, n, d)
for _t in TOPS:
    _walk(_t)
print('END')
"""


class DeployError(Exception):
    pass


def inventory_script(tops):
    return INVENTORY.replace("TOPS", repr(sorted(tops)))


def parse_inventory(text):
    """{path: (size, sha256)} from the board's answer; DeployError if it is cut short."""
    files = {}
    ended = False
    for line in text.splitlines():
        parts = line.strip().split()
        if not parts:
            continue
        if parts[0] == "END":
            ended = True
        elif parts[0] == "F" and len(parts) == 4:
            files[parts[1]] = (int(parts[2]), parts[3])
    if not ended:
        raise DeployError("the board's inventory did not finish:\n" + text[-500:])
    return files


def tops_of(local):
    return sorted({rel.split("/")[0] for rel, _, _, _ in local})


def plan(local, remote):
    """(files to copy [(rel, local path)], dirs to make, files to remove) from the local build
    and the board's inventory."""
    want = {rel: (size, h) for rel, _, h, size in local}
    copy = [(rel, p) for rel, p, h, size in local if remote.get(rel) != (size, h)]
    dirs = set()
    for rel, _ in copy:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    extra = sorted(p for p in remote if p not in want)
    return copy, sorted(dirs, key=lambda d: (d.count("/"), d)), extra


def check(local, remote):
    """Problems (a list of strings, empty when the board holds exactly the build)."""
    problems = []
    for rel, _, h, size in local:
        got = remote.get(rel)
        if got is None:
            problems.append("missing: " + rel)
        elif got != (size, h):
            problems.append("differs: %s (board %d bytes %s, local %d bytes %s)" % (rel, got[0], got[1][:12], size, h[:12]))
    names = {rel for rel, _, _, _ in local}
    for p in sorted(remote):
        if p not in names:
            problems.append("extra: " + p)
    return problems


class Mpremote:
    """The transport: mpremote commands on one port. resume=True skips the soft reset."""

    def __init__(self, port, exe=None, resume=False, timeout=120):
        self.port = port
        self.exe = exe or os.path.join(REPO, ".venv", "bin", "mpremote")
        self.resume = resume
        self.timeout = timeout

    def run(self, *cmds):
        args = [self.exe, "connect", self.port]
        if self.resume:
            args.append("resume")
        for i, c in enumerate(cmds):
            if i:
                args.append("+")
            args += list(c)
        p = subprocess.run(args, capture_output=True, text=True, timeout=self.timeout)
        if p.returncode:
            raise DeployError("mpremote failed (%d): %s\n%s" % (p.returncode, " ".join(args[:8]), p.stderr[-2000:]))
        return p.stdout

    def exec_(self, code):
        return self.run(("exec", code))

    def inventory(self, tops):
        return parse_inventory(self.exec_(inventory_script(tops)))

    def bootloader(self):
        """Ask the running board to reboot into BOOTSEL; its port goes away, so no answer."""
        args = [self.exe, "connect", self.port, "bootloader"]
        try:
            subprocess.run(args, capture_output=True, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            pass

    def wait_port(self, timeout):
        return uf2_flash.wait_for(lambda: os.path.exists(self.port), timeout)

    def reset(self):
        """A hard reset (machine.reset()): the box starts from main.py."""
        args = [self.exe, "connect", self.port, "reset"]
        try:
            subprocess.run(args, capture_output=True, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            pass

    def apply(self, copy, dirs, extra):
        cmds = []
        if dirs:
            cmds.append(("exec", "import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n" % dirs))
        for rel, path in copy:
            cmds.append(("fs", "cp", path, ":" + rel))
        for rel in extra:
            cmds.append(("fs", "rm", ":" + rel))
        for i in range(0, len(cmds), 40):  # keep each command line short
            self.run(*cmds[i:i + 40])


def deploy(fs, transport, out=print, only=None):
    """Make the board's copy of the build's folders and files exactly the build. only: the
    files to install (the frozen firmware needs main.py alone); everything else under the
    build's top-level names is removed from the board."""
    local = file_list(fs)
    if not local:
        raise DeployError("nothing to deploy in %s: make firmware first" % fs)
    tops = tops_of(local)
    if only is not None:
        local = [e for e in local if e[0] in only]
    before = transport.inventory(tops)
    copy, dirs, extra = plan(local, before)
    out("%d files in the build; %d to copy, %d to remove, %d already there"
        % (len(local), len(copy), len(extra), len(local) - len(copy)))
    if copy or extra:
        transport.apply(copy, dirs, extra)
    after = transport.inventory(tops)
    problems = check(local, after)
    for p in problems:
        out("  " + p)
    if problems:
        raise DeployError("%d files on the board do not match the build" % len(problems))
    out("verified: %d files, %d bytes, sha256 of each on the board matches the build"
        % (len(local), sum(s for _, _, _, s in local)))
    return {"copied": len(copy), "removed": len(extra), "files": len(local)}


# Runs on the board after a frozen flash: where each of the box's packages comes from.
FROZEN_CHECK = """
import os, sys
print('V', sys.implementation.name, '.'.join(str(x) for x in sys.implementation.version[:3]))
for _m in MODS:
    try:
        __import__(_m)
        _o = sys.modules[_m]
        _w = getattr(_o, '__path__', None)
        if _w is None:
            _w = getattr(_o, '__file__', '?')
            try:
                os.stat(_w)
            except OSError:
                _w = '.frozen/' + _w
        print('M', _m, _w)
    except Exception as e:
        print('M', _m, 'ERROR', repr(e))
print('END')
"""


# Runs on the board: the build's folders that hold no file any more go too (bottom-up). An
# empty folder named like a frozen package would be imported instead of it (a namespace
# package from '', which comes before '.frozen'), and the box would not start.
RMDIRS = """
import os
def _rm(p):
    try:
        st = os.stat(p)
    except OSError:
        return True
    if not st[0] & 0x4000:
        return False
    empty = True
    for e in os.listdir(p):
        empty = _rm(p + '/' + e) and empty
    if empty:
        os.rmdir(p)
        print('D', p)
    return empty
for _t in TOPS:
    _rm(_t)
print('END')
"""


def module_names(fs):
    """The importable top-level names of a build tree (folders and .mpy/.py files)."""
    out = []
    for top in tops_of(file_list(fs)):
        name = top.rsplit(".", 1)[0] if top.endswith((".mpy", ".py")) else top
        if name != "main":
            out.append(name)
    return out


def check_frozen(text, mods):
    """Problems: a module of the box that is not imported from the frozen firmware."""
    seen = {}
    for line in text.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0] == "M":
            seen[parts[1]] = parts[2]
    problems = []
    for m in mods:
        f = seen.get(m)
        if f is None:
            problems.append("no answer for " + m)
        elif not f.startswith(".frozen"):
            problems.append("%s comes from %s, not from the frozen firmware" % (m, f))
    return problems


def deploy_uf2(uf2, fs, transport, via="drive", drive=None, picotool="picotool", wait=60, out=print,
               find_drive=uf2_flash.find_drive):
    """Flash the frozen UF2, then leave the board's filesystem with main.py only (steps 0-4 above)."""
    with open(uf2, "rb") as f:
        data = f.read()
    try:
        info = uf2_flash.check_uf2(data)
    except uf2_flash.FlashError as e:
        raise DeployError("%s: %s" % (uf2, e)) from None
    out("%s: %d blocks, %d bytes of firmware at 0x%08x-0x%08x (the filesystem from 0x%08x stays)"
        % (os.path.basename(uf2), info["blocks"], info["bytes"], info["start"], info["end"], uf2_flash.FS_START))

    def the_drive():
        if drive:
            return drive if uf2_flash.is_drive(drive) else None
        return find_drive()

    try:
        if via == "drive":
            d = the_drive()
            if d is None:
                out("asking the board on %s to enter BOOTSEL" % transport.port)
                transport.bootloader()
                d = uf2_flash.wait_for(the_drive, wait)
            if d is None:
                raise DeployError("no RPI-RP2 drive after %d s: hold BOOTSEL while plugging the board in, "
                                  "or give its mount point with --drive" % wait)
            uf2_flash.copy_to_drive(uf2, d, timeout=wait, out=out)
        elif via == "picotool":
            if the_drive() is None:
                out("asking the board on %s to enter BOOTSEL" % transport.port)
                transport.bootloader()
            uf2_flash.picotool_load(uf2, picotool, out=out)
        else:
            raise DeployError("--via drive or picotool, not %s" % via)
    except uf2_flash.FlashError as e:
        raise DeployError(str(e)) from None
    if not transport.wait_port(wait):
        raise DeployError("the board's serial port %s did not come back after the flash" % transport.port)
    res = deploy(fs, transport, out=out, only=("main.py",))
    tops = [t for t in tops_of(file_list(fs)) if t != "main.py"]
    gone = [ln.split()[1] for ln in transport.exec_(RMDIRS.replace("TOPS", repr(tops))).splitlines()
            if ln.startswith("D ")]
    if gone:
        out("removed the emptied folders %s" % ", ".join(gone))
    mods = module_names(fs)
    answer = transport.exec_(FROZEN_CHECK.replace("MODS", repr(mods)))
    problems = check_frozen(answer, mods)
    for p in problems:
        out("  " + p)
    if problems:
        raise DeployError("the board does not run the frozen firmware's modules")
    version = [ln for ln in answer.splitlines() if ln.startswith("V ")]
    out("frozen firmware runs (%s): %s from .frozen" % (version[0][2:] if version else "?", ", ".join(mods)))
    transport.reset()
    res["flashed"] = info["blocks"]
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description="copy build/BOARD/fs to a board and verify it")
    ap.add_argument("--board", required=True)
    ap.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyACM0")
    ap.add_argument("--build", help="the build folder (default build/BOARD)")
    ap.add_argument("--mpremote")
    ap.add_argument("--resume", action="store_true", help="no soft reset before the commands")
    ap.add_argument("--uf2", help="flash this frozen firmware first (make pico-uf2: build/pico-uf2/firmware.uf2)")
    ap.add_argument("--via", default="drive", choices=("drive", "picotool"), help="how to flash the UF2")
    ap.add_argument("--drive", help="the RPI-RP2 drive's mount point (default: found among the mounts)")
    ap.add_argument("--picotool", default="picotool", help="picotool with USB support (--via picotool)")
    ap.add_argument("--wait", type=float, default=60, help="seconds to wait for the drive / the port")
    a = ap.parse_args(argv)
    fs = os.path.join(a.build or os.path.join(REPO, "build", a.board), "fs")
    try:
        t = Mpremote(a.port, a.mpremote, a.resume)
        if a.uf2:
            deploy_uf2(a.uf2, fs, t, via=a.via, drive=a.drive, picotool=a.picotool, wait=a.wait)
            return 0
        deploy(fs, t)
    except DeployError as e:
        print("deploy failed: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
