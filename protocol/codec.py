# The host side of the wire format (protocol/frames.py): whole frames to and from bytes, the
# RECORDS reply parsed, the names of request types and error codes, the device id rule. For the
# laptop's tools, the server and the tests; these allocate per call, so the box never imports
# this module (its RAM is for the application).
from protocol.frames import (
    E_BAD_REQUEST, E_DENIED, E_FULL, E_INTERNAL, E_JOURNAL, E_KEY_SET, E_NO_KEY, E_NONCE, E_RANGE,
    E_REFUSED, E_UNKNOWN, MAX_ENC, MAX_FRAME, REC_HEADER, T_ACK, T_ASIDE, T_BYE, T_CHALLENGE, T_CLOCK,
    T_CONFIG, T_HELLO, T_PROVISION, T_RECORDS, T_REKEY, T_RELEASE, T_TAGS, T_TAGS_SET, be32, cobs_decode_inplace,
    cobs_encode_into, crc32, le32, put_le32)

TYPE_NAMES = {T_HELLO: "HELLO", T_RECORDS: "RECORDS", T_ACK: "ACK", T_CONFIG: "CONFIG", T_CLOCK: "CLOCK",
              T_PROVISION: "PROVISION", T_CHALLENGE: "CHALLENGE", T_REKEY: "REKEY", T_BYE: "BYE",
              T_TAGS: "TAGS", T_TAGS_SET: "TAGS_SET", T_ASIDE: "ASIDE", T_RELEASE: "RELEASE"}

ERROR_NAMES = {E_BAD_REQUEST: "bad request", E_UNKNOWN: "unknown request", E_NO_KEY: "no key",
               E_KEY_SET: "key already set", E_DENIED: "denied", E_RANGE: "out of range",
               E_JOURNAL: "journal damaged", E_REFUSED: "refused", E_INTERNAL: "internal error",
               E_NONCE: "no fresh challenge", E_FULL: "set-aside list full"}

MAX_DEVICE_ID = 64


def device_id_ok(s):
    """A device id as it may appear in file names and messages: 1..64 of A-Z a-z 0-9 . _ -,
    starting with a letter or a digit (so never "." or ".."). The box's ids are box-xxxxxx."""
    if not isinstance(s, str) or not 0 < len(s) <= MAX_DEVICE_ID:
        return False
    for i in range(len(s)):
        c = s[i]
        if not ("a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or (i and c in "._-")):
            return False
    return True


class FrameError(ValueError):
    """A frame that is not one: kind is bad_cobs, oversized, short or bad_crc."""

    def __init__(self, kind, detail=""):
        self.kind = kind
        super().__init__(kind + (": " + detail if detail else ""))



def cobs_encode(data):
    data = bytes(data)
    out = bytearray(len(data) + len(data) // 254 + 1)
    return bytes(out[:cobs_encode_into(data, len(data), out, 0)])


def cobs_decode(enc):
    buf = bytearray(enc)
    n = cobs_decode_inplace(buf, len(buf))
    if n < 0:
        raise ValueError("not COBS: a zero byte, or a block running past the end")
    return bytes(buf[:n])


def seal_into(body, n, out):
    """body[0:n] is type, seq, payload: put the CRC at body[n:n+4] (body needs the room) and the
    whole frame, 0x00 COBS 0x00, in out (MAX_ENC + 2 bytes). Returns the frame's length."""
    put_le32(body, n, crc32(memoryview(body)[:n]))
    out[0] = 0
    e = cobs_encode_into(body, n + 4, out, 1)
    out[e] = 0
    return e + 1


def encode_frame(typ, seq, payload=b""):
    """One whole frame: 0x00, COBS(type, seq, payload, crc), 0x00."""
    n = len(payload) + 2
    body = bytearray(n + 4)
    body[0] = typ
    body[1] = seq
    body[2:n] = payload
    out = bytearray(n + 4 + (n + 4) // 254 + 3)
    return bytes(out[:seal_into(body, n, out)])


def decode_body(enc):
    """The COBS bytes between two delimiters -> (type, seq, payload); FrameError if bad."""
    if len(enc) > MAX_ENC:
        raise FrameError("oversized", "%d encoded bytes" % len(enc))
    buf = bytearray(enc)
    n = cobs_decode_inplace(buf, len(buf))
    if n < 0:
        raise FrameError("bad_cobs")
    if n > MAX_FRAME:
        raise FrameError("oversized", "%d bytes" % n)
    if n < 6:
        raise FrameError("short", "%d bytes" % n)
    if crc32(memoryview(buf)[:n - 4]) != le32(buf, n - 4):
        raise FrameError("bad_crc")
    return buf[0], buf[1], bytes(buf[2:n - 4])


def parse_records(raw):
    """A RECORDS reply's data -> (from, [(seq, sig bytes, payload bytes)]); ValueError if it is
    not well formed (cut short, stray bytes)."""
    if len(raw) < 5:
        raise ValueError("RECORDS reply of %d bytes" % len(raw))
    start = be32(raw, 0)
    count = raw[4]
    out = []
    o = 5
    for _ in range(count):
        if o + REC_HEADER > len(raw):
            raise ValueError("RECORDS reply cut short")
        seq = be32(raw, o)
        n = (raw[o + 4] << 8) | raw[o + 5]
        if o + REC_HEADER + n > len(raw):
            raise ValueError("RECORDS reply cut short in record %d" % seq)
        out.append((seq, bytes(raw[o + 6:o + 38]), bytes(raw[o + 38:o + 38 + n])))
        o += REC_HEADER + n
    if o != len(raw):
        raise ValueError("RECORDS reply has %d stray bytes" % (len(raw) - o))
    return start, out
