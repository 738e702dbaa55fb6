# Hardware objects from a board config (board_configs/NAME.py; on a device the build installs the
# chosen one as the top-level module `board_config`).
#
#   cfg = board.load()               # board_config on a device, board.load("pico") on a laptop
#   hw = board.build(cfg)            # hw.keys, hw.display, hw.reader, hw.unique_id(), hw.cfg
#   k = hw.keys.poll()               # one key name ("0".."9", "A".."D", "*", "#") or None
#   hw.display.show(model, scroll)   # a screen model (title, lines, hint); hw.display.rows
#   r = hw.reader.poll()             # the reader driver itself: poll / read / write / halt, uid
#
# The port's modules are imported lazily, and only those the board needs: `machine` on
# MicroPython (firmware/board_mp.py), `board` / `busio` / `digitalio` / `displayio` on
# CircuitPython (firmware/board_cp.py). Tests pass stand-ins: build(cfg, mods={"machine": fake}).
#
# A board without a port of its own (PLATFORM "parts": the desktop simulator's board) names in
# cfg.PARTS the module that supplies its parts; this file never names it. That module (or
# mods["parts"]) has:
#   key_pins(KEYPAD) -> (rows, cols)   pins of a key matrix, for the keypad scanner below
#   display(DISPLAY) -> dev            a framebuf.FrameBuffer with show(), as the SSD1306 driver
#   reader(READER)   -> reader         an object with the reader drivers' interface
#   unique_id()      -> bytes          what machine.unique_id() gives on a board
# so keys still go through the scanner and its debounce, tags through tile_tag, and screens
# through firmware/render.py, as on a board.


def load(name=None):
    """The board config module: `board_config` when name is None, else board_configs.<name>.
    ValueError for a board that has no config."""
    if name is None:
        import board_config
        return board_config
    if not name or not all(c.isalpha() or c.isdigit() or c == "_" for c in name):
        raise ValueError("no board %r: board names are board_configs/NAME.py" % (name,))
    try:
        mod = __import__("board_configs." + name)
    except ImportError as e:
        if name in str(e):
            raise ValueError("no board %r (board_configs/%s.py does not exist)" % (name, name))
        raise
    return getattr(mod, name)


def _import(name):
    mod = __import__(name)
    for part in name.split(".")[1:]:
        mod = getattr(mod, part)
    return mod


class Hardware:
    def __init__(self, cfg, keys, display, reader, unique_id=None):
        self.cfg = cfg
        self.keys = keys  # None on a box without them (firmware/link_stdio.py: the link alone)
        self.display = display
        self.reader = reader
        self._uid = unique_id

    def unique_id(self):
        """The chip's id bytes (machine.unique_id()), None where the port has none."""
        return self._uid() if self._uid is not None else None


def _mod(mods, name):
    if mods is not None and name in mods:
        return mods[name]
    return __import__(name)


def build(cfg, mods=None):
    plat = cfg.PLATFORM
    if plat == "micropython":
        from firmware.board_mp import build_mp
        return build_mp(cfg, _mod(mods, "machine"))
    if plat == "circuitpython":
        from firmware.board_cp import build_cp
        return build_cp(cfg, mods)
    if plat == "parts":
        parts = mods["parts"] if mods is not None and "parts" in mods else _import(cfg.PARTS)
        return _build_parts(cfg, parts)
    raise ValueError("unknown platform " + str(plat))


def _matrix(k, rows, cols):
    from firmware.drivers.keypad import Keypad
    return MatrixKeys(Keypad(rows, cols, k["keymap"], debounce=k.get("debounce", 3), eager=k.get("eager", False),
                             settle_us=k.get("settle_us", 0)))


def _build_parts(cfg, parts):
    rows, cols = parts.key_pins(cfg.KEYPAD)
    display = FramebufScreen(parts.display(cfg.DISPLAY), _renderer(cfg))
    return Hardware(cfg, _matrix(cfg.KEYPAD, rows, cols), display, parts.reader(cfg.READER),
                    parts.unique_id)


# ---- keys --------------------------------------------------------------------------------
class MatrixKeys:
    """The keypad scanner behind poll(): scans once per call, returns the next key press."""

    def __init__(self, kp):
        from firmware.drivers.keypad import GHOST, is_down
        self.kp = kp
        self._ghost = GHOST  # imported once: an import per scan cost a quarter of an idle chip's time
        self._is_down = is_down

    def poll(self):
        kp = self.kp
        kp.scan()
        while True:
            ev = kp.get()
            if ev < 0:
                return None
            if ev != self._ghost and self._is_down(ev):
                return kp.name(ev)


# ---- screens -----------------------------------------------------------------------------
def _renderer(cfg, swap=False):
    from firmware.render import Renderer, load_font
    d = cfg.DISPLAY
    return Renderer(d["width"], d["height"], color=d.get("color", False), font=load_font(cfg.FONT),
                    swap=swap)


class FramebufScreen:
    """A display driver that is a framebuf.FrameBuffer with show() (SSD1306). dy: rows the
    picture is drawn lower (firmware/screensaver.py moves an idle OLED's picture); dim(on):
    the panel's contrast down, where the driver has one."""

    def __init__(self, dev, renderer):
        self.dev = dev
        self.r = renderer
        self.rows = renderer.rows
        self.dy = 0

    def show(self, model, scroll=0):
        used = self.r.draw(self.dev, model, scroll, -self.dy) if self.dy else self.r.draw(self.dev, model, scroll)
        self.dev.show()
        return used

    def dim(self, on):
        f = getattr(self.dev, "contrast", None)
        if f is not None:
            f(0x08 if on else 0xFF)


class BandedScreen:
    """ST7789: the panel's RAM is the frame; the renderer draws it band by band."""

    def __init__(self, lcd, renderer):
        self.lcd = lcd
        self.r = renderer
        self.rows = renderer.rows

    def show(self, model, scroll=0):
        self.r.set(model, scroll, self.lcd.band_rows)
        self.lcd.show(self.r.band)
        return scroll
