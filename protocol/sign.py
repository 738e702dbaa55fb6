# Signatures and MACs of the host link, with the device key: the one place each message that
# is signed is defined. The box signs records and checks authenticated requests; the sync tool
# and the tag tool make those requests and check records; the tournament server checks records.
# Pure Python on MicroPython (which has hashlib.sha256 but no hmac module) and CPython.
#
#   record_mac(hm, idz, seq4, payload)      the record signature, 32 bytes (the box, per record)
#   record_sig_hex(key, device, seq, payload)      the same as 64 hex digits (the upload's "sig")
#   record_sig_ok(key, device, seq, payload, sig_hex)   True if sig_hex is that (never raises)
#   request_mac(hm, idz, nonce, typ, args)  the MAC of an authenticated request
#   authenticate(key, device, nonce, typ, args)     args + that MAC: the host's request payload
#   wrap_mask(hm, idz, nonce)               REKEY: new key = wrapped XOR this
#   push_ack_mac(hm, idz, nonce, first, last)  the server's acknowledgement of a push (Wi-Fi)
#   push_ack_hex(key, device, nonce, first, last)  the same as 64 hex digits (the server's answer)
#   call_mac(hm, idz, nonce)                the box's call of the referee (Wi-Fi)
#   head_sig_hex(key, device, head, at)     the sync tool's report of the box's journal head
#   head_sig_ok(key, device, head, at, sig_hex)      True if sig_hex is that (never raises)
#   pin_mac_hex(key, device, pin)           the referee PIN as a session config carries it
#
# Messages (idz = device id UTF-8 + 0x00; seq4 = seq u32 BE):
#   record   HMAC-SHA256(key, idz seq4 payload)
#   request  HMAC-SHA256(key, "req" 0x00 idz nonce[16] type u8 args)
#   wrap     HMAC-SHA256(key, "wrap" 0x00 idz nonce[16])
#   head     HMAC-SHA256(key, "head" 0x00 idz head u32 BE at u32 BE)   (at: unix seconds)
#   pin      HMAC-SHA256(key, "pin" 0x00 idz PIN digits), its first 16 bytes as 32 hex digits
#   ack      HMAC-SHA256(key, "ack" 0x00 idz nonce[16] first u32 BE last u32 BE)
#   call     HMAC-SHA256(key, "call" 0x00 idz nonce[16])
# The prefixes keep them apart: no record signature is ever a valid request MAC or ack.
#
# The push ack: the box sends records first..last with a fresh nonce of its own
# (firmware/net/push.py); the server answers with this MAC when it holds every one of them
# (host_tools/server/api/push.py). Only the device key makes it, so an access point or a server
# that lacks the key cannot make the box mark anything synced, and an old ack cannot be replayed
# (the nonce is the box's, new for each push).
import hashlib

try:
    from hmac import digest as _hmac_digest  # CPython's, in C: for the host's many records
except ImportError:  # MicroPython: HmacSha256 below
    _hmac_digest = None

_sha256 = hashlib.sha256
BLOCK = 64  # SHA-256 block size in bytes
SIZE = 32  # digest size
_REQ = b"req\x00"
_WRAP = b"wrap\x00"
_ACK = b"ack\x00"
_CALL = b"call\x00"
_HEAD = b"head\x00"
_PIN = b"pin\x00"


class HmacSha256:
    """HMAC-SHA256 (RFC 2104) with the padded keys computed once per key:
    HmacSha256(key).digest(part1, part2, ...) = HMAC(key, part1 + part2 + ...), no concatenation."""

    def __init__(self, key):
        if len(key) > BLOCK:
            key = _sha256(key).digest()
        ipad = bytearray(BLOCK)
        opad = bytearray(BLOCK)
        n = len(key)
        for i in range(BLOCK):
            k = key[i] if i < n else 0
            ipad[i] = k ^ 0x36
            opad[i] = k ^ 0x5C
        self._ipad = bytes(ipad)
        self._opad = bytes(opad)

    def digest(self, *parts):
        inner = _sha256(self._ipad)
        for p in parts:
            inner.update(p)
        outer = _sha256(self._opad)
        outer.update(inner.digest())
        return outer.digest()


def hmac_sha256(key, msg):
    return HmacSha256(key).digest(msg)


def equal(a, b):
    """Constant-time (for equal lengths) comparison of two byte strings."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= a[i] ^ b[i]
    return d == 0


def device_z(device):
    """The device id as it enters every message: UTF-8 and a 0x00 (ids never hold one)."""
    return device.encode() + b"\x00"


def seq4(seq):
    return bytes(((seq >> 24) & 0xFF, (seq >> 16) & 0xFF, (seq >> 8) & 0xFF, seq & 0xFF))


def record_mac(hm, idz, sq4, payload):
    """THE record signature: HMAC-SHA256(key, device id 0x00 seq u32 BE payload)."""
    return hm.digest(idz, sq4, payload)


def record_sig(key, device, seq, payload):
    if _hmac_digest is not None:  # the same message as record_mac, in one piece
        return _hmac_digest(key, device_z(device) + seq4(seq) + bytes(payload), "sha256")
    return record_mac(HmacSha256(key), device_z(device), seq4(seq), payload)


def record_sig_hex(key, device, seq, payload):
    from binascii import hexlify
    return hexlify(record_sig(key, device, seq, payload)).decode()


def record_sig_ok(key, device, seq, payload, sig_hex):
    """True if sig_hex (64 hex digits, either case) is the signature of record `seq` of
    `device` with `key`. Anything malformed (a key not 32 bytes, a seq outside u32, a sig that
    is not hex, wrong types) is False, never an exception. Constant-time in the signature."""
    try:
        if (not isinstance(sig_hex, str) or len(sig_hex) != 2 * SIZE or not isinstance(device, str)
                or not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= 0xFFFFFFFF
                or len(key) != 32):
            return False
        want = bytes.fromhex(sig_hex)
        got = record_sig(bytes(key), device, seq, bytes(payload))
    except (TypeError, ValueError, UnicodeError):
        return False
    return equal(got, want)


def request_mac(hm, idz, nonce, typ, args):
    """The MAC of an authenticated request of type typ with these arguments, for this nonce."""
    return hm.digest(_REQ, idz, nonce, bytes((typ,)), args)


def authenticate(key, device, nonce, typ, args=b""):
    """The payload of an authenticated request: args followed by its MAC."""
    args = bytes(args)
    return args + request_mac(HmacSha256(key), device_z(device), bytes(nonce), typ, args)


def wrap_mask(hm, idz, nonce):
    return hm.digest(_WRAP, idz, nonce)


def wrap_key(old, device, nonce, new):
    """REKEY's argument: the new key XOR a mask only the holder of the old key can make."""
    mask = wrap_mask(HmacSha256(old), device_z(device), bytes(nonce))
    return bytes(a ^ b for a, b in zip(new, mask))


def push_ack_mac(hm, idz, nonce, first, last):
    """The server's acknowledgement that it holds records first..last of the box (idz) for the
    box's push nonce."""
    return hm.digest(_ACK, idz, nonce, seq4(first), seq4(last))


def push_ack_hex(key, device, nonce, first, last):
    from binascii import hexlify
    return hexlify(push_ack_mac(HmacSha256(key), device_z(device), bytes(nonce), first, last)).decode()


def call_mac(hm, idz, nonce):
    """The box calls the referee (protocol/push.py): only the device key makes it."""
    return hm.digest(_CALL, idz, nonce)


def call_hex(key, device, nonce):
    from binascii import hexlify
    return hexlify(call_mac(HmacSha256(key), device_z(device), bytes(nonce))).decode()


def head_sig_hex(key, device, head, at):
    """The signature of a report that box `device` held journal records up to `head` at time
    `at` (the sync tool makes it with the box's key; the server keeps the head it reports)."""
    from binascii import hexlify
    return hexlify(HmacSha256(key).digest(_HEAD, device_z(device), seq4(head), seq4(at))).decode()


def head_sig_ok(key, device, head, at, sig_hex):
    """True if sig_hex is head_sig_hex(key, device, head, at); anything malformed is False."""
    try:
        if (not isinstance(sig_hex, str) or len(sig_hex) != 2 * SIZE or not isinstance(device, str) or len(key) != 32
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 0xFFFFFFFF for v in (head, at))):
            return False
        want = bytes.fromhex(sig_hex)
        got = bytes.fromhex(head_sig_hex(bytes(key), device, head, at))
    except (TypeError, ValueError, UnicodeError):
        return False
    return equal(got, want)


def pin_mac_hex(key, device, pin):
    """The tournament's referee PIN as the session config carries it ("pin_mac"): the config
    crosses the hall's network in the clear (a box's config needs no login), and without the
    box's key nobody learns the PIN from it or tries PINs against it. The box checks a keyed-in
    PIN by making the same MAC."""
    d = hmac_sha256(key, _PIN + device_z(device) + pin.encode())
    return "".join("%02x" % d[i] for i in range(16))
