# The pieces every board's builder makes (firmware/board/micropython.py, circuitpython.py,
# parts.py): the Hardware they return, the keypad scanner, the screens that put the renderer's
# pixels on a display driver. The builders import this module, and only build() imports the
# builders, so the imports run one way (the builders once imported the module that imported them).


class Hardware:
    def __init__(self, cfg, keys, display, reader, unique_id=None):
        self.cfg = cfg
        self.keys = keys  # None on a box without them (firmware/link/stdio.py: the link alone)
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


def _matrix(k, rows, cols):
    from firmware.drivers.keypad import Keypad
    return MatrixKeys(Keypad(rows, cols, k["keymap"], debounce=k.get("debounce", 3), eager=k.get("eager", False),
                             settle_us=k.get("settle_us", 0)))


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
    from firmware.ui.render import Renderer, load_font
    d = cfg.DISPLAY
    return Renderer(d["width"], d["height"], color=d.get("color", False), font=load_font(cfg.FONT),
                    swap=swap)


class FramebufScreen:
    """A display driver that is a framebuf.FrameBuffer with show() (SSD1306). dy: rows the
    picture is drawn lower (firmware/ui/screensaver.py moves an idle OLED's picture); dim(on):
    the panel's contrast down, where the driver has one."""

    def __init__(self, dev, renderer):
        from firmware.ui.partial import Partial
        self.dev = dev
        self.r = renderer
        self.rows = renderer.rows
        self.dy = 0
        # the driver's buffer keeps the last screen: only the parts whose text changed are drawn
        # again, and the driver sends only the pages that changed
        self.partial = Partial(renderer)
        if getattr(dev, "mono_vlsb", False):  # the driver's buffer is the panel's page layout
            renderer.direct(dev, dev.buffer)

    def show(self, model, scroll=0):
        used = self.partial.draw(self.dev, model, scroll, -self.dy)
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
