# The hand journal's files on flash and what they hold: the one description of the format,
# which firmware/journal/journal.py writes and reads and firmware/journal/recovery.py checks at
# boot. Only MicroPython built-ins: no os.path, no struct tuples in hot paths.
#
# Files in the journal directory:
#   j0000.log, j0001.log, ...  segments, each at most `segment_size` bytes, records back to back;
#                              a record that does not fit starts the next segment
#   ack                        the host's acknowledged seq: <seq u32 LE><crc32 of those 4 bytes>
#   ack.tmp, trunc.tmp, pend.tmp  transient; one left by a power cut is removed at boot
#
# Record: <len u16 LE><seq u32 LE><crc u32 LE><payload: len bytes, opaque, <= max_payload>
#   crc = binascii.crc32 (IEEE) over the 6 header bytes before it (len, seq), then the payload.
#   seq is 1 for the first record ever and +1 per record, across segments, pruning and reboots
#   (a fully pruned journal continues from the acked seq).
import os

from firmware.compat import const

try:
    import binascii

    crc32 = binascii.crc32
except (ImportError, AttributeError):  # ports built without MICROPY_PY_BINASCII_CRC32
    crc32 = None

HEADER = const(10)  # bytes of record header: len u16, seq u32, crc u32

# CRC-32 (IEEE, reflected, poly 0xEDB88320), nibble at a time, split in 16-bit halves so every
# intermediate stays a small int on 32-bit MicroPython (no heap allocation per byte).
_TLO = (0x0000, 0x1064, 0x20C8, 0x30AC, 0x4190, 0x51F4, 0x6158, 0x713C,
        0x8320, 0x9344, 0xA3E8, 0xB38C, 0xC2B0, 0xD2D4, 0xE278, 0xF21C)
_THI = (0x0000, 0x1DB7, 0x3B6E, 0x26D9, 0x76DC, 0x6B6B, 0x4DB2, 0x5005,
        0xEDB8, 0xF00F, 0xD6D6, 0xCB61, 0x9B64, 0x86D3, 0xA00A, 0xBDBD)


def crc32_soft(data, crc=0):
    """binascii.crc32-compatible CRC-32 in plain Python: the fallback for ports without it."""
    lo = (crc & 0xFFFF) ^ 0xFFFF
    hi = ((crc >> 16) & 0xFFFF) ^ 0xFFFF
    tlo = _TLO
    thi = _THI
    for b in data:
        lo ^= b
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[i]
        hi = (hi >> 4) ^ thi[i]
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[i]
        hi = (hi >> 4) ^ thi[i]
    return ((hi ^ 0xFFFF) << 16) | (lo ^ 0xFFFF)


if crc32 is None:
    crc32 = crc32_soft

replace = getattr(os, "replace", os.rename)  # CPython: replace also overwrites on Windows
fsync = getattr(os, "fsync", None)  # CPython only; MicroPython's flush() is the sync


class JournalError(Exception):
    pass


class JournalFull(JournalError):
    """Not enough flash: no new session (or, rarely, an append failed with ENOSPC; not committed)."""


class JournalCorrupt(JournalError):
    """A damaged record that is not a torn tail: appends are refused, nothing is dropped."""


def le32(b, i):
    return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)


def seg_index(name):
    # "j0012.log" -> 12; anything else -> -1
    if len(name) < 6 or name[0] != "j" or not name.endswith(".log"):
        return -1
    digits = name[1:-4]
    if not digits or not digits.isdigit():
        return -1
    return int(digits)


def sync_file(f):
    f.flush()
    if fsync is not None:
        fsync(f.fileno())
