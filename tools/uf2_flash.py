"""Flash a UF2 (the frozen firmware of `make pico-uf2`) onto an RP2040 board: by copying it to
the board's RPI-RP2 drive (the boot ROM's USB mass storage, in BOOTSEL mode) or with picotool.
tools/deploy.py --uf2 uses it; the steps are plain functions so tests can hand in stand-ins
(a folder as the drive, a script as picotool).

The UF2 is checked before anything is written: RP2040 family blocks, numbered without gaps,
all in flash below the filesystem at 0x100A0000. A UF2 that reached into the filesystem would
erase the journal (the boot ROM erases every sector a block falls in); such a file is refused.
"""
import os
import shutil
import struct
import subprocess
import time

MAGIC0, MAGIC1, MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY = 0x00002000
RP2040_FAMILY = 0xE48BFF56
FLASH_BASE = 0x10000000
FS_START = FLASH_BASE + 0xA0000  # MicroPython rp2: littlefs from here (the journal lives there)
DRIVE_LABEL = "RPI-RP2"
INFO = "INFO_UF2.TXT"


class FlashError(Exception):
    pass


def check_uf2(data, limit=FS_START):
    """{"blocks", "start", "end", "bytes"} of a UF2 for the RP2040's flash; FlashError if it is
    not one, or if a block lies at or beyond `limit` (the filesystem)."""
    if not data or len(data) % 512:
        raise FlashError("not a UF2 file: %d bytes is not a whole number of 512-byte blocks" % len(data))
    n = len(data) // 512
    lo, hi, total = None, 0, 0
    for i in range(n):
        b = data[i * 512:(i + 1) * 512]
        m0, m1, flags, addr, size, no, count, family = struct.unpack_from("<8I", b)
        (end,) = struct.unpack_from("<I", b, 508)
        if (m0, m1, end) != (MAGIC0, MAGIC1, MAGIC_END):
            raise FlashError("block %d: not a UF2 block (bad magic)" % i)
        if flags & FLAG_NOT_MAIN_FLASH:
            continue
        if not flags & FLAG_FAMILY or family != RP2040_FAMILY:
            raise FlashError("block %d: not for the RP2040 (family 0x%08x)" % (i, family if flags & FLAG_FAMILY else 0))
        if no != i or count != n:
            raise FlashError("block %d says it is %d of %d: the file is cut or mixed" % (i, no, count))
        if size == 0 or size > 476 or addr % 256:
            raise FlashError("block %d: %d bytes at 0x%08x is not a flash page write" % (i, size, addr))
        if addr < FLASH_BASE or addr + size > limit:
            raise FlashError("block %d writes 0x%08x-0x%08x: outside the firmware's part of the flash "
                             "(0x%08x-0x%08x); it would erase the filesystem with the journal"
                             % (i, addr, addr + size, FLASH_BASE, limit))
        lo = addr if lo is None else min(lo, addr)
        hi = max(hi, addr + size)
        total += size
    if lo is None:
        raise FlashError("the UF2 has no blocks for the flash")
    return {"blocks": n, "start": lo, "end": hi, "bytes": total}


def is_drive(path):
    """A mounted RPI-RP2 drive: its INFO_UF2.TXT names the RP2 boot ROM."""
    try:
        with open(os.path.join(path, INFO), encoding="ascii", errors="replace") as f:
            info = f.read(512)
    except OSError:
        return False
    return "Board-ID: RPI-RP2" in info or "Model: Raspberry Pi RP2" in info


def find_drive(mounts="/proc/mounts", extra=()):
    """The mount point of the RPI-RP2 drive, or None: the usual desktop mount points, then any
    mount whose folder holds the boot ROM's INFO_UF2.TXT."""
    user = os.environ.get("USER", "")
    cands = list(extra) + ["/media/%s/%s" % (user, DRIVE_LABEL), "/run/media/%s/%s" % (user, DRIVE_LABEL),
                           "/media/" + DRIVE_LABEL, "/Volumes/" + DRIVE_LABEL]
    try:
        with open(mounts) as f:
            for line in f:
                parts = line.split()
                if len(parts) > 1:
                    cands.append(parts[1].replace("\\040", " "))
    except OSError:
        pass
    for c in cands:
        if is_drive(c):
            return c
    return None


def wait_for(pred, timeout, step=0.1, tick=None):
    end = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() >= end:
            return None
        if tick is not None:
            tick()
        time.sleep(step)


def copy_to_drive(uf2_path, drive, timeout=60, out=print):
    """Copy the UF2 onto the drive (flushed to the device); then wait until the drive goes away:
    the boot ROM has written the flash and rebooted into the new firmware."""
    if not is_drive(drive):
        raise FlashError("%s is not an RPI-RP2 drive (no boot ROM %s)" % (drive, INFO))
    dest = os.path.join(drive, os.path.basename(uf2_path))
    with open(uf2_path, "rb") as src, open(dest, "wb") as dst:
        shutil.copyfileobj(src, dst, 64 * 1024)
        dst.flush()
        os.fsync(dst.fileno())
    out("copied %s to %s; waiting for the board to reboot" % (os.path.basename(uf2_path), drive))
    if wait_for(lambda: not is_drive(drive), timeout) is None:
        raise FlashError("the RPI-RP2 drive at %s is still there %d s after the copy: the board did not "
                         "take the UF2" % (drive, timeout))


def picotool_load(uf2_path, picotool="picotool", out=print, timeout=120):
    """picotool load (verify, then run): the board must be in BOOTSEL mode, or answer picotool's
    reset request (-f)."""
    exe = shutil.which(picotool) or (picotool if os.path.exists(picotool) else None)
    if exe is None:
        raise FlashError("no picotool (%s) on this machine: install it (Debian: apt install picotool) "
                         "or copy the UF2 to the RPI-RP2 drive (--via drive)" % picotool)
    cmd = [exe, "load", "-v", "-x", "-f", uf2_path]
    out(" ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode:
        raise FlashError("picotool failed (%d): %s" % (p.returncode, (p.stderr or p.stdout)[-1500:]))
    return p.stdout
