# The push: each committed record to the tournament server as soon as the radio is up, from the
# device loop, a bounded step at a time (protocol/push.py is the wire format).
#
# One step does one of: move the radio along; add one record's envelope to the batch being
# built (a read from the journal, an HMAC, base64); move the HTTP request one send or one recv
# (firmware/net/http.py); or read the answer. Nothing waits: a key, a tile or a screen never
# waits for the network.
#
# Synced: records are marked synced only through Link.ack_to (the USB link's ACK goes there too),
# and only on an answer whose ack MAC checks with the device key over this push's own nonce
# (protocol/sign.py push_ack_mac). So whichever of the push and a USB sync delivers a record
# first, the journal's ack moves once and only forward; the server keeps one record per (device,
# seq). An access point or server without the key gets "stored" for nothing: no valid ack, the
# records stay unsynced, and the status says "server lacks key".
#
# Failures back off: 1 s, doubling to 60 s, with up to a quarter of random spread so that 50
# boxes coming back after a server restart do not all call at once.
import json

from binascii import hexlify, unhexlify

from firmware.net.http import Post, split_url
from protocol import push as ppush
from protocol.envelope import make as make_envelope
from protocol.sign import call_mac, equal, push_ack_mac, record_mac, seq4

BATCH = 8  # records a push carries at most
BATCH_BYTES = 3072  # and payload bytes
BACKOFF_MIN = 1000
BACKOFF_MAX = 60000


def _urandom(n):
    from firmware.link.requests import _urandom as u
    return u(n)


class Pusher:
    """Pushes app.j's records past link.acked to server (an http:// address)."""

    def __init__(self, app, link, server, radio, sockets, resolver, backoff_max=BACKOFF_MAX):
        self.app = app
        self.link = link
        self.host, self.port, prefix = split_url(server)
        self.path = prefix + ppush.path(app.device_id)
        self.call_path = prefix + ppush.call_path(app.device_id)
        self.call = None  # the referee call: None, or a Call (sent first, before any record)
        self.radio = radio
        self.sockets = sockets
        self.resolver = resolver
        self.state = "waiting"  # waiting, building, sending, backoff: and `problem` says why
        self.problem = None  # None, or what the last failure was ("server lacks key"...)
        self.last_push = None  # clock ms of the last acknowledged push
        self.pushes = 0  # acknowledged pushes
        self.pushed = 0  # records they acknowledged
        self.failures = 0
        self._next = 0
        self._backoff = BACKOFF_MIN
        self._backoff_max = backoff_max
        self._req = None
        self._gen = None
        self._envs = None
        self._bytes = 0
        self._nonce = None
        self._first = 0
        self._last = 0
        self._call_req = None

    # ---- what the screens show
    def unsynced(self):
        j = self.app.j
        return j.last_seq - self.link.acked

    def call_referee(self):
        """Key 0 on the main screen: call the referee (sent at the next step, retried until the
        server confirms it with the device key)."""
        self.call = Call()

    # ---- the loop's call
    def step(self, now):
        """One bounded move; True when it did something."""
        if self._req is not None:
            if self._req.step():
                req = self._req
                self._req = None
                if req is self._call_req:
                    self._call_answer(req, now)
                else:
                    self._answer(req, now)
            return True
        if self._gen is not None:
            return self._build(now)
        if not self.radio.step(now):
            self.state = "waiting"
            return False
        c = self.call
        if c is not None and c.done_at is None and now - c.next >= 0 and self.link._hm is not None:
            return self._send_call(c)
        if now - self._next < 0:
            return False
        link = self.link
        start = link.acked + 1
        if start > self.app.j.last_seq:
            self.state = "waiting"
            return False
        if link._hm is None:
            self._fail(now, "no device key")
            return False
        self._first = start
        self._last = start - 1
        self._envs = []
        self._bytes = 0
        self._gen = self.app.j.records(start, True)
        self.state = "building"
        return self._build(now)

    def _build(self, now):
        try:
            seq, data = next(self._gen)
        except StopIteration:
            seq = None
        except Exception as e:  # the journal went bad since boot: USB sync and a referee
            self._close_gen()
            self._fail(now, "journal: %s" % e)
            return True
        if seq is not None and seq == self._last + 1:
            link = self.link
            sig = hexlify(record_mac(link._hm, link._idz(), seq4(seq), data)).decode()
            self._envs.append(make_envelope(self.app.device_id, seq, data, sig))
            self._last = seq
            self._bytes += len(data)
            if len(self._envs) < BATCH and self._bytes < BATCH_BYTES:
                return True
        self._close_gen()
        envs = self._envs
        self._envs = None
        if not envs:
            self.state = "waiting"
            return True
        self._nonce = _urandom(ppush.NONCE_LEN)
        body = json.dumps({"nonce": hexlify(self._nonce).decode(), "records": envs}).encode()
        envs = None
        self._req = Post(self.sockets, self.resolver, self.host, self.port, self.path, body)
        self.state = "sending"
        return True

    def _send_call(self, c):
        link = self.link
        c.nonce = _urandom(ppush.NONCE_LEN)
        mac = hexlify(call_mac(link._hm, link._idz(), c.nonce)).decode()
        body = json.dumps({"nonce": hexlify(c.nonce).decode(), "mac": mac}).encode()
        self._req = self._call_req = Post(self.sockets, self.resolver, self.host, self.port, self.call_path, body)
        self.state = "sending"
        return True

    def _call_answer(self, req, now):
        self._call_req = None
        c = self.call
        ok = False
        if req.error is None and req.status == 200:
            try:
                mac = unhexlify(json.loads(req.answer)["ack"])
                ok = equal(push_ack_mac(self.link._hm, self.link._idz(), c.nonce, 0, 0), mac)
            except (ValueError, KeyError, TypeError):
                ok = False
        if ok:
            c.done_at = now
            self.problem = None
        else:
            c.tries += 1
            c.next = now + min(BACKOFF_MIN << c.tries, BACKOFF_MAX)
            self.problem = "referee call not confirmed"
        self.state = "waiting"

    def _close_gen(self):
        g = self._gen
        self._gen = None
        if g is not None:
            g.close()

    def _answer(self, req, now):
        if req.error is not None:
            return self._fail(now, "server: %s" % req.error)
        if req.status != 200:
            return self._fail(now, "server: HTTP %d" % req.status)
        try:
            a = json.loads(req.answer)
            ack = a["ack"]
        except (ValueError, KeyError, TypeError):
            return self._fail(now, "server: not a push answer")
        if ack is None:
            return self._fail(now, _refusal(a, self._first))
        try:
            first, last, mac = ack["first"], ack["last"], unhexlify(ack["mac"])
            ok = (first == self._first and first <= last <= self._last and equal(
                push_ack_mac(self.link._hm, self.link._idz(), self._nonce, first, last), mac))
        except (KeyError, TypeError, ValueError):
            ok = False
        if not ok:
            return self._fail(now, "server lacks key")
        self.link.ack_to(last)
        self.pushes += 1
        self.pushed += last - first + 1
        self.last_push = now
        if last < self._last:  # the server holds the first ones only: why not the next
            return self._fail(now, _refusal(a, last + 1))
        self.problem = None
        self._backoff = BACKOFF_MIN
        self._next = now  # more to send: at once
        self.state = "waiting"

    def reset(self, now, why):
        """After anything unexpected: drop the request and the batch, back off."""
        req = self._req
        self._req = self._call_req = None
        if req is not None:
            req.close()
        self._close_gen()
        self._envs = None
        self._fail(now, why)

    def _fail(self, now, why):
        self.problem = why
        self.failures += 1
        spread = _urandom(1)[0] * self._backoff // 1024
        self._next = now + self._backoff + spread
        self._backoff = min(self._backoff * 2, self._backoff_max)
        self.state = "backoff"


def _refusal(answer, seq):
    """Why the server did not take record seq, from its per-record answer."""
    try:
        for r in answer["results"]:
            if r.get("seq") == seq:
                code = r["status_code"]
                if code == 403:
                    return "server does not know this box"
                return "server refused %d: %d" % (seq, code)
    except (KeyError, TypeError, AttributeError):
        pass
    return "server refused %d" % seq


class Call:
    def __init__(self):
        self.nonce = None
        self.next = 0  # clock ms of the next try (0: at once)
        self.tries = 0
        self.done_at = None  # clock ms the server confirmed it
