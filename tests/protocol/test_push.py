"""protocol/push.py and the push ack of protocol/sign.py, against CPython's hmac and the words
of their headers."""
import hashlib
import hmac

from protocol import push as P
from protocol import sign as S


def test_push_ack_is_the_message_the_header_defines():
    key, nonce = bytes(range(32)), bytes(range(100, 116))
    want = hmac.new(key, b"ack\x00box-7\x00" + nonce + (3).to_bytes(4, "big") + (70000).to_bytes(4, "big"), hashlib.sha256).hexdigest()
    assert S.push_ack_hex(key, "box-7", nonce, 3, 70000) == want
    assert S.push_ack_mac(S.HmacSha256(key), S.device_z("box-7"), nonce, 3, 70000).hex() == want


def test_push_ack_is_no_other_message():
    key, nonce = b"k" * 32, b"n" * 16
    ack = S.push_ack_hex(key, "box", nonce, 1, 2)
    assert ack != S.push_ack_hex(key, "box", nonce, 1, 3)
    assert ack != S.push_ack_hex(key, "box", b"m" * 16, 1, 2)
    assert ack != S.push_ack_hex(key, "bo", nonce, 1, 2)
    assert ack != S.push_ack_hex(b"j" * 32, "box", nonce, 1, 2)
    # a request MAC or a record signature over the same bytes is not an ack
    args = nonce[:0]
    assert S.authenticate(key, "box", nonce, 0, args).hex() != ack
    assert S.record_sig_hex(key, "box", 1, nonce + bytes(8)) != ack


def test_held_run():
    assert P.held_run([5, 6, 7, 8], {5, 6, 7, 8}) == (5, 8)
    assert P.held_run([5, 6, 7, 8], {5, 6, 8}) == (5, 6)
    assert P.held_run([5, 6, 7], {6, 7}) is None
    assert P.held_run([5, 7, 8], {5, 7, 8}) == (5, 5)  # a gap in what was sent ends the run
    assert P.held_run([], set()) is None
    assert P.path("box-1") == "/api/boxes/box-1/push"
