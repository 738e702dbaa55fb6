# Ports for the host link on a desktop (CPython): a file descriptor (the simulator's pty master)
# and memory (the tests). Same interface as firmware/link/ports.py's StreamPort; never loaded on
# a board (firmware/link/engine.py imports them only when asked for).
import os


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
