# The simulator board's parts (board_configs/sim.py names this module in PARTS): what the
# firmware's board.py asks a board without a port of its own for. MicroPython code: the same parts
# run in `make mp-sim` on the unix port.
#
#   KeyMatrix     the 4x4 keys as switches between row and column wires (no diodes): press(r, c),
#                 release(r, c); rows / cols are the pins firmware/drivers/keypad.py scans, so a key
#                 takes the scanner's debounce, a held key is one press, and three keys at the
#                 corners of a rectangle ghost the fourth, as on the membrane keypad
#   Frame         the display's frame buffer: a framebuf.FrameBuffer with show(), like the SSD1306
#                 driver; firmware/ui/render.py draws into it, on_show(frame) sees each show()
#   reader        simulator/virtual.py's VirtualReader: the reader drivers' interface over
#                 virtual tags that hold real tile-tag bytes (firmware/tags/tile_tag.py)
#   unique_id     the chip id the device id is made from (firmware/main.py), as machine.unique_id()
#
#   parts = Parts(uid=b"..."); hw = board.build(cfg, {"parts": parts}); parts.matrix.press(1, 1)
#
# for_board(name) is the sim board with another board's screen and keypad map, for
# `python -m simulator --board esp32s3` (320x240 colour) and the like.
from firmware.ui import render

framebuf = render.framebuf  # MicroPython's, or the one simulator/__init__.py registered on CPython


class KeyMatrix:
    def __init__(self, nrows=4, ncols=4):
        self.nrows = nrows
        self.ncols = ncols
        self.keys = bytearray(nrows)  # bit c of row r: switch (r, c) closed
        self._low_rows = 0  # rows the scanner drives low
        self._low_cols = 0  # columns pulled low through closed switches
        self._down = False  # any switch closed
        self._seen = {}  # low rows -> columns they pull low, for the switches as they are
        self.changes = 0  # presses and releases so far
        self.rows = [self._row_pin(r) for r in range(nrows)]
        self.cols = [self._col_pin(c) for c in range(ncols)]

    def _row_pin(self, r):
        bit = 1 << r

        def pin(v=None):
            if v is None:
                return 0 if self._low_rows & bit else 1
            self._low_rows = self._low_rows & ~bit if v else self._low_rows | bit
            if self._down:
                self._settle()
        return pin

    def _col_pin(self, c):
        bit = 1 << c

        def pin(v=None):
            return 0 if self._low_cols & bit else 1
        return pin

    def _settle(self):
        # columns connected to a low row through any chain of closed switches (ghosting); the
        # scanner drives the same few row patterns over and over: remember them until a key moves
        low = self._low_rows
        cols = self._seen.get(low)
        if cols is None:
            cols = self._seen[low] = self._connected(low)
        self._low_cols = cols

    def _connected(self, rows):
        if not rows or not self._down:
            return 0
        cols = 0
        while True:
            new_cols = cols
            for r in range(self.nrows):
                if rows >> r & 1:
                    new_cols |= self.keys[r]
            new_rows = rows
            for r in range(self.nrows):
                if self.keys[r] & new_cols:
                    new_rows |= 1 << r
            if new_cols == cols and new_rows == rows:
                return cols
            cols = new_cols
            rows = new_rows

    def _moved(self):
        self.changes += 1
        self._down = any(self.keys)
        self._seen = {}
        self._settle()

    def press(self, r, c):
        self.keys[r] |= 1 << c
        self._moved()

    def release(self, r, c):
        self.keys[r] &= 0xFF ^ (1 << c)
        self._moved()

    def down(self):
        return any(self.keys)


class Frame(framebuf.FrameBuffer):
    def __init__(self, width, height, color=False, on_show=None):
        self.width = width
        self.height = height
        self.color = color
        if color:
            self.buf = bytearray(width * height * 2)
            super().__init__(self.buf, width, height, framebuf.RGB565)
        else:
            self.buf = bytearray(width * height // 8)
            super().__init__(self.buf, width, height, framebuf.MONO_VLSB)
        self.on_show = on_show
        self.shows = 0

    def show(self):
        self.shows += 1
        if self.on_show is not None:
            self.on_show(self)


class ModelScreen:
    """A display that keeps the screen models and draws no pixels: for runs that only look at
    the models (the tests), in place of the board's display."""

    def __init__(self, rows):
        self.rows = rows
        self.model = None
        self.scroll = 0
        self.shows = 0

    def show(self, model, scroll=0):
        self.model = model
        self.scroll = scroll
        self.shows += 1
        return scroll


class Parts:
    def __init__(self, uid=b"\x00" * 8, reader=None, on_show=None):
        self.uid = bytes(uid)
        self.matrix = None
        self.frame = None
        self._reader = reader
        self.on_show = on_show

    def key_pins(self, k):
        # one keypad for the box's life: a key held through a reboot is still held
        if self.matrix is None:
            self.matrix = KeyMatrix(len(k["rows"]), len(k["cols"]))
        return self.matrix.rows, self.matrix.cols

    def display(self, d):
        self.frame = Frame(d["width"], d["height"], d.get("color", False), self.on_show)
        return self.frame

    def reader(self, r):
        if self._reader is None:
            from simulator.virtual import VirtualReader
            self._reader = VirtualReader()
        return self._reader

    def unique_id(self):
        return self.uid


_default = Parts()
key_pins = _default.key_pins
display = _default.display
reader = _default.reader
unique_id = _default.unique_id


class _Board:
    pass


def for_board(name):
    """The sim board's config with board `name`'s display size, colour, font and keypad map.
    ValueError when there is no such board."""
    from firmware import board
    sim = board.load("sim")
    if name == "sim":
        return sim
    other = board.load(name)
    cfg = _Board()
    for k in dir(sim):
        if not k.startswith("_"):
            setattr(cfg, k, getattr(sim, k))
    d = other.DISPLAY  # as the user sees it (after the panel's rotation)
    cfg.DISPLAY = {"driver": "framebuf", "width": d["width"], "height": d["height"],
                   "color": d.get("color", False)}
    kp = dict(sim.KEYPAD)
    kp["keymap"] = other.KEYPAD["keymap"]
    cfg.KEYPAD = kp
    cfg.FONT = other.FONT
    cfg.SIMULATES = name
    return cfg
