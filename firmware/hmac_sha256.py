# HMAC-SHA256 (RFC 2104) for the device: MicroPython has hashlib.sha256 but no hmac module.
# Runs on CPython too; tests/sync/test_hmac.py checks it against CPython's hmac.
#
#   h = HmacSha256(key)          # the padded keys are computed once per key
#   h.digest(part1, part2, ...)  # = HMAC(key, part1 + part2 + ...), 32 bytes, no concatenation
#   hmac_sha256(key, msg)        # one-shot
#   equal(a, b)                  # constant-time comparison of two digests
import hashlib

_sha256 = hashlib.sha256
BLOCK = 64  # SHA-256 block size in bytes
SIZE = 32  # digest size


class HmacSha256:
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
