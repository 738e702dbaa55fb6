"""Install a firmware build on a board with mpremote and verify what landed:
`make deploy BOARD=pico PORT=/dev/ttyACM0` runs `python tools/deploy.py --board pico --port ...`.

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
"""
import argparse
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tools"))

from firmware_build import file_list  # noqa: E402

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


def deploy(fs, transport, out=print):
    local = file_list(fs)
    if not local:
        raise DeployError("nothing to deploy in %s: make firmware first" % fs)
    tops = tops_of(local)
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


def main(argv=None):
    ap = argparse.ArgumentParser(description="copy build/BOARD/fs to a board and verify it")
    ap.add_argument("--board", required=True)
    ap.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyACM0")
    ap.add_argument("--build", help="the build folder (default build/BOARD)")
    ap.add_argument("--mpremote")
    ap.add_argument("--resume", action="store_true", help="no soft reset before the commands")
    a = ap.parse_args(argv)
    fs = os.path.join(a.build or os.path.join(REPO, "build", a.board), "fs")
    try:
        deploy(fs, Mpremote(a.port, a.mpremote, a.resume))
    except DeployError as e:
        print("deploy failed: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
