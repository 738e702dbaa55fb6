"""A TCP proxy between a box and the server that misbehaves on purpose, one planned fault per
new connection, then passes everything through:

  drop          accept and close at once (a connection that dies before the request)
  reset         read part of the request, then reset (RST) the box's connection
  delay:S       wait S seconds, then pass (a slow network)
  lose_answer   pass the request to the server (which stores it), then reset the box's
                connection instead of passing the answer (the server holds it; the box does
                not know: its next push must not count it twice)

`target` (a port) can change at any time (a server restarted elsewhere); a target that does
not answer is a connection closed on the box (as a server that is down)."""
from __future__ import annotations

import select
import socket
import struct
import threading
import time


def _rst(s):
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    s.close()


class Proxy:
    def __init__(self, target: int, plan=()):
        self.target = target
        self.plan = list(plan)
        self.used: list = []
        self.connections = 0
        self.ls = socket.socket()
        self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(64)
        self.url = "http://127.0.0.1:%d" % self.ls.getsockname()[1]
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                c, _ = self.ls.accept()
            except OSError:
                return
            with self.lock:
                self.connections += 1
                mode = self.plan.pop(0) if self.plan else "pass"
                self.used.append(mode)
            threading.Thread(target=self._serve, args=(c, mode), daemon=True).start()

    def _serve(self, c, mode):
        try:
            if mode == "drop":
                c.close()
                return
            if mode == "reset":
                c.recv(40)
                _rst(c)
                return
            if mode.startswith("delay:"):
                time.sleep(float(mode[6:]))
            try:
                u = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                c.close()
                return
            self._pump(c, u, mode == "lose_answer")
        except OSError:
            c.close()

    def _pump(self, c, u, lose_answer):
        try:
            while True:
                r, _, _ = select.select([c, u], [], [], 15)
                if not r:
                    return
                for s in r:
                    data = s.recv(65536)
                    if s is u and lose_answer:
                        _rst(c)
                        return
                    if not data:
                        return
                    (u if s is c else c).sendall(data)
        finally:
            u.close()
            try:
                c.close()
            except OSError:
                pass

    def close(self):
        self.closed = True
        self.ls.close()
