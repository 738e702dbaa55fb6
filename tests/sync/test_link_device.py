"""The device end, firmware/link/engine.py, driven byte by byte through an in-memory port: every request,
bad and oversized frames, resends, bounded polls, kbd_intr, the key that is never read back,
authenticated requests (a host without the key changes nothing), records set aside."""
import hashlib
import hmac
import json
import os
import random

import pytest

from firmware.link import engine as L
from firmware.link.host_ports import MemPort
from firmware.journal import Journal
from host_tools import sync as host
from protocol import frames as F
from protocol import sign as S

from .helpers import FakeApp, ScriptedSerial, session_payloads

KEY = bytes(range(100, 132))


class Dev:
    """A Link on a MemPort with a real journal; request() speaks to it as the host would."""

    def __init__(self, tmp_path, n=0, keyed=True, device="box-1", **kw):
        self.j = Journal(str(tmp_path / "journal"))
        for p in session_payloads(1, device)[:n]:
            self.j.append(p)
        self.app = FakeApp(self.j, device)
        self.port = MemPort()
        self.kbd = []
        self.key_path = str(tmp_path / "device.key")
        self.link = L.Link(self.app, self.port, self.key_path, kbd_intr=self.kbd.append, **kw)
        self.seq = 0
        if keyed:
            assert self.request(F.T_PROVISION, KEY) == (0, b"")

    def pump(self, limit=10000):
        n = 0
        while self.link.poll() and n < limit:
            n += 1
        return n

    def replies(self):
        out = []
        data = bytes(self.port.out)
        self.port.out.clear()
        for enc in data.split(b"\x00"):
            if enc:
                out.append(host.decode_body(enc))
        return out

    def request(self, typ, payload=b"", seq=None):
        if seq is None:
            self.seq = (self.seq + 1) & 0xFF
            seq = self.seq
        self.port.feed(host.encode_frame(typ, seq, payload))
        self.pump()
        r = self.replies()
        assert len(r) == 1, r
        rtyp, rseq, rpay = r[0]
        assert rtyp == typ | 0x80 and rseq == seq
        return rpay[0], bytes(rpay[1:])

    def nonce(self):
        st, nonce = self.request(F.T_CHALLENGE)
        assert st == 0 and len(nonce) == 16
        return nonce

    def authed(self, typ, args=b"", key=KEY, seq=None):
        """An authenticated request, as the host tool makes it."""
        return self.request(typ, S.authenticate(key, self.app.device_id, self.nonce(), typ, args), seq=seq)

    def close(self):
        self.j.close()


def be(v, n=4):
    return v.to_bytes(n, "big")


@pytest.fixture
def dev(tmp_path):
    d = Dev(tmp_path, n=19)
    yield d
    d.close()


def parse_records(data, start=None):
    if start is not None:
        assert int.from_bytes(data[:4], "big") == start
    data = data[4:]
    out = []
    count, o = data[0], 1
    for _ in range(count):
        seq = int.from_bytes(data[o:o + 4], "big")
        n = int.from_bytes(data[o + 4:o + 6], "big")
        out.append((seq, data[o + 6:o + 38], data[o + 38:o + 38 + n]))
        o += 38 + n
    assert o == len(data)
    return out


def test_hello(dev):
    st, data = dev.request(F.T_HELLO)
    info = json.loads(data)
    assert st == 0
    assert info["device"] == "box-1" and info["proto"] == 2 and info["keyed"] is True
    assert (info["first"], info["last"], info["acked"], info["unsynced"]) == (1, 19, 0, 19)
    assert info["max_frame"] == F.MAX_FRAME
    assert host.check_hello(info) is info


def test_records_are_signed_on_the_device_and_batched(dev):
    want = [bytes(p) for _, p in dev.j.records(1)]
    got = []
    nxt = 1
    while True:
        st, data = dev.request(F.T_RECORDS, nxt.to_bytes(4, "big") + bytes([255]))
        assert st == 0
        recs = parse_records(data, nxt)
        if not recs:
            break
        assert len(recs) <= 16
        for seq, sig, p in recs:
            assert seq == nxt
            assert sig == hmac.new(KEY, b"box-1\x00" + seq.to_bytes(4, "big") + p, hashlib.sha256).digest()
            got.append(p)
            nxt += 1
    assert got == want
    # max: at most that many; several fit a frame
    st, data = dev.request(F.T_RECORDS, (3).to_bytes(4, "big") + bytes([2]))
    assert [r[0] for r in parse_records(data)] == [3, 4]
    st, data = dev.request(F.T_RECORDS, (1).to_bytes(4, "big") + bytes([255]))
    assert len(parse_records(data)) >= 3


def test_records_errors(tmp_path):
    d = Dev(tmp_path, n=3, keyed=False)
    st, msg = d.request(F.T_RECORDS, (1).to_bytes(4, "big") + b"\x05")
    assert st == F.E_NO_KEY and b"provision" in msg
    d.request(F.T_PROVISION, KEY)
    assert d.request(F.T_RECORDS, b"\x00\x01")[0] == F.E_BAD_REQUEST
    assert d.request(F.T_RECORDS, (0).to_bytes(4, "big") + b"\x05")[0] == F.E_RANGE
    assert d.request(F.T_RECORDS, (4).to_bytes(4, "big") + b"\x05") == (0, b"\x00\x00\x00\x04\x00")  # none yet
    d.close()


def test_records_below_the_first_on_flash_are_out_of_range(tmp_path):
    j = Journal(str(tmp_path / "journal"), segment_size=1500)
    for p in session_payloads(1, "box-1"):
        j.append(p)
    j.ack(10)
    assert j.prune() > 0
    first = j.first_seq
    j.close()
    d = Dev(tmp_path)
    st, msg = d.request(F.T_RECORDS, (1).to_bytes(4, "big") + b"\x05")
    assert st == F.E_RANGE and b"no longer" in msg
    st, data = d.request(F.T_RECORDS, first.to_bytes(4, "big") + b"\x01")
    assert parse_records(data)[0][0] == first
    d.close()


def test_ack_is_durable_idempotent_and_bounded(dev, tmp_path):
    assert dev.authed(F.T_ACK, be(5)) == (0, be(5) + be(5))
    assert dev.authed(F.T_ACK, be(3)) == (0, be(3) + be(5))
    st, msg = dev.authed(F.T_ACK, be(20))
    assert st == F.E_RANGE and b"beyond" in msg
    assert dev.authed(F.T_ACK, b"\x01")[0] == F.E_BAD_REQUEST
    assert Journal(str(tmp_path / "journal")).acked == 5


def test_config_and_clock(dev):
    cfg = {"rules": "mcr", "players": ["1", "2", "3", "4"]}
    assert dev.authed(F.T_CONFIG, json.dumps(cfg).encode()) == (0, b"")
    assert dev.app.configs == [cfg]
    st, msg = dev.authed(F.T_CONFIG, json.dumps(cfg).encode())
    assert st == F.E_REFUSED and msg == b"a session is running"
    assert dev.authed(F.T_CONFIG, b"{nope")[0] == F.E_BAD_REQUEST
    assert dev.authed(F.T_CONFIG, b"[1]")[0] == F.E_BAD_REQUEST
    t = 1800000000
    st, data = dev.authed(F.T_CLOCK, t.to_bytes(8, "big"))
    assert st == 0 and abs(json.loads(data)["time"] - t) <= 1
    assert abs(dev.app.now_s() - t) <= 1
    assert dev.authed(F.T_CLOCK, (1000).to_bytes(8, "big"))[0] == F.E_RANGE
    assert dev.authed(F.T_CLOCK, (4102444800).to_bytes(8, "big"))[0] == F.E_RANGE  # 2100: not a clock
    assert dev.authed(F.T_CLOCK, b"\x00")[0] == F.E_BAD_REQUEST
    assert abs(dev.app.now_s() - t) <= 1


def test_a_config_borrows_the_journals_held_room(tmp_path):
    # firmware/journal/journal.py's room (a Pico's JOURNAL_ROOM) goes to the config's parse and
    # names while it is handled, and is held again after, whatever the answer
    dev = Dev(tmp_path)
    j = dev.app.j = Journal(str(tmp_path / "roomy"), room=2560)
    seen = []
    real = dev.app.push_config
    dev.app.push_config = lambda cfg: (seen.append(j._room), real(cfg))[1]
    cfg = json.dumps({"rules": "mcr", "players": ["1", "2", "3", "4"]}).encode()
    assert dev.authed(F.T_CONFIG, cfg) == (0, b"")
    assert seen == [None] and len(j._room) == 2560
    assert dev.authed(F.T_CONFIG, cfg)[0] == F.E_REFUSED and seen == [None, None]
    assert dev.authed(F.T_CONFIG, b"{nope")[0] == F.E_BAD_REQUEST
    assert len(j._room) == 2560


def test_a_resent_request_gets_the_same_reply_and_is_not_redone(dev):
    cfg = json.dumps({"rules": "mcr"}).encode()
    req = S.authenticate(KEY, "box-1", dev.nonce(), F.T_CONFIG, cfg)
    assert dev.request(F.T_CONFIG, req, seq=77) == (0, b"")
    assert dev.request(F.T_CONFIG, req, seq=77) == (0, b"")  # the reply again, not "running"
    assert len(dev.app.configs) == 1 and dev.link.resent == 1
    assert dev.authed(F.T_CONFIG, cfg, seq=78)[0] == F.E_REFUSED  # a new request is done


def test_provision_once_and_the_key_is_never_read_back(tmp_path):
    d = Dev(tmp_path, n=5, keyed=False)
    assert json.loads(d.request(F.T_HELLO)[1])["keyed"] is False
    assert d.request(F.T_PROVISION, b"\x07" * 32)[0] == F.E_BAD_REQUEST  # not a key
    assert d.request(F.T_PROVISION, KEY[:16])[0] == F.E_BAD_REQUEST
    assert d.request(F.T_PROVISION, KEY) == (0, b"")
    st, msg = d.request(F.T_PROVISION, bytes(32 - i for i in range(32)))
    assert st == F.E_KEY_SET
    raw = open(tmp_path / "device.key", "rb").read()
    assert len(raw) == 40 and raw[:4] == b"MJK1" and raw[4:36] == KEY
    # every request type, every reply: the key's bytes (and its hex) never appear
    wire = bytearray()
    for typ in range(0, 128):
        d.port.feed(host.encode_frame(typ, typ, b"\x00\x00\x00\x01\xff"))
        d.pump()
        wire += d.port.out
        d.port.out.clear()
    assert KEY not in wire and KEY.hex().encode() not in wire
    # a fresh boot reads the key file
    d2 = L.Link(d.app, MemPort(), str(tmp_path / "device.key"))
    assert d2.keyed
    d.close()


def test_damaged_key_file_reads_as_no_key(tmp_path):
    (tmp_path / "device.key").write_bytes(b"MJK1" + KEY + b"\x00\x00\x00\x00")
    d = Dev(tmp_path, keyed=False)
    info = json.loads(d.request(F.T_HELLO)[1])
    assert info["keyed"] is False and info["key_error"] == "key file damaged"
    d.close()


def rekey_payload(old, new, nonce, device="box-1", mac_key=None):
    """What the protocol says REKEY carries, built here from hmac, not from protocol/sign.py."""
    idz = device.encode() + b"\x00"
    mask = hmac.new(old, b"wrap\x00" + idz + nonce, hashlib.sha256).digest()
    wrapped = bytes(a ^ b for a, b in zip(new, mask))
    mac = hmac.new(mac_key or old, b"req\x00" + idz + nonce + bytes([F.T_REKEY]) + wrapped, hashlib.sha256).digest()
    return wrapped + mac


def test_rekey_needs_proof_of_the_old_key(dev, tmp_path):
    new = os.urandom(32)
    # no challenge yet
    assert dev.request(F.T_REKEY, rekey_payload(KEY, new, b"\x00" * 16))[0] == F.E_NONCE
    nonce = dev.nonce()
    # a wrong old key
    assert dev.request(F.T_REKEY, rekey_payload(b"\x01" * 32, new, nonce))[0] == F.E_DENIED
    # the nonce was used up by the failure
    assert dev.request(F.T_REKEY, rekey_payload(KEY, new, nonce))[0] == F.E_NONCE
    # the right MAC over a key wrapped with another mask: the box unwraps something else
    nonce = dev.nonce()
    assert dev.request(F.T_REKEY, rekey_payload(KEY, new, nonce)) == (0, b"")
    assert open(tmp_path / "device.key", "rb").read()[4:36] == new
    st, data = dev.request(F.T_RECORDS, (1).to_bytes(4, "big") + b"\x01")
    seq, sig, p = parse_records(data)[0]
    assert sig == hmac.new(new, b"box-1\x00" + seq.to_bytes(4, "big") + p, hashlib.sha256).digest()
    # the old key no longer authenticates anything
    assert dev.authed(F.T_ACK, be(1))[0] == F.E_DENIED
    assert dev.authed(F.T_ACK, be(1), key=new)[0] == 0
    # the host tool's rekey sends the same thing
    sent = []

    class FakeLink:
        def request(self, typ, payload=b"", echo=b""):
            sent.append((typ, payload))
            return nonce if typ == F.T_CHALLENGE else b""

    box = host.Box(FakeLink())
    box.info = {"device": "box-1"}
    box.rekey(new, KEY)
    assert sent[1] == (F.T_REKEY, rekey_payload(new, KEY, nonce))


def test_failed_attempts_do_not_lock_out_the_key_holder(dev):
    # a hostile host that fails over and over cannot deny the organizer (no lock-out: HMAC-SHA256
    # with a 256-bit key is not guessed; a lock-out would only be a way to jam the box)
    for _ in range(20):
        assert dev.request(F.T_REKEY, rekey_payload(b"\x02" * 32, os.urandom(32), dev.nonce()))[0] == F.E_DENIED
        assert dev.authed(F.T_ACK, be(3), key=b"\x02" * 32)[0] == F.E_DENIED
    assert dev.link.denied == 40
    assert dev.authed(F.T_ACK, be(3)) == (0, be(3) + be(3))
    assert json.loads(dev.request(F.T_HELLO)[1])["denied"] == 40


def test_garbage_bad_crc_short_and_oversized_frames_are_dropped_and_counted(dev):
    link = dev.link
    rng = random.Random(1)
    # random noise with delimiters
    for _ in range(200):
        dev.port.feed(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))))
    dev.port.feed(b"\x00")
    dev.pump()
    dev.replies()
    bad_before = link.rx_bad_crc + link.rx_bad_cobs + link.rx_short
    assert bad_before > 0
    # a bad CRC
    wire = bytearray(host.encode_frame(F.T_HELLO, 1, b""))
    wire[3] ^= 0x40
    dev.port.feed(bytes(wire))
    dev.pump()
    assert dev.replies() == [] and link.rx_bad_crc >= 1
    # a short frame
    n = link.rx_short
    dev.port.feed(b"\x00" + host.cobs_encode(b"\x01\x02\x03") + b"\x00")
    dev.pump()
    assert link.rx_short == n + 1 and dev.replies() == []
    # oversized: longer than MAX_ENC on the wire
    dev.port.feed(b"\x00" + b"\x05" * 5000 + b"\x00")
    dev.pump()
    assert link.rx_oversized == 1 and dev.replies() == []
    # oversized once decoded: a valid frame with a body over MAX_FRAME
    body = bytes([F.T_CONFIG, 3]) + b"x" * (F.MAX_FRAME - 3)
    body += host.crc32(body).to_bytes(4, "little")
    assert len(body) > F.MAX_FRAME
    dev.port.feed(b"\x00" + host.cobs_encode(body) + b"\x00")
    dev.pump()
    assert link.rx_oversized == 2 and dev.replies() == []
    # and the link still answers
    st, data = dev.request(F.T_HELLO)
    info = json.loads(data)
    assert info["rx_oversized"] == 2 and info["rx_bad"] >= bad_before + 2


def test_unknown_types_and_handlers(dev):
    st, msg = dev.request(0x33, b"x")
    assert st == F.E_UNKNOWN
    dev.link.handle(0x33, lambda link, req: link.reply_json({"echo": bytes(req).decode()}))
    assert dev.request(0x33, b"hi") == (0, b'{"echo": "hi"}')
    dev.link.handle(0x34, lambda link, req: 1 / 0)
    st, msg = dev.request(0x34)
    assert st == F.E_INTERNAL and b"ZeroDivisionError" in msg
    # an authenticated handler gets the arguments only, and only with the MAC
    dev.link.handle(0x36, lambda link, req: link.reply_ok(bytes(req)[::-1]), auth=True)
    assert dev.request(0x36, b"abc" + bytes(32))[0] == F.E_NONCE
    assert dev.authed(0x36, b"abc") == (0, b"cba")
    # a MAC with one bit flipped (a fixed last byte matched the real MAC's once in 256 runs)
    good = S.authenticate(KEY, "box-1", dev.nonce(), 0x36, b"abd")
    assert dev.request(0x36, good[:-1] + bytes([good[-1] ^ 1]))[0] == F.E_DENIED


def test_poll_is_bounded_and_never_blocks(tmp_path):
    d = Dev(tmp_path, n=19, max_read=16, max_write=64)
    # two requests at once: one poll handles at most one, and reads at most max_read bytes
    d.port.feed(host.encode_frame(F.T_HELLO, 1) + host.encode_frame(F.T_RECORDS, 2, b"\x00\x00\x00\x01\x10"))
    before = len(d.port.inbuf)
    d.link.poll()
    assert before - len(d.port.inbuf) <= 16
    polls = 0
    while not d.link.tx_pending:
        d.link.poll()
        polls += 1
        assert polls < 100
    # the reply goes out max_write bytes per poll; nothing is read meanwhile
    left = len(d.port.inbuf)
    sizes = []
    while d.link.tx_pending:
        n = len(d.port.out)
        d.link.poll()
        sizes.append(len(d.port.out) - n)
    assert max(sizes) <= 64 and len(d.port.inbuf) == left
    # a port that takes nothing: poll returns at once, the reply waits
    d.port.room = 0
    d.pump()
    assert d.link.tx_pending
    d.port.room = 1 << 30
    d.pump()
    replies = d.replies()
    assert [r[0] for r in replies] == [0x81, 0x82]
    assert parse_records(replies[1][2][1:])[0][0] == 1
    d.close()


def test_kbd_intr_off_while_the_link_is_active(tmp_path):
    d = Dev(tmp_path, keyed=False, idle_ms=50)
    assert d.kbd == []
    d.port.feed(b"\x00")  # the host's wake-up fill: off at the first byte
    d.link.poll()
    assert d.kbd == [-1] and d.link.active
    d.request(F.T_HELLO)
    d.request(F.T_BYE)  # restored once the BYE reply is out
    assert d.kbd == [-1, 3] and not d.link.active
    d.request(F.T_HELLO)
    assert d.kbd == [-1, 3, -1]
    import time
    time.sleep(0.08)  # idle: restored
    d.link.poll()
    assert d.kbd == [-1, 3, -1, 3]
    # a stream of junk longer than idle_ms keeps it off: no Ctrl-C under garbage
    frames = d.link.rx_frames
    for _ in range(8):  # 160 ms of junk, no valid frame
        d.port.feed(bytes([0x55] * 40))
        d.pump()
        time.sleep(0.02)
    assert d.kbd == [-1, 3, -1, 3, -1] and d.link.active and d.link.rx_frames == frames
    time.sleep(0.08)  # then quiet for idle_ms: restored
    d.link.poll()
    assert d.kbd == [-1, 3, -1, 3, -1, 3]
    d.request(F.T_HELLO)
    d.port.gone = True  # hang-up: restored, the reply dropped
    d.link.poll()
    assert d.kbd[-1] == 3 and not d.link.active and d.link.hangups == 1
    d.close()


def test_a_fresh_hello_is_never_answered_from_the_cache(dev):
    st, a = dev.request(F.T_HELLO, seq=9)
    dev.j.ack(4)  # the state changes (here behind the link's back)
    st, b = dev.request(F.T_HELLO, seq=9)  # the same frame again: answered anew
    assert json.loads(b)["acked"] == 4


def test_host_ignores_a_late_reply_with_a_matching_seq():
    def reply(typ, seq, payload):
        start = payload[:4]
        stale = host.encode_frame(typ | 0x80, seq, b"\x00" + (int.from_bytes(start, "big") + 7).to_bytes(4, "big") + b"\x00")
        good = host.encode_frame(typ | 0x80, seq, b"\x00" + start + b"\x00")
        return stale + good

    link = host.HostLink(ScriptedSerial(reply), timeout=0.05, retries=1)
    assert host.Box(link).records(5) == []
    assert link.stats["stale"] == 1 and link.stats["resends"] == 0

    def only_stale(typ, seq, payload):
        return host.encode_frame(typ | 0x80, seq, b"\x00" + (9).to_bytes(4, "big") + b"\x00")

    link = host.HostLink(ScriptedSerial(only_stale), timeout=0.02, retries=2)
    with pytest.raises(host.LinkError, match=r"3 replies that did not match the request \(it asked for 00000005"):
        host.Box(link).records(5)


def test_host_resends_at_once_after_a_garbled_reply():
    calls = []

    def reply(typ, seq, payload):
        calls.append(seq)
        good = host.encode_frame(typ | 0x80, seq, b"\x00" + payload[:4] + b"\x00")
        if len(calls) == 1:
            bad = bytearray(good)
            bad[4] ^= 0x10
            return bytes(bad)
        return good

    ser = ScriptedSerial(reply)
    link = host.HostLink(ser, timeout=5, retries=3)
    import time
    t = time.monotonic()
    assert host.Box(link).records(1) == []
    assert time.monotonic() - t < 1 and link.stats["fast_resends"] == 1 and calls[0] == calls[1]


def test_poll_never_raises_into_the_app_loop(dev):
    class Boom(MemPort):
        def read(self, mv):
            raise MemoryError("no heap")

    dev.link.port = Boom()
    assert dev.link.poll() is False and dev.link.errors == 1
    dev.link.port = dev.port
    dev.link.handle(0x35, lambda link, req: (_ for _ in ()).throw(MemoryError()))
    assert dev.request(0x35)[0] == F.E_INTERNAL
    assert json.loads(dev.request(F.T_HELLO)[1])["device"] == "box-1"


def test_the_largest_record_fits_a_reply(tmp_path):
    j = Journal(str(tmp_path / "journal"), max_payload=F.MAX_RECORD)
    big = b"\x01" + b"x" * (F.MAX_RECORD - 1)
    j.append(big)
    j.append(b"\x01{}")
    app = FakeApp(j, "box-1")
    port = MemPort()
    link = L.Link(app, port, str(tmp_path / "device.key"))
    link._store_key(KEY)
    port.feed(host.encode_frame(F.T_RECORDS, 1, (1).to_bytes(4, "big") + b"\x10"))
    while link.poll():
        pass
    typ, seq, pay = host.decode_body(bytes(port.out).strip(b"\x00"))
    assert len(pay) + 6 == F.MAX_FRAME  # exactly the largest frame
    assert [(s, p) for s, _, p in parse_records(pay[1:], 1)] == [(1, big)]  # the next one waits
    with pytest.raises(ValueError):
        L.Link(FakeApp(Journal(str(tmp_path / "j2"), max_payload=F.MAX_RECORD + 1), "box-1"), port, "k")
    j.close()
