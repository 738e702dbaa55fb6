"""COBS framing of protocol/frames.py, the one wire module of the box and the host tools: every
byte value survives, the encoder matches the reference algorithm, the stream receiver finds every
frame whatever the chunking, bad input is refused and never a crash, and MicroPython encodes
byte for byte what CPython does."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from protocol import codec as C
from protocol import frames as F


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


def ref_uncobs(enc):
    """Reference decoder, block at a time, not in place."""
    out = bytearray()
    i = 0
    while i < len(enc):
        code = enc[i]
        block = enc[i + 1:i + code]
        if code == 0 or len(block) != code - 1 or 0 in block:
            raise ValueError
        out += block
        i += code
        if code < 0xFF and i < len(enc):
            out.append(0)
    return bytes(out)


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
def test_cobs_matches_the_reference_and_round_trips(data):
    enc = C.cobs_encode(data)
    assert enc == ref_cobs(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + len(data) // 254 + 1
    assert C.cobs_decode(enc) == data == ref_uncobs(enc)


def test_every_byte_value_in_every_position_of_a_frame():
    # a payload holding each of the 256 values, rotated so each value meets each frame position
    payload = bytes(range(256))
    for r in range(0, 256, 17):
        p = payload[r:] + payload[:r]
        for seq in (0, 1, 0x7F, 0xFF):
            wire = C.encode_frame(F.T_RECORDS | F.REPLY, seq, p)
            assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
            body = ref_uncobs(wire[1:-1])
            assert body[:2] == bytes((F.T_RECORDS | F.REPLY, seq)) and body[2:-4] == p
            assert int.from_bytes(body[-4:], "little") == F.crc32(body[:-4])
            assert C.decode_body(wire[1:-1]) == (F.T_RECORDS | F.REPLY, seq, p)


def test_frame_decode_refuses_bad_input():
    wire = C.encode_frame(1, 5, b"hello")
    enc = bytearray(wire[1:-1])
    enc[3] ^= 0x20
    with pytest.raises(C.FrameError) as e:
        C.decode_body(bytes(enc))
    assert e.value.kind == "bad_crc"
    with pytest.raises(C.FrameError) as e:
        C.decode_body(C.cobs_encode(b"abc"))
    assert e.value.kind == "short"
    with pytest.raises(C.FrameError) as e:
        C.decode_body(b"\x09ab")  # block runs past the end
    assert e.value.kind == "bad_cobs"
    big = bytes([7, 1]) + b"x" * 2100
    big += F.crc32(big).to_bytes(4, "little")
    with pytest.raises(C.FrameError) as e:
        C.decode_body(C.cobs_encode(big))
    assert e.value.kind == "oversized"
    assert F.cobs_decode_inplace(bytearray(b"\x03a\x00"), 3) == -1  # a zero inside
    assert F.cobs_decode_inplace(bytearray(b"\x05ab"), 3) == -1  # a block past the end


def test_random_garbage_never_raises_anything_but_frame_error():
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.randrange(0, 60)
        junk = bytes(rng.randrange(1, 256) for _ in range(n))
        try:
            C.decode_body(junk)
        except C.FrameError:
            pass
        buf = bytearray(junk)
        assert F.cobs_decode_inplace(buf, n) <= n


def drain(d, data, chunks):
    """Feed data to a Deframer in the given chunk sizes; the (type, seq, payload) of each frame."""
    out = []
    i = 0
    for c in chunks:
        part = data[i:i + c]
        i += c
        j = 0
        while j < len(part):
            j, n = d.feed(part, j, len(part))
            if n > 0:
                out.append((d.buf[0], d.buf[1], bytes(d.buf[2:n - 4])))
    assert i >= len(data)
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=600)), max_size=6),
       st.lists(st.integers(1, 700), min_size=1, max_size=40), st.binary(max_size=40))
def test_the_receiver_finds_every_frame_however_the_bytes_arrive(frames, chunks, junk):
    # junk first (a line that was noisy before the host spoke), then idle fill and the frames
    junk = junk.replace(b"\x00", b"")
    wire = junk + b"".join(C.encode_frame(*f) + b"\x00" for f in frames)
    chunks = chunks + [len(wire)]
    d = F.Deframer()
    got = drain(d, wire, chunks)
    assert got == [(t, s, p) for t, s, p in frames]
    assert d.frames == len(frames)
    assert d.bad + d.oversized <= 1  # at most the junk, as one damaged frame


def test_the_receiver_drops_oversized_and_damaged_frames_and_goes_on():
    good = C.encode_frame(2, 9, b"ok")
    big = b"\x00" + b"\x01" * (F.MAX_ENC + 10) + b"\x00"
    bad = bytearray(C.encode_frame(2, 10, b"crc"))
    bad[4] ^= 1
    d = F.Deframer()
    got = drain(d, big + bytes(bad) + good + C.encode_frame(2, 11, b"x" * (F.MAX_PAYLOAD + 1)) + good, [97] * 100)
    assert got == [(2, 9, b"ok"), (2, 9, b"ok")]
    assert (d.oversized, d.bad_crc, d.frames) == (2, 1, 2)


def test_parse_records_refuses_what_does_not_add_up():
    rec = (7).to_bytes(4, "big") + (3).to_bytes(2, "big") + bytes(32) + b"abc"
    assert C.parse_records((7).to_bytes(4, "big") + b"\x01" + rec) == (7, [(7, bytes(32), b"abc")])
    for bad in (b"\x00\x00", (7).to_bytes(4, "big") + b"\x02" + rec, (7).to_bytes(4, "big") + b"\x01" + rec + b"!",
                (7).to_bytes(4, "big") + b"\x01" + rec[:-1]):
        with pytest.raises(ValueError):
            C.parse_records(bad)


def test_frames_on_micropython(tmp_path):
    import json
    import os
    import subprocess

    from .helpers import MICROPYTHON, REPO
    assert MICROPYTHON.exists(), "needs the MicroPython unix port at %s (make venv installs it)" % MICROPYTHON
    data = cases()[::3]
    (tmp_path / "c.json").write_text(json.dumps([d.hex() for d in data]))
    (tmp_path / "run.py").write_text(
        "import json, binascii\n"
        "from protocol.frames import cobs_encode_into, cobs_decode_inplace, Deframer\n"
        "from protocol.codec import encode_frame\n"
        "d = Deframer()\n"
        "for h in json.load(open(%r)):\n"
        "    x = bytearray(binascii.unhexlify(h))\n"
        "    dst = bytearray(len(x) + len(x) // 254 + 1)\n"
        "    n = cobs_encode_into(x, len(x), dst, 0)\n"
        "    enc = bytes(dst[:n])\n"
        "    m = cobs_decode_inplace(dst, n)\n"
        "    assert bytes(dst[:m]) == bytes(x)\n"
        "    fr = encode_frame(0x82, 9, x)\n"
        "    if len(x) <= 2042:\n"
        "        i, k = d.feed(fr, 0, len(fr))\n"
        "        assert k == len(x) + 6 and bytes(d.buf[2:k - 4]) == bytes(x), (i, k)\n"
        "    print(binascii.hexlify(enc).decode(), binascii.hexlify(fr).decode())\n"
        % str(tmp_path / "c.json"))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=256K", str(tmp_path / "run.py")], capture_output=True,
                       text=True, env=dict(os.environ, MICROPYPATH=str(REPO)), timeout=60)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == len(data)
    for d, line in zip(data, lines):
        enc, frame = line.split(" ") if " " in line else ("", line.strip())
        assert bytes.fromhex(enc) == ref_cobs(d)
        assert bytes.fromhex(frame) == C.encode_frame(0x82, 9, d)
