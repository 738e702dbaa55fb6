"""protocol/sign.py: its HMAC-SHA256 against CPython's hmac, on CPython and on the MicroPython unix
port; the record signature and the request MAC are the messages the protocol defines."""
import hashlib
import hmac
import json
import os
import random
import subprocess

import pytest

from protocol import sign as S
from protocol.sign import HmacSha256, equal, hmac_sha256

from .helpers import MICROPYTHON, REPO


def vectors(n, seed=11):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        klen = rng.choice([0, 1, 16, 31, 32, 33, 63, 64, 65, 100, 128, 200, rng.randrange(0, 300)])
        mlen = rng.choice([0, 1, 55, 56, 63, 64, 65, 119, 120, rng.randrange(0, 1200)])
        out.append((rng.randbytes(klen), rng.randbytes(mlen)))
    return out


def test_rfc4231_case_2():
    assert hmac_sha256(b"Jefe", b"what do ya want for nothing?").hex() == \
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"


def test_matches_cpython_hmac_on_random_keys_and_messages():
    for key, msg in vectors(2000):
        want = hmac.new(key, msg, hashlib.sha256).digest()
        assert hmac_sha256(key, msg) == want
        h = HmacSha256(key)
        cut = len(msg) // 3
        assert h.digest(msg[:cut], memoryview(msg)[cut:]) == want  # in parts, a memoryview too
        assert h.digest(msg) == want  # the object is reusable


def test_record_signature_is_the_contracts():
    key = bytes(range(32))
    dev, seq, payload = "box-7", 258, b"\x01{}"
    want = hmac.new(key, dev.encode() + b"\x00" + seq.to_bytes(4, "big") + payload, hashlib.sha256).hexdigest()
    assert HmacSha256(key).digest(dev.encode() + b"\x00", seq.to_bytes(4, "big"), payload).hex() == want
    assert S.record_sig_hex(key, dev, seq, payload) == want
    assert S.record_mac(HmacSha256(key), S.device_z(dev), S.seq4(seq), payload).hex() == want
    assert S.record_sig_ok(key, dev, seq, payload, want) and S.record_sig_ok(key, dev, seq, payload, want.upper())


@pytest.mark.parametrize("args", [
    # altered record, other device, other seq, other key
    (bytes(range(32)), "box-7", 258, b"\x01{ }"), (bytes(range(32)), "box-8", 258, b"\x01{}"),
    (bytes(range(32)), "box-7", 259, b"\x01{}"), (bytes(range(1, 33)), "box-7", 258, b"\x01{}"),
    # malformed: never an exception
    (bytes(31), "box-7", 258, b"\x01{}"), (None, "box-7", 258, b"\x01{}"), (bytes(range(32)), None, 258, b""),
    (bytes(range(32)), "box-7", -1, b""), (bytes(range(32)), "box-7", 1 << 32, b""), (bytes(range(32)), "box-7", True, b""),
    (bytes(range(32)), "box-7", "258", b""), (bytes(range(32)), "box-7", 258, None), (bytes(range(32)), "\udc80", 1, b""),
])
def test_record_sig_ok_is_false_for_anything_else(args):
    good = S.record_sig_hex(bytes(range(32)), "box-7", 258, b"\x01{}")
    assert S.record_sig_ok(*args, good) is False
    key = bytes(range(32))
    for sig in (good[:-1], good + "0", "g" * 64, None, 5, good.encode(), " " + good[1:]):
        assert S.record_sig_ok(key, "box-7", 258, b"\x01{}", sig) is False


def test_the_three_messages_never_collide():
    # a record signature is not a request MAC nor a wrap mask for the same bytes, by the prefixes
    key, dev = bytes(range(32)), "box-1"
    h, idz, nonce = HmacSha256(key), S.device_z(dev), bytes(16)
    req = S.request_mac(h, idz, nonce, 3, b"\x00\x00\x00\x05")
    assert req == hmac.new(key, b"req\x00" + idz + nonce + b"\x03" + b"\x00\x00\x00\x05", hashlib.sha256).digest()
    assert S.authenticate(key, dev, nonce, 3, b"\x00\x00\x00\x05") == b"\x00\x00\x00\x05" + req
    assert S.wrap_mask(h, idz, nonce) == hmac.new(key, b"wrap\x00" + idz + nonce, hashlib.sha256).digest()
    assert len({req, S.wrap_mask(h, idz, nonce), S.record_sig(key, dev, 5, b"")}) == 3
    new = bytes(range(50, 82))
    assert bytes(a ^ b for a, b in zip(S.wrap_key(key, dev, nonce, new), S.wrap_mask(h, idz, nonce))) == new


def test_equal():
    assert equal(b"abc", b"abc") and not equal(b"abc", b"abd") and not equal(b"ab", b"abc")


def test_a_signature_right_but_for_one_byte_is_refused_wherever_that_byte_is():
    """Every byte of a MAC counts (issue 19: a comparison reduced to the last byte passed every
    other sync, link and protocol test)."""
    key, dev, seq, payload = bytes(range(32)), "box-7", 258, b"\x01{}"
    good = S.record_sig(key, dev, seq, payload)
    assert S.record_sig_ok(key, dev, seq, payload, good.hex())
    for i in range(len(good)):
        bad = bytearray(good)
        bad[i] ^= 0x01
        assert not equal(bytes(bad), good) and not equal(good, bytes(bad)), i
        assert S.record_sig_ok(key, dev, seq, payload, bytes(bad).hex()) is False, i
    last_only = bytes(b ^ 0xFF for b in good[:-1]) + good[-1:]
    assert not equal(last_only, good) and S.record_sig_ok(key, dev, seq, payload, last_only.hex()) is False


def test_matches_cpython_hmac_on_micropython(tmp_path):
    assert MICROPYTHON.exists(), "needs the MicroPython unix port at %s (make venv installs it)" % MICROPYTHON
    vec = vectors(300, seed=5)
    (tmp_path / "v.json").write_text(json.dumps([[k.hex(), m.hex()] for k, m in vec]))
    script = tmp_path / "run.py"
    script.write_text(
        "import json, binascii\n"
        "from protocol.sign import HmacSha256\n"
        "for k, m in json.load(open(%r)):\n"
        "    k = binascii.unhexlify(k); m = binascii.unhexlify(m)\n"
        "    print(binascii.hexlify(HmacSha256(k).digest(m)).decode())\n" % str(tmp_path / "v.json"))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=256K", str(script)], capture_output=True, text=True,
                       env=dict(os.environ, MICROPYPATH=str(REPO)), timeout=60)
    assert p.returncode == 0, p.stderr
    got = p.stdout.split()
    assert got == [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in vec]
