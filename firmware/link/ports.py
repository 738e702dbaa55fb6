# Byte-stream ports for the host link (firmware/link/engine.py): the Link reads and writes through
# one of these, never waiting. Each has read(mv) -> count (0: nothing now, -1: the other side
# is gone), write(mv) -> count (-1: gone) and wait(ms, out) for loops with nothing else to do.
# This is the board's (MicroPython streams); firmware/link/host_ports.py has the desktop's.


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
