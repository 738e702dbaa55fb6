# The box's end of the host link: the requests of protocol/frames.py (the wire format, its
# header is the specification) answered from the journal and the app, over a byte-stream port
# (firmware/link/ports.py: USB CDC on a board, a pty or a pipe on the unix port and in the
# simulator). Runs on MicroPython and CPython. This module is the engine (frames in and out,
# resends, authentication, the state); firmware/link/requests.py what each request does;
# firmware/link/store.py the files on flash.
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
# (firmware/link/store.py); the journal's own ack stays below the first set-aside record, so the
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
# Buffers are allocated once (Buffers): the frame being received (Deframer), the input chunk, the
# reply (encoded a few blocks at a time as it goes out): about 5.2 KB, two runs of 2 KB among
# them. A board makes them first at boot (firmware/main.py), while the heap is one free run: on
# the stock build (.mpy code in the heap), after a power cut in a long session the session's
# replay leaves ~45 KB free in runs too short for 2 KB, and the link made after it failed
# with MemoryError, so the host got no reply to HELLO (tests/pico/test_cut_hello.py).
#
# Keyboard interrupt: from the first byte received until BYE, a hang-up, or `idle_ms` without
# a byte, micropython.kbd_intr(-1) is in force so a 0x03 in the data cannot raise
# KeyboardInterrupt; kbd_intr(3) restores it (a developer's Ctrl-C reaches the REPL once the
# port has been quiet that long). Any byte counts, garbage too: a stream of junk longer than
# idle_ms must not turn Ctrl-C back on under it. The host sends 0x00 fill and pauses before its
# first request, so the switch happens before any data byte arrives.
import os

from firmware.compat import const, kbd_intr as _kbd_intr, ticks_diff, ticks_ms
from firmware.link import requests, store
from protocol.frames import (
    E_BAD_REQUEST, E_DENIED, E_INTERNAL, E_NO_KEY, E_NONCE, E_UNKNOWN, MAC_LEN, MAX_FRAME, MAX_MESSAGE,
    MAX_RECORD, OK, REPLY, T_HELLO, Deframer, cobs_block, crc32, put_be32, put_le32)
from protocol.sign import HmacSha256, equal, request_mac

FW_VERSION = "0.2.0"

_ZERO = b"\x00"


class Buffers:
    """The link's buffers, made once; a Link takes them (bufs=) or makes its own."""

    def __init__(self, max_read=256, max_write=512):
        self.rx = Deframer()  # the frame being received, decoded in place
        self.inp = bytearray(max_read)  # bytes read from the port, not yet scanned
        self.f = bytearray(MAX_FRAME)  # the reply being built
        # the reply goes out COBS-encoded from f (kept for a resend) a few blocks at a time,
        # through blk (blocks of code + up to 254 bytes, 0x00 before the first and after the
        # last): no second frame-sized buffer, and max_write bytes or more per fill
        self.blk = bytearray(max_write + 258)


def _aside_path(key_path):
    i = key_path.rfind("/")
    return (key_path[:i + 1] if i >= 0 else "") + "aside"


class Link:
    """The device end. `app` is the firmware App (j, device_id, epoch, clock, now_s,
    push_config, session); `port` one of firmware/link/ports.py's; `key_path` the key file on
    flash; `aside_path` the set-aside list (default: "aside" next to the key file); `bufs` its
    Buffers made earlier (default: made here, of max_read and max_write)."""

    def __init__(self, app, port, key_path, board="sim", fw=FW_VERSION, idle_ms=30000,
                 max_read=256, max_write=512, batch=16, kbd_intr=None, aside_path=None, bufs=None):
        mp = getattr(app.j, "max_payload", MAX_RECORD)
        if mp > MAX_RECORD:
            raise ValueError("journal max_payload %d: a RECORDS reply carries %d" % (mp, MAX_RECORD))
        self.app = app
        self.port = port
        self.key_path = key_path
        self.aside_path = aside_path or _aside_path(key_path)
        self.board = board
        self.fw = fw
        self.idle_ms = idle_ms
        if bufs is None:
            bufs = Buffers(max_read, max_write)
        self.max_write = len(bufs.blk) - 258
        self.batch = batch
        self._kbd = kbd_intr if kbd_intr is not None else _kbd_intr
        self._rx = bufs.rx
        self._in = bufs.inp
        self._inmv = memoryview(self._in)
        self._in_pos = 0
        self._in_len = 0
        self._f = bufs.f
        self._fmv = memoryview(self._f)
        self._fn = 0  # length of the reply in _f (crc included); 0: none to resend
        self._blk = bufs.blk
        self._blkmv = memoryview(self._blk)
        self._bpos = 0  # bytes of _blk written
        self._blen = 0  # bytes in _blk
        self._ti = -1  # start of the next block in _f; -1: every block is in _blk
        self._tx_on = False
        self._last_seq = -1  # seq and crc of the request the reply in _f answers
        self._last_crc = 0
        self._seqb = bytearray(4)
        self._bye = False
        self._seq = 0  # seq and type of the request being answered
        self._typ = 0
        # {type: fn(link, request memoryview)}: firmware/link/requests.py's, and more through
        # handle(). fn answers with link.reply_ok(data) / reply_json(obj) / error(code, message).
        self.handlers = {}
        self._auth_types = {}  # the handlers that need an authenticated request
        for typ, fn, auth in requests.TABLE:
            self.handle(typ, fn, auth)
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

    def ack_to(self, seq):
        """The host holds every record <= seq (the USB link's ACK, or the network push's ack that
        checked with the device key, firmware/net/push.py): the one way either marks records
        synced, so whichever delivers a record first, the ack moves once and never back."""
        if seq > self.acked:
            j = self.app.j
            if self.aside:
                self._synced = seq
                self._save_aside()  # first: the journal's ack never runs ahead of this file
                floor = self._floor()
            else:
                floor = seq
            if floor > j.acked:
                j.ack(floor)

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
        self._fn = 0
        self._tx_on = False
        self._rx.reset()
        self._in_pos = self._in_len = 0
        self._bye = False
        self._nonce = None
        self._deactivate()

    @property
    def tx_pending(self):
        return self._tx_on

    def _tx_start(self):
        self._ti = 0
        self._bpos = self._blen = 0
        self._tx_on = True

    def _tx_fill(self):
        # the next blocks of the reply into _blk, with the delimiter before the first / after the last
        blk = self._blk
        cap = len(blk) - 258
        i = self._ti
        o = 0
        if i == 0:
            blk[0] = 0
            o = 1
        while i >= 0 and o <= cap:
            code, end, nxt = cobs_block(self._f, i, self._fn)
            blk[o] = code
            o += 1
            if end > i:
                self._blkmv[o:o + end - i] = self._fmv[i:end]
                o += end - i
            if nxt < 0:
                blk[o] = 0
                o += 1
            i = nxt
        self._ti = i
        self._bpos = 0
        self._blen = o

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
        if self._tx_on:
            if self._bpos >= self._blen:
                self._tx_fill()
            end = self._bpos + self.max_write
            if end > self._blen:
                end = self._blen
            n = self.port.write(self._blkmv[self._bpos:end])
            if n < 0:
                self._lost()
                return False
            self._bpos += n
            self.bytes_out += n
            if self._bpos < self._blen or self._ti >= 0:
                return n > 0
            self._tx_on = False
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
            self._last_rx = ticks_ms()
            self._got_data = True
            self._activate()
        self._in_pos, n = self._rx.feed(self._in, self._in_pos, self._in_len, self._inmv)
        if n > 0:
            self._frame(n)
        return True

    def _frame(self, n):
        rx = self._rx.buf
        typ = rx[0]
        seq = rx[1]
        crc = rx[n - 4] | (rx[n - 3] << 8) | (rx[n - 2] << 16) | (rx[n - 1] << 24)
        if typ != T_HELLO and seq == self._last_seq and crc == self._last_crc and self._fn:
            self._tx_start()  # the host missed the reply: send it again, do not redo it
            self.resent += 1
            return
        self._last_seq = seq
        self._last_crc = crc
        self._seq = seq
        self._typ = typ
        req = memoryview(rx)[2:n - 4]
        try:
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
                self._fn = 0
                self._tx_on = False

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
        put_le32(self._f, n, crc32(self._fmv[:n]))
        self._fn = n + 4
        self._tx_start()

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

    def bye(self):
        """The link goes idle once the reply now being sent is out (BYE)."""
        self._bye = True
        self.byes += 1

    # for handlers
    reply_ok = _reply_ok
    reply_json = _reply_json
    reply_seq = _reply_seq
    error = _error
