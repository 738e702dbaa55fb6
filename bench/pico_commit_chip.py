# Runs ON the emulated Pico (bench/pico_score.py sends it): a scenario played straight into the
# App (firmware/app.py) with its journal on the chip's littlefs, timing every key press that
# commits a record: from the last confirmation key to the record on flash. The App alone, not the
# device loop (no key scanning, no screen drawing): what the commit itself costs.
#   C <seq> <us> <journal us>   a key press that committed record seq: its time, and the part
#                               of it in the journal's calls (the rest is the App's)
#   P <us> <journal us>         a key press or tap that prepared a hand's record ahead (the
#                               preview before the confirmation: journal.prepare, the erase)
#   S done <records>
# Scenario lines used: config, keys, tap, tapuid, wait, lang, powercut (a new App on the same
# journal); others are skipped. Tags: tile t copy c has uid 04 53 tt cc 11 22 33 (simulator).
import json
import os
import time

from firmware.app import App
from firmware.journal import Journal
from rules_min.tiles import parse_tile

_FLOWERS = "abcdefgh"
EPOCH = 1764400000


def tile_code(s):
    if len(s) == 1 and _FLOWERS.find(s) >= 0:
        return 34 + _FLOWERS.find(s)
    return parse_tile(s)


class Table:
    def __init__(self, jdir):
        self.jdir = jdir
        self.ms = 0
        self.copies = {}
        self.depth = 0
        self.boot()

    def clock(self):
        return self.ms

    def boot(self):
        self.j = Journal(self.jdir)
        self.jt = 0
        for name in ("append", "prepare", "commit", "append_prepared"):
            self._time(name)
        self.app = App(self.j, self.clock, device_id="box-000000", epoch=EPOCH)

    def _time(self, name):
        # the journal's share of a key press: the outermost journal call is timed
        real = getattr(self.j, name, None)
        if real is None:  # a firmware whose journal predates the call
            return
        table = self

        def timed(*a):
            if table.depth:
                return real(*a)
            table.depth = 1
            t0 = time.ticks_us()
            try:
                return real(*a)
            finally:
                table.jt += time.ticks_diff(time.ticks_us(), t0)
                table.depth = 0
        setattr(self.j, name, timed)

    def after_draw(self):
        # the device loop's call once the screen is drawn (the erase of a record prepared ahead)
        f = getattr(self.app, "after_draw", None)
        if f is not None:
            f()

    def press(self, k):
        before = self.j.last_seq
        pend = self.j._pend
        self.jt = 0
        t0 = time.ticks_us()
        self.app.press(k)
        t1 = time.ticks_us()
        jt = self.jt
        self.after_draw()
        dt = time.ticks_diff(time.ticks_us(), t0)
        if self.j.last_seq != before:
            # the record is on flash when press() returns; what after_draw() then does (the next
            # hand's work left for after its screen) is not the commit's
            print("C", self.j.last_seq, time.ticks_diff(t1, t0), jt)
        elif self.j._pend is not None and self.j._pend is not pend:
            print("P", dt, self.jt)
        self.ms += 250

    def tap(self, t, uid=None):
        if uid is None:
            n = self.copies.get(t, 0)
            self.copies[t] = n + 1
            uid = bytes((0x04, 0x53, t, n % 4, 0x11, 0x22, 0x33))
        pend = self.j._pend
        self.jt = 0
        t0 = time.ticks_us()
        self.app.tap(uid, t)
        self.after_draw()
        dt = time.ticks_diff(time.ticks_us(), t0)
        if self.j._pend is not None and self.j._pend is not pend:
            print("P", dt, self.jt)
        self.ms += 500

    def line(self, ln):
        cmd, _, rest = ln.strip().partition(" ")
        rest = rest.strip()
        if cmd == "config":
            self.app.push_config(json.loads(rest))
        elif cmd == "keys":
            for k in rest:
                if k != " ":
                    self.press(k)
        elif cmd == "tap":
            for name in rest.split():
                self.tap(tile_code(name))
        elif cmd == "tapuid":
            uid, name = rest.split()
            self.tap(tile_code(name), bytes(int(uid[i:i + 2], 16) for i in range(0, len(uid), 2)))
        elif cmd == "wait":
            self.ms += int(float(rest) * 1000)
        elif cmd == "lang":
            self.app.lang = rest
        elif cmd == "powercut":
            self.j.close()
            self.ms = 0
            self.boot()
        self.app.tick()


try:
    os.mkdir("/jr")
except OSError:
    pass
table = Table("/jr")
with open("/scenario.txt") as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            table.line(line)
print("S done", table.j.last_seq)
