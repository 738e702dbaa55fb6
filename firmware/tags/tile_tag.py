# What a tile's NFC tag says: an 8-byte record in NTAG user memory, pages 4..5.
#
#   byte 0    0xA0 | version (1): the high nibble tells our records from other NDEF / user data
#   byte 1-2  set id, big-endian, 1..65535: a tile from another table's set is refused
#   byte 3    tile code: 0..33 as rules_min/tiles.py, 34..41 the flowers and seasons a..h
#   byte 4    copy 0..3 (always 0 for a flower: there is one of each)
#   byte 5-6  0 (reserved)
#   byte 7    CRC-8/SAE-J1850 of bytes 0..6 (poly 0x1D, init 0xFF, xorout 0xFF)
#
# decode() raises ValueError(code, message): "blank" (never written: all 00 or all FF),
# "corrupt" (not our record, or damaged), "version" (a newer record than this firmware knows),
# "foreign_set" (a tile of another set). A reader reads 16 bytes from page 4; decode takes the
# first 8.
#
# Tags that cannot be written (locked, or UID-only) are identified by their UID instead, through
# a UidRegistry: a sorted table of 9-byte entries (UID length, UID padded to 7 bytes, tile*4+copy)
# searched in place, so a full set (144 tiles + 8 flowers, ~1.4 KB) costs no objects per lookup.
from firmware.compat import const

RECORD_PAGE = const(4)
RECORD_LEN = const(8)
MAGIC = const(0xA0)
VERSION = const(1)
NUM_TILES = const(34)
NUM_CODES = const(42)  # tiles and the eight flowers
COPIES = const(4)

_REG_MAGIC = b"MJU1"
_ENTRY = const(9)
_HEADER = const(8)  # magic, set id (2), count (2)


# CRC-8/SAE-J1850 of a nibble (its 4 shifts through poly 0x1D), for crc8's two steps a byte: a
# tile's read checks 7 bytes, and 56 bit steps in Python cost the Pico ~0.5 ms of every tap
_NIBBLE = b"\x00\x1d\x3a\x27\x74\x69\x4e\x53\xe8\xf5\xd2\xcf\x9c\x81\xa6\xbb"


def crc8(buf, start=0, n=-1):
    # CRC-8/SAE-J1850; check value of b"123456789" is 0x4B
    if n < 0:
        n = len(buf) - start
    crc = 0xFF
    t = _NIBBLE
    for i in range(start, start + n):
        crc ^= buf[i]
        crc = ((crc << 4) & 0xFF) ^ t[crc >> 4]
        crc = ((crc << 4) & 0xFF) ^ t[crc >> 4]
    return crc ^ 0xFF


def _check(set_id, tile, copy):
    if not 1 <= set_id <= 0xFFFF:
        raise ValueError("bad_set", "set id must be 1..65535, not %r" % (set_id,))
    if not 0 <= tile < NUM_CODES:
        raise ValueError("bad_tile", "tile code must be 0..41, not %r" % (tile,))
    if not 0 <= copy < (1 if tile >= NUM_TILES else COPIES):
        raise ValueError("bad_copy", "copy %r of tile %d does not exist" % (copy, tile))


def encode(set_id, tile, copy):
    _check(set_id, tile, copy)
    b = bytearray(RECORD_LEN)
    b[0] = MAGIC | VERSION
    b[1] = set_id >> 8
    b[2] = set_id & 0xFF
    b[3] = tile
    b[4] = copy
    b[7] = crc8(b, 0, 7)
    return bytes(b)


def decode(buf, expected_set):
    """(tile, copy) of the record at buf[0:8], or ValueError(code, message)."""
    if len(buf) < RECORD_LEN:
        raise ValueError("corrupt", "record needs 8 bytes, got %d" % len(buf))
    first = buf[0]
    if first in (0x00, 0xFF):
        blank = True
        for i in range(1, RECORD_LEN):
            if buf[i] != first:
                blank = False
        if blank:
            raise ValueError("blank", "tag not written yet")
    if first & 0xF0 != MAGIC:
        raise ValueError("corrupt", "not a tile record (first byte 0x%02x)" % first)
    if crc8(buf, 0, 7) != buf[7]:
        raise ValueError("corrupt", "record checksum does not match")
    if first & 0x0F != VERSION:
        raise ValueError("version", "record version %d is newer than this firmware"
                         % (first & 0x0F))
    set_id = buf[1] << 8 | buf[2]
    tile = buf[3]
    copy = buf[4]
    copies = 1 if tile >= NUM_TILES else COPIES
    if buf[5] or buf[6] or tile >= NUM_CODES or copy >= copies:
        raise ValueError("corrupt", "record fields out of range")
    if set_id != expected_set:
        raise ValueError("foreign_set", "tile of set %d, this table plays set %d"
                         % (set_id, expected_set))
    return tile, copy


class UidRegistry:
    """UID -> (tile, copy) for tags that carry no record. Built on a laptop with build(), stored
    as bytes on the device and searched in place."""

    def __init__(self, blob):
        if len(blob) < _HEADER or bytes(blob[0:4]) != _REG_MAGIC:
            raise ValueError("corrupt", "not a UID registry")
        self.set_id = blob[4] << 8 | blob[5]
        self.count = blob[6] << 8 | blob[7]
        if len(blob) != _HEADER + self.count * _ENTRY:
            raise ValueError("corrupt", "UID registry size does not match its count")
        self._b = blob

    @staticmethod
    def build(set_id, entries):
        """entries: iterable of (uid bytes, tile, copy). Refuses duplicate UIDs and tiles.

        Works in one growing buffer, sorted in place: thousands of small objects would
        fragment a MicroPython heap past the point where the result fits."""
        out = bytearray(_HEADER)
        out[0:4] = _REG_MAGIC
        seen = bytearray(NUM_CODES * COPIES)
        rec = bytearray(_ENTRY)
        n = 0
        for uid, tile, copy in entries:
            _check(set_id, tile, copy)
            k = len(uid)
            if k not in (4, 7):
                raise ValueError("bad_uid", "UIDs are 4 or 7 bytes, not %d" % k)
            code = tile * COPIES + copy
            if seen[code]:
                raise ValueError("duplicate", "tile %d copy %d listed twice" % (tile, copy))
            seen[code] = 1
            rec[0] = k
            for i in range(7):
                rec[1 + i] = uid[i] if i < k else 0
            rec[8] = code
            out.extend(rec)
            n += 1
        for i in range(1, n):  # insertion sort of the entries by (length, UID)
            j = i
            while j > 0 and _order(out, j - 1, j) > 0:
                a = _HEADER + (j - 1) * _ENTRY
                for b in range(_ENTRY):
                    out[a + b], out[a + _ENTRY + b] = out[a + _ENTRY + b], out[a + b]
                j -= 1
        for i in range(1, n):
            if _order(out, i - 1, i) == 0:
                raise ValueError("duplicate", "UID listed twice")
        out[4] = set_id >> 8
        out[5] = set_id & 0xFF
        out[6] = n >> 8
        out[7] = n & 0xFF
        return bytes(out)

    def _cmp(self, off, uid, n):
        # entry at off against (n, uid[:n] padded): -1, 0, 1
        b = self._b
        if b[off] != n:
            return -1 if b[off] < n else 1
        for i in range(7):
            u = uid[i] if i < n else 0
            if b[off + 1 + i] != u:
                return -1 if b[off + 1 + i] < u else 1
        return 0

    def lookup(self, uid, n):
        """tile * 4 + copy for uid[:n], or -1. Allocates nothing."""
        lo = 0
        hi = self.count
        while lo < hi:
            mid = (lo + hi) >> 1
            off = _HEADER + mid * _ENTRY
            c = self._cmp(off, uid, n)
            if c == 0:
                return self._b[off + 8]
            if c < 0:
                lo = mid + 1
            else:
                hi = mid
        return -1


def _order(b, i, j):
    # entries i and j of a registry buffer by their 8-byte key: -1, 0, 1
    a = _HEADER + i * _ENTRY
    c = _HEADER + j * _ENTRY
    for k in range(8):
        if b[a + k] != b[c + k]:
            return -1 if b[a + k] < b[c + k] else 1
    return 0


def identify(data, uid, uid_len, expected_set, registry=None):
    """(tile, copy) of a tag from its record (data: 8+ bytes from page 4) or, for a tag without
    one, from the registry. The record's own verdict stands for a foreign or newer record."""
    try:
        return decode(data, expected_set)
    except ValueError as e:
        if registry is None or e.args[0] not in ("blank", "corrupt"):
            raise
        if registry.set_id != expected_set:
            raise ValueError("foreign_set", "UID registry is for set %d" % registry.set_id)
        code = registry.lookup(uid, uid_len)
        if code < 0:
            raise
        return code >> 2, code & 3
