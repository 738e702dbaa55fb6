"""littlefs images of the Pico's filesystem, made and read on the host (PyPI littlefs-python).

The parameters are those of MicroPython's rp2 port (ports/rp2, v1.28.0): littlefs2 at the end of
the 2 MiB flash, blocks of 4096 B, prog 256, read 32, lookahead 32; on the Pico (RPI_PICO) from
0xA0000, 352 blocks; on the Pico W (RPI_PICO_W) from 0x12C000, 212 blocks (its firmware, the
radio's included, needs the flash: MICROPY_HW_FLASH_STORAGE_BYTES 848 KiB). An image made here
mounts as / on the (emulated) board; the flash image the harness keeps after a run reads back here.

    image = build({"main.py": b"...", "rules_min/mcr.mpy": b"..."})      # board="pico_w": the Pico W's
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
# (flash offset, blocks) of the filesystem per board config (board_configs/NAME.py)
LAYOUTS = {"pico": (FS_OFFSET, BLOCK_COUNT), "pico_w": (0x12C000, 212)}


def layout(board="pico"):
    """(flash offset, block count) of littlefs on this board's MicroPython build."""
    if board not in LAYOUTS:
        raise ValueError("no flash layout for board %r (pico/fsimage.py LAYOUTS)" % (board,))
    return LAYOUTS[board]


def _fs(image=None, board="pico"):
    count = layout(board)[1]
    fs = littlefs.LittleFS(mount=False, **dict(PARAMS, block_count=count))
    if image is None:
        fs.format()
    else:
        if len(image) != BLOCK_SIZE * count:
            raise ValueError("a %s filesystem image is %d bytes, not %d" % (board, BLOCK_SIZE * count, len(image)))
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


def build(files, board="pico"):
    """A formatted image holding files {device path: bytes}."""
    fs = _fs(board=board)
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


def read(image, board="pico"):
    """{path: bytes} of every file in an image (the filesystem part of a flash image)."""
    off, count = layout(board)
    if len(image) > BLOCK_SIZE * count:
        image = image[off:off + BLOCK_SIZE * count]
    fs = _fs(image, board)
    out = {}
    for root, dirs, names in fs.walk("/"):
        for name in names:
            p = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    fs.unmount()
    return out
