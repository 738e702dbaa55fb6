"""The MicroPython unix port behind a pty, standing in for a board on a serial port.

The unix port's REPL speaks the raw REPL and raw-paste mode that mpremote uses, on a terminal.
Two things differ from a board: its filesystem is the host's (cwd = the board's root here), and
a soft reset (Ctrl-D in the raw REPL) ends the process. So this relays between the pty that
mpremote opens (port_path) and a second pty the interpreter runs on, and when the interpreter
exits it starts a new one, prints "soft reboot" and enters the raw REPL, as a board does.
"""
import os
import select
import subprocess
import threading
import time
import tty


class UnixPortBoard:
    def __init__(self, micropython, root):
        self.mp = micropython
        self.root = root
        self.host_m, self.host_s = os.openpty()
        tty.setraw(self.host_s)
        self.port_path = os.ttyname(self.host_s)
        self.reboots = 0
        self.child = None
        self._stop = False
        self._spawn(raw=False)
        self.thread = threading.Thread(target=self._relay, daemon=True)
        self.thread.start()

    def _spawn(self, raw):
        m, s = os.openpty()
        tty.setraw(s)
        env = dict(os.environ, MICROPYPATH=".frozen:" + self.root)
        self.child = subprocess.Popen([self.mp], stdin=s, stdout=s, stderr=s, cwd=self.root, env=env,
                                      close_fds=True)
        os.close(s)
        self.child_m = m
        if raw:
            # wait for the banner's prompt, then Ctrl-A: the raw REPL, as after a board's reset
            buf = b""
            end = time.monotonic() + 5
            while b">>> " not in buf and time.monotonic() < end:
                r, _, _ = select.select([m], [], [], 0.1)
                if r:
                    buf += os.read(m, 4096)
            os.write(m, b"\x01")

    def _relay(self):
        while not self._stop:
            try:
                r, _, _ = select.select([self.host_m, self.child_m], [], [], 0.05)
            except (OSError, ValueError):
                return
            if self.host_m in r:
                try:
                    data = os.read(self.host_m, 4096)
                except OSError:
                    data = b""
                if data:
                    try:
                        os.write(self.child_m, data)
                    except OSError:
                        pass
            if self.child_m in r:
                try:
                    data = os.read(self.child_m, 4096)
                except OSError:
                    data = b""
                if data:
                    os.write(self.host_m, data)
            if self.child.poll() is not None and not self._stop:
                try:
                    os.close(self.child_m)
                except OSError:
                    pass
                self.reboots += 1
                os.write(self.host_m, b"MPY: soft reboot\r\n")
                self._spawn(raw=True)

    def close(self):
        self._stop = True
        self.thread.join(2)
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        for fd in (self.child_m, self.host_m, self.host_s):
            try:
                os.close(fd)
            except OSError:
                pass
