# What the host link keeps on flash besides the journal: the device key and the set-aside list.
# Both small files written whole to a .tmp file, flushed and renamed over the old one (littlefs
# and POSIX rename is atomic: a power cut leaves the old or the new file), each with a CRC-32
# that tells a damaged file from a good one.
#
#   key file    b"MJK1", key[32], crc32 LE of the 36 bytes before                   (40 bytes)
#   aside file  b"MJA1", synced u32 LE, count u8, count times (seq u32 LE, len u8, reason
#               UTF-8[len]), crc32 LE of everything before                  (at most 4 + ...)
#
# synced is how far the host has acknowledged, set-aside records included; the journal's own
# ack stays below the first set-aside record, so the journal never prunes one (nothing is lost
# while a referee looks at it). Without the file the journal's ack is the truth.
import os

from protocol.frames import KEY_LEN, crc32, le32, put_le32

KEY_MAGIC = b"MJK1"
ASIDE_MAGIC = b"MJA1"
MAX_ASIDE = 8  # records set aside at once: HELLO lists them all, reasons too, in one frame


def _replace(src, dst):
    r = getattr(os, "replace", None)  # CPython; MicroPython's rename overwrites (littlefs, POSIX)
    (r or os.rename)(src, dst)


def write_atomic(path, data):
    tmp = path + ".tmp"
    f = open(tmp, "wb")
    try:
        f.write(data)
        f.flush()
        if hasattr(os, "fsync"):
            os.fsync(f.fileno())
    finally:
        f.close()
    _replace(tmp, path)


def _read(path, limit):
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        return f.read(limit)
    finally:
        f.close()


def _sealed(data):
    n = len(data)
    return n >= 8 and crc32(memoryview(data)[:n - 4]) == le32(data, n - 4)


def load_key(path):
    """(key, None), (None, None) when there is no key file, (None, why) when it is damaged."""
    data = _read(path, 64)
    if data is None:
        return None, None
    if len(data) != 8 + KEY_LEN or data[:4] != KEY_MAGIC or not _sealed(data):
        return None, "key file damaged"
    return bytes(data[4:4 + KEY_LEN]), None


def store_key(path, key):
    b = bytearray(8 + KEY_LEN)
    b[0:4] = KEY_MAGIC
    b[4:4 + KEY_LEN] = key
    put_le32(b, 4 + KEY_LEN, crc32(memoryview(b)[:4 + KEY_LEN]))
    write_atomic(path, b)


def erase(path):
    try:
        os.remove(path)
    except OSError:
        pass


def load_aside(path):
    """(synced, [[seq, reason bytes], ...]) from the file; (None, []) if there is none or it is
    damaged (the journal's ack is then the floor: the host syncs a little again, nothing lost)."""
    data = _read(path, 4096)
    if data is None or len(data) < 13 or data[:4] != ASIDE_MAGIC or not _sealed(data):
        return None, []
    synced = le32(data, 4)
    count = data[8]
    out = []
    o = 9
    for _ in range(count):
        if o + 5 > len(data) - 4:
            return None, []
        n = data[o + 4]
        if o + 5 + n > len(data) - 4:
            return None, []
        out.append([le32(data, o), bytes(data[o + 5:o + 5 + n])])
        o += 5 + n
    return synced, out


def store_aside(path, synced, entries):
    n = 13 + sum(5 + len(r) for _, r in entries)
    b = bytearray(n)
    b[0:4] = ASIDE_MAGIC
    put_le32(b, 4, synced)
    b[8] = len(entries)
    o = 9
    for seq, reason in entries:
        put_le32(b, o, seq)
        b[o + 4] = len(reason)
        b[o + 5:o + 5 + len(reason)] = reason
        o += 5 + len(reason)
    put_le32(b, o, crc32(memoryview(b)[:o]))
    write_atomic(path, b)
