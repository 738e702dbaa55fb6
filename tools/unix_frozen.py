"""The MicroPython unix port with the box's code frozen in: `make unix-frozen` (issue 10: figures
for a board without PSRAM, e.g. an ESP32 with ~110 KB of heap, from a frozen build of the same
v1.28.0 source the Pico firmware comes from; docs/esp32.md has the plan and the figures).

Frozen: firmware/, protocol/, rules_min/ (without the modules compiled only for a board's native
architecture, as tools/firmware_build.py decides: the portable path runs), and the simulator's
runner and board (simulator/runner.py & co., board_configs/sim.py) so the whole box plays a
scenario as `make mp-sim` does, its bytecode in the binary instead of the heap.

32-bit (MICROPY_FORCE_32BIT, gcc -m32) when the host compiler can build for it: the objects are
then the size they are on a 32-bit microcontroller. Otherwise 64-bit, said in the output. The
source is unpacked by tools/pico_uf2.py (build/mpsrc); the unix port builds in about a minute.

Output: build/unix-frozen/micropython32 (or micropython64); prints its path.
"""
import argparse
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tools"))
import firmware_build  # noqa: E402
import pico_uf2  # noqa: E402

OUT = os.path.join(REPO, "build", "unix-frozen")
SIM_FILES = ("__init__.py", "runner.py", "player.py", "parts.py", "virtual.py", "push.py")  # push: the box online (bench/push_heap.py)


def can_build_32():
    with tempfile.TemporaryDirectory() as d:
        c = os.path.join(d, "t.c")
        with open(c, "w") as f:
            f.write("int main(void) { return 0; }\n")
        r = subprocess.run(["cc", "-m32", c, "-o", os.path.join(d, "t")], capture_output=True)
        return r.returncode == 0


def package_files(top):
    """The .py files of a package folder (with subfolders), minus native-only modules."""
    out = []
    base = os.path.join(REPO, top)
    for root, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for n in sorted(files):
            p = os.path.join(root, n)
            if n.endswith(".py") and not firmware_build.needs_native(p):
                out.append(os.path.relpath(p, base))
    return out


def write_manifest(path):
    lines = ["# made by tools/unix_frozen.py: the box's modules frozen into the unix port"]
    for top in ("firmware", "protocol", "rules_min"):
        lines.append("package(%r, files=%r, base_path=%r)" % (top, package_files(top), REPO))
    lines.append("package('simulator', files=%r, base_path=%r)" % (list(SIM_FILES), REPO))
    lines.append("package('board_configs', files=['__init__.py', 'sim.py'], base_path=%r)" % REPO)
    text = "\n".join(lines) + "\n"
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)


def build(bits=None, tarball=None):
    bits = bits or (32 if can_build_32() else 64)
    tarball = tarball or pico_uf2.default_source()
    if not os.path.exists(tarball):
        raise SystemExit("no MicroPython source at %s (set PICO_FIRMWARE_DIR)" % tarball)
    src = pico_uf2.unpack(tarball, os.path.join(REPO, "build", "mpsrc"))
    os.makedirs(OUT, exist_ok=True)
    manifest = os.path.join(OUT, "manifest.py")
    write_manifest(manifest)
    bdir = os.path.join(OUT, "build%d" % bits)
    env = dict(os.environ, MICROPY_GIT_TAG=pico_uf2.VERSION)
    # mpy-cross first, on its own: built by the port's make it inherits BUILD= and links against
    # the port's frozen objects (a clean tree failed with "undefined mp_qstr_frozen_const_pool")
    cross = os.path.join(src, "micropython", "mpy-cross")
    if not os.path.exists(os.path.join(cross, "build", "mpy-cross")):
        subprocess.run(["make", "-C", cross, "-j" + pico_uf2.jobs()], check=True, env=env,
                       stdout=subprocess.DEVNULL if os.environ.get("QUIET") else None)
    cmd = ["make", "-C", os.path.join(src, "micropython", "ports", "unix"), "BUILD=" + bdir,
           "MICROPY_PY_BTREE=0", "MICROPY_PY_FFI=0", "FROZEN_MANIFEST=" + manifest, "-j" + pico_uf2.jobs()]
    if bits == 32:
        cmd.append("MICROPY_FORCE_32BIT=1")
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL if os.environ.get("QUIET") else None)
    exe = os.path.join(OUT, "micropython%d" % bits)
    tmp = exe + ".tmp"
    with open(os.path.join(bdir, "micropython"), "rb") as f, open(tmp, "wb") as g:
        g.write(f.read())
    os.chmod(tmp, 0o755)
    os.replace(tmp, exe)
    return exe, bits


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bits", type=int, choices=(32, 64), help="default: 32 when cc -m32 works")
    a = ap.parse_args(argv)
    exe, bits = build(a.bits)
    print(exe)
    return 0


if __name__ == "__main__":
    sys.exit(main())
