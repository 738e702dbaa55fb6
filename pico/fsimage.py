"""littlefs images of the Pico's filesystem, made and read on the host (PyPI littlefs-python).

The parameters are those of MicroPython's rp2 port (ports/rp2, v1.28.0): littlefs2 at flash offset
0xA0000 to the end of the 2 MiB flash, 352 blocks of 4096 B, prog 256, read 32, lookahead 32. An
image made here mounts as / on the (emulated) board; the flash image the harness keeps after a
run reads back here.

    image = build({"main.py": b"...", "rules_min/mcr.mpy": b"..."})
    image = build_tree("build/pico/fs", extra={"run.py": src})
    files = read(image)              # {path: bytes}
"""
import os

import littlefs

BLOCK_SIZE = 4096
BLOCK_COUNT = 352
FS_OFFSET = 0xA0000
PARAMS = dict(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=256, read_size=32,
              lookahead_size=32)


def _fs(image=None):
    fs = littlefs.LittleFS(mount=False, **PARAMS)
    if image is None:
        fs.format()
    else:
        if len(image) != BLOCK_SIZE * BLOCK_COUNT:
            raise ValueError("a Pico filesystem image is %d bytes, not %d" % (BLOCK_SIZE * BLOCK_COUNT, len(image)))
        fs.context.buffer = bytearray(image)
    fs.mount()
    return fs


def _makedirs(fs, path):
    parts = path.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        d = "/".join(parts[:i])
        try:
            fs.mkdir(d)
        except FileExistsError:
            pass


def build(files):
    """A formatted image holding files {device path: bytes}."""
    fs = _fs()
    for path in sorted(files):
        rel = path.lstrip("/")
        _makedirs(fs, rel)
        with fs.open(rel, "wb") as f:
            f.write(files[path])
    fs.unmount()
    return bytes(fs.context.buffer)


def tree(folder, skip=()):
    """{device path: bytes} of every file under folder (paths relative to it), minus `skip`."""
    out = {}
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            p = os.path.join(root, name)
            rel = os.path.relpath(p, folder).replace(os.sep, "/")
            if rel in skip:
                continue
            with open(p, "rb") as f:
                out[rel] = f.read()
    return out


def read(image):
    """{path: bytes} of every file in an image (the filesystem part of a flash image)."""
    if len(image) > BLOCK_SIZE * BLOCK_COUNT:
        image = image[FS_OFFSET:FS_OFFSET + BLOCK_SIZE * BLOCK_COUNT]
    fs = _fs(image)
    out = {}
    for root, dirs, names in fs.walk("/"):
        for name in names:
            p = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    fs.unmount()
    return out
