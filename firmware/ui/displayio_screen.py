# Screen models on a displayio display: CircuitPython boards (SH1107 / SSD1306 / ST7789 through
# their displayio drivers) and the desktop (Blinka displayio, e.g. the simulator's pygame window).
#
#   scr = DisplayioScreen(display, 128, 64)            # mono, 12 px font
#   scr = DisplayioScreen(display, 320, 240, color=True)
#   scr.show(("番种", ["清一色\t24"], "#确认"), scroll=0)
#
# firmware/ui/render.py draws straight into a displayio.Bitmap through its "runs" path (fill,
# fill_rect, hline, pixel): the renderer's colours are palette indices here (mono: MONO's 0/1;
# colour: for each slot the first slot of the same colour), and the Palette holds the colours of
# the framebuf path (render.colors565, expanded to 24 bits so displayio's RGB565 conversion gives
# the same 16-bit values back). Same pixels as the framebuf backend: tests/hw/test_display_displayio.py checks
# every sample screen at both sizes. Nothing is drawn outside the bitmap: the target clips as
# framebuf does.
try:
    import bitmaptools

    _fill_region = bitmaptools.fill_region
except (ImportError, AttributeError):
    _fill_region = None

import displayio

from firmware.ui.render import MONO, Renderer, colors565, load_font

OLED_ON = 0xC8E6FF  # a white-blue like the simulator's PNGs (simulator/png.py OLED_ON)


def rgb888(c565):
    """24-bit colour whose RGB565 conversion gives c565 back."""
    r = c565 >> 11
    g = (c565 >> 5) & 63
    b = c565 & 31
    return ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2)


class BitmapTarget:
    """The drawing calls the renderer needs, on a displayio.Bitmap, clipped to it."""

    def __init__(self, bitmap, width, height):
        self.bm = bitmap
        self.w = width
        self.h = height

    def fill(self, c):
        self.bm.fill(c)

    def fill_rect(self, x, y, w, h, c):
        x1 = x + w
        y1 = y + h
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        if x1 > self.w:
            x1 = self.w
        if y1 > self.h:
            y1 = self.h
        if x >= x1 or y >= y1:
            return
        if _fill_region is not None:
            _fill_region(self.bm, x, y, x1, y1, c)
            return
        bm = self.bm
        for yy in range(y, y1):
            for xx in range(x, x1):
                bm[xx, yy] = c

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.w and 0 <= y < self.h):
            return None if c is not None else 0
        if c is None:
            return self.bm[x, y]
        self.bm[x, y] = c
        return None


class DisplayioScreen:
    def __init__(self, display, width, height, color=False, font_size=None, scale=1, on=OLED_ON,
                 palette=None):
        self.display = display
        self.width = width
        self.height = height
        self.color = color
        if font_size is None:
            font_size = 12 if height < 160 else 16
        if color:
            # one palette index per distinct colour, so the renderer's tests of two slots having
            # the same colour (rule = hint bar: no rule drawn) come out as with RGB565 values
            c565 = colors565()
            idx = tuple(c565.index(c) for c in c565)
            n = 8
            self.r = Renderer(width, height, color=True, font=load_font(font_size), colors=idx)
            cols = palette or [rgb888(c) for c in c565]
        else:
            n = 2
            self.r = Renderer(width, height, font=load_font(font_size), colors=MONO)
            cols = palette or [0x000000, on]
        self.palette = displayio.Palette(n)
        for i in range(n):
            self.palette[i] = cols[i]
        self.bitmap = displayio.Bitmap(width, height, n)
        self.target = BitmapTarget(self.bitmap, width, height)
        self.rows = self.r.rows
        self.group = displayio.Group(scale=scale)
        self.group.append(displayio.TileGrid(self.bitmap, pixel_shader=self.palette))
        self._auto = getattr(display, "auto_refresh", False)
        if display is not None:
            try:
                display.auto_refresh = False  # one refresh per screen, no half-drawn frames
            except AttributeError:
                pass
            if hasattr(display, "root_group"):
                display.root_group = self.group  # CircuitPython 9, Blinka displayio
            else:
                display.show(self.group)  # CircuitPython 8

    def draw(self, model, scroll=0):
        """Draw into the bitmap only; returns the scroll offset used."""
        return self.r.draw(self.target, model, scroll)

    def show(self, model, scroll=0):
        used = self.draw(model, scroll)
        if self.display is not None:
            self.display.refresh()
        return used

    def index(self, x, y):
        return self.bitmap[x, y]

    def rgb565(self, x, y):
        """The pixel as the framebuf backend stores it: RGB565 (colour) or 0/1 (mono)."""
        i = self.bitmap[x, y]
        if not self.color:
            return i
        c = self.palette[i]
        if not isinstance(c, int):  # Blinka's Palette returns a dict {"rgb888": ..}
            c = c["rgb888"]
        return ((c >> 19) & 31) << 11 | ((c >> 10) & 63) << 5 | ((c >> 3) & 31)
