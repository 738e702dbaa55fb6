"""The simulated box: firmware/main.py's Device on the simulator board (board_configs/sim.py),
with its journal in a folder and the device link on a pseudo-terminal.

    box = SimDevice("build/sim")          # box.port_path: /dev/pts/N for host tools
    box.keys.press("D"); box.tap(tile, copy); box.step()
    box.start() / box.stop()              # or step it from a background thread

The link is firmware/link.py (with the TAGS request of firmware/tags_mode.py) on the pty's
master side, so `python -m host_tools tags write --port /dev/pts/N` talks to the simulator as to
a board. Without firmware/link.py the pty is still opened and shown, with nothing answering.
"""
import os
import threading
import time

from firmware import board as boardmod
from firmware.app import App
from firmware.journal import Journal
from firmware.main import Clock, Device, load_tag_settings
from simulator import virtual


def _has_link():
    try:
        import firmware.link  # noqa: F401
        return True
    except ImportError:
        return False


class SimDevice:
    def __init__(self, workdir, reader=None, device_id="sim-1", pty=True, clock=None, epoch=None,
                 tag_set=1, board="sim", read_ms=None):
        self.workdir = workdir
        os.makedirs(os.path.join(workdir, "journal"), exist_ok=True)
        self.cfg = boardmod.load(board)
        self.hw = boardmod.build(self.cfg)
        if reader is not None:
            self.hw.reader = reader
        self.keys = self.hw.keys
        self.display = self.hw.display
        self.clock = clock or Clock()
        if epoch is None:
            epoch = int(time.time()) - self.clock() // 1000
        self.journal = Journal(os.path.join(workdir, "journal"))
        self.app = App(self.journal, self.clock, device_id=device_id, epoch=epoch)
        set_id, registry = load_tag_settings(workdir, tag_set)
        self.port_path = None
        self.link = None
        self.link_note = ""
        self._fds = []
        if pty:
            import tty
            master, slave = os.openpty()
            tty.setraw(slave)
            self._fds = [master, slave]  # the slave stays open here: no EIO while no host is there
            self.port_path = os.ttyname(slave)
            if _has_link():
                from firmware.link import FdPort, Link
                self.link = Link(self.app, FdPort(master), os.path.join(workdir, "device.key"), board="sim")
            else:
                self.link_note = "no firmware/link.py: nothing answers on the pty"
        self.dev = Device(self.hw, self.app, self.clock, set_id, registry, self.link, files=workdir)
        if read_ms is not None:
            self.dev.read_ms = read_ms
        self.tiles = virtual.tile_set(self.dev.tag_set)
        self.hooks = []  # called before each step (tests: a person tapping tags)
        self._thread = None
        self._stop = False
        self.lock = threading.RLock()

    # ---- the person at the table ----
    def press(self, key):
        with self.lock:
            self.keys.press(key)

    def tap(self, tile, copy=None):
        """Lay a tile's tag on the reader: copy None takes the copies in turn."""
        if copy is None:
            n = getattr(self, "_next_copy", {})
            self._next_copy = n
            copy = n.get(tile, 0)
            n[tile] = (copy + 1) % (4 if tile < 34 else 1)
        with self.lock:
            self.hw.reader.tap(self.tiles[tile, copy])

    def tap_bad(self):
        with self.lock:
            self.hw.reader.tap(virtual.bad_tag())

    # ---- running ----
    def step(self):
        with self.lock:
            for h in self.hooks:
                h(self)
            self.dev.step()

    def settle(self, steps=40):
        """Step until the inputs given so far have been handled (for tests and the terminal)."""
        for _ in range(steps):
            self.step()
            r = self.hw.reader
            if not self.keys.queue and not getattr(r, "field", None):
                break
        self.dev.dirty = True
        self.step()

    def screen(self):
        with self.lock:
            return self.dev.screen()

    def start(self, period=0.002):
        self._stop = False

        def loop():
            while not self._stop:
                self.step()
                time.sleep(period)
        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()

    def stop(self):
        self._stop = True
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def close(self):
        self.stop()
        for fd in self._fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = []
        if hasattr(self.journal, "close"):
            self.journal.close()
