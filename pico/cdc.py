"""The emulated box's USB CDC port for host programs: in this process (ChipSerial, a pyserial-like
object for host_tools' link client) or for any other process on a real pty (PtyBridge: the sync
tool, mpremote).

    ser = ChipSerial(pico)                  # reads run the chip (emulated time)
    box = Box(HostLink(ser, timeout=30))    # host_tools/sync/client.py

    with PtyBridge(pico) as br:             # br.path: /dev/pts/N, raw, like /dev/ttyACM0
        proc = subprocess.Popen([... "sync", "--port", br.path ...])
        br.serve(until=lambda: proc.poll() is not None)

The bridge keeps the host's timing on the chip: the chip never runs ahead of the wall clock,
and bytes the host wrote with a short pause between them (up to GAP_S) reach the chip with that
pause of emulated time between them, however slowly the emulator runs (the host's idle fill
before its first request relies on that pause: see firmware/link/engine.py, keyboard interrupt).
Longer pauses are not kept: with an emulator slower than real time they would add up.
"""
import errno
import os
import select
import time
import tty

GAP_S = 0.2


class ChipSerial:
    """read/write/in_waiting/timeout/flush/reset_input_buffer on the chip's CDC. A read waits
    up to `timeout` seconds of emulated time, running the chip in slices of slice_ms."""

    def __init__(self, pico, slice_ms=1.0, timeout=0.01):
        self.p = pico
        self.slice_ms = slice_ms
        self.timeout = timeout
        self.buf = bytearray()
        self.alive = True

    def _take(self):
        self.buf += self.p.read()

    @property
    def in_waiting(self):
        self._take()
        return len(self.buf)

    def read(self, n=1):
        self._take()
        end = self.p.ms + (self.timeout or 0) * 1000
        while not self.buf and self.p.ms < end and self.alive:
            self.alive = self.p.run(self.slice_ms)
            self._take()
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def write(self, data):
        self.p.write(bytes(data))
        return len(data)

    def flush(self):
        pass

    def reset_input_buffer(self):
        self._take()
        self.buf = bytearray()

    def close(self):
        pass


class PtyBridge:
    """A pty whose other end is the chip's USB CDC. serve() runs the chip (slices of slice_ms)
    and moves bytes both ways until until() is true or max_s of wall time pass."""

    def __init__(self, pico, slice_ms=2.0):
        self.p = pico
        self.slice_ms = slice_ms
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.pending = []  # [(emulated ms at which it may reach the chip, bytes)]
        self.last = None  # (wall, emulated ms) of the last chunk from the host
        self.to_host = bytearray()
        self.bytes_in = 0
        self.bytes_out = 0
        self.alive = True

    def _from_host(self, wall):
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError as e:
                if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EIO):
                    return
                raise
            if not data:
                return
            at = self.p.ms
            if self.last is not None:
                at = max(at, self.last[1] + min(wall - self.last[0], GAP_S) * 1000)
            self.last = (wall, at)
            self.pending.append((at, data))
            self.bytes_in += len(data)

    def _to_host(self):
        self.to_host += self.p.read()
        while self.to_host:
            try:
                n = os.write(self.master, self.to_host)
            except OSError as e:
                if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                    return  # the host is not reading: keep it (a board's USB would NAK)
                raise
            self.bytes_out += n
            del self.to_host[:n]

    def serve(self, until=lambda: False, max_s=600.0):
        """Run the chip and the line until until() or max_s (wall) pass; False if the chip stopped."""
        w0 = time.monotonic()
        e0 = self.p.ms
        while self.alive and not until():
            wall = time.monotonic()
            if wall - w0 > max_s:
                break
            self._from_host(wall)
            while self.pending and self.pending[0][0] <= self.p.ms:
                self.p.write(self.pending.pop(0)[1])
            self.alive = self.p.run(self.slice_ms)
            self._to_host()
            ahead = (self.p.ms - e0) / 1000 - (time.monotonic() - w0)
            if ahead > 0:  # never faster than the wall clock: the host's timeouts are real
                select.select([self.master], [], [], min(ahead, 0.05))
        return self.alive

    def unread(self):
        """What the chip sent that no host has read (from the pty's other end), as text."""
        out = b""
        os.set_blocking(self.slave, False)
        try:
            while True:
                out += os.read(self.slave, 4096)
        except OSError:
            pass
        return out.decode("utf-8", "replace")

    def drop(self):
        """The chip reset: what was on its way in either direction is gone."""
        self.pending = []
        self.last = None
        self.to_host = bytearray()
        self.p.read()

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
