"""The simulated box for people: the window and the terminal of `make sim`, and tests. The sim
board (board_configs/sim.py, simulator/parts.py) booted by firmware/main.py, the device link
on a pseudo-terminal, and the same device loop (main.serve), on the real clock.

    box = SimDevice("build/sim")          # box.port_path: /dev/pts/N for host tools
    box.press("D"); box.tap(tile); box.tap_bad()    # a person's inputs, one after the other
    box.start() / box.stop()              # the loop in a thread; or box.serve(hook) here
    box.settle()                          # until the inputs so far are played and handled

Inputs take the scripted clock's slots (simulator/runner.py: a key is down 100 ms, a tile lies
on the reader 300 ms), one after another from when they are given, so inputs given faster than
that (piped into the terminal) queue up instead of piling onto the reader. virtual=True: the
clock moves only as the loop sleeps, and no time is really waited (tests).

The link is firmware/link/engine.py (with the TAGS request of firmware/tags/mode.py) on the pty's
master side, so `python -m host_tools tags write --port /dev/pts/N` talks to the simulator as to
a board.
"""
import os
import threading
import time

from firmware import main as fw
from simulator import parts as sparts
from simulator.runner import Hands, Script


class VirtualClock:
    def __init__(self):
        self.ms = 0

    def __call__(self):
        return self.ms

    def sleep(self, ms):
        self.ms += ms


class SimDevice:
    def __init__(self, workdir, reader=None, device_id=None, pty=True, virtual=False, epoch=None,
                 board="sim", read_ms=None, display=None):
        from firmware import board as boardmod
        self.workdir = workdir
        os.makedirs(workdir, exist_ok=True)
        self.cfg = sparts.for_board(board)
        self.parts = sparts.Parts(reader=reader)
        self.hw = boardmod.build(self.cfg, {"parts": self.parts})
        if display is not None:
            self.hw.display = display
        self.display = self.hw.display
        self.virtual = VirtualClock() if virtual else None
        self.clock = self.virtual or fw.Clock(since_boot=False)
        if epoch is None:
            epoch = int(time.time()) - self.clock() // 1000
        self.port_path = None
        self._fds = []
        port = None
        if pty:
            import tty
            from firmware.link.host_ports import FdPort
            master, slave = os.openpty()
            tty.setraw(slave)
            self._fds = [master, slave]  # the slave stays open here: no EIO while no host is there
            self.port_path = os.ttyname(slave)
            port = FdPort(master)
        self.dev = fw.boot(self.cfg, hw=self.hw, root=workdir, clock=self.clock, link=False, port=port,
                           device_id=device_id, epoch=epoch)
        if read_ms is not None:
            self.dev.read_ms = read_ms
        self.app = self.dev.app
        self.journal = self.app.j
        self.link = self.dev.link
        k = self.cfg.KEYPAD
        self.script = Script(k["keymap"], len(k["cols"]), set_id=self.dev.tag_set)
        self.hands = Hands(self.parts)
        self.pending = []  # the person's events still to come, (device time, ...)
        self.hooks = []  # called before each step (tests: a person tapping tags)
        self.lock = threading.Lock()
        self._thread = None
        self._stop = False

    # ---- the person at the table ----
    def _queue(self, evs):
        with self.lock:
            self.pending.extend(ev for ev in evs if ev[1] != "shot")

    def _start_slot(self):
        sc = self.script
        sc.t = max(sc.t, self.clock())
        sc.set_id = self.dev.tag_set
        return sc

    def press(self, key):
        self._queue(self._start_slot().line("keys " + key))

    def tap(self, tile):
        """Lay the next copy of a tile's tag on the reader (copies in turn), lift it after."""
        sc = self._start_slot()
        uid, data = sc.next_tag(tile)
        self._queue(sc.tap(uid, data, "tap"))

    def tap_bad(self):
        self._queue(self._start_slot().line("badtag"))

    def busy(self):
        """Inputs still to be played (or their slot not over yet)."""
        return bool(self.pending) or self.clock() < self.script.t

    def _hook(self, dev, n):
        now = self.clock()
        with self.lock:
            while self.pending and self.pending[0][0] <= now:
                self.hands.apply(self.pending.pop(0))
        for h in self.hooks:
            h(self)
        return self._stop

    def _sleep(self, ms):
        if self.virtual is not None:
            self.virtual.sleep(ms)
        else:
            self.dev.idle(ms)

    # ---- running ----
    def serve(self, hook=None, loops=-1):
        """The device loop here; hook(box) before each step, a truthy return ends it."""
        def h(dev, n):
            return self._hook(dev, n) or (hook is not None and hook(self))
        fw.serve(self.dev, loops, h, self._sleep)

    def step(self):
        self.serve(loops=1)

    def settle(self, limit_ms=30000):
        """Run the loop until the inputs given so far are played and their slots are over."""
        end = self.clock() + limit_ms
        self.serve(lambda box: not box.busy() or box.clock() > end)
        self.dev.dirty = True
        self.step()

    def screen(self):
        return self.dev.model if self.dev.model is not None else self.dev.screen()

    def start(self):
        self._stop = False
        self._thread = threading.Thread(target=self.serve, daemon=True)
        self._thread.start()

    def wait(self, timeout=30):
        """Until the inputs so far are handled (the loop runs in the thread)."""
        end = time.monotonic() + timeout
        while self.busy() and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(3 * fw.LOOP_MS / 1000)  # the step after the last slot

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
