# The desktop player of the scripted table (simulator/runner.py: the script lines, the scripted
# clock, the events): the sim board (board_configs/sim.py) with its parts (simulator/parts.py)
# booted by firmware/main.py, each event applied at its time and the device loop (main.serve)
# run in between. While nothing changes but the device's own timers (no key moved in the last
# few scans, no tag waiting on the reader), the clock jumps to the next input or timer instead of
# stepping 5 ms at a time: the device does the same steps it would do, minus the empty ones.
# MicroPython code (make mp-sim).
from firmware import main as fw
from simulator import virtual
from simulator.runner import DEVICE_UID, EPOCH, Script

IDLE_MS = 1000  # the longest jump of the clock while nothing changes


class Hands:
    """The person at the table on the sim board's parts (simulator/parts.py Parts): the key and
    tag events on the key matrix and the reader. The same uid is the same tag; a tag lifted as
    it was made is forgotten (the next place makes it again), one written to is kept."""

    def __init__(self, parts):
        self.parts = parts
        self.tags = {}

    def apply(self, ev):
        """True when ev was a key or tag event."""
        name = ev[1]
        if name == "down":
            self.parts.matrix.press(ev[3], ev[4])
        elif name == "up":
            self.parts.matrix.release(ev[3], ev[4])
        elif name == "place":
            tag = self.tags.get(ev[2])
            if tag is None:
                tag = self.tags[ev[2]] = virtual.VirtualTag(ev[2]).record(ev[3])
                tag.made_with = ev[3]
            self.parts.reader(None).place(tag)
        elif name == "lift":
            tag = self.tags.get(ev[2])
            self.parts.reader(None).lift(tag)
            if tag is not None and tag.holds(tag.made_with):
                del self.tags[ev[2]]
        else:
            return False
        return True


class Sim:
    """The desktop player: the sim board (board_configs/sim.py, or cfg) with its parts
    (simulator/parts.py) booted through firmware/main.py, the events applied at their times and
    the device loop (main.serve) run in between on the scripted clock.

    journal_factory() opens the journal at each boot (None: folder/journal); folder holds the
    box's files (tag settings, device.key); port: the host link's port (None: no link);
    pixels: draw the screens into the frame buffer (False: keep the models only);
    on_screen(n, what, screen) after each input, on_frame(n, frame) too with pixels (the
    display's frame buffer, simulator/parts.py Frame)."""

    def __init__(self, journal_factory=None, device_id=None, epoch=EPOCH, on_screen=None, cfg=None,
                 folder=None, port=None, pixels=False, uid=DEVICE_UID, reader=None, on_frame=None):
        from simulator import parts as sparts
        self.cfg = cfg or sparts.for_board("sim")
        self.journal_factory = journal_factory
        self.folder = folder
        self.port = port
        self.device_id = device_id
        self.on_screen = on_screen
        self.on_frame = on_frame
        self.pixels = pixels
        self.parts = sparts.Parts(uid=uid, reader=reader)
        k = self.cfg.KEYPAD
        self.script = Script(k["keymap"], len(k["cols"]), epoch=epoch)
        self.debounce = k.get("debounce", 3)
        self.now = 0
        self.power_at = 0
        self.dev = None
        self.app = None
        self.journal = None
        self.hw = None
        self.hands = Hands(self.parts)
        self.steps = 0  # screens shot
        self.loop_steps = 0
        self._keys_until = 0
        self._until = 0
        self._stepped = -1
        self.play(self.script.start())

    # ---- the box ----
    def clock(self):
        return self.now - self.power_at

    def boot(self):
        from firmware import board
        from simulator.parts import ModelScreen
        hw = board.build(self.cfg, {"parts": self.parts})
        if not self.pixels:
            hw.display = ModelScreen(hw.display.rows)
        self.hw = hw
        journal = self.journal_factory() if self.journal_factory is not None else None
        self.dev = fw.boot(self.cfg, hw=hw, root=self.folder, journal=journal, clock=self.clock,
                           link=False, port=self.port, device_id=self.device_id)
        self.app = self.dev.app
        self.journal = self.app.j
        self.link = self.dev.link

    def power_off(self):
        if self.journal is not None and hasattr(self.journal, "close"):
            self.journal.close()
        # a power cut clears the RAM: nothing of the old box may hold heap while the new one boots
        self.dev = self.app = self.journal = self.hw = self.link = None
        import gc
        gc.collect()

    # ---- playing ----
    def line(self, text):
        self.play(self.script.line(text))

    def run(self, path):
        with open(path) as f:
            for ln in f:
                self.line(ln)

    def play(self, evs):
        for ev in evs:
            self.run_until(ev[0])
            self.apply(ev)

    def run_until(self, t):
        if self.dev is None:
            self.now = max(self.now, t)
            return
        self._until = t
        before = self.dev.steps
        fw.serve(self.dev, hook=self._due, sleep=self._sleep)
        self.loop_steps += self.dev.steps - before

    def _due(self, dev, n):
        # after a jump the device steps once at the event's time before the event: what its own
        # timers do (a session's time running out) is done by then, as on a box that steps
        # every 5 ms
        if self.now >= self._until and self.now - self._stepped <= fw.LOOP_MS:
            return True
        self._stepped = self.now
        return False

    def _sleep(self, ms):
        now = self.now
        nxt = now + ms
        target = self._until
        if nxt < target and now >= self._keys_until:
            # nothing changes until the next input but the device's own timers: jump
            dev = self.dev
            at = self.power_at  # the device's times are its clock's: since power on
            far = min(target, now + IDLE_MS, at + dev.next_refresh)
            model = dev.model
            if model is not None and len(model[1]) > dev.hw.display.rows:
                far = min(far, at + dev.next_scroll)
            rdr = self.hw.reader
            if getattr(rdr, "waiting", None) is not None and rdr.waiting():
                far = min(far, at + dev.next_read)
            if dev.tags.job is not None:
                far = nxt
            if far > nxt:
                nxt = far
        self.now = nxt if nxt < target else target

    def apply(self, ev):
        self.now = ev[0]
        name = ev[1]
        if name == "boot":
            self.power_at = ev[0]
            self.boot()
            return
        if name == "shot":
            self.shot(ev[2])
            return
        dev = self.dev
        if dev is None:
            raise ValueError("script: %s while the box is off" % name)
        app = dev.app
        if self.hands.apply(ev):
            if name == "down" or name == "up":  # the scanner needs a few scans in a row
                self._keys_until = ev[0] + (self.debounce + 1) * fw.LOOP_MS
        elif name == "config":
            err = app.push_config(ev[2])  # as firmware/link/engine.py does for the host's CONFIG
            if err:
                app.msg = err
            dev.dirty = True  # as a step with link traffic
        elif name == "clock":
            app.epoch = ev[2] - app.clock() // 1000  # as firmware/link/engine.py does for CLOCK
            dev.dirty = True
        elif name == "lang":
            app.lang = ev[2]
            dev.dirty = True
        elif name == "powercut":
            self.power_off()
        else:
            raise ValueError("script: unknown event " + name)

    def real_time(self):
        """From now on the box's clock runs in real time, on from the scripted clock (a box that
        serves a host after its script)."""
        real = fw.Clock(since_boot=False)
        base = self.clock()

        def clock():
            return base + real()
        self.dev.clock = self.app.clock = clock

    def screen(self):
        dev = self.dev
        return dev.model if dev.model is not None else dev.screen()

    def shot(self, what):
        self.steps += 1
        if self.on_screen is not None:
            self.on_screen(self.steps, what, self.screen())
        if self.on_frame is not None and self.pixels:
            self.on_frame(self.steps, self.parts.frame)
