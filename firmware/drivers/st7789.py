# ST7789 colour TFT (240 x 320, RGB565) over SPI with DC, CS and RST pins.
#
# A whole frame is 240 * 320 * 2 = 153,600 bytes: more than an RP2040's MicroPython heap can
# spare. So the panel's own RAM is the frame buffer, and the driver offers two ways to draw:
#
# 1. Windowed writes, for sprites and boxes (tile faces, score boxes):
#        lcd.blit_buffer(tile_bitmap, x, y, w, h)   # RGB565 bytes, big-endian, row by row
#        lcd.fill_rect(x, y, w, h, color565(255, 0, 0))
#    or at the lowest level set_window(x0, y0, x1, y1), then write_data(buf) as often as needed.
#
# 2. Banded redraws with the FrameBuffer methods: lcd.fb is a FrameBuffer over a band of
#    band_rows full-width rows (16 rows: 7,680 bytes). show(render) repaints the screen band by
#    band: for each band it clears lcd.fb to bg, calls render(fb, y0) - which draws the whole
#    screen shifted up by y0 (fb.text(s, x, y - y0, c)), the FrameBuffer clipping whatever lies
#    outside the band - and sends the band.
#
# Colours: the panel takes RGB565 most significant byte first, the FrameBuffer stores a pixel
# in the CPU's order (little-endian). color565() returns the value byte-swapped, so a band goes
# out as it is, with no conversion pass; use it for every colour given to lcd.fb or fill_rect.
#
# rotation 0..3 (x 90 degrees) sets MADCTL; width and height are then the rotated ones.
# xstart / ystart: where the glass begins in controller RAM for panels smaller than 240 x 320
# (135 x 240: 52, 40), in the rotated frame.
import framebuf

from firmware.compat import const, sleep_ms as _sleep_ms

_SWRESET = const(0x01)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVON = const(0x21)
_DISPOFF = const(0x28)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)
_MADCTL_BY_ROTATION = b"\x00\x60\xc0\xa0"  # MV / MX / MY for 0, 90, 180, 270 degrees


def color565(r, g, b):
    c = (r & 0xF8) << 8 | (g & 0xFC) << 3 | b >> 3
    return (c & 0xFF) << 8 | c >> 8  # byte-swapped: see the header


def _setter(pin):
    return pin.value if hasattr(pin, "value") else pin


class ST7789:
    def __init__(self, spi, dc, cs=None, rst=None, width=240, height=320, xstart=0, ystart=0,
                 rotation=0, band_rows=16, invert=True, sleep_ms=None):
        self._spi = spi
        self._dc = _setter(dc)
        self._cs = _setter(cs) if cs is not None else None
        self._rst = _setter(rst) if rst is not None else None
        self._sleep_ms = sleep_ms or _sleep_ms
        self.rotation = rotation & 3
        if self.rotation & 1:
            width, height = height, width
        self.width = width
        self.height = height
        self.xstart = xstart
        self.ystart = ystart
        self.band_rows = band_rows
        self._band = bytearray(width * band_rows * 2)
        self.fb = framebuf.FrameBuffer(self._band, width, band_rows, framebuf.RGB565)
        mv = memoryview(self._band)
        self._full = mv
        rest = height % band_rows
        self._last = mv[:width * rest * 2] if rest else mv
        self._c = bytearray(1)
        self._a = bytearray(4)
        self._a1 = memoryview(self._a)[:1]
        if self._cs is not None:
            self._cs(1)
        self.init(invert)

    def _command(self, c, args=None):
        self._c[0] = c
        if self._cs is not None:
            self._cs(0)
        self._dc(0)
        self._spi.write(self._c)
        if args is not None:
            self._dc(1)
            self._spi.write(args)
        if self._cs is not None:
            self._cs(1)

    def _command1(self, c, a):
        self._a[0] = a
        self._command(c, self._a1)

    def write_data(self, buf):
        # pixel bytes for the window of the last set_window()
        if self._cs is not None:
            self._cs(0)
        self._dc(1)
        self._spi.write(buf)
        if self._cs is not None:
            self._cs(1)

    def init(self, invert=True):
        if self._rst is not None:
            self._rst(1)
            self._sleep_ms(1)
            self._rst(0)
            self._sleep_ms(1)
            self._rst(1)
        else:
            self._command(_SWRESET)
        self._sleep_ms(150)  # 120 ms before SLPOUT after any reset
        self._command(_SLPOUT)
        self._sleep_ms(10)  # 5 ms before the next command
        self._command1(_COLMOD, 0x55)  # 16 bits per pixel
        self._command1(_MADCTL, _MADCTL_BY_ROTATION[self.rotation])
        if invert:  # IPS panels show the right colours inverted
            self._command(_INVON)
        self._command(_NORON)
        self._command(_DISPON)
        self._sleep_ms(10)

    def power(self, on):
        self._command(_DISPON if on else _DISPOFF)

    def set_window(self, x0, y0, x1, y1):
        a = self._a
        x0 += self.xstart
        x1 += self.xstart
        y0 += self.ystart
        y1 += self.ystart
        a[0] = x0 >> 8
        a[1] = x0 & 0xFF
        a[2] = x1 >> 8
        a[3] = x1 & 0xFF
        self._command(_CASET, a)
        a[0] = y0 >> 8
        a[1] = y0 & 0xFF
        a[2] = y1 >> 8
        a[3] = y1 & 0xFF
        self._command(_RASET, a)
        self._command(_RAMWR)

    def blit_buffer(self, buf, x, y, w, h):
        if x < 0 or y < 0 or w < 1 or h < 1 or x + w > self.width or y + h > self.height:
            raise ValueError("blit_buffer: window outside the screen")
        if len(buf) < w * h * 2:
            raise ValueError("blit_buffer: %d bytes for %d x %d pixels" % (len(buf), w, h))
        self.set_window(x, y, x + w - 1, y + h - 1)
        self.write_data(buf)

    def fill_rect(self, x, y, w, h, color):
        # clipped; streamed from the band buffer filled with the colour (overwrites lcd.fb)
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        w = min(w, self.width - x)
        h = min(h, self.height - y)
        if w < 1 or h < 1:
            return
        self.fb.fill(color)
        self.set_window(x, y, x + w - 1, y + h - 1)
        left = w * h * 2
        chunk = len(self._band)
        while left >= chunk:
            self.write_data(self._full)
            left -= chunk
        if left:
            self.write_data(self._full[:left])

    def fill(self, color):
        self.fill_rect(0, 0, self.width, self.height, color)

    def show(self, render, bg=0):
        # repaint the whole screen band by band: render(fb, y0) draws with y shifted by -y0
        self.set_window(0, 0, self.width - 1, self.height - 1)
        fb = self.fb
        y = 0
        while y < self.height:
            fb.fill(bg)
            render(fb, y)
            self.write_data(self._full if self.height - y >= self.band_rows else self._last)
            y += self.band_rows
