"""COBS framing of firmware/link.py (device) and host_tools/sync.py (host): every byte value
survives, both sides encode identically and decode each other's frames, and bad input is
refused, never a crash."""
import random

import pytest

from firmware import link as dev
from host_tools import sync as host


def ref_cobs(data):
    """Canonical COBS, byte at a time (the reference algorithm of Cheshire and Baker)."""
    out = bytearray([0])
    code_at, code = 0, 1
    for i, b in enumerate(data):
        if b:
            out.append(b)
            code += 1
        if not b or code == 0xFF:
            out[code_at] = code
            code = 1
            if not b or i + 1 < len(data):
                code_at = len(out)
                out.append(0)
            else:
                return bytes(out)
    out[code_at] = code
    return bytes(out)


def dev_encode(data):
    dst = bytearray(len(data) + len(data) // 254 + 1)
    n = dev.cobs_encode_into(bytearray(data), len(data), dst, 0)
    return bytes(dst[:n])


def dev_decode(enc):
    buf = bytearray(enc)
    n = dev.cobs_decode_inplace(buf, len(buf))
    if n < 0:
        raise ValueError("bad cobs")
    return bytes(buf[:n])


def cases():
    rng = random.Random(7)
    out = [b"", b"\x00", b"\x00\x00", b"\x01", bytes(range(256)), bytes(range(255, -1, -1)),
           bytes(range(1, 256)), b"\xff" * 600]
    out += [bytes([v]) for v in range(256)]
    out += [bytes([v]) * k for v in (0, 1, 0x55, 0xFF) for k in (253, 254, 255, 256, 508, 509, 510)]
    out += [b"\x01" * 254 + b"\x00", b"\x00" + b"\x01" * 254, b"\x01" * 254 + b"\x00" + b"\x01" * 254]
    for _ in range(300):
        n = rng.choice([rng.randrange(0, 40), rng.randrange(0, 2100), rng.randrange(250, 260)])
        zero_p = rng.choice([0, 0.01, 0.3])
        out.append(bytes(0 if rng.random() < zero_p else rng.randrange(1, 256) for _ in range(n)))
    return out


@pytest.mark.parametrize("data", cases())
def test_cobs_identical_on_both_sides_and_round_trips(data):
    enc = dev_encode(data)
    assert enc == host.cobs_encode(data) == ref_cobs(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + len(data) // 254 + 1
    assert dev_decode(enc) == data == host.cobs_decode(enc)


def test_every_byte_value_in_every_position_of_a_frame():
    # a payload holding each of the 256 values, rotated so each value meets each frame position
    payload = bytes(range(256))
    for r in range(0, 256, 17):
        p = payload[r:] + payload[:r]
        for seq in (0, 1, 0x7F, 0xFF):
            wire = dev.encode_frame(dev.T_RECORDS | dev.REPLY, seq, p)
            assert wire == host.encode_frame(dev.T_RECORDS | dev.REPLY, seq, p)
            assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
            assert host.decode_body(wire[1:-1]) == (dev.T_RECORDS | dev.REPLY, seq, p)


def test_frame_decode_refuses_bad_input():
    wire = host.encode_frame(1, 5, b"hello")
    enc = bytearray(wire[1:-1])
    enc[3] ^= 0x20
    with pytest.raises(host.FrameError) as e:
        host.decode_body(bytes(enc))
    assert e.value.kind == "bad_crc"
    with pytest.raises(host.FrameError) as e:
        host.decode_body(host.cobs_encode(b"abc"))
    assert e.value.kind == "short"
    with pytest.raises(host.FrameError) as e:
        host.decode_body(b"\x09ab")  # block runs past the end
    assert e.value.kind == "bad_cobs"
    big = bytes([7, 1]) + b"x" * 2100
    big += host.crc32(big).to_bytes(4, "little")
    with pytest.raises(host.FrameError) as e:
        host.decode_body(host.cobs_encode(big))
    assert e.value.kind == "oversized"
    # the device's decoder: a zero inside, a block past the end
    assert dev.cobs_decode_inplace(bytearray(b"\x03a\x00"), 3) == -1
    assert dev.cobs_decode_inplace(bytearray(b"\x05ab"), 3) == -1


def test_random_garbage_never_raises_anything_but_frame_error():
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.randrange(0, 60)
        junk = bytes(rng.randrange(1, 256) for _ in range(n))
        try:
            host.decode_body(junk)
        except host.FrameError:
            pass
        buf = bytearray(junk)
        assert dev.cobs_decode_inplace(buf, n) <= n


def test_device_codec_on_micropython(tmp_path):
    import json
    import os
    import subprocess

    from .helpers import MICROPYTHON, REPO
    if not MICROPYTHON.exists():
        pytest.skip("micropython not in this venv")
    data = cases()[::3]
    (tmp_path / "c.json").write_text(json.dumps([d.hex() for d in data]))
    (tmp_path / "run.py").write_text(
        "import json, binascii\n"
        "from firmware.link import cobs_encode_into, cobs_decode_inplace, encode_frame\n"
        "for h in json.load(open(%r)):\n"
        "    d = bytearray(binascii.unhexlify(h))\n"
        "    dst = bytearray(len(d) + len(d) // 254 + 1)\n"
        "    n = cobs_encode_into(d, len(d), dst, 0)\n"
        "    enc = bytes(dst[:n])\n"
        "    m = cobs_decode_inplace(dst, n)\n"
        "    assert bytes(dst[:m]) == bytes(d)\n"
        "    print(binascii.hexlify(enc).decode(), binascii.hexlify(encode_frame(0x82, 9, d)).decode())\n"
        % str(tmp_path / "c.json"))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=256K", str(tmp_path / "run.py")], capture_output=True,
                       text=True, env=dict(os.environ, MICROPYPATH=str(REPO)), timeout=60)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == len(data)
    for d, line in zip(data, lines):
        enc, frame = line.split(" ") if " " in line else ("", line.strip())
        assert bytes.fromhex(enc) == host.cobs_encode(d)
        assert bytes.fromhex(frame) == host.encode_frame(0x82, 9, d)
