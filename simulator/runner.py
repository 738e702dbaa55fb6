# Scenario files played on the box through firmware/main.py's device loop: keys go through the
# key matrix and the firmware's keypad scanner (debounce, ghosting), tiles as tags holding real
# tile-tag bytes (firmware/tile_tag.py) through the reader driver interface, the host's requests
# as the link hands them to the app. MicroPython code: the same runner plays a scenario on CPython
# (python -m simulator) and on the unix port (make mp-sim), and the Pico harness plays the same
# events on the emulated chip, so all three write the same journal, byte for byte.
#
# Script lines (# starts a comment):
#   config {"rules": "mcr", "tournament": "T", "session": 1, "table": 3, "players": [...]}
#   keys A1 0#          each character one key press (spaces ignored)
#   tap 1m 2m E a       tiles laid on the reader one by one (flowers a-h); each tap of a tile
#                       takes that tile's next copy (copies 1-4 in turn): its own tag
#   tapuid 04a1b2c3 5m  a tag with this uid (4 or 7 bytes, hex) holding 5m copy 1: the same uid
#                       twice is the same tag read twice
#   badtag              a tag that is not one of ours (an NDEF text record)
#   rawtag UID BYTES    a tag holding these bytes from page 4 (hex), e.g. a damaged record
#   place 3m 4m         lay tags on the reader and leave them there (two at once: one tile at a
#                       time, please); lift takes every tag off
#   down 5 / up 5       press a key and hold it (other lines go on meanwhile) / let it go
#   wait 90             90 seconds go by (multiples of 0.25 s)
#   clock               the host sets the box's clock (CLOCK) to the script's wall time
#   lang en             switch the language
#   powercut            the box loses power and boots again from its journal
#
# THE SCRIPTED CLOCK: the one definition of time, epoch and device id for every player.
#   t is milliseconds of script time. Every input starts a slot at a multiple of SLOT_MS (250):
#     key      down at the slot start, up KEY_DOWN_MS (100) later, slot KEY_MS (250)
#     tap      tag laid on the reader at the slot start, lifted TAG_ON_MS (300) later, slot TAG_MS
#              (500); the reader polls every 100 ms, so the box reads it once, then halts it
#     place, lift, down, up, lang: the event at the slot start, slot KEY_MS (place/lift TAG_MS)
#     config, clock: the host's request at the slot start, slot HOST_MS (250)
#     wait N   a slot of N s
#   Power on at t = 0: the device clock (ms since the chip's reset; firmware/main.py) is 0 there.
#   BOOT_MS (3000) later the host sets the clock: CLOCK(EPOCH + 3), so the box's epoch is EPOCH
#   (1764400000 = 2025-11-29 07:06:40 UTC) and a record's time is EPOCH + the whole seconds of
#   script time at which it is committed. The script's first line starts at BOOT_MS + HOST_MS.
#   powercut: power off at the slot start s; power back on at the next whole second P >= s (the
#   device clock restarts at 0 there, the epoch is lost until the next `clock` line); the next line
#   starts at P + BOOT_MS.
#   Commits: a record is committed while its key is down, within the key's slot: its time field is
#   EPOCH + floor(slot start / 1000) as long as the box takes less than 250 ms from the key going
#   down to the record (slot starts are multiples of 250 ms, so no later moment of the slot falls
#   in another second). A player whose box is slower than that gets other times: it must keep up.
#   Screens: "shot" after each input, at its slot's end, before the next slot's events.
#   Device id: the chip id is DEVICE_UID (8 zero bytes, what machine.unique_id() reads on the
#   emulated Pico), so the firmware names the box "box-000000" (firmware/main.py).
#   Tags: tile t copy c has uid 04 53 tt cc 11 22 33 and the tile record encode(SET_ID, t, c).
#
# Events: Script(keymap).start() and .line(text) give lists of (t, name, args...):
#   (t, "boot")                         power on
#   (t, "clock", unix_seconds)          the host's CLOCK request
#   (t, "config", dict)                 the host's CONFIG request
#   (t, "down", key, row, col)          a key of the matrix closes (row, col in the keymap's layout)
#   (t, "up", key, row, col)            ... opens
#   (t, "place", uid, data)             a tag (uid bytes; data: its bytes from page 4) is laid on
#                                       the reader; the same uid is the same tag
#   (t, "lift", uid)                    it is taken off
#   (t, "lang", code)                   the language switch
#   (t, "powercut")                     power off (the next event is a boot)
#   (t, "shot", what)                   the screen now is the screen of that input
# Sim (below) plays them on the desktop; `python -m simulator --script FILE --events` prints them
# as JSON lines for other players (the Pico harness).
import json

from firmware import main as fw
from firmware.tile_tag import encode
from rules_min.tiles import parse_tile
from simulator import virtual

SLOT_MS = 250
KEY_DOWN_MS = 100
KEY_MS = 250
TAG_ON_MS = 300
TAG_MS = 500
HOST_MS = 250
BOOT_MS = 3000
EPOCH = 1764400000
DEVICE_UID = b"\x00" * 8
SET_ID = 1
KEYMAP = "123A456B789C*0#D"
IDLE_MS = 1000  # Sim: the longest jump of the clock while nothing changes

_FLOWERS = "abcdefgh"


def tile_code(s):
    if len(s) == 1 and _FLOWERS.find(s) >= 0:
        return 34 + _FLOWERS.find(s)
    return parse_tile(s)


def _hex(s):
    if len(s) % 2:
        raise ValueError("script: odd hex " + s)
    out = bytearray()
    for i in range(0, len(s), 2):
        out.append(int(s[i:i + 2], 16))
    return bytes(out)


def hexs(b):
    return "".join("%02x" % x for x in b)


class Script:
    """Script lines to timed events (the scripted clock above)."""

    def __init__(self, keymap=KEYMAP, ncols=4, set_id=SET_ID, epoch=EPOCH):
        self.keymap = keymap
        self.ncols = ncols
        self.set_id = set_id
        self.epoch = epoch
        self.t = 0
        self.copies = {}
        self.placed = []

    def start(self):
        self.t = BOOT_MS + HOST_MS
        return [(0, "boot"), (BOOT_MS, "clock", self.epoch + BOOT_MS // 1000)]

    def _pos(self, k):
        i = self.keymap.find(k)
        if len(k) != 1 or i < 0:
            raise ValueError("script: no key %r on the keypad" % k)
        return k, i // self.ncols, i % self.ncols

    def _tile(self, name):
        t = tile_code(name)
        if t is None:
            raise ValueError("script: unknown tile " + name)
        return t

    def _next_tag(self, name):
        return self.next_tag(self._tile(name))

    def next_tag(self, t):
        """(uid, data) of the next copy of tile code t to tap."""
        n = self.copies.get(t, 0)
        self.copies[t] = n + 1
        c = n % (4 if t < 34 else 1)
        return virtual.tile_uid(t, c), encode(self.set_id, t, c)

    def tap(self, uid, data, what):
        """The events of one tap of this tag (a slot from self.t)."""
        out = []
        self._tap(out, uid, data, what)
        return out

    def _tap(self, out, uid, data, what):
        s = self.t
        out.append((s, "place", uid, data))
        out.append((s + TAG_ON_MS, "lift", uid))
        out.append((s + TAG_MS, "shot", what))
        self.t = s + TAG_MS

    def _slot(self, out, ev, ms, what):
        s = self.t
        out.append((s,) + ev)
        out.append((s + ms, "shot", what))
        self.t = s + ms

    def line(self, line):
        line = line.strip()
        out = []
        if not line or line.startswith("#"):
            return out
        cmd, _, rest = line.partition(" ")
        rest = rest.strip()
        if cmd == "config":
            self._slot(out, ("config", json.loads(rest)), HOST_MS, line)
        elif cmd == "clock":
            self._slot(out, ("clock", self.epoch + self.t // 1000), HOST_MS, "clock")
        elif cmd == "keys":
            for k in rest:
                if k == " ":
                    continue
                k, r, c = self._pos(k)
                s = self.t
                out.append((s, "down", k, r, c))
                out.append((s + KEY_DOWN_MS, "up", k, r, c))
                out.append((s + KEY_MS, "shot", "key " + k))
                self.t = s + KEY_MS
        elif cmd == "down" or cmd == "up":
            for k in rest.split():
                self._slot(out, (cmd,) + self._pos(k), KEY_MS, cmd + " " + k)
        elif cmd == "tap":
            for name in rest.split():
                uid, data = self._next_tag(name)
                self._tap(out, uid, data, "tap " + name)
        elif cmd == "tapuid":
            uid, name = rest.split()
            u = _hex(uid)
            if len(u) not in (4, 7):
                raise ValueError("script: a tag uid has 4 or 7 bytes, not " + uid)
            self._tap(out, u, encode(self.set_id, self._tile(name), 0), "tap " + name + " uid " + uid)
        elif cmd == "badtag":
            self._tap(out, virtual.BAD_UID, virtual.BAD_DATA, "bad tag")
        elif cmd == "rawtag":
            uid, data = rest.split()
            u = _hex(uid)
            if len(u) not in (4, 7):
                raise ValueError("script: a tag uid has 4 or 7 bytes, not " + uid)
            self._tap(out, u, _hex(data), "raw tag " + uid)
        elif cmd == "place":
            s = self.t
            for name in rest.split():
                uid, data = self._next_tag(name)
                self.placed.append(uid)
                out.append((s, "place", uid, data))
            out.append((s + TAG_MS, "shot", line))
            self.t = s + TAG_MS
        elif cmd == "lift":
            s = self.t
            for uid in self.placed:
                out.append((s, "lift", uid))
            self.placed = []
            out.append((s + TAG_MS, "shot", "lift"))
            self.t = s + TAG_MS
        elif cmd == "wait":
            ms = int(float(rest) * 1000)
            if ms < 0 or ms % SLOT_MS:
                raise ValueError("script: wait takes multiples of 0.25 s, not " + rest)
            out.append((self.t + ms, "shot", "wait " + rest))
            self.t += ms
        elif cmd == "lang":
            self._slot(out, ("lang", rest), KEY_MS, "lang " + rest)
        elif cmd == "powercut":
            s = self.t
            p = (s + 999) // 1000 * 1000
            out.append((s, "powercut"))
            out.append((p, "boot"))
            out.append((p + BOOT_MS, "shot", "boot"))
            self.t = p + BOOT_MS
        else:
            raise ValueError("script: unknown command " + cmd)
        return out


def events(lines, keymap=KEYMAP, ncols=4):
    """Every event of a script: the boot, then each line's."""
    sc = Script(keymap, ncols)
    for ev in sc.start():
        yield ev
    for ln in lines:
        for ev in sc.line(ln):
            yield ev


def event_json(ev):
    """One event as a JSON object: {"t", "ev", ...} (bytes as hex)."""
    name = ev[1]
    d = {"t": ev[0], "ev": name}
    if name == "clock":
        d["time"] = ev[2]
    elif name == "config":
        d["config"] = ev[2]
    elif name in ("down", "up"):
        d["key"], d["row"], d["col"] = ev[2], ev[3], ev[4]
    elif name == "place":
        d["uid"], d["data"] = hexs(ev[2]), hexs(ev[3])
    elif name == "lift":
        d["uid"] = hexs(ev[2])
    elif name == "lang":
        d["lang"] = ev[2]
    elif name == "shot":
        d["what"] = ev[2]
    return json.dumps(d)


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
        return self.now >= self._until

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
                self._keys_until = ev[0] + (self.debounce + 2) * fw.LOOP_MS
        elif name == "config":
            err = app.push_config(ev[2])  # as firmware/link.py does for the host's CONFIG
            if err:
                app.msg = err
            dev.dirty = True  # as a step with link traffic
        elif name == "clock":
            app.epoch = ev[2] - app.clock() // 1000  # as firmware/link.py does for CLOCK
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


def dump_text(screen):
    title, lines, hint = screen
    return "\n".join(["[" + title + "]"] + list(lines) + ["(" + hint + ")"]) + "\n"


def main(argv):
    # micropython -m sim_main SCRIPT OUTDIR: journal in OUTDIR/journal, screens in OUTDIR/screens.txt
    import os
    script, out = argv[1], argv[2]
    try:
        os.mkdir(out)
    except OSError:
        pass
    log = open(out + "/screens.txt", "w")

    def on_screen(n, what, screen):
        log.write("--- %d %s\n" % (n, what))
        log.write(dump_text(screen))

    sim = Sim(folder=out, on_screen=on_screen)
    sim.run(script)
    log.close()
    return sim
