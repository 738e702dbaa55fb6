"""firmware/hmac_sha256.py against CPython's hmac, on CPython and on the MicroPython unix port."""
import hashlib
import hmac
import json
import os
import random
import subprocess

import pytest

from firmware.hmac_sha256 import HmacSha256, equal, hmac_sha256

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


def test_equal():
    assert equal(b"abc", b"abc") and not equal(b"abc", b"abd") and not equal(b"ab", b"abc")


@pytest.mark.skipif(not MICROPYTHON.exists(), reason="micropython not in this venv")
def test_matches_cpython_hmac_on_micropython(tmp_path):
    vec = vectors(300, seed=5)
    (tmp_path / "v.json").write_text(json.dumps([[k.hex(), m.hex()] for k, m in vec]))
    script = tmp_path / "run.py"
    script.write_text(
        "import json, binascii\n"
        "from firmware.hmac_sha256 import HmacSha256\n"
        "for k, m in json.load(open(%r)):\n"
        "    k = binascii.unhexlify(k); m = binascii.unhexlify(m)\n"
        "    print(binascii.hexlify(HmacSha256(k).digest(m)).decode())\n" % str(tmp_path / "v.json"))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=256K", str(script)], capture_output=True, text=True,
                       env=dict(os.environ, MICROPYPATH=str(REPO)), timeout=60)
    assert p.returncode == 0, p.stderr
    got = p.stdout.split()
    assert got == [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in vec]
