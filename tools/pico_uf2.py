"""Build the box's frozen firmware for the Raspberry Pi Pico: `make pico-uf2`.

MicroPython v1.28.0 for RPI_PICO with the box's code frozen into flash (the app, the board config,
rules_min, protocol/), from the offline source bundle a user takes from micropython.org
(`micropython-1.28.0-rp2-src.tar.xz`, its BUILD.txt says how; default in ../shared/pico):

  1. unpack the tarball once into build/mpsrc/ (a stamp file remembers which tarball);
  2. build picotool (no USB) and mpy-cross there, once;
  3. `make -C ports/rp2 BOARD=RPI_PICO BUILD=<out> FROZEN_MANIFEST=build/pico/manifest.py`, the
     manifest that `make firmware BOARD=pico` writes; incremental after the first build
     (CMake reads FROZEN_MANIFEST only when it makes the build folder: a new manifest path
     gets a new folder).

Output: build/pico-uf2/firmware.uf2 and firmware.elf (the harness needs the ELF's symbols), and
the stock build of the same source with --stock (build/pico-uf2-stock/). Times on 2 cores:
picotool ~33 s, mpy-cross ~15 s, firmware ~50 s, then seconds.
The Debian packages it needs (gcc-arm-none-eabi, newlib, cmake) come from
tools/pico_build_deps.sh, which installs them as root when they are missing.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARBALL = "micropython-1.28.0-rp2-src.tar.xz"
TOP = "micropython-1.28.0-rp2-src"
VERSION = "v1.28.0"


def default_source():
    d = os.environ.get("PICO_FIRMWARE_DIR") or os.path.join(REPO, "..", "shared", "pico")
    return os.path.abspath(os.path.join(d, TARBALL))


def log(msg):
    print("[pico-uf2] " + msg, file=sys.stderr, flush=True)


def run(cmd, env=None, cwd=None):
    t = time.time()
    log(" ".join(cmd))
    subprocess.run(cmd, check=True, env=env, cwd=cwd, stdout=subprocess.DEVNULL if os.environ.get("QUIET") else None)
    return time.time() - t


def unpack(tarball, work):
    """The source tree under work/, unpacked once per tarball (size + mtime in a stamp)."""
    src = os.path.join(work, TOP)
    stamp = os.path.join(work, ".unpacked")
    st = os.stat(tarball)
    sig = "%s %d %d\n" % (os.path.abspath(tarball), st.st_size, int(st.st_mtime))
    if os.path.isdir(src) and os.path.exists(stamp) and open(stamp).read() == sig:
        return src
    if os.path.isdir(src):
        shutil.rmtree(src)
    os.makedirs(work, exist_ok=True)
    run(["tar", "-xJf", tarball, "-C", work])
    with open(stamp, "w") as f:
        f.write(sig)
    return src


def jobs():
    return str(os.cpu_count() or 2)


def tools(src):
    """picotool (installed under src/picotool-install) and mpy-cross, each built once."""
    mp = os.path.join(src, "micropython")
    inst = os.path.join(src, "picotool-install")
    if not os.path.exists(os.path.join(inst, "bin", "picotool")):
        build = os.path.join(src, "picotool", "build")
        run(["cmake", "-S", os.path.join(src, "picotool"), "-B", build,
             "-DPICO_SDK_PATH=" + os.path.join(mp, "lib", "pico-sdk"), "-DPICOTOOL_NO_LIBUSB=1",
             "-DCMAKE_INSTALL_PREFIX=" + inst, "-DCMAKE_BUILD_TYPE=Release"])
        run(["make", "-C", build, "-j" + jobs()])
        run(["make", "-C", build, "install"])
    if not os.path.exists(os.path.join(mp, "mpy-cross", "build", "mpy-cross")):
        run(["make", "-C", os.path.join(mp, "mpy-cross"), "-j" + jobs()])
    return inst


def firmware(src, inst, build_name, manifest=None, board="RPI_PICO"):
    """make -C ports/rp2 for one board folder of ports/rp2/boards (tools/pico_w_uf2.py: the Pico W)."""
    mp = os.path.join(src, "micropython")
    env = dict(os.environ)
    env["CMAKE_PREFIX_PATH"] = inst
    env["MICROPY_GIT_TAG"] = VERSION  # no git here: keep the banner's version clean
    env.pop("CMAKE_ARGS", None)
    cmd = ["make", "-C", os.path.join(mp, "ports", "rp2"), "BOARD=" + board, "BUILD=" + build_name, "-j" + jobs()]
    if manifest:
        cmd.append("FROZEN_MANIFEST=" + os.path.abspath(manifest))
    run(cmd, env=env)
    return os.path.join(mp, "ports", "rp2", build_name)


def build(tarball=None, out=None, manifest=None, stock=False, work=None):
    tarball = tarball or default_source()
    if not os.path.exists(tarball):
        raise SystemExit("no MicroPython source at %s (set PICO_FIRMWARE_DIR or --source)" % tarball)
    work = os.path.abspath(work or os.path.join(REPO, "build", "mpsrc"))  # picotool wants absolute paths
    t0 = time.time()
    src = unpack(tarball, work)
    inst = tools(src)
    if stock:
        bdir = firmware(src, inst, "build-RPI_PICO")
        out = out or os.path.join(REPO, "build", "pico-uf2-stock")
    else:
        manifest = manifest or os.path.join(REPO, "build", "pico", "manifest.py")
        if not os.path.exists(manifest):
            raise SystemExit("no %s: run `make firmware BOARD=pico` first" % manifest)
        # one build folder per manifest path: CMake reads FROZEN_MANIFEST only once per folder
        default = os.path.abspath(os.path.join(REPO, "build", "pico", "manifest.py"))
        path = os.path.abspath(manifest)
        tag = "box" if path == default else hashlib.sha1(path.encode()).hexdigest()[:8]
        bdir = firmware(src, inst, "build-RPI_PICO-" + tag, manifest)
        out = out or os.path.join(REPO, "build", "pico-uf2")
    os.makedirs(out, exist_ok=True)
    for name in ("firmware.uf2", "firmware.elf", "firmware.map"):
        p = os.path.join(bdir, name)
        if os.path.exists(p):
            shutil.copyfile(p, os.path.join(out, name))
    size = os.path.getsize(os.path.join(out, "firmware.uf2"))
    log("%s/firmware.uf2: %d bytes (%.0f s)" % (os.path.relpath(out, REPO), size, time.time() - t0))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", help="the MicroPython source tarball (default %s)" % default_source())
    ap.add_argument("--manifest", help="FROZEN_MANIFEST (default build/pico/manifest.py)")
    ap.add_argument("--out", help="where firmware.uf2/.elf go (default build/pico-uf2)")
    ap.add_argument("--stock", action="store_true", help="the stock build, nothing of ours frozen")
    ap.add_argument("--work", help="where the source is unpacked (default build/mpsrc)")
    ap.add_argument("--if-available", action="store_true",
                    help="without the source tarball, say so and succeed (make test on a fresh clone)")
    a = ap.parse_args(argv)
    if a.if_available and not os.path.exists(a.source or default_source()):
        log("not built: no MicroPython source at %s (the Pico tests will say they did not run)"
            % (a.source or default_source()))
        return 0
    build(a.source, a.out, a.manifest, a.stock, a.work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
