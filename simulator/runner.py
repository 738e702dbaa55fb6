# Scenario files played on the box through firmware/main.py's device loop: keys go through the
# key matrix and the firmware's keypad scanner (debounce, ghosting), tiles as tags holding real
# tile-tag bytes (firmware/tags/tile_tag.py) through the reader driver interface, the host's requests
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
#   place 3m 4m         lay tags on the reader and leave them there (two at once: read one after
#                       the other, as the reader's anticollision selects them); lift takes every tag off
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
# simulator/player.py's Sim plays them on the desktop (on CPython and the unix port);
# `python -m simulator --script FILE --events` prints them as JSON lines for other players (the
# Pico harness).
import json

from firmware.tags.tile_tag import encode
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


from simulator.player import Hands, Sim  # noqa: E402  (the desktop player, here for its users)
