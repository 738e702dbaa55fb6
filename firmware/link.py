# The box's end of the host link: the requests of protocol/frames.py (the wire format, its
# header is the specification) answered from the journal and the app, over a byte-stream port
# (firmware/link_ports.py: USB CDC on a board, a pty or a pipe on the unix port and in the
# simulator). Runs on MicroPython and CPython.
#
# The link trusts no host. Reading stays open (HELLO; RECORDS, which are signed here with the
# device key); everything that changes the box (ACK, CONFIG, CLOCK, REKEY, TAGS_SET, ASIDE,
# RELEASE, and PROVISION once a key is set, which is then refused outright) must carry the MAC of
# an authenticated request over the nonce of the last CHALLENGE, which it uses up. A request
# without it changes nothing.
#
# Set aside. A record the server refuses must not hold back the records after it for good: the
# host sets it aside (ASIDE seq, reason) and then acknowledges past it. The box keeps it: the
# list (seq, reason) and how far the host has acknowledged live in the aside file
# (firmware/link_store.py); the journal's own ack stays below the first set-aside record, so the
# journal never prunes it while it waits. HELLO lists them ("aside") and the app can show them
# (Link.aside); RELEASE (after a referee resolved it) drops one from the list.
#
# Resends: the link keeps its last reply and sends it again, without redoing the request, when
# the same request (seq and crc) comes again; HELLO is always redone.
#
# Non-blocking: the app's main loop calls poll(); each call writes at most `max_write` bytes of
# a pending reply, or reads at most `max_read` bytes and handles at most one request (at most
# `batch` journal records read and signed). While a reply is being written no input is read
# (the OS buffers it). Nothing here sleeps or waits, and there is no loop: the device loop's.
# Buffers are allocated once, in the constructor: the frame being received (Deframer), the input
# chunk, the reply being built and its encoding (about 6.5 KB).
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
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


from firmware import link_store as store
from firmware.link_ports import FdPort, MemPort, StreamPort  # noqa: F401  (the ports, from here too)
from protocol.frames import (
    E_BAD_REQUEST, E_DENIED, E_FULL, E_INTERNAL, E_JOURNAL, E_KEY_SET, E_NO_KEY, E_NONCE, E_RANGE,
    E_REFUSED, E_UNKNOWN, KEY_LEN, MAC_LEN, MAX_FRAME, MAX_MESSAGE, MAX_REASON, NONCE_LEN, OK, PROTO,
    REC_HEADER, REPLY, T_ACK, T_ASIDE, T_BYE, T_CHALLENGE, T_CLOCK, T_CONFIG, T_HELLO, T_PROVISION,
    T_RECORDS, T_REKEY, T_RELEASE, MAX_ENC, Deframer, be32, put_be32, seal_into)
from protocol.sign import HmacSha256, equal, record_mac, request_mac, wrap_mask

FW_VERSION = "0.2.0"
CLOCK_MIN = 1577836800  # 2020-01-01: anything earlier is a host without a clock
CLOCK_MAX = 4102444800  # 2100-01-01: anything later is not a clock either

_ZERO = b"\x00"


def _urandom(n):
    try:
        return os.urandom(n)
    except (AttributeError, NotImplementedError):  # a port without one: weaker, still single use
        import random

        return bytes(random.getrandbits(8) for _ in range(n))


def _aside_path(key_path):
    i = key_path.rfind("/")
    return (key_path[:i + 1] if i >= 0 else "") + "aside"


class Link:
    """The device end. `app` is the firmware App (j, device_id, epoch, clock, now_s,
    push_config, session); `port` one of firmware/link_ports.py's; `key_path` the key file on
    flash; `aside_path` the set-aside list (default: "aside" next to the key file)."""

    def __init__(self, app, port, key_path, board="sim", fw=FW_VERSION, idle_ms=30000,
                 max_read=256, max_write=512, batch=16, kbd_intr=None, aside_path=None):
        mp = getattr(app.j, "max_payload", 1024)
        if REC_HEADER + mp + 10 > MAX_FRAME:
            raise ValueError("journal max_payload %d does not fit a frame" % mp)
        self.app = app
        self.port = port
        self.key_path = key_path
        self.aside_path = aside_path or _aside_path(key_path)
        self.board = board
        self.fw = fw
        self.idle_ms = idle_ms
        self.max_write = max_write
        self.batch = batch
        self._kbd = kbd_intr if kbd_intr is not None else _kbd_intr
        self._rx = Deframer()  # the frame being received, decoded in place
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
        # More request types: {type: fn(link, request memoryview)}, through handle(). fn
        # answers with link.reply_ok(data) / link.reply_json(obj) / link.error(code, message).
        self.handlers = {}
        self._auth_types = {}  # the handlers that need an authenticated request
        self._hm = None
        self._nonce = None
        self._used_nonce = None
        self._got_data = False
        self._last_rx = ticks_ms()
        self.active = False
        self.online = True
        self.key_error = None
        # counters (in HELLO, the figures and the tests)
        self.resent = 0
        self.errors = 0
        self.denied = 0  # authenticated requests refused: no nonce, or not the box's key
        self.bytes_in = 0
        self.bytes_out = 0
        self.byes = 0
        self.hangups = 0
        key, self.key_error = store.load_key(key_path)
        if key is not None:
            self._hm = HmacSha256(key)
        self._synced, self.aside = store.load_aside(self.aside_path)

    # ---------------------------------------------------------------- counters of the receiver

    @property
    def rx_frames(self):
        return self._rx.frames

    @property
    def rx_bad_crc(self):
        return self._rx.bad_crc

    @property
    def rx_bad_cobs(self):
        return self._rx.bad_cobs

    @property
    def rx_short(self):
        return self._rx.short

    @property
    def rx_oversized(self):
        return self._rx.oversized

    # ---------------------------------------------------------------- key

    @property
    def keyed(self):
        return self._hm is not None

    def _idz(self):
        return self.app.device_id.encode() + _ZERO

    def _store_key(self, key):
        store.store_key(self.key_path, key)
        self._hm = HmacSha256(key)
        self.key_error = None

    def erase_key(self):
        """For the referee menu on the box (PIN, physical access): forget the key so the box
        can be provisioned again. Not reachable over the link."""
        store.erase(self.key_path)
        self._hm = None
        self._nonce = None

    def handle(self, typ, fn, auth=False):
        """Answer request type typ with fn(link, request); auth: only an authenticated request
        reaches fn, and fn gets its arguments (the MAC checked and cut off)."""
        self.handlers[typ] = fn
        if auth:
            self._auth_types[typ] = True
        elif typ in self._auth_types:
            del self._auth_types[typ]

    # ---------------------------------------------------------------- acknowledged, set aside

    @property
    def acked(self):
        """How far the host has acknowledged (set-aside records included)."""
        j = self.app.j.acked
        s = self._synced
        return j if s is None or s < j else s

    def _floor(self):
        # the journal may be acknowledged up to here: below the first set-aside record
        a = self.acked
        for seq, _ in self.aside:
            if seq - 1 < a:
                a = seq - 1
        return a

    def _save_aside(self):
        if self.aside:
            store.store_aside(self.aside_path, self.acked, self.aside)
        else:
            store.erase(self.aside_path)

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
        self._rx.reset()
        self._in_pos = self._in_len = 0
        self._bye = False
        self._nonce = None
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
            self._rx.reset()
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
        self._in_pos, n = self._rx.feed(self._in, self._in_pos, self._in_len, self._inmv)
        if n > 0:
            self._frame(n)
        return True

    def _frame(self, n):
        rx = self._rx.buf
        self._last_rx = ticks_ms()
        typ = rx[0]
        seq = rx[1]
        crc = rx[n - 4] | (rx[n - 3] << 8) | (rx[n - 2] << 16) | (rx[n - 1] << 24)
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
            elif typ == T_CHALLENGE:
                self._challenge()
            elif typ == T_PROVISION:
                self._provision(req)
            elif typ == T_BYE:
                self._reply_ok()
                self._bye = True
                self.byes += 1
            elif typ in (T_ACK, T_CONFIG, T_CLOCK, T_REKEY, T_ASIDE, T_RELEASE):
                args = self._auth(req)
                if args is None:
                    return
                if typ == T_ACK:
                    self._ack(args)
                elif typ == T_CONFIG:
                    self._config(args)
                elif typ == T_CLOCK:
                    self._clock(args)
                elif typ == T_REKEY:
                    self._rekey(args)
                elif typ == T_ASIDE:
                    self._set_aside(args)
                else:
                    self._release(args)
            else:
                h = self.handlers.get(typ)
                if h is None:
                    return self._error(E_UNKNOWN, "unknown request type %d" % typ)
                if typ in self._auth_types:
                    req = self._auth(req)
                    if req is None:
                        return
                h(self, req)
        except Exception as e:  # never into the app's loop
            self.errors += 1
            try:
                self._error(E_INTERNAL, "%s: %s" % (type(e).__name__, e))
            except Exception:  # out of memory even for that: no reply, the host asks again
                self._tx_len = self._tx_off = 0

    def _auth(self, req):
        """The arguments of an authenticated request, or None after replying why not. The nonce
        is used up whatever happens."""
        nonce = self._nonce
        self._nonce = None
        if self._hm is None:
            self._error(E_NO_KEY, "no device key: provision the box first")
            return None
        k = len(req) - MAC_LEN
        if k < 0:
            self._error(E_BAD_REQUEST, "an authenticated request ends with a %d-byte MAC" % MAC_LEN)
            return None
        if nonce is None:
            self.denied += 1
            self._error(E_NONCE, "ask for a CHALLENGE first: each one authenticates one request")
            return None
        args = req[:k]
        if not equal(request_mac(self._hm, self._idz(), nonce, self._typ, args), req[k:]):
            self.denied += 1
            self._error(E_DENIED, "not authenticated with this box's key")
            return None
        self._used_nonce = nonce
        return args

    # ---------------------------------------------------------------- replies

    def _begin(self, status):
        f = self._f
        f[0] = self._typ | REPLY
        f[1] = self._seq
        f[2] = status
        return 3

    def _send(self, n):
        self._tx_len = seal_into(self._f, n, self._tx)
        self._tx_off = 0

    def _reply_ok(self, data=None):
        o = self._begin(OK)
        if data is not None:
            k = len(data)
            if o + k + 4 > MAX_FRAME:
                return self._error(E_INTERNAL, "reply of %d bytes does not fit a frame" % k)
            self._f[o:o + k] = data
            o += k
        self._send(o)

    def _reply_json(self, obj):
        import json

        self._reply_ok(json.dumps(obj).encode())

    def _error(self, code, msg):
        self.errors += 1
        o = self._begin(code)
        m = msg.encode()[:MAX_MESSAGE]
        self._f[o:o + len(m)] = m
        self._send(o + len(m))

    def _reply_seq(self, seq, count):
        b = bytearray(5)
        put_be32(b, 0, seq)
        b[4] = count
        self._reply_ok(b)

    # for handlers
    reply_ok = _reply_ok
    reply_json = _reply_json
    error = _error

    # ---------------------------------------------------------------- open requests

    def _hello(self):
        app = self.app
        j = app.j
        s = getattr(app, "session", None)
        corrupt = getattr(j, "corrupt", None)
        now = app.now_s() if hasattr(app, "now_s") else app.epoch
        acked = self.acked
        self._reply_json({
            "proto": PROTO, "device": app.device_id, "fw": self.fw, "board": self.board,
            "first": j.first_seq, "last": j.last_seq, "acked": acked,
            "unsynced": j.last_seq - acked, "keyed": self._hm is not None,
            "key_error": self.key_error, "time": now, "max_frame": MAX_FRAME,
            "session": s is not None and not s.ended,
            "corrupt": None if corrupt is None else "segment %d offset %d: %s" % corrupt,
            "aside": [[q, r.decode()] for q, r in self.aside],
            "rx_bad": self._rx.bad, "rx_oversized": self._rx.oversized, "resent": self.resent,
            "denied": self.denied,
        })

    def _records(self, req):
        if len(req) != 5:
            return self._error(E_BAD_REQUEST, "RECORDS wants from u32, max u8")
        hm = self._hm
        if hm is None:
            return self._error(E_NO_KEY, "no device key: provision the box first")
        start = be32(req, 0)
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
        put_be32(f, o, start)
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
                    put_be32(sb, 0, seq)
                    put_be32(f, o, seq)
                    f[o + 4] = n >> 8
                    f[o + 5] = n & 0xFF
                    f[o + 6:o + 38] = record_mac(hm, idz, sb, data)
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

    def _challenge(self):
        if self._hm is None:
            return self._error(E_NO_KEY, "no device key: provision the box first")
        self._nonce = _urandom(NONCE_LEN)
        self._reply_ok(self._nonce)

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

    # ---------------------------------------------------------------- authenticated requests

    def _ack(self, req):
        if len(req) != 4:
            return self._error(E_BAD_REQUEST, "ACK wants seq u32")
        seq = be32(req, 0)
        j = self.app.j
        if seq > j.last_seq:
            return self._error(E_RANGE, "ack %d beyond the last record %d" % (seq, j.last_seq))
        if seq > self.acked:
            if self.aside:
                self._synced = seq
                self._save_aside()  # first: the journal's ack never runs ahead of this file
                floor = self._floor()
            else:
                floor = seq
            if floor > j.acked:
                j.ack(floor)  # durable when the reply is sent
        b = bytearray(8)
        put_be32(b, 0, seq)
        put_be32(b, 4, self.acked)
        self._reply_ok(b)

    def _set_aside(self, req):
        n = len(req) - 4
        if n < 0 or n > MAX_REASON:
            return self._error(E_BAD_REQUEST, "ASIDE wants seq u32 and a reason of at most %d bytes" % MAX_REASON)
        seq = be32(req, 0)
        reason = bytes(req[4:])
        try:
            reason.decode()
        except UnicodeError:
            return self._error(E_BAD_REQUEST, "the reason is not UTF-8")
        for b in reason:
            if b < 0x20 or b == 0x7F:  # shown on the box's screen; and JSON would blow it up 6 times
                return self._error(E_BAD_REQUEST, "the reason holds control characters")
        j = self.app.j
        first = j.first_seq
        if seq <= self.acked or seq > j.last_seq or first is None or seq < first:
            return self._error(E_RANGE, "record %d is not an unacknowledged record on the box" % seq)
        aside = self.aside
        for e in aside:
            if e[0] == seq:
                e[1] = reason
                self._save_aside()
                return self._reply_seq(seq, len(aside))
        if len(aside) >= store.MAX_ASIDE:
            return self._error(E_FULL, "%d records are set aside already: a referee must resolve them"
                               % len(aside))
        if self._synced is None:
            self._synced = j.acked
        i = 0
        while i < len(aside) and aside[i][0] < seq:
            i += 1
        aside.insert(i, [seq, reason])
        self._save_aside()
        self._reply_seq(seq, len(aside))

    def _release(self, req):
        if len(req) != 4:
            return self._error(E_BAD_REQUEST, "RELEASE wants seq u32")
        seq = be32(req, 0)
        aside = self.aside
        for i in range(len(aside)):
            if aside[i][0] == seq:
                del aside[i]
                acked = self.acked
                j = self.app.j
                if aside:
                    self._save_aside()
                    floor = self._floor()
                else:
                    floor = acked
                if floor > j.acked:
                    j.ack(floor)
                if not aside:  # after the journal's ack: a cut in between keeps the old file
                    self._synced = None
                    store.erase(self.aside_path)
                return self._reply_seq(seq, len(aside))
        return self._error(E_RANGE, "record %d is not set aside" % seq)

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
        t = (be32(req, 0) << 32) | be32(req, 4)
        if t < CLOCK_MIN or t >= CLOCK_MAX:
            return self._error(E_RANGE, "clock %d out of range" % t)
        app = self.app
        app.epoch = t - app.clock() // 1000
        self._reply_json({"epoch": app.epoch, "time": app.epoch + app.clock() // 1000})

    def _rekey(self, req):
        # _auth checked the MAC with the old key over this nonce; the nonce also masks the key
        if len(req) != KEY_LEN:
            return self._error(E_BAD_REQUEST, "REKEY wants the wrapped key, %d bytes" % KEY_LEN)
        mask = wrap_mask(self._hm, self._idz(), self._used_nonce)
        new = bytearray(KEY_LEN)
        for i in range(KEY_LEN):
            new[i] = req[i] ^ mask[i]
        self._store_key(bytes(new))
        self._reply_ok()

