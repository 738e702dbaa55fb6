# One HTTP POST over a non-blocking TCP socket, moved a bounded step at a time by the device loop
# (firmware/net/push.py): connect, send, read the answer, each step at most one send of CHUNK
# bytes or one recv, never a wait. HTTP/1.0 with "Connection: close": one request per
# connection, the answer ends where the server closes it (or at its Content-Length).
#
# Why not micropython-lib's requests (urequests): it is blocking throughout (socket.connect,
# write, readline until the headers end, read of the body), so a slow or silent server would
# hold the device loop, and with it the keys, the tiles and the screen, for the socket's whole
# timeout; it has no way to run a step at a time. This is the part of it the box needs (one
# POST, a JSON answer), about 150 lines, with the same socket calls made non-blocking.
#
# `sockets` is the socket module (MicroPython's or CPython's `socket`; a stand-in in the tests);
# `poller` select.poll's (the same on both). Names are resolved once (getaddrinfo blocks for a
# DNS lookup: a server address is an IP in the hall, resolved instantly; a name is looked up
# once per boot and kept, Resolver).
import select

from firmware.compat import ticks_diff, ticks_ms

CHUNK = 1024  # bytes sent per step
RECV = 512  # bytes read per step
MAX_ANSWER = 8192  # an answer longer than this is a failure (the push's is ~100 bytes a record)
TIMEOUT_MS = 10000  # connect to last byte
_EAGAIN = (11, 115, 114, 119)  # EAGAIN / EINPROGRESS / EALREADY (Linux, lwIP); 119 lwIP's EINPROGRESS
_POLLOUT = select.POLLOUT
_POLLIN = select.POLLIN
_POLLBAD = select.POLLERR | select.POLLHUP


def split_url(url):
    """("host", port, "/prefix") of an http:// address (no https: the box signs what it sends
    and checks what it is told with the device key; nothing secret goes over the wire)."""
    if not url.startswith("http://"):
        raise ValueError("server address must start with http://")
    rest = url[7:]
    i = rest.find("/")
    hostport, prefix = (rest, "") if i < 0 else (rest[:i], rest[i:].rstrip("/"))
    i = hostport.rfind(":")
    if i >= 0:
        return hostport[:i], int(hostport[i + 1:]), prefix
    return hostport, 80, prefix


class Resolver:
    def __init__(self, sockets):
        self.sockets = sockets
        self._cache = {}

    def addr(self, host, port):
        k = (host, port)
        a = self._cache.get(k)
        if a is None:
            a = self.sockets.getaddrinfo(host, port, 0, self.sockets.SOCK_STREAM)[0][-1]
            self._cache[k] = a
        return a


class Post:
    """POST body (bytes) to path on (host, port). step() until done; then status (int, 0 when it
    failed), answer (the body bytes) and error (None, or why it failed)."""

    def __init__(self, sockets, resolver, host, port, path, body, timeout_ms=TIMEOUT_MS):
        self.status = 0
        self.answer = None
        self.error = None
        self.done = False
        self._sock = None
        self._t0 = ticks_ms()  # the chip's own ms (the box's clock may be a simulator's, which jumps)
        self._timeout = timeout_ms
        head = ("POST %s HTTP/1.0\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                "Content-Length: %d\r\nConnection: close\r\n\r\n" % (path, host, port, len(body))).encode()
        self._out = head + body
        self._sent = 0
        self._in = bytearray()
        self._connected = False
        try:
            addr = resolver.addr(host, port)
            s = sockets.socket(sockets.AF_INET, sockets.SOCK_STREAM)
            self._sock = s
            s.setblocking(False)
            try:
                s.connect(addr)
            except OSError as e:
                if e.args[0] not in _EAGAIN:
                    raise
            self._poll = select.poll()
            self._poll.register(s, _POLLOUT)
        except Exception as e:
            self._fail("connect: %s" % _why(e))

    def _fail(self, why):
        self.error = why
        self.status = 0
        self._finish()

    def _finish(self):
        self.done = True
        s = self._sock
        self._sock = None
        if s is not None:
            try:
                self._poll.unregister(s)
            except Exception:
                pass
            try:
                s.close()
            except Exception:
                pass

    def close(self):
        if not self.done:
            self._fail("closed")

    def step(self):
        """One bounded move; True once done."""
        if self.done:
            return True
        if ticks_diff(ticks_ms(), self._t0) > self._timeout:
            self._fail("timed out")
            return True
        try:
            if self._out is not None:
                self._send()
            else:
                self._recv()
        except Exception as e:  # a reset, a refusal, out of memory: this request failed
            self._fail(_why(e))
        return self.done

    def _ready(self):
        ev = self._poll.poll(0)
        if not ev:
            return False
        if ev[0][1] & _POLLBAD and not ev[0][1] & _POLLIN:
            raise OSError(104)  # refused or reset before anything could be read
        return True

    def _send(self):
        if not self._ready():
            return
        mv = memoryview(self._out)
        try:
            n = self._sock.send(mv[self._sent:self._sent + CHUNK])
        except OSError as e:
            if e.args[0] in _EAGAIN:
                return
            raise
        self._sent += n or 0
        if self._sent >= len(self._out):
            self._out = None  # sent: now the answer
            self._poll.modify(self._sock, _POLLIN)

    def _recv(self):
        if not self._ready():
            return
        try:
            data = self._sock.recv(RECV)
        except OSError as e:
            if e.args[0] in _EAGAIN:
                return
            raise
        if data:
            self._in.extend(data)
            if len(self._in) > MAX_ANSWER:
                return self._fail("answer too long")
            if not self._complete():
                return
        self._parse()

    def _complete(self):
        # an answer with a Content-Length ends there, whether or not the server closes now
        buf = self._in
        i = buf.find(b"\r\n\r\n")
        if i < 0:
            return False
        head = bytes(buf[:i]).lower()
        k = head.find(b"content-length:")
        if k < 0:
            return False
        e = head.find(b"\r\n", k)
        n = int(head[k + 15:e if e >= 0 else len(head)])
        return len(buf) >= i + 4 + n

    def _parse(self):
        buf = bytes(self._in)
        self._in = None
        i = buf.find(b"\r\n\r\n")
        if not buf.startswith(b"HTTP/1.") or i < 0:
            return self._fail("not an HTTP answer")
        try:
            self.status = int(buf[9:12])
        except ValueError:
            return self._fail("not an HTTP answer")
        self.answer = buf[i + 4:]
        self._finish()


def _why(e):
    if isinstance(e, OSError) and e.args and isinstance(e.args[0], int):
        return "OSError %d" % e.args[0]
    return "%s: %s" % (type(e).__name__, e)
