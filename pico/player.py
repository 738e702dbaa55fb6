"""The Pico player of the scripted table: a scenario's events (simulator/runner.py: the script
lines and the scripted clock, the one definition of time, epoch and device id) played on the
emulated box (pico/harness.py) running the board's unchanged main.py.

    with Pico() as p:
        pl = ChipPlayer(p, files)                  # files: the littlefs tree to boot from
        pl.play_file("simulator/scenarios/mcr_session.txt", on_shot=...)
        pl.journal()                               # {name: bytes}: the journal read back from flash

How each event reaches the chip, as a table and a referee would:
  boot      power on (the first from `files`, later ones from the flash as the power cut left it);
            the chip's clock starts at 0 there, as the device clock of the definition does
  clock     the link's authenticated CLOCK (host_tools' link client, HostLink + Box, over the CDC);
            before the first one the player provisions the box's key, as a referee's first sync
  config    the link's authenticated CONFIG
  down/up   the key's contacts in the modelled matrix; place/lift: a type 2 tag on the modelled
            MFRC522 holding the event's bytes from page 4
  lang      the box's own language switch (D, then 5 on the main screen: it toggles), two short
            presses inside the event's slot, only when the language is not already that one
  powercut  the chip is simply not run any more: the flash stays as it is at that instant
  shot      the modelled glass at that time (on_shot(n, what, glass))
Time: the chip runs in its own emulated time (cycles at 125 MHz, flash erase/program times), so
processing takes as long as it would on the board; an input waits for the box (play()). While nothing is held down and no tag lies on
the reader, IDLE_AFTER_MS after the last input the clock may jump (up to JUMP_MS at once, while the
core sleeps) towards the next event, as the desktop player does: a quiet device loop only keeps
time, and the jumps end TAIL_MS before the event so the loop steps in real time into it.
Nothing on the chip knows: the firmware sees sleeps that lasted longer.
"""
import hashlib

from pico.cdc import ChipSerial
from pico.harness import ChipError

IDLE_AFTER_MS = 250
JUMP_MS = 5000
TAIL_MS = 30
PRESS_MS = 40  # lang's key presses: down this long, then up as long (the scanner needs ~3 scans)
# a late slot that presses the key the last slot released still waits this long after the
# release (or as long as the script has between them, if less): a finger lifts a key and
# presses it again no faster
MIN_GAP_MS = PRESS_MS
HOST_TIMEOUT_S = 120  # wall seconds before the link client asks again: never, for a working chip
PLAYER_KEY = hashlib.sha256(b"pico player device key").digest()
SLOT_STARTS = ("down", "place", "config", "clock", "lang")
SETTLE_MS = 5000  # an input waits at most this long for the box


class PlayError(Exception):
    pass


class ChipPlayer:
    def __init__(self, pico, files=None, key=PLAYER_KEY, keymap=None, ncols=None, jump=True, flash=None):
        self.p = pico
        self.files = files
        self.flash = flash  # or: the first boot from this whole flash image
        self.key = key
        k = pico.parts["keypad"]
        self.keymap = keymap or k["keymap"]
        self.ncols = ncols or len(k["cols"])
        self.jump = jump
        self.power_at = None  # script ms of the last power on; None: off
        self.booted = False
        self.keyed = False
        self.box = None
        self.held = set()
        self.placed = set()
        self.last_input = 0.0  # chip ms of the last input event
        self.lang = "cn"
        self.shots = 0
        self.host_ms = []  # (what, chip ms the request took)
        self.bursts = []  # (script ms, event, key/uid, longest time the core went without sleep)
        self.lags = []  # (script ms, event, ms it waited for the box)
        self.lag = 0.0  # how late this slot's events are: the box was still busy at its start
        self._last = None
        self._up = None  # (key, script ms, script ms it was applied) of the last key released
        self.on_shot = None

    def adopt(self, key):
        """Take over a box that is already on (booted and keyed by someone else, e.g. the sync
        tool over a pty): script time is the chip's time from now on; returns the first whole
        second after now, where a Script may start (Script().t = that)."""
        self.booted = True
        self.power_at = 0
        self.key = key
        self.keyed = True
        self.box = None
        self.last_input = self.p.ms
        return (int(self.p.ms) // 1000 + 1) * 1000

    # ---- time ----
    def chip_ms(self, t):
        return t - self.power_at

    def _run(self, ms):
        if ms <= 0:
            return
        if not self.p.run(ms):
            raise PlayError("the chip stopped at %.1f ms: %s" % (self.p.ms, self.p.cut or self.p.reset))

    def run_to(self, t):
        """Run the chip up to script time t (nothing runs while the power is off)."""
        if self.power_at is None:
            return
        target = self.chip_ms(t)
        p = self.p
        quiet = not self.held and not self.placed
        if self.jump and quiet and target - p.ms > IDLE_AFTER_MS + TAIL_MS + JUMP_MS / 10:
            self._run(self.last_input + IDLE_AFTER_MS - p.ms)
            if not p.idle(target - TAIL_MS - p.ms, JUMP_MS):
                raise PlayError("the chip stopped at %.1f ms: %s" % (p.ms, p.cut or p.reset))
        self._run(target - p.ms)

    # ---- the host ----
    def _host(self, what, fn):
        from host_tools.sync.client import Box, HostLink
        from host_tools.sync.errors import LinkError
        p = self.p
        t0 = p.ms
        if self.box is None:
            link = HostLink(ChipSerial(p), timeout=HOST_TIMEOUT_S, retries=1)
            link.seq = 0  # the same frames every run
            self.box = Box(link, self.key)
        # what the chip printed since the last request (wake() drops it): a traceback at boot
        # is the one clue when the box does not answer
        console = p.read()
        self.box.link.wake(pause=0)
        self._run(2 * 6)  # the idle fill first: the link turns Ctrl-C off before a frame's bytes come
        try:
            if not self.box.info:
                self.box.hello()
            out = fn(self.box)
        except LinkError as e:
            raise PlayError("%s; the chip's console before it: %r" % (e, console[-800:])) from None
        self.host_ms.append((what, p.ms - t0))
        return out

    def _provision(self):
        info = self._host("hello", lambda b: b.hello())
        if not info.get("keyed"):
            self._host("provision", lambda b: b.provision(self.key))
            self.box.hello()
        self.keyed = True

    # ---- events ----
    def apply(self, ev):
        t, name = ev[0], ev[1]
        p = self.p
        if name == "boot":
            if self.booted:
                p.boot(keep=True)
            elif self.flash is not None:
                p.boot(flash=self.flash)
                self.booted = True
            else:
                p.boot(files=self.files)
                self.booted = True
            self.power_at = t
            self.box = None
            self.held = set()
            self.last_input = 0.0
            return
        if name == "shot":
            self.shots += 1
            if self.on_shot is not None:
                self.on_shot(self.shots, ev[2], p.glass() if self.power_at is not None else bytes(1024))
            return
        if self.power_at is None:
            raise PlayError("script: %s while the box is off" % name)
        self.last_input = p.ms
        if name == "down":
            p.key(ev[2], True)
            self.held.add(ev[2])
        elif name == "up":
            p.key(ev[2], False)
            self.held.discard(ev[2])
            self._up = (ev[2], t, p.ms + self.power_at)
        elif name == "place":
            tid = ev[2].hex()
            p.place(ev[2], ev[3], tag_id=tid)
            self.placed.add(tid)
        elif name == "lift":
            tid = ev[2].hex()
            p.lift(tid)
            self.placed.discard(tid)
        elif name == "clock":
            if not self.keyed:
                self._provision()
            self.clock_reply = self._host("clock", lambda b: b.set_clock(ev[2]))
        elif name == "config":
            self.lang = ev[2].get("lang", "cn")
            self._host("config", lambda b: b.push_config(ev[2]))
        elif name == "lang":
            if ev[2] != self.lang:
                for k in "D5":
                    p.key(k, True)
                    self._run(PRESS_MS)
                    p.key(k, False)
                    self._run(PRESS_MS)
                self.lang = ev[2]
        elif name == "powercut":
            self.power_at = None
            self.held = set()
        else:
            raise PlayError("script: unknown event " + name)

    def play(self, events, on_shot=None):
        """Each event at its script time, except that an input waits for the box: a slot's first
        event (a key going down, a tag laid down, the host's request, the language switch) is
        applied only once the firmware is done with what it was doing (its core sleeps in the
        device loop), as a player waits for the screen; the rest of that slot (the key going up,
        the tag lifted, the shot) keeps its distance from it. A box that keeps up is never
        waited for (lag 0), one that fell behind is on time again at the first slot it has
        finished the previous one by; `lags` lists the waits."""
        self.on_shot = on_shot
        for ev in events:
            t, name = ev[0], ev[1]
            if name == "boot":
                self.lag = 0.0
                self._up = None
            # a slot starts at its own time, or as soon as the box is done with the one before,
            # and its shot is taken at its end or once the box is done (the lag is not carried
            # over: a box that caught up is on time again); the key going up, the tag lifted
            # keep their distance from the slot's start
            self.run_to(t if name in SLOT_STARTS or name == "shot" else t + self.lag)
            on = self.power_at is not None
            if self._last is not None and on:
                self.bursts.append(self._last + (self.p.burst(),))
                self._last = None
            try:
                if on and name in SLOT_STARTS:
                    self._settle()
                    self._apart(ev)
                    self.lag = max(0.0, self.p.ms + self.power_at - t)
                    if self.lag > 0.5:
                        self.lags.append((t, name, round(self.lag, 1)))
                    self.p.burst()
                    self._last = (t, name, ev[2] if len(ev) > 2 and isinstance(ev[2], str) else "")
                elif on and name == "shot":
                    self._settle()
                self.apply(ev)
            except ChipError as e:
                raise PlayError("%s at %d ms: %s" % (name, t, e)) from None

    def _apart(self, ev):
        # a late slot would otherwise start the instant the box is done: maybe right as the last
        # slot's key went up, and a key typed twice ("1 1") would not be released at all
        if ev[1] == "down" and self._up is not None and self._up[0] == ev[2]:
            _, st, at = self._up
            self._run(at + min(ev[0] - st, MIN_GAP_MS) - (self.p.ms + self.power_at))

    def _settle(self):
        if not self.p.settle(SETTLE_MS):
            raise PlayError("the chip stopped at %.1f ms: %s" % (self.p.ms, self.p.cut or self.p.reset))

    def slow(self, limit_ms):
        """The inputs the box took longer than limit_ms over (the slots are 250 ms)."""
        return [b for b in self.bursts if b[3] > limit_ms]

    def play_file(self, path, on_shot=None):
        from simulator.runner import events
        with open(path) as f:
            self.play(events(f, self.keymap, self.ncols), on_shot)

    # ---- results ----
    def files_now(self):
        return self.p.files()

    def journal(self, folder="journal"):
        """{file name: bytes} of the journal folder on the chip's flash."""
        pre = folder.strip("/") + "/"
        return {k[len(pre):]: v for k, v in self.files_now().items() if k.startswith(pre)}
