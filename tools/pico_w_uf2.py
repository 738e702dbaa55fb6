"""Build the box's firmware for the Raspberry Pi Pico W: `make pico-w-uf2`.

MicroPython v1.28.0 for RPI_PICO_W (RP2040 + CYW43439 Wi-Fi) with the box frozen in, as
tools/pico_uf2.py does for the Pico. The offline bundle in ../shared/pico
(micropython-1.28.0-rp2-src.tar.xz) is pruned to RPI_PICO, so the wireless parts come from git
repositories, each exported at exactly the commit MicroPython v1.28.0 pins (its submodule
entries; docs/pico_w.md records them):

  micropython   micropython/micropython     the v1.28.0 tree (the RPI_PICO_W board folder,
                                            the files the bundle pruned)
  pico-sdk      raspberrypi/pico-sdk        2.2.0 whole: pico_cyw43_driver (the PIO SPI bus),
                                            pico_cyw43_arch, pico_lwip, boards/pico_w.h, ...
  cyw43-driver  georgerobotics/cyw43-driver the CYW43439 driver and its firmware blob
  lwip          lwip-tcpip/lwip             lwIP 2.2.1
  mbedtls       Mbed-TLS/mbedtls            3.6.2, whole (the bundle's is pruned too): TLS
  btstack       bluekitchen/btstack         only for --upstream (Bluetooth on)

Steps: unpack the bundle into build/mpsrc-w/ and lay the exports over it (`git archive`; the
trees share their commits, so a file of both is the same file); write the board folder
RPI_PICO_W_NOBT: RPI_PICO_W with Bluetooth off (the box does not use it: no btstack, ~100 KB
less flash) and without aioble in its manifest; build picotool and mpy-cross once; then
`make -C ports/rp2 BOARD=... FROZEN_MANIFEST=build/pico_w/manifest.py` (the manifest
`tools/firmware_build.py --board pico_w` writes, done here first). A stamp keeps the tree until
the bundle or a pin changes; later builds are incremental.

Where the repositories are: PICO_W_GIT_<NAME> (e.g. PICO_W_GIT_CYW43_DRIVER=~/src/cyw43-driver),
else the first of <root>/<name>, <root>/<name>.git, <root>/<owner>+<name>/repo for each root in
PICO_W_REPOS (folders separated by ':'; default ../picow-repos beside the repository), else a
submodule of the micropython clone (lib/<name>). Bare or not, any clone holding the pinned
commit will do. Without them nothing is built (`make pico-test` says so and goes on: a clean
checkout, as CI's, has only the Pico bundle).

Outputs: build/pico-w-uf2/ (frozen), build/pico-w-uf2-stock/ (--stock: RPI_PICO_W_NOBT, nothing
of ours frozen), build/pico-w-uf2-upstream/ (--upstream: RPI_PICO_W as MicroPython ships it,
Bluetooth on); each with firmware.uf2, .elf (the harness needs its symbols), .map and
build-info.txt (commits, sizes, times).
"""
import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pico_uf2  # noqa: E402

REPO = os.path.dirname(HERE)
VERSION = pico_uf2.VERSION
TAG_COMMIT = "e0e9fbb17ed6fd06bb76e266ae554784c9c80804"  # micropython v1.28.0
BOX_BOARD = "RPI_PICO_W_NOBT"
UPSTREAM_BOARD = "RPI_PICO_W"
# pico-sdk whole (the bundle's is pruned to what RPI_PICO reads; the wireless build also reads
# pico_cyw43_driver, pico_cyw43_arch, pico_lwip, hardware_exception, ...), but for the RP2350's
# SVD file: a debugger's register description, never built, and a blob some mirrors lack.
SDK_PATHS = (".", ":(exclude)src/rp2350/hardware_regs/RP2350.svd")
# mbedtls: the library and its headers (the bundle keeps only what the Pico's hashlib reads; the
# Pico W's ssl module reads the rest); its tests, programs and docs are not built.
MBEDTLS_PATHS = (".", ":(exclude)tests", ":(exclude)programs", ":(exclude)docs", ":(exclude)doxygen")
# btstack's ports, examples, tests and docs are not built (and hold blobs some mirrors lack).
BTSTACK_PATHS = (".", ":(exclude)port", ":(exclude)example", ":(exclude)test", ":(exclude)doc")


class Source:
    def __init__(self, name, github, dest, commit, paths=(".",), bluetooth_only=False):
        self.name = name            # folder name under a root, and the PICO_W_GIT_ suffix
        self.github = github        # owner/name on GitHub
        self.dest = dest            # where it goes in the unpacked tree
        self.commit = commit        # what micropython v1.28.0 pins (checked against its tree)
        self.paths = paths          # git archive pathspecs
        self.bluetooth_only = bluetooth_only

    @property
    def env(self):
        return "PICO_W_GIT_" + self.name.upper().replace("-", "_")


SOURCES = (
    Source("micropython", "micropython/micropython", "micropython", TAG_COMMIT),
    Source("pico-sdk", "raspberrypi/pico-sdk", "micropython/lib/pico-sdk",
           "a1438dff1d38bd9c65dbd693f0e5db4b9ae91779", SDK_PATHS),
    Source("cyw43-driver", "georgerobotics/cyw43-driver", "micropython/lib/cyw43-driver",
           "055d64274b014dd7b1c2fc94d26e8a18face7124"),
    Source("lwip", "lwip-tcpip/lwip", "micropython/lib/lwip", "77dcd25a72509eb83f72b033d219b1d40cd8eb95"),
    Source("mbedtls", "Mbed-TLS/mbedtls", "micropython/lib/mbedtls",
           "107ea89daaefb9867ea9121002fbbdf926780e98", MBEDTLS_PATHS),
    Source("btstack", "bluekitchen/btstack", "micropython/lib/btstack",
           "77e752abd6a0992334047a48038a5a3960e5c6bc", BTSTACK_PATHS, bluetooth_only=True),
)


def log(msg):
    print("[pico-w-uf2] " + msg, file=sys.stderr, flush=True)


def git(repo, *args, **kw):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, **kw)


def has_commit(repo, commit):
    return os.path.isdir(repo) and git(repo, "cat-file", "-e", commit + "^{commit}").returncode == 0


def roots():
    env = os.environ.get("PICO_W_REPOS")
    if env:
        return [os.path.abspath(os.path.expanduser(r)) for r in env.split(":") if r]
    return [os.path.abspath(os.path.join(REPO, "..", "picow-repos"))]


def candidates(src, mp_repo=None):
    if os.environ.get(src.env):
        return [os.path.abspath(os.path.expanduser(os.environ[src.env]))]
    owner, name = src.github.split("/")
    out = []
    for r in roots():
        out += [os.path.join(r, src.name), os.path.join(r, src.name + ".git"), os.path.join(r, owner + "+" + name, "repo")]
    if mp_repo and src.name != "micropython":
        out.append(os.path.join(mp_repo, "lib", src.name))
    return out


def find(src, mp_repo=None):
    """The first candidate repository holding src.commit, or None."""
    for c in candidates(src, mp_repo):
        if has_commit(c, src.commit):
            return c
    return None


def missing_message(src, mp_repo=None):
    return ("%s (git clone https://github.com/%s, commit %s) in neither $%s nor PICO_W_REPOS=%s"
            % (src.name, src.github, src.commit[:12], src.env, ":".join(roots())))


def locate(bluetooth=False):
    """({name: repository path}, [messages for the missing ones])."""
    found, missing = {}, []
    mp = find(SOURCES[0])
    for src in SOURCES:
        if src.bluetooth_only and not bluetooth:
            continue
        path = mp if src is SOURCES[0] else find(src, mp)
        if path:
            found[src.name] = path
        else:
            missing.append(missing_message(src, mp))
    return found, missing


def check_pins(mp_repo):
    """The submodule commits of micropython v1.28.0's tree must be the ones recorded here."""
    r = git(mp_repo, "ls-tree", TAG_COMMIT, "lib/", text=True, check=True)
    pinned = {}
    for line in r.stdout.splitlines():
        meta, path = line.split("\t")
        mode, kind, sha = meta.split()
        if kind == "commit":
            pinned[path[len("lib/"):]] = sha
    for src in SOURCES[1:]:
        if pinned.get(src.name) != src.commit:
            raise SystemExit("micropython %s pins lib/%s at %s, this tool expects %s"
                             % (VERSION, src.name, pinned.get(src.name), src.commit))
    tag = git(mp_repo, "rev-parse", VERSION + "^{commit}", text=True)
    if tag.returncode == 0 and tag.stdout.strip() != TAG_COMMIT:
        raise SystemExit("%s in %s is %s, not MicroPython's %s" % (VERSION, mp_repo, tag.stdout.strip(), TAG_COMMIT))
    return pinned


def export(repo, src, dest):
    """git archive of src.commit (its pathspecs) unpacked over dest."""
    os.makedirs(dest, exist_ok=True)
    arch = subprocess.Popen(["git", "-C", repo, "archive", "--format=tar", src.commit, "--"] + list(src.paths),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", dest], stdin=arch.stdout, capture_output=True)
    arch.stdout.close()
    err = arch.stderr.read().decode(errors="replace")
    if arch.wait() != 0 or tar.returncode != 0:
        raise SystemExit("exporting %s %s from %s failed: %s%s" % (src.name, src.commit[:12], repo, err,
                                                                 tar.stderr.decode(errors="replace")))


BOX_CMAKE_BLUETOOTH = """\
# Bluetooth: off (the scoring box does not use it; written by tools/pico_w_uf2.py).
# Without it nothing links pico-sdk's pico_cyw43_driver, whose header pico/cyw43_driver.h the
# PIO SPI bus of the radio (cyw43_driver_picow: cyw43_bus_pio_spi.c) includes: give the firmware
# target that folder once it exists, as system headers as the SDK does (after the port's own
# cyw43_configport.h).
cmake_language(DEFER CALL target_include_directories ${MICROPY_TARGET} SYSTEM PRIVATE
    ${MICROPY_DIR}/lib/pico-sdk/src/rp2_common/pico_cyw43_driver/include)
"""


def write_box_board(mp):
    """ports/rp2/boards/RPI_PICO_W_NOBT: RPI_PICO_W without Bluetooth, same pins, same name.
    True when its files changed (its build folders are then stale)."""
    boards = os.path.join(mp, "ports", "rp2", "boards")
    up, box = os.path.join(boards, UPSTREAM_BOARD), os.path.join(boards, BOX_BOARD)
    edits = {
        "mpconfigboard.cmake": ("# Bluetooth\nset(MICROPY_PY_BLUETOOTH ON)\nset(MICROPY_BLUETOOTH_BTSTACK ON)\n"
                                "set(MICROPY_PY_BLUETOOTH_CYW43 ON)\n", BOX_CMAKE_BLUETOOTH),
        "manifest.py": ('\n# Bluetooth\nrequire("aioble")\n', "\n"),
    }
    files = {}
    for name in sorted(os.listdir(up)):
        with open(os.path.join(up, name), "rb") as f:
            files[name] = f.read()
    for name, (old, new) in edits.items():
        text = files[name].decode()
        if old not in text:
            raise SystemExit("%s/%s is not the v1.28.0 file this tool edits (no %r)" % (UPSTREAM_BOARD, name, old))
        files[name] = text.replace(old, new).encode()
    have = {}
    if os.path.isdir(box):
        for name in os.listdir(box):
            with open(os.path.join(box, name), "rb") as f:
                have[name] = f.read()
    if have == files:
        return False
    if os.path.isdir(box):
        shutil.rmtree(box)
    os.makedirs(box)
    for name, data in files.items():
        with open(os.path.join(box, name), "wb") as f:
            f.write(data)
    return True


def clean_builds(rp2, board=None):
    """Remove ports/rp2's build folders (of one board): CMake caches what it found (include
    folders, whether a library was there) and runs again only in a new folder."""
    for name in os.listdir(rp2):
        if name.startswith("build-") and (board is None or name == "build-" + board or name.startswith("build-" + board + "-")):
            shutil.rmtree(os.path.join(rp2, name))


def prepare(tarball, work, repos):
    """The unpacked bundle with the exports laid over it and the box's board folder. A stamp
    keeps it: a new bundle or MicroPython commit starts again from the bundle; a changed or new
    library is exported again into an emptied folder (its export is the whole library at that
    commit, a superset of what the bundle has of it), so picotool and the build folders stay."""
    st = os.stat(tarball)
    base = {"tarball": [os.path.abspath(tarball), st.st_size, int(st.st_mtime)]}
    want = {s.name: [s.commit, list(s.paths)] for s in SOURCES if s.name in repos}
    top = os.path.join(work, pico_uf2.TOP)
    stamp = os.path.join(work, ".overlaid")
    have = {}
    if os.path.isdir(top) and os.path.exists(stamp):
        with open(stamp) as f:
            try:
                have = json.load(f)
            except ValueError:
                have = {}
    if have.get("base") != base or have.get("sources", {}).get("micropython") != want["micropython"]:
        have = {}
    have_src = have.get("sources", {})
    todo = [s for s in SOURCES if s.name in want and have_src.get(s.name) != want[s.name]]
    rp2 = os.path.join(top, "micropython", "ports", "rp2")
    if not todo:
        if write_box_board(os.path.join(top, "micropython")):
            clean_builds(rp2, BOX_BOARD)
        return top
    if os.path.exists(stamp):
        os.remove(stamp)
    if not have and os.path.isdir(top):
        shutil.rmtree(top)
    top = pico_uf2.unpack(tarball, work)
    for src in todo:
        log("%s %s from %s" % (src.name, src.commit[:12], repos[src.name]))
        dest = os.path.join(top, src.dest)
        if src.name != "micropython" and os.path.isdir(dest):
            shutil.rmtree(dest)
        export(repos[src.name], src, dest)
        have_src[src.name] = want[src.name]
    write_box_board(os.path.join(top, "micropython"))
    # btstack alone is read by the upstream board only: the box's build folders stay
    clean_builds(rp2, UPSTREAM_BOARD if all(s.bluetooth_only for s in todo) else None)
    with open(stamp, "w") as f:
        json.dump({"base": base, "sources": have_src}, f, sort_keys=True)
    return top


def src_digest(folder):
    """sha256 over a frozen source tree (names and bytes): says which sources a UF2 froze."""
    h = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(root, name)
            h.update(os.path.relpath(p, folder).replace(os.sep, "/").encode() + b"\0")
            with open(p, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def frozen_digest(out):
    """The "frozen sources sha256" a build's build-info.txt records (None if none)."""
    try:
        with open(os.path.join(out, "build-info.txt")) as f:
            for line in f:
                if line.startswith("frozen sources sha256: "):
                    d = line.split(": ", 1)[1].strip()
                    return None if d == "-" else d
    except OSError:
        pass
    return None


def usable(out, src_dir):
    """Whether out/firmware.uf2 froze exactly the sources in src_dir (a firmware_build src/
    tree): (True, None, None), else (False, what is wrong, whether the sources to build it are
    here), the message saying what is missing and how to get it."""
    uf2 = os.path.join(out, "firmware.uf2")
    if os.path.exists(uf2) and frozen_digest(out) == src_digest(src_dir):
        return True, None, None
    state = "no Pico W firmware at %s" % uf2 if not os.path.exists(uf2) else \
        "%s froze other sources than these (built before a change)" % uf2
    repos, missing = locate()
    tarball = pico_uf2.default_source()
    if not os.path.exists(tarball):
        missing.insert(0, "the MicroPython source bundle %s (PICO_FIRMWARE_DIR)" % tarball)
    if missing:
        return False, "%s, and the sources to build it are not here: %s" % (state, "; ".join(missing)), False
    return False, "%s: `make pico-w-uf2` builds it (make pico-test does when the sources are here)" % state, True


class Stopwatch:
    """Wall and CPU seconds (this process and its children) of each step: on a shared machine the
    wall time says more about the load than about the build."""

    def __init__(self):
        self.steps = []

    def _cpu(self):
        c, s = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
        return c.ru_utime + c.ru_stime + s.ru_utime + s.ru_stime

    def start(self):
        self.t, self.c = time.time(), self._cpu()

    def stop(self, name):
        self.steps.append((name, time.time() - self.t, self._cpu() - self.c))

    def text(self):
        return ", ".join("%s %.0f s (cpu %.0f s)" % st for st in self.steps)


def build(tarball=None, out=None, manifest=None, kind="box", work=None):
    """kind: "box" (frozen), "stock" (box board, nothing frozen) or "upstream" (RPI_PICO_W)."""
    tarball = tarball or pico_uf2.default_source()
    if not os.path.exists(tarball):
        raise SystemExit("no MicroPython source bundle at %s (set PICO_FIRMWARE_DIR or --source)" % tarball)
    repos, missing = locate(bluetooth=kind == "upstream")
    if missing:
        raise SystemExit("the Pico W build needs sources that are not here:\n  " + "\n  ".join(missing))
    check_pins(repos["micropython"])
    work = os.path.abspath(work or os.path.join(REPO, "build", "mpsrc-w"))  # picotool wants absolute paths
    sw = Stopwatch()
    t0 = time.time()
    sw.start()
    src = prepare(tarball, work, repos)
    sw.stop("sources")
    sw.start()
    inst = pico_uf2.tools(src)
    sw.stop("picotool+mpy-cross")
    digest = None
    if kind == "box":
        if manifest is None:
            sys.path.insert(0, REPO)
            import firmware_build
            fw_out, _ = firmware_build.build("pico_w", quiet=True)
            manifest = os.path.join(fw_out, "manifest.py")
        if not os.path.exists(manifest):
            raise SystemExit("no manifest %s" % manifest)
        path = os.path.abspath(manifest)
        default = os.path.abspath(os.path.join(REPO, "build", "pico_w", "manifest.py"))
        tag = "box" if path == default else hashlib.sha1(path.encode()).hexdigest()[:8]
        board, build_name = BOX_BOARD, "build-" + BOX_BOARD + "-" + tag
        srcdir = os.path.join(os.path.dirname(path), "src")
        digest = src_digest(srcdir) if os.path.isdir(srcdir) else None
        out = out or os.path.join(REPO, "build", "pico-w-uf2")
    elif kind == "stock":
        board, build_name, manifest = BOX_BOARD, "build-" + BOX_BOARD, None
        out = out or os.path.join(REPO, "build", "pico-w-uf2-stock")
    elif kind == "upstream":
        board, build_name, manifest = UPSTREAM_BOARD, "build-" + UPSTREAM_BOARD, None
        out = out or os.path.join(REPO, "build", "pico-w-uf2-upstream")
    else:
        raise ValueError(kind)
    sw.start()
    bdir = pico_uf2.firmware(src, inst, build_name, manifest, board=board)
    sw.stop("firmware")
    os.makedirs(out, exist_ok=True)
    for name, dest in (("firmware.uf2",) * 2, ("firmware.elf",) * 2, ("firmware.elf.map", "firmware.map"),
                       ("firmware.bin",) * 2):
        p = os.path.join(bdir, name)
        if os.path.exists(p):
            shutil.copyfile(p, os.path.join(out, dest))
    sizes = {n: os.path.getsize(os.path.join(out, n)) for n in ("firmware.uf2", "firmware.bin")
             if os.path.exists(os.path.join(out, n))}
    info = ["MicroPython %s for the Raspberry Pi Pico W, board %s (%s), built by tools/pico_w_uf2.py"
            % (VERSION, board, kind),
            "frozen manifest: %s" % (manifest or "the board's own"),
            "frozen sources sha256: %s" % (digest or "-")]
    info += ["source %s github.com/%s %s from %s" % (s.name, s.github, s.commit, repos[s.name])
             for s in SOURCES if s.name in repos]
    info += ["size %s %d" % kv for kv in sorted(sizes.items())]
    info += ["time %s %.0f s, cpu %.0f s" % st for st in sw.steps]
    with open(os.path.join(out, "build-info.txt"), "w") as f:
        f.write("\n".join(info) + "\n")
    log("%s/firmware.uf2: %d bytes, firmware %d bytes (%.0f s: %s)" % (
        os.path.relpath(out, REPO), sizes["firmware.uf2"], sizes.get("firmware.bin", 0), time.time() - t0, sw.text()))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", help="the MicroPython source bundle (default %s)" % pico_uf2.default_source())
    ap.add_argument("--manifest", help="FROZEN_MANIFEST (default: build/pico_w/manifest.py, made first)")
    ap.add_argument("--out", help="where firmware.uf2/.elf go (default build/pico-w-uf2[-stock|-upstream])")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--stock", action="store_true", help="the box's board (Bluetooth off), nothing of ours frozen")
    g.add_argument("--upstream", action="store_true", help="RPI_PICO_W exactly as MicroPython ships it (needs btstack)")
    ap.add_argument("--work", help="where the sources are assembled (default build/mpsrc-w)")
    ap.add_argument("--if-available", action="store_true",
                    help="without the sources, say which are missing and succeed (make pico-test on a fresh clone)")
    ap.add_argument("--check", action="store_true", help="only say whether every source is here")
    a = ap.parse_args(argv)
    kind = "stock" if a.stock else "upstream" if a.upstream else "box"
    if a.check or a.if_available:
        tarball = a.source or pico_uf2.default_source()
        repos, missing = locate(bluetooth=kind == "upstream")
        if not os.path.exists(tarball):
            missing.insert(0, "the MicroPython source bundle %s (PICO_FIRMWARE_DIR)" % tarball)
        for name, path in sorted(repos.items()):
            log("found %s: %s" % (name, path))
        for m in missing:
            log("missing " + m)
        if a.check:
            return 1 if missing else 0
        if missing:
            log("not built (the Pico W tests will say they did not run)")
            return 0
    build(a.source, a.out, a.manifest, kind, a.work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
