# The device's main loop, the only one: a board runs it from the build's /main.py
# (`from firmware.main import run; run()`); the desktop simulator in every mode, the unix-port
# device on stdio (firmware/link/stdio.py) and the tests run the same boot() and serve().
#
#   dev = boot(cfg)       board config -> hardware (firmware/board/), journal on flash, App, the
#                         host link on the USB serial port, the tag settings; a Device around them
#   serve(dev, hook=h)    then forever: h(dev, n) (a truthy return stops), dev.step(), and unless
#                         the link moved bytes, dev.idle(LOOP_MS) (a sleep; on the link's port a
#                         wait that a byte ends early). run() is boot() then serve().
#
# One step never blocks for long: the keypad is scanned once (debounced over scans, so the
# 5 ms period matters), at most a few queued keys go to the app; the serial link is read without
# waiting; the reader is polled every READ_MS (an empty poll is one REQA: 7 bus transactions and
# ~0.7 ms of bus time and waiting, bounded by the driver; a tile laid on the reader waits half a
# period on average before the poll that reads it: 10 ms, not 20, cut that from every tap's
# time to the glass, bench/pico_glass.py), and at every step while the app's tile entry asks
# for tiles (TILES); app.tick(); the screen model is rebuilt only when
# something happened (or once a second, for the clock) and the display redrawn only when the
# model changed, or when a screen with more lines than fit pages on (every SCROLL_MS).
#
# The host link (firmware/link/engine.py; its TAGS requests go to firmware/tags/mode.py) is polled a
# few times per step, each poll bounded by the link itself.
#
# Tags: one tag per poll; its pages 4-7 are read, the tag is halted (it stays silent until it
# leaves the field, so one tap is one read) and identified (record, else the UID registry);
# app.tap(uid, tile) or app.tap(uid, message) for a tag that is not a tile of this set. A poll
# that read a tag is followed by another at the next step (a hand swept over the reader leaves
# several tiles in the field at once; the driver's anticollision takes them one by one), an
# empty one READ_MS later: a tile is in the field for 150-200 ms as a hand sweeps it past.
#
# After the screen is drawn, app.after_draw() (if the app has it) does the slow work an input
# left for later (the flash erase of a hand's record prepared ahead), so the screen comes first.
# An idle OLED dims and its picture moves a pixel now and then (firmware/ui/screensaver.py); any
# key or tag brings it back and counts as usual.
#
# Time: the clock is milliseconds since the chip's reset (ticks_ms() counts from 0 there), so
# a harness that knows the chip's time knows the device's; the simulator hands in its own.
import gc
import sys

from firmware.compat import sleep_ms, ticks_diff, ticks_ms
from firmware.tags import tile_tag
from firmware.tags.mode import TagsMode, attach

OK = 0
NO_TAG = 1
MULTIPLE = 2
READ_MS = 10
TILES = "tiles"   # the app's state of a tile entry (firmware/flows/tiles.py): the reader polled every step
SCROLL_MS = 2500
REFRESH_MS = 1000
MAX_KEYS = 4
LINK_POLLS = 8
LOOP_MS = 5
TAG_MESSAGES = {
    "blank": "blank tag: not written yet",
    "corrupt": "not a tile tag",
    "foreign_set": "tile of another set",
    "version": "newer tag format",
}
_COMBO = "*0#"  # on the idle screen: the tag checker


class Clock:
    """Milliseconds since boot that never wrap (ticks_ms wraps after 2^30 ms on most ports).
    since_boot: start from ticks() itself (0 at the chip's reset), else from 0 now."""

    def __init__(self, ticks=ticks_ms, since_boot=True):
        self.ticks = ticks
        self.last = ticks()
        self.ms = self.last if since_boot else 0

    def __call__(self):
        now = self.ticks()
        self.ms += ticks_diff(now, self.last)
        self.last = now
        return self.ms


class Device:
    # firmware/net's Net on a board with a network (boot sets it): stepped every step. A class
    # default, so a box without a network keeps the instance it had (not one slot more)
    net = None

    def __init__(self, hw, app, clock, tag_set=1, registry=None, link=None, files=None):
        self.hw = hw
        self.app = app
        self.clock = clock
        self.tag_set = tag_set
        self.registry = registry
        self.files = files  # folder for tagset / uidreg.bin, None: not saved
        self.tags = TagsMode(self)
        if hasattr(app, "fit"):
            app.fit(hw.display)  # the app lays its screens out in pages for this display
        self.link = None  # firmware/link/engine.py's Link: polled every step, TAGS requests to self.tags
        if link is not None:
            self.attach(link)
        self.buf = bytearray(16)
        self.model = None
        self.scroll = 0
        self.dirty = True
        now = clock()
        self.next_read = now
        self.next_refresh = now
        self.next_scroll = now + SCROLL_MS
        self.keys = ""
        self.read_ms = READ_MS
        self.saver = None
        if hw.display is not None and hasattr(hw.display, "dy"):
            from firmware.ui.screensaver import Saver
            self.saver = Saver(hw.display)
        self.steps = 0
        self.draws = 0

    def attach(self, link):
        self.link = link
        attach(link, self.tags)

    # ---- inputs ----
    def _touch(self):
        if self.saver is not None and self.saver.touch(self.clock()):
            self.hw.display.dy = 0
            self.model = None  # drawn again, in place

    def key(self, k):
        self.dirty = True
        self._touch()
        if self.tags.active:
            self.tags.key(k)
            return
        if self.net is not None and self.net.key(self.app, k):  # its status screen, the referee call
            return
        if self.app.state == "idle":
            self.keys = (self.keys + k)[-len(_COMBO):]
            if self.keys == _COMBO:
                self.keys = ""
                self.tags._enter(False)
                return
        self.app.press(k)

    def read_tag(self):
        rdr = self.hw.reader
        if rdr is None:
            return
        r = rdr.poll()
        if r == NO_TAG:
            return
        self.dirty = True
        self._touch()
        self.next_read = self.clock()  # more tiles may be in the field: poll again next step
        if r == MULTIPLE:
            if not self.tags.active:
                self.app.tap(None, "multiple")  # the app words it in its language
            return
        if r != OK:
            return  # lifted mid-read, a bad frame: the next poll tries again
        uid = bytes(rdr.uid[:rdr.uid_len])
        buf = self.buf
        if rdr.read(4, buf) != OK:
            return
        if self.tags.active:
            self.tags.on_tag(uid, buf)
            rdr.halt()
            return
        rdr.halt()
        try:
            tile, _copy = tile_tag.identify(buf, uid, len(uid), self.tag_set, self.registry)
        except ValueError as e:
            self.app.tap(uid, e.args[0])  # blank, corrupt, foreign_set, version: the app words it
            return
        self.app.tap(uid, tile)

    # ---- one pass of the loop ----
    def step(self):
        """One pass; True when the link moved bytes (the loop then goes on without waiting)."""
        self.steps += 1
        hw = self.hw
        keys = hw.keys
        keyed = False
        if keys is not None:
            for _ in range(MAX_KEYS):
                k = keys.poll()
                if k is None:
                    break
                self.key(k)
                keyed = True
        busy = False
        if self.link is not None:
            for _ in range(LINK_POLLS):  # each poll moves at most max_read / max_write bytes
                if not self.link.poll():
                    break
                busy = True
                self.dirty = True
        now = self.clock()
        if self.net is not None:
            self.net.step(now)  # one bounded move of the push (firmware/net/push.py)
        # a step that took a key leaves the reader's poll to the next step: the key's screen
        # does not wait for it (an empty poll is ~1-1.5 ms of the Pico's time)
        if not keyed and now - self.next_read >= 0:
            # while the table taps its tiles in, the reader is polled at every step: a tile laid
            # on it waits half a step for the poll that reads it, not half of READ_MS (~2.5 ms
            # off every tap's time to the glass, the last tile's result too)
            tiles = self.app.state == TILES and not self.tags.active
            self.next_read = now + (0 if tiles else self.read_ms)
            self.read_tag()
        if self.tags.active:
            self.tags.tick()
        else:
            state = self.app.state
            self.app.tick()
            if self.app.state != state:
                self.dirty = True
        self.redraw(now)
        after = getattr(self.app, "after_draw", None)
        if after is not None:
            after()
        return busy

    def idle(self, ms):
        """Wait for the next step: on the link's port, where a byte ends the wait, else a sleep."""
        link = self.link
        if link is not None and link.online:
            link.port.wait(ms, link.tx_pending)
        else:
            sleep_ms(ms)

    def screen(self):
        if self.tags.active:
            return self.tags.screen()
        if self.net is not None:  # the app's screen with the network's marks, or its status
            return self.net.screen(self.app, self.clock())
        return self.app.screen()

    def redraw(self, now):
        if self.hw.display is None:
            return
        if now - self.next_refresh >= 0:
            self.dirty = True
        if self.saver is not None and self.saver.tick(now):
            self.hw.display.dy = self.saver.dy
            if self.model is not None:
                self._draw()
        if self.dirty:
            self.dirty = False
            self.next_refresh = now + REFRESH_MS
            model = self.screen()
            if model != self.model:
                self.model = model
                self.scroll = 0
                self.next_scroll = now + SCROLL_MS
                self._draw()
                return
        model = self.model
        rows = self.hw.display.rows
        if model is not None and len(model[1]) > rows and now - self.next_scroll >= 0:
            self.next_scroll = now + SCROLL_MS
            self.scroll = self.scroll + rows if self.scroll + rows < len(model[1]) else 0
            self._draw()

    def _draw(self):
        self.draws += 1
        self.hw.display.show(self.model, self.scroll)

    # ---- tag settings on flash ----
    def save_tag_settings(self, set_id, registry_blob):
        self.tag_set = set_id
        self.registry = tile_tag.UidRegistry(registry_blob) if registry_blob else None
        if self.files is None:
            return
        with open(self.files + "/tagset", "w") as f:
            f.write("%d\n" % set_id)
        path = self.files + "/uidreg.bin"
        if registry_blob:
            with open(path, "wb") as f:
                f.write(registry_blob)
        else:
            try:
                import os
                os.remove(path)
            except OSError:
                pass


def load_tag_settings(folder, default_set=1):
    set_id = default_set
    registry = None
    try:
        with open(folder + "/tagset") as f:
            set_id = int(f.read().strip())
    except (OSError, ValueError):
        pass
    try:
        with open(folder + "/uidreg.bin", "rb") as f:
            registry = tile_tag.UidRegistry(f.read())
    except (OSError, ValueError):
        registry = None
    return set_id, registry


def open_journal(cfg, root=None):
    """The journal on the board's flash: cfg.JOURNAL, under /flash where the port mounts its
    filesystem there (root None: look), else from /. Returns (journal, root)."""
    import os
    from firmware.journal import Journal
    if root is None:
        root = ""
        try:
            os.stat("/flash")
            root = "/flash"
        except OSError:
            pass
    path = root + cfg.JOURNAL
    try:
        os.mkdir(path)
    except OSError:
        pass
    return Journal(path, room=getattr(cfg, "JOURNAL_ROOM", 0)), root


def boot(cfg=None, mods=None, root=None, clock=None, journal=None, hw=None, link=True, port=None,
         device_id=None, epoch=0):
    """A booted box: hardware from the board config (cfg: a config module, a board name, None
    for the installed board_config), the journal (journal: one already open, else cfg.JOURNAL
    under root), the App, the tag settings in root, and the host link: on `port` if given, else
    with link=True on the USB serial port (sys.stdin / sys.stdout) where the board has one.
    hw, clock, device_id, epoch: stand-ins (the simulator's board, its clock; tests)."""
    from firmware import board as boardmod
    from firmware.app import App
    if cfg is None or isinstance(cfg, str):
        cfg = boardmod.load(cfg)
    if port is None and link and getattr(cfg, "SERIAL", "usb") == "usb":
        try:
            from firmware.link.ports import StreamPort
            port = StreamPort(sys.stdin.buffer, sys.stdout.buffer)
        except (ImportError, AttributeError, OSError):
            port = None  # a port without select.poll on stdin (CircuitPython: usb_cdc): no link
    bufs = None
    if port is not None:
        # the link's buffers first, while the heap is one free run: made after the session's
        # replay (a power cut late in a long session), the stock build found no 2 KB run for
        # them and the box never answered the host (firmware/link/engine.py, Buffers)
        from firmware.link.engine import Buffers
        bufs = Buffers()
    if hw is None:
        hw = boardmod.build(cfg, mods)
    if journal is None:
        journal, root = open_journal(cfg, root)
    if clock is None:
        clock = Clock()
    if device_id is None:
        device_id = getattr(cfg, "DEVICE_ID", None) or _device_id(cfg, hw)
    app = App(journal, clock, device_id=device_id, epoch=epoch,  # firmware/box_settings.py:
              settings=None if root is None else root + "/boxset",
              keyfile=(root or "") + "/device.key",  # the link's key file, below
              timefile=None if root is None else root + "/sessiontime")
    set_id, registry = load_tag_settings(root) if root is not None else (1, None)
    lk = None
    if port is not None:
        from firmware.link.engine import Link
        lk = Link(app, port, (root or "") + "/device.key", board=cfg.NAME, bufs=bufs)
        bufs = None
    dev = Device(hw, app, clock, set_id, registry, lk, files=root)
    netcfg = getattr(cfg, "NETWORK", None)
    if netcfg:  # only a board with a network loads its code (one code path: the rest is the same)
        from firmware.net import start
        dev.net = start(dev, netcfg, root)
    gc.collect()
    return dev


def serve(dev, loops=-1, hook=None, sleep=None):
    """The device loop (loops < 0: forever). hook(dev, n) before each step, a truthy return
    ends the loop; sleep(ms) between steps (default dev.idle) unless the link moved bytes."""
    wait = sleep if sleep is not None else dev.idle
    n = 0
    while loops < 0 or n < loops:
        if hook is not None and hook(dev, n):
            break
        busy = dev.step()
        n += 1
        if not busy:
            wait(LOOP_MS)
    return dev


def run(board=None, loops=-1, mods=None, root=None, link=True, hook=None):
    """Boot, then the loop (loops < 0: forever). mods / root / hook(dev, n): stand-ins for the
    port's modules, the flash root, and a call before each step (tests on the unix port)."""
    return serve(boot(board, mods, root, link=link), loops, hook)


def _device_id(cfg, hw):
    uid = hw.unique_id()
    if uid:
        return "box-" + "".join("%02x" % b for b in uid[-3:])
    return "box-" + cfg.NAME
