# Figures of the device application on the MicroPython unix port (run from build/mpy, .mpy files):
#   micropython -X heapsize=256K -m mp_app SCRIPT [lfs] [app] [pixels]
# "app": the App alone, fed the script's keys and taps directly (no device loop, board, screen
# or fonts: the figures of the application itself, comparable with those before the device loop
# ran the simulator); without it the whole box as simulator/runner.py plays it.
# Heap held after the imports and at the end of the session, the peak heap held (collected after
# every step of the script: what the session needs at its fullest), the peak extra heap while an
# event is previewed (a win scored), and the time from the last seat's confirmation to the
# record on flash. With "lfs" the journal is on littlefs over a RAM
# block device (the block device's bytes then count in the heap: use a big heap for that run).
import gc
import os
import sys
import time
import micropython

from firmware.journal import Journal


class RamBlocks:
    def __init__(self, blocks, size=4096):
        self.size = size
        self.data = bytearray(blocks * size)

    def readblocks(self, n, buf, off=0):
        a = n * self.size + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:
            off = 0
        a = n * self.size + off
        self.data[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.size
        if op == 5:
            return self.size
        if op == 6:
            return 0


class AppOnly:
    """Plays a scenario's config / keys / tap / wait / lang / powercut lines on the App alone."""

    def __init__(self, journal_factory, wrap):
        self.ms = 0
        self.copies = {}
        self.factory = journal_factory
        self.wrap = wrap
        self.steps = 0
        self.boot()

    def boot(self):
        from firmware.app import App
        self.journal = self.factory()
        self.app = App(self.journal, lambda: self.ms, device_id="sim-1", epoch=1764400000)
        self.wrap(self.app)

    def line(self, ln):
        import json
        from rules_min.tiles import parse_tile
        ln = ln.strip()
        if not ln or ln.startswith("#"):
            return
        cmd, _, rest = ln.partition(" ")
        app = self.app
        if cmd == "config":
            app.push_config(json.loads(rest))
        elif cmd == "keys":
            for k in rest.replace(" ", ""):
                app.press(k)
                self.shot()
        elif cmd == "tap":
            for name in rest.split():
                t = 34 + "abcdefgh".find(name) if len(name) == 1 and name in "abcdefgh" else parse_tile(name)
                n = self.copies.get(t, 0)
                self.copies[t] = n + 1
                app.tap(bytes((4, 83, t, n % 4, 17, 34, 51)), t)
                self.shot()
        elif cmd == "wait":
            self.ms += int(rest) * 1000
            app.tick()
        elif cmd == "lang":
            app.lang = rest
        elif cmd == "powercut":
            if hasattr(self.journal, "close"):
                self.journal.close()
            self.app = self.journal = None   # a power cut clears the RAM
            gc.collect()
            self.boot()
        self.shot()

    def shot(self):
        self.steps += 1
        self.app.screen()
        gc.collect()
        held[0] = max(held[0], gc.mem_alloc())

    def run(self, path):
        with open(path) as f:
            for ln in f:
                self.line(ln)


held = [0]


def main():
    script = sys.argv[1]
    lfs = "lfs" in sys.argv[2:]
    app_only = "app" in sys.argv[2:]
    pixels = "pixels" in sys.argv[2:]   # the box draws every screen into its frame buffer (fonts, names)
    if lfs:
        bdev = RamBlocks(64)
        os.VfsLfs2.mkfs(bdev)
        os.mount(os.VfsLfs2(bdev), "/flash")
        path = "/flash/journal"
    else:
        path = "/tmp/mp_app_journal"
        try:
            for n in os.listdir(path):
                os.remove(path + "/" + n)
        except OSError:
            pass
    commits = []
    score_peaks = []

    def wrap(app):
        app = getattr(app, "book", app)   # the score book holds the hand's protocol (before: the App)
        if not hasattr(app, "preview"):   # an app of before 9c09def's successors: heap figures only
            return
        commit = app.commit_hand
        preview = app.preview

        def timed_commit(*a, **k):   # whatever the score book's commit takes (time_out, ended)
            t = time.ticks_us()
            commit(*a, **k)
            commits.append(time.ticks_diff(time.ticks_us(), t))

        def peak_preview(*a, **k):
            gc.collect()
            base = micropython.mem_current()
            before = micropython.mem_peak()
            out = preview(*a, **k)
            score_peaks.append(micropython.mem_peak() - base if micropython.mem_peak() > before else 0)
            return out

        app.commit_hand = timed_commit
        app.preview = peak_preview

    if app_only:
        Sim = object
    else:
        from simulator.runner import Sim

    class TimedSim(Sim):
        def boot(self):
            Sim.boot(self)
            app = getattr(self.app, "book", self.app)   # the score book (before: the App)
            commit = app.commit_hand
            preview = app.preview

            def timed_commit(*a, **k):   # whatever the score book's commit takes (time_out, ended)
                t = time.ticks_us()
                commit(*a, **k)
                commits.append(time.ticks_diff(time.ticks_us(), t))

            def peak_preview(*a, **k):
                gc.collect()
                base = micropython.mem_current()
                before = micropython.mem_peak()
                out = preview(*a, **k)
                score_peaks.append(micropython.mem_peak() - base if micropython.mem_peak() > before else 0)
                return out

            app.commit_hand = timed_commit
            app.preview = peak_preview

        def shot(self, what):
            Sim.shot(self, what)
            gc.collect()
            held[0] = max(held[0], gc.mem_alloc())

    gc.collect()
    start_alloc = gc.mem_alloc()
    sim = AppOnly(lambda: Journal(path), wrap) if app_only else TimedSim(lambda: Journal(path), pixels=pixels)
    gc.collect()
    after_boot = gc.mem_alloc()
    t0 = time.ticks_ms()
    sim.run(script)
    ms = time.ticks_diff(time.ticks_ms(), t0)
    gc.collect()
    commits.sort()
    print("steps", sim.steps, "records", sim.journal.last_seq, "ms", ms)
    print("heap after boot", after_boot, "(imports and app)", "at end", gc.mem_alloc(), "peak held", held[0])
    print("commit us median", commits[len(commits) // 2] if commits else 0, "max", commits[-1] if commits else 0,
          "n", len(commits))
    if score_peaks:
        print("peak extra heap while scoring a hand", max(score_peaks))


main()
