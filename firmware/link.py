# The host link: a framed request/reply protocol over the USB CDC serial stream (any byte stream),
# through which the host tool (host_tools/sync.py) pulls journal records and configures the box.
# Runs on MicroPython (the device, the unix port) and on CPython (the simulator, the tests).
#
# Framing. A frame on the wire is 0x00, COBS(body), 0x00. COBS (consistent overhead byte
# stuffing, the canonical encoding) leaves no 0x00 inside, so every byte value survives and a
# receiver re-synchronises at the next 0x00 whatever came before. Empty frames (0x00 0x00) are
# idle fill and ignored. The decoded body:
#
#     type u8 | seq u8 | payload (0..MAX_FRAME-6 bytes) | crc u32 LE
#
#   crc = CRC-32 (IEEE, binascii.crc32) over type, seq and payload. A body longer than MAX_FRAME
#   (2048) bytes, or its encoding longer than MAX_ENC, is oversized: dropped up to the next 0x00
#   and counted, as are bodies that fail COBS, are shorter than 6 bytes or fail the CRC.
#
# Requests and replies. The host sends a request (type 0x01..0x7F) with a seq of its choice
# (+1 mod 256 per new request; a new connection starts at a random value and with HELLO). The
# device answers every valid request with exactly one reply: type | 0x80, the same seq, and a
# payload that starts with a status byte (0 = OK, else an error code followed by a UTF-8
# message). The reply is the acknowledgement: stop-and-wait ARQ. The host resends the same
# request (same seq, same bytes) when no matching reply comes within its timeout; the device
# keeps its last reply and sends it again, without redoing the request, when the same request
# (seq and crc) comes again (HELLO is always redone). Replies with another seq are stale and the
# host ignores them.
#
#   0x01 HELLO      -                                -> JSON {proto, device, fw, board, first,
#                                                       last, acked, unsynced, keyed, time,
#                                                       max_frame, session, corrupt, link counters}
#   0x02 RECORDS    from u32 BE, max u8              -> from u32 BE, count u8, then count times:
#                                                       seq u32 BE, len u16 BE, sig[32], payload
#                   records from, from+1, ... (as many as fit a frame, at most max); count 0 when
#                   the journal has nothing at or after `from`. sig = HMAC-SHA256(device key,
#                   device_id + 0x00 + seq u32 BE + payload), computed here. Needs a key.
#   0x03 ACK        seq u32 BE                       -> seq u32 BE, acked u32 BE (journal.ack:
#                                                       durable when the reply is sent)
#   RECORDS and ACK replies echo what was asked, so a late reply to an earlier request (an earlier
#   connection's, whose seq happens to match) is told apart and ignored.
#   0x04 CONFIG     JSON session config              -> OK, or 8 + app.push_config's message
#   0x05 CLOCK      unix seconds u64 BE              -> JSON {epoch, time}: app.epoch set
#   0x06 PROVISION  key[32]                          -> OK; refused (4) once a key is set
#   0x07 CHALLENGE  -                                -> nonce[16], single use, for REKEY
#   0x08 REKEY      wrapped[32], proof[32]           -> OK, or 5 (denied)
#          new = wrapped XOR HMAC(old, "wrap" 0x00 id 0x00 nonce)
#          proof = HMAC(old, "rekey" 0x00 id 0x00 nonce new): only who holds the old key (the
#          organizer) can change it; the new key never crosses the cable in clear.
#   0x09 BYE        -                                -> OK; then the link goes idle
#   0x0A TAGS       (firmware/tags_mode.py)          other types: Link.handlers
#
# Error codes: 1 bad request, 2 unknown type, 3 no key, 4 key already set, 5 denied,
# 6 out of range, 7 journal damaged, 8 refused by the app, 9 internal error.
#
# The key is written to `key_path` (b"MJK1", key[32], crc32 LE of the 36 bytes before: 40 bytes,
# written to a .tmp file and renamed over) and is never sent back: no request returns it.
#
# Non-blocking: the app's main loop calls poll(); each call writes at most `max_write` bytes of
# a pending reply, or reads at most `max_read` bytes and handles at most one request (at most
# `batch` journal records read and signed). While a reply is being written no input is read
# (the OS buffers it). Nothing in here sleeps or waits, except serve()/Port.wait for loops that
# have nothing else to do.
#
# Keyboard interrupt: from the first byte received until BYE, a hang-up, or `idle_ms` without
# a valid frame, micropython.kbd_intr(-1) is in force so a 0x03 in the data cannot raise
# KeyboardInterrupt; kbd_intr(3) restores it. The host sends 0x00 fill and pauses before its
# first request, so the switch happens before any data byte arrives.
import os

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


try:
    from micropython import kbd_intr as _kbd_intr
except ImportError:  # CPython
    _kbd_intr = None

try:
    import binascii

    _crc32 = binascii.crc32
except (ImportError, AttributeError):
    _crc32 = None
if _crc32 is None:
    from firmware.journal import crc32_soft as _crc32

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


from firmware.hmac_sha256 import HmacSha256, equal

PROTO = const(1)
FW_VERSION = "0.1.0"
MAX_FRAME = const(2048)  # decoded body: type, seq, payload, crc
MAX_ENC = const(2048 + 2048 // 254 + 1)  # its COBS encoding at most
REC_HEADER = const(38)  # per record in RECORDS: seq 4, len 2, sig 32

T_HELLO = const(0x01)
T_RECORDS = const(0x02)
T_ACK = const(0x03)
T_CONFIG = const(0x04)
T_CLOCK = const(0x05)
T_PROVISION = const(0x06)
T_CHALLENGE = const(0x07)
T_REKEY = const(0x08)
T_BYE = const(0x09)
REPLY = const(0x80)

OK = const(0)
E_BAD_REQUEST = const(1)
E_UNKNOWN = const(2)
E_NO_KEY = const(3)
E_KEY_SET = const(4)
E_DENIED = const(5)
E_RANGE = const(6)
E_JOURNAL = const(7)
E_REFUSED = const(8)
E_INTERNAL = const(9)

KEY_MAGIC = b"MJK1"
KEY_LEN = const(32)
CLOCK_MIN = 1577836800  # 2020-01-01: anything earlier is a host without a clock
CLOCK_MAX = 1 << 40
MAX_REKEY_FAILS = const(3)

_ZERO = b"\x00"


def _le32(b, i):
    return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)


def _be32(b, i):
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]


def _put_be32(b, i, v):
    b[i] = (v >> 24) & 0xFF
    b[i + 1] = (v >> 16) & 0xFF
    b[i + 2] = (v >> 8) & 0xFF
    b[i + 3] = v & 0xFF


# ------------------------------------------------------------------------------------ framing


def cobs_encode_into(src, n, dst, o):
    """Canonical COBS of src[0:n] (a bytearray or bytes) written into dst from index o; returns
    the index after it. dst needs n + n // 254 + 1 bytes from o. Python work per block (a zero
    or 254 bytes), not per byte: the copies are slice assignments."""
    sm = memoryview(src)
    code_at = o
    o += 1
    i = 0
    while True:
        z = src.find(_ZERO, i, n)
        end = n if z < 0 else z
        while end - i >= 254:
            dst[o:o + 254] = sm[i:i + 254]
            o += 254
            i += 254
            dst[code_at] = 0xFF
            if i == n:
                return o
            code_at = o
            o += 1
        k = end - i
        if k:
            dst[o:o + k] = sm[i:end]
            o += k
        dst[code_at] = k + 1
        if z < 0:
            return o
        i = z + 1
        code_at = o
        o += 1


def cobs_decode_inplace(buf, n):
    """Decode the COBS bytes buf[0:n] in place; returns the decoded length, or -1 if they are
    not valid COBS (a zero byte, or a block running past the end)."""
    i = 0
    o = 0
    while i < n:
        code = buf[i]
        if code == 0:
            return -1
        i += 1
        end = i + code - 1
        if end > n:
            return -1
        while i < end:
            b = buf[i]
            if b == 0:
                return -1
            buf[o] = b
            o += 1
            i += 1
        if code < 0xFF and i < n:
            buf[o] = 0
            o += 1
    return o


def encode_frame(typ, seq, payload):
    """One whole frame as bytes (0x00, COBS(body), 0x00): for tests and tools, allocates."""
    n = len(payload) + 6
    body = bytearray(n)
    body[0] = typ
    body[1] = seq
    body[2:n - 4] = payload
    c = _crc32(memoryview(body)[:n - 4])
    for i in range(4):
        body[n - 4 + i] = (c >> (8 * i)) & 0xFF
    out = bytearray(n + n // 254 + 3)
    e = cobs_encode_into(body, n, out, 1)
    out[e] = 0
    return bytes(out[:e + 1])


# ------------------------------------------------------------------------------------ ports


class FdPort:
    """CPython: a file descriptor (the simulator's pty master), made non-blocking."""

    def __init__(self, fd):
        self.fd = fd
        os.set_blocking(fd, False)

    def read(self, mv):
        """Bytes available now into mv: count, 0 if none, -1 if the other side is gone."""
        try:
            data = os.read(self.fd, len(mv))
        except BlockingIOError:
            return 0
        except OSError:  # EIO: nobody holds the other end
            return -1
        if not data:
            return -1
        n = len(data)
        mv[:n] = data
        return n

    def write(self, mv):
        try:
            return os.write(self.fd, mv)
        except BlockingIOError:
            return 0
        except OSError:
            return -1

    def wait(self, ms, out=False):
        import select

        try:
            select.select([self.fd], [self.fd] if out else [], [], ms / 1000)
        except (OSError, ValueError):
            pass


class StreamPort:
    """MicroPython streams: sys.stdin.buffer / sys.stdout.buffer (USB CDC on a board, a pty or
    a pipe on the unix port). Reads go a byte at a time while select.poll says there is one
    (a stream's read(n) would wait for all n); writes only when poll says there is room."""

    def __init__(self, inp, out, poll_out=True):
        import select

        self.inp = inp
        self.out = out
        self.poll_out = poll_out  # False: a port whose stdout poll never says POLLOUT
        self._in = select.poll()
        self._in.register(inp, select.POLLIN)
        self._out = select.poll()
        self._out.register(out, select.POLLOUT)
        self._IN = select.POLLIN
        self._OUT = select.POLLOUT
        self._b = bytearray(1)

    def read(self, mv):
        n = 0
        cap = len(mv)
        b = self._b
        while n < cap:
            ev = self._in.poll(0)
            if not ev:
                break
            if not (ev[0][1] & self._IN):  # hang-up or error without data
                return n if n else -1
            try:
                k = self.inp.readinto(b)
            except OSError:
                return n if n else -1
            if not k:
                return n if n else -1
            mv[n] = b[0]
            n += 1
        return n

    def write(self, mv):
        if self.poll_out:
            ev = self._out.poll(0)
            if not ev:
                return 0
            if not (ev[0][1] & self._OUT):
                return -1
        try:
            k = self.out.write(mv)
        except OSError:
            return -1
        return len(mv) if k is None else k

    def wait(self, ms, out=False):
        (self._out if out and self.poll_out else self._in).poll(ms)


class MemPort:
    """In-memory port for tests: bytes fed with feed(), output collected in .out."""

    def __init__(self):
        self.inbuf = bytearray()
        self.out = bytearray()
        self.gone = False
        self.room = 1 << 30  # bytes write() accepts per call

    def feed(self, data):
        self.inbuf += data

    def read(self, mv):
        if self.gone:
            return -1
        n = min(len(mv), len(self.inbuf))
        mv[:n] = self.inbuf[:n]
        del self.inbuf[:n]
        return n

    def write(self, mv):
        if self.gone:
            return -1
        n = min(len(mv), self.room)
        self.out += mv[:n]
        return n

    def wait(self, ms, out=False):
        pass


# ------------------------------------------------------------------------------------ link


def _urandom(n):
    try:
        return os.urandom(n)
    except (AttributeError, NotImplementedError):  # a port without one: weaker, still single use
        import random

        return bytes(random.getrandbits(8) for _ in range(n))


def _replace(src, dst):
    r = getattr(os, "replace", None)  # CPython; MicroPython's rename overwrites (littlefs, POSIX)
    (r or os.rename)(src, dst)


class Link:
    """The device end. `app` is the firmware App (j, device_id, epoch, clock, now_s,
    push_config, session); `port` one of the ports above; `key_path` the key file on flash."""

    def __init__(self, app, port, key_path, board="sim", fw=FW_VERSION, idle_ms=30000,
                 max_read=256, max_write=512, batch=16, kbd_intr=None):
        mp = getattr(app.j, "max_payload", 1024)
        if REC_HEADER + mp + 10 > MAX_FRAME:
            raise ValueError("journal max_payload %d does not fit a frame" % mp)
        self.app = app
        self.port = port
        self.key_path = key_path
        self.board = board
        self.fw = fw
        self.idle_ms = idle_ms
        self.max_write = max_write
        self.batch = batch
        self._kbd = kbd_intr if kbd_intr is not None else _kbd_intr
        self._rx = bytearray(MAX_ENC)  # the frame being received (COBS), decoded in place
        self._rxn = 0
        self._rx_skip = False  # oversized: drop bytes up to the next delimiter
        self._in = bytearray(max_read)  # bytes read from the port, not yet scanned
        self._inmv = memoryview(self._in)
        self._in_pos = 0
        self._in_len = 0
        self._f = bytearray(MAX_FRAME)  # the reply being built
        self._fmv = memoryview(self._f)
        self._tx = bytearray(MAX_ENC + 2)  # the encoded reply; kept for a resend
        self._txmv = memoryview(self._tx)
        self._tx_len = 0
        self._tx_off = 0
        self._last_seq = -1  # seq and crc of the request _tx answers
        self._last_crc = 0
        self._seqb = bytearray(4)
        self._bye = False
        self._seq = 0  # seq and type of the request being answered
        self._typ = 0
        # More request types: {type: fn(link, request memoryview)}; fn answers with
        # link.reply_ok(data) / link.reply_json(obj) / link.error(code, message). 0x0A is TAGS
        # (firmware/tags_mode.py); 0x0B..0x7F are free.
        self.handlers = {}
        self._hm = None
        self._nonce = None
        self._rekey_fails = 0
        self._got_data = False
        self._last_rx = ticks_ms()
        self.active = False
        self.online = True
        self.key_error = None
        # counters (in HELLO, the figures and the tests)
        self.rx_frames = 0
        self.rx_bad_crc = 0
        self.rx_bad_cobs = 0
        self.rx_short = 0
        self.rx_oversized = 0
        self.resent = 0
        self.errors = 0
        self.bytes_in = 0
        self.bytes_out = 0
        self.byes = 0
        self.hangups = 0
        self._load_key()

    # ---------------------------------------------------------------- key file

    def _idz(self):
        return self.app.device_id.encode() + _ZERO

    def _load_key(self):
        try:
            f = open(self.key_path, "rb")
        except OSError:
            return
        try:
            data = f.read(64)
        finally:
            f.close()
        if len(data) != 40 or data[:4] != KEY_MAGIC or _crc32(data[:36]) != _le32(data, 36):
            self.key_error = "key file damaged"
            return
        self._hm = HmacSha256(data[4:36])

    def _store_key(self, key):
        b = bytearray(40)
        b[0:4] = KEY_MAGIC
        b[4:36] = key
        c = _crc32(memoryview(b)[:36])
        for i in range(4):
            b[36 + i] = (c >> (8 * i)) & 0xFF
        tmp = self.key_path + ".tmp"
        f = open(tmp, "wb")
        try:
            f.write(b)
            f.flush()
            if hasattr(os, "fsync"):
                os.fsync(f.fileno())
        finally:
            f.close()
        _replace(tmp, self.key_path)
        self._hm = HmacSha256(key)
        self.key_error = None

    @property
    def keyed(self):
        return self._hm is not None

    def erase_key(self):
        """For the referee menu on the box (PIN, physical access): forget the key so the box
        can be provisioned again. Not reachable over the link."""
        try:
            os.remove(self.key_path)
        except OSError:
            pass
        self._hm = None
        self._nonce = None
        self._rekey_fails = 0

    # ---------------------------------------------------------------- activity

    def _activate(self):
        if not self.active:
            self.active = True
            if self._kbd is not None:
                self._kbd(-1)

    def _deactivate(self):
        if self.active:
            self.active = False
            if self._kbd is not None:
                self._kbd(3)
        self._last_seq = -1

    def _lost(self):
        # The other end is gone (pty closed, cable out): drop the reply and the partial frame.
        if self._got_data:
            self.hangups += 1
            self._got_data = False
        self.online = False
        self._tx_len = self._tx_off = 0
        self._rxn = 0
        self._rx_skip = False
        self._in_pos = self._in_len = 0
        self._bye = False
        self._deactivate()

    @property
    def tx_pending(self):
        return self._tx_off < self._tx_len

    # ---------------------------------------------------------------- the loop's call

    def poll(self):
        """One bounded step; never blocks. Returns True if it moved any byte. Never raises:
        anything unexpected (MemoryError...) is counted in `errors` and the frame dropped."""
        try:
            return self._poll()
        except Exception:
            self.errors += 1
            self._rxn = 0
            self._rx_skip = False
            self._in_pos = self._in_len = 0
            return False

    def _poll(self):
        if self._tx_off < self._tx_len:
            end = self._tx_off + self.max_write
            if end > self._tx_len:
                end = self._tx_len
            n = self.port.write(self._txmv[self._tx_off:end])
            if n < 0:
                self._lost()
                return False
            self._tx_off += n
            self.bytes_out += n
            if self._tx_off < self._tx_len:
                return n > 0
            if self._bye:
                self._bye = False
                self._deactivate()
            return True
        if self._in_pos >= self._in_len:
            n = self.port.read(self._inmv)
            if n < 0:
                if self.online:
                    self._lost()
                return False
            self.online = True
            if n == 0:
                if self.active and ticks_diff(ticks_ms(), self._last_rx) > self.idle_ms:
                    self._deactivate()
                return False
            self._in_pos = 0
            self._in_len = n
            self.bytes_in += n
            self._got_data = True
            self._activate()
        return self._scan()

    def _scan(self):
        buf = self._in
        rx = self._rx
        i = self._in_pos
        end = self._in_len
        while i < end:
            b = buf[i]
            i += 1
            if b == 0:
                if self._rx_skip:
                    self._rx_skip = False
                    self._rxn = 0
                elif self._rxn:
                    n = self._rxn
                    self._rxn = 0
                    self._in_pos = i
                    self._frame(n)
                    return True
                continue
            if self._rx_skip:
                continue
            if self._rxn >= MAX_ENC:
                self._rx_skip = True
                self.rx_oversized += 1
                continue
            rx[self._rxn] = b
            self._rxn += 1
        self._in_pos = end
        return True

    def _frame(self, n):
        rx = self._rx
        n = cobs_decode_inplace(rx, n)
        if n < 0:
            self.rx_bad_cobs += 1
            return
        if n > MAX_FRAME:
            self.rx_oversized += 1
            return
        if n < 6:
            self.rx_short += 1
            return
        crc = _crc32(memoryview(rx)[:n - 4])
        if crc != _le32(rx, n - 4):
            self.rx_bad_crc += 1
            return
        self.rx_frames += 1
        self._last_rx = ticks_ms()
        typ = rx[0]
        seq = rx[1]
        if typ != T_HELLO and seq == self._last_seq and crc == self._last_crc and self._tx_len:
            self._tx_off = 0  # the host missed the reply: send it again, do not redo it
            self.resent += 1
            return
        self._last_seq = seq
        self._last_crc = crc
        self._seq = seq
        self._typ = typ
        req = memoryview(rx)[2:n - 4]
        try:
            if typ == T_HELLO:
                self._hello()
            elif typ == T_RECORDS:
                self._records(req)
            elif typ == T_ACK:
                self._ack(req)
            elif typ == T_CONFIG:
                self._config(req)
            elif typ == T_CLOCK:
                self._clock(req)
            elif typ == T_PROVISION:
                self._provision(req)
            elif typ == T_CHALLENGE:
                self._challenge()
            elif typ == T_REKEY:
                self._rekey(req)
            elif typ == T_BYE:
                self._reply_ok()
                self._bye = True
                self.byes += 1
            else:
                h = self.handlers.get(typ)
                if h is None:
                    self._error(E_UNKNOWN, "unknown request type %d" % typ)
                else:
                    h(self, req)
        except Exception as e:  # never into the app's loop
            self.errors += 1
            try:
                self._error(E_INTERNAL, "%s: %s" % (type(e).__name__, e))
            except Exception:  # out of memory even for that: no reply, the host asks again
                self._tx_len = self._tx_off = 0

    # ---------------------------------------------------------------- replies

    def _begin(self, status):
        f = self._f
        f[0] = self._typ | REPLY
        f[1] = self._seq
        f[2] = status
        return 3

    def _send(self, n):
        f = self._f
        c = _crc32(self._fmv[:n])
        for i in range(4):
            f[n + i] = (c >> (8 * i)) & 0xFF
        tx = self._tx
        tx[0] = 0
        e = cobs_encode_into(f, n + 4, tx, 1)
        tx[e] = 0
        self._tx_len = e + 1
        self._tx_off = 0

    def _reply_ok(self, data=None):
        o = self._begin(OK)
        if data is not None:
            k = len(data)
            self._f[o:o + k] = data
            o += k
        self._send(o)

    def _reply_json(self, obj):
        import json

        self._reply_ok(json.dumps(obj).encode())

    def _error(self, code, msg):
        self.errors += 1
        o = self._begin(code)
        m = msg.encode()[:200]
        self._f[o:o + len(m)] = m
        self._send(o + len(m))

    # for Link.handlers
    reply_ok = _reply_ok
    reply_json = _reply_json
    error = _error

    # ---------------------------------------------------------------- requests

    def _hello(self):
        app = self.app
        j = app.j
        s = getattr(app, "session", None)
        corrupt = getattr(j, "corrupt", None)
        now = app.now_s() if hasattr(app, "now_s") else app.epoch
        self._reply_json({
            "proto": PROTO, "device": app.device_id, "fw": self.fw, "board": self.board,
            "first": j.first_seq, "last": j.last_seq, "acked": j.acked,
            "unsynced": j.last_seq - j.acked, "keyed": self._hm is not None,
            "key_error": self.key_error, "time": now, "max_frame": MAX_FRAME,
            "session": s is not None and not s.ended,
            "corrupt": None if corrupt is None else "segment %d offset %d: %s" % corrupt,
            "rx_bad": self.rx_bad_crc + self.rx_bad_cobs + self.rx_short,
            "rx_oversized": self.rx_oversized, "resent": self.resent,
        })

    def _records(self, req):
        if len(req) != 5:
            return self._error(E_BAD_REQUEST, "RECORDS wants from u32, max u8")
        hm = self._hm
        if hm is None:
            return self._error(E_NO_KEY, "no device key: provision the box first")
        start = _be32(req, 0)
        want = req[4]
        if want > self.batch:
            want = self.batch
        j = self.app.j
        first = j.first_seq
        if start < 1 or (first is not None and start < first):
            return self._error(E_RANGE, "record %d is no longer on the box (first %s)" % (start, first))
        f = self._f
        fm = self._fmv
        o = self._begin(OK)
        _put_be32(f, o, start)
        count_at = o + 4
        o += 5
        count = 0
        idz = self._idz()
        sb = self._seqb
        gen = j.records(start, False)
        try:
            if want:
                for seq, data in gen:
                    n = len(data)
                    if o + REC_HEADER + n + 4 > MAX_FRAME:
                        break
                    _put_be32(sb, 0, seq)
                    _put_be32(f, o, seq)
                    f[o + 4] = n >> 8
                    f[o + 5] = n & 0xFF
                    f[o + 6:o + 38] = hm.digest(idz, sb, data)
                    fm[o + 38:o + 38 + n] = data
                    o += REC_HEADER + n
                    count += 1
                    if count >= want:
                        break
        except Exception as e:  # JournalCorrupt: a record went bad since boot
            if not count:
                gen.close()
                return self._error(E_JOURNAL, "journal: %s" % e)
        gen.close()
        f[count_at] = count
        self._send(o)

    def _ack(self, req):
        if len(req) != 4:
            return self._error(E_BAD_REQUEST, "ACK wants seq u32")
        seq = _be32(req, 0)
        j = self.app.j
        if seq > j.last_seq:
            return self._error(E_RANGE, "ack %d beyond the last record %d" % (seq, j.last_seq))
        j.ack(seq)  # False (nothing written) if not above the current ack: fine, idempotent
        b = bytearray(8)
        _put_be32(b, 0, seq)
        _put_be32(b, 4, j.acked)
        self._reply_ok(b)

    def _config(self, req):
        import json

        try:
            cfg = json.loads(bytes(req).decode())
        except (ValueError, UnicodeError):
            return self._error(E_BAD_REQUEST, "config is not JSON")
        if not isinstance(cfg, dict):
            return self._error(E_BAD_REQUEST, "config is not a JSON object")
        err = self.app.push_config(cfg)
        if err:
            return self._error(E_REFUSED, str(err))
        self._reply_ok()

    def _clock(self, req):
        if len(req) != 8:
            return self._error(E_BAD_REQUEST, "CLOCK wants unix seconds u64")
        t = (_be32(req, 0) << 32) | _be32(req, 4)
        if t < CLOCK_MIN or t >= CLOCK_MAX:
            return self._error(E_RANGE, "clock %d out of range" % t)
        app = self.app
        app.epoch = t - app.clock() // 1000
        self._reply_json({"epoch": app.epoch, "time": app.epoch + app.clock() // 1000})

    def _provision(self, req):
        if len(req) != KEY_LEN:
            return self._error(E_BAD_REQUEST, "a key is %d bytes" % KEY_LEN)
        if self._hm is not None:
            return self._error(E_KEY_SET, "the box has a key: rekey with proof of the old key, "
                               "or erase it in the referee menu on the box")
        first = req[0]
        same = True
        for i in range(1, KEY_LEN):
            if req[i] != first:
                same = False
                break
        if same:
            return self._error(E_BAD_REQUEST, "not a key: all its bytes are equal")
        self._store_key(bytes(req))
        self._reply_ok()

    def _challenge(self):
        if self._hm is None:
            return self._error(E_NO_KEY, "no key to change: provision the box")
        self._nonce = _urandom(16)
        self._reply_ok(self._nonce)

    def _rekey(self, req):
        nonce = self._nonce
        self._nonce = None  # single use, whatever happens
        hm = self._hm
        if hm is None:
            return self._error(E_NO_KEY, "no key to change: provision the box")
        if len(req) != 2 * KEY_LEN:
            return self._error(E_BAD_REQUEST, "REKEY wants wrapped key and proof, 32 bytes each")
        if self._rekey_fails >= MAX_REKEY_FAILS:
            return self._error(E_DENIED, "too many failed attempts: restart the box")
        if nonce is None:
            return self._error(E_DENIED, "ask for a challenge first")
        idz = self._idz()
        mask = hm.digest(b"wrap\x00", idz, nonce)
        new = bytearray(KEY_LEN)
        for i in range(KEY_LEN):
            new[i] = req[i] ^ mask[i]
        new = bytes(new)
        if not equal(hm.digest(b"rekey\x00", idz, nonce, new), bytes(req[KEY_LEN:])):
            self._rekey_fails += 1
            return self._error(E_DENIED, "proof does not match the box's key")
        self._store_key(new)
        self._reply_ok()


def serve(link, stop, wait_ms=20):
    """Run the link alone until stop() is true: the simulator and link_stdio after their
    script. Spins while bytes move, waits on the port (or sleeps, when nobody is there)."""
    import time

    while not stop():
        if link.poll():
            continue
        if link.online:
            link.port.wait(wait_ms, link.tx_pending)
        elif hasattr(time, "sleep_ms"):
            time.sleep_ms(wait_ms)
        else:
            time.sleep(wait_ms / 1000)
