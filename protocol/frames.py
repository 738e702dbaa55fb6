# The wire format of the box's host link: one module that both ends import (the box's
# firmware/link/engine.py, the laptop's host_tools/sync and host_tools/tags). Pure Python that runs on
# MicroPython and CPython; the device's buffers are the caller's, allocated once.
#
# Framing. A frame on the wire is 0x00, COBS(body), 0x00. COBS (consistent overhead byte
# stuffing, the canonical encoding) leaves no 0x00 inside, so every byte value survives and a
# receiver re-synchronises at the next 0x00 whatever came before. Empty frames (0x00 0x00) are
# idle fill and ignored. The decoded body:
#
#     type u8 | seq u8 | payload (0..MAX_FRAME-6 bytes) | crc u32 LE
#
#   crc = CRC-32 (IEEE, binascii.crc32) over type, seq and payload. A body longer than MAX_FRAME
#   (2050) bytes, or its encoding longer than MAX_ENC, is oversized: dropped up to the next 0x00
#   and counted, as are bodies that fail COBS, are shorter than 6 bytes or fail the CRC.
#
# Requests and replies. The host sends a request (type 0x01..0x7F) with a seq of its choice
# (+1 mod 256 per new request; a new connection starts at a random value and with HELLO). The
# device answers every valid request with exactly one reply: type | 0x80, the same seq, and a
# payload that starts with a status byte (OK = 0, else an error code below followed by a UTF-8
# message of at most 200 bytes). The reply is the acknowledgement: stop-and-wait ARQ. The host
# resends the same request (same seq, same bytes) when no matching reply comes within its
# timeout; the device keeps its last reply and sends it again, without redoing the request, when
# the same request (seq and crc) comes again (HELLO is always redone). Replies with another seq
# are stale and the host ignores them.
#
# Authenticated requests (marked * below) change the box. Their payload is the arguments
# followed by a 32-byte MAC (protocol/sign.py: request_mac):
#     HMAC-SHA256(device key, "req" 0x00 device-id 0x00 nonce[16] type u8 arguments)
# where nonce is the box's answer to the last CHALLENGE. The box forgets the nonce at the first
# authenticated request that follows, whether its MAC is right or not: each nonce authenticates
# one request, so a recorded request replayed later fails (E_NONCE), and a host without the key
# changes nothing (E_DENIED). A box without a key refuses them all (E_NO_KEY).
#
#   0x01 HELLO      -                                -> JSON {proto, device, fw, board, first,
#                                                       last, acked, unsynced, keyed, time,
#                                                       max_frame, session, corrupt, aside,
#                                                       link counters}
#   0x02 RECORDS    from u32 BE, max u8              -> from u32 BE, count u8, then count times:
#                                                       seq u32 BE, len u16 BE, sig[32], payload
#                   records from, from+1, ... (as many as fit a frame, at most max); count 0 when
#                   the journal has nothing at or after `from`. A record holds at most
#                   MAX_RECORD (2000) bytes: one always fits a reply. sig: protocol/sign.py record_mac,
#                   made on the box. Needs a key (E_NO_KEY).
#   0x03 ACK *      seq u32 BE                       -> seq u32 BE, acked u32 BE: the host has
#                                                       stored (or set aside) every record <= seq
#   RECORDS and ACK replies echo what was asked, so a late reply to an earlier request (an earlier
#   connection's, whose seq happens to match) is told apart and ignored.
#   0x04 CONFIG *   JSON session config              -> OK, or E_REFUSED + the reason
#   0x05 CLOCK *    unix seconds u64 BE              -> JSON {epoch, time}
#   0x06 PROVISION  key[32]                          -> OK; E_KEY_SET once the box has a key
#   0x07 CHALLENGE  -                                -> nonce[16] for the next * request
#   0x08 REKEY *    wrapped[32]                      -> OK: the new key is
#          wrapped XOR HMAC(old key, "wrap" 0x00 device-id 0x00 nonce): it never crosses in clear
#   0x09 BYE        -                                -> OK; then the link goes idle
#   0x0A TAGS       JSON (firmware/tags/mode.py)     -> JSON: poll only (other ops: "auth")
#   0x0B TAGS_SET * JSON (firmware/tags/mode.py)     -> JSON: every op (begin, read, write, save...)
#   0x0C ASIDE *    seq u32 BE, reason UTF-8 (<= 48) -> seq u32 BE, count u8: the record is set
#          aside (the server refused it): it stays on the box, listed in HELLO's "aside" until
#          RELEASE, and no longer holds back the ACK of the records after it
#   0x0D RELEASE *  seq u32 BE                       -> seq u32 BE, count u8: no longer aside (a
#          referee resolved it); the box may then prune it once everything before is acked
#   0x0E NET *      JSON {ssid, password, server}    -> JSON {set: true}: the box's Wi-Fi and server
#          address (firmware/net/settings.py); only a box whose board has a network answers it
#          (firmware/net/link_request.py), {} as args: JSON of the settings without the password
#   other types: E_UNKNOWN (firmware/link/engine.py's Link.handle adds them)
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


try:
    from binascii import crc32 as _crc32
except ImportError:  # pragma: no cover - every port this project targets has it
    _crc32 = None

PROTO = const(2)
MAX_RECORD = const(2000)  # a journal record's payload at most: one RECORDS reply carries it
REC_HEADER = const(38)  # per record in RECORDS: seq 4, len 2, sig 32
# decoded body at most: a RECORDS reply with one largest record (type, seq, status, from u32,
# count u8, the record's header and payload, crc) = 2 + 1 + 5 + 38 + 2000 + 4
MAX_FRAME = const(2050)
MAX_ENC = const(2050 + 2050 // 254 + 1)  # its COBS encoding at most
MAX_PAYLOAD = const(2050 - 6)
NONCE_LEN = const(16)
MAC_LEN = const(32)
KEY_LEN = const(32)
MAX_REASON = const(48)  # bytes of an ASIDE reason kept on the box
MAX_MESSAGE = const(200)  # bytes of an error reply's message

T_HELLO = const(0x01)
T_RECORDS = const(0x02)
T_ACK = const(0x03)
T_CONFIG = const(0x04)
T_CLOCK = const(0x05)
T_PROVISION = const(0x06)
T_CHALLENGE = const(0x07)
T_REKEY = const(0x08)
T_BYE = const(0x09)
T_TAGS = const(0x0A)
T_TAGS_SET = const(0x0B)
T_ASIDE = const(0x0C)
T_RELEASE = const(0x0D)
T_NET = const(0x0E)
REPLY = const(0x80)

OK = const(0)
E_BAD_REQUEST = const(1)
E_UNKNOWN = const(2)
E_NO_KEY = const(3)
E_KEY_SET = const(4)
E_DENIED = const(5)  # an authenticated request whose MAC is wrong: not the box's key
E_RANGE = const(6)
E_JOURNAL = const(7)
E_REFUSED = const(8)  # the application refused it (a bad session config...)
E_INTERNAL = const(9)
E_NONCE = const(10)  # an authenticated request without a fresh CHALLENGE (or a replay)
E_FULL = const(11)  # no room to set another record aside

_ZERO = b"\x00"


def crc32(data, crc=0):
    if _crc32 is not None:
        return _crc32(data, crc)  # unsigned on CPython 3 and MicroPython
    crc ^= 0xFFFFFFFF  # bit at a time: only for a port built without binascii.crc32
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def le32(b, i):
    return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)


def be32(b, i):
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]


def put_be32(b, i, v):
    b[i] = (v >> 24) & 0xFF
    b[i + 1] = (v >> 16) & 0xFF
    b[i + 2] = (v >> 8) & 0xFF
    b[i + 3] = v & 0xFF


def put_le32(b, i, v):
    b[i] = v & 0xFF
    b[i + 1] = (v >> 8) & 0xFF
    b[i + 2] = (v >> 16) & 0xFF
    b[i + 3] = (v >> 24) & 0xFF


# ------------------------------------------------------------------------------------ COBS


def cobs_block(src, i, n):
    """The canonical COBS block that starts at src[i] (0 <= i <= n): (code, end of its data,
    start of the next block or -1 after the last). Its bytes on the wire: code, src[i:end].
    The one rule of the encoding: cobs_encode_into and the box's streaming writer use it."""
    z = src.find(_ZERO, i, n)
    end = n if z < 0 else z
    if end - i >= 254:
        end = i + 254
        return 0xFF, end, (-1 if end == n else end)
    return end - i + 1, end, (-1 if z < 0 else z + 1)


def cobs_encode_into(src, n, dst, o):
    """Canonical COBS of src[0:n] (a bytearray or bytes) written into dst from index o; returns
    the index after it. dst needs n + n // 254 + 1 bytes from o. Python work per block (a zero
    or 254 bytes), not per byte: the copies are slice assignments."""
    sm = memoryview(src)
    i = 0
    while i >= 0:
        code, end, nxt = cobs_block(src, i, n)
        dst[o] = code
        o += 1
        if end > i:
            dst[o:o + end - i] = sm[i:end]
            o += end - i
        i = nxt
    return o


def cobs_decode_inplace(buf, n):
    """Decode the COBS bytes buf[0:n] in place; returns the decoded length, or -1 if they are
    not valid COBS (a zero byte, or a block running past the end). Python work per block: each
    block is copied through a temporary (the output overlaps the input, and slice assignment
    promises nothing then); the box only ever decodes short requests this way."""
    mv = memoryview(buf)
    i = 0
    o = 0
    while i < n:
        code = buf[i]
        if code == 0:
            return -1
        i += 1
        end = i + code - 1
        if end > n:
            return -1
        if end > i:
            if buf.find(_ZERO, i, end) >= 0:
                return -1
            buf[o:o + end - i] = bytes(mv[i:end])
            o += end - i
            i = end
        if code < 0xFF and i < n:
            buf[o] = 0
            o += 1
    return o


class Deframer:
    """Bytes from the line in, checked frames out; the one receiver of both ends. Holds one
    frame's encoding (MAX_ENC bytes, allocated once) and decodes it in place. Damaged frames are
    counted by kind and dropped; an oversized one is dropped up to the next delimiter."""

    def __init__(self):
        self.buf = bytearray(MAX_ENC)
        self._mv = memoryview(self.buf)
        self.n = 0
        self.skip = False
        self.frames = 0
        self.bad_crc = 0
        self.bad_cobs = 0
        self.short = 0
        self.oversized = 0

    @property
    def bad(self):
        return self.bad_crc + self.bad_cobs + self.short

    def reset(self):
        self.n = 0
        self.skip = False

    def feed(self, data, i, end, mv=None):
        """Scan data[i:end] (mv: a memoryview of data, to spare making one). Returns (index after the first good frame, its body length), the
        body (type, seq, payload, crc) then in buf[0:length], valid until the next call; or
        (end, 0) when the bytes ran out (a partial frame is kept for the next call). Also
        (index, -1) after a damaged frame, so that a caller can react to it."""
        if mv is None:
            mv = memoryview(data)
        buf = self.buf
        while i < end:
            z = data.find(_ZERO, i, end)
            stop = end if z < 0 else z
            k = stop - i
            if k and not self.skip:
                if self.n + k > MAX_ENC:
                    self.skip = True
                    self.oversized += 1
                else:
                    self._mv[self.n:self.n + k] = mv[i:stop]
                    self.n += k
            if z < 0:
                return end, 0
            i = z + 1
            if self.skip:
                self.skip = False
                self.n = 0
                continue
            n = self.n
            if not n:
                continue  # idle fill
            self.n = 0
            ln = cobs_decode_inplace(buf, n)
            if ln < 0:
                self.bad_cobs += 1
            elif ln > MAX_FRAME:
                self.oversized += 1
            elif ln < 6:
                self.short += 1
            elif crc32(self._mv[:ln - 4]) != le32(buf, ln - 4):
                self.bad_crc += 1
            else:
                self.frames += 1
                return i, ln
            return i, -1
        return end, 0
