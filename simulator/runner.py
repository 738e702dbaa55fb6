# Runs a scripted table session through the firmware application. MicroPython code: the same
# runner drives the app on CPython (python -m simulator) and on the unix port (make mp-sim), so
# the journals of both runs can be compared byte for byte.
#
# Script lines (# starts a comment):
#   config {"rules": "mcr", "tournament": "T", "session": 1, "table": 3, "players": [...]}
#   keys A1 0#          each character one key press (spaces ignored)
#   tap 1m 2m E a       tag reads of tiles (flowers a-h); each tap uses the next copy's tag
#   tapuid 04a1b2 5m    a tag read with this uid (hex), e.g. to read the same tag twice
#   badtag              a tag that is not one of ours
#   wait 90             the clock moves on 90 seconds
#   lang en             switch the language
#   powercut            the box loses power and boots again from its journal
import os

from firmware.app import App
from rules_min.tiles import parse_tile

_FLOWERS = "abcdefgh"


def tile_code(s):
    if len(s) == 1 and _FLOWERS.find(s) >= 0:
        return 34 + _FLOWERS.find(s)
    return parse_tile(s)


def _hex(s):
    out = bytearray()
    for i in range(0, len(s) - 1, 2):
        out.append(int(s[i:i + 2], 16))
    return bytes(out)


class Sim:
    def __init__(self, journal_factory, device_id="sim-1", epoch=1764400000, on_screen=None):
        self.ms = 0
        self.copies = {}
        self.journal_factory = journal_factory
        self.device_id = device_id
        self.epoch = epoch
        self.on_screen = on_screen
        self.steps = 0
        self.boot()

    def clock(self):
        return self.ms

    def boot(self):
        self.journal = self.journal_factory()
        self.app = App(self.journal, self.clock, device_id=self.device_id, epoch=self.epoch)

    def uid_for(self, t):
        n = self.copies.get(t, 0)
        self.copies[t] = n + 1
        return bytes((0x04, 0x53, t, n % 4, 0x11, 0x22, 0x33))

    def shot(self, what):
        self.steps += 1
        if self.on_screen is not None:
            self.on_screen(self.steps, what, self.app.screen())

    def line(self, line):
        line = line.strip()
        if not line or line.startswith("#"):
            return
        cmd, _, rest = line.partition(" ")
        rest = rest.strip()
        app = self.app
        if cmd == "config":
            import json
            err = app.push_config(json.loads(rest))
            if err:
                app.msg = err
            self.shot(line)
        elif cmd == "keys":
            for k in rest:
                if k != " ":
                    app.press(k)
                    self.shot("key " + k)
        elif cmd == "tap":
            for name in rest.split():
                t = tile_code(name)
                if t is None:
                    raise ValueError("script: unknown tile " + name)
                app.tap(self.uid_for(t), t)
                self.shot("tap " + name)
        elif cmd == "tapuid":
            uid, name = rest.split()
            app.tap(_hex(uid), tile_code(name))
            self.shot("tap " + name + " uid " + uid)
        elif cmd == "badtag":
            app.tap(b"\x04\x99\x99\x99", "not a tile of this set")
            self.shot("bad tag")
        elif cmd == "wait":
            self.ms += int(rest) * 1000
            app.tick()
            self.shot("wait " + rest)
        elif cmd == "lang":
            app.lang = rest
            self.shot("lang " + rest)
        elif cmd == "powercut":
            if hasattr(self.journal, "close"):
                self.journal.close()
            self.boot()
            self.shot("boot")
        else:
            raise ValueError("script: unknown command " + cmd)

    def run(self, path):
        with open(path) as f:
            for line in f:
                self.line(line)


def dump_text(screen):
    title, lines, hint = screen
    return "\n".join(["[" + title + "]"] + list(lines) + ["(" + hint + ")"]) + "\n"


def main(argv):
    # micropython -m sim_main SCRIPT OUTDIR: journal in OUTDIR/journal, screens in OUTDIR/screens.txt
    from firmware.journal import Journal
    script, out = argv[1], argv[2]
    for d in (out, out + "/journal"):
        try:
            os.mkdir(d)
        except OSError:
            pass
    log = open(out + "/screens.txt", "w")

    def on_screen(n, what, screen):
        log.write("--- %d %s\n" % (n, what))
        log.write(dump_text(screen))

    sim = Sim(lambda: Journal(out + "/journal"), on_screen=on_screen)
    sim.run(script)
    log.close()
    return sim
