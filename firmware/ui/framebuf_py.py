"""A pure-Python subset of MicroPython's built-in `framebuf`, for ports that lack it: CPython (the
desktop simulator registers it, simulator/parts.py) and CircuitPython
(firmware/board/circuitpython.py registers it), so firmware/ui/render.py draws there exactly as
on a MicroPython board. Never used on a port with the built-in module; firmware/ui/render.py
takes it through render.use_framebuf(), not import.

Formats: MONO_VLSB (SSD1306 pages), MONO_HLSB (glyph bitmaps), RGB565 (ST7789). Methods:
fill, pixel, hline, vline, rect, fill_rect, blit (with key and palette). Semantics follow
extmod/modframebuf.c of MicroPython 1.2x: MONO_HLSB strides round up to a multiple of 8 pixels;
a mono pixel is set for any colour != 0; RGB565 pixels are stored little-endian (the CPU's order,
as on every MicroPython port that drives these displays); blit clips to the destination, maps
each source pixel through the palette (pixel (c, 0) of it) and then skips it when it equals key.
tests/render checks this module and the real framebuf draw the same bytes.
"""

MONO_VLSB = MVLSB = 0
RGB565 = 1
MONO_HLSB = 3

_FORMATS = (MONO_VLSB, RGB565, MONO_HLSB)


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        if format not in _FORMATS:
            raise ValueError("invalid format (compat: MONO_VLSB, MONO_HLSB, RGB565)")
        if width < 1 or height < 1:
            raise ValueError("invalid size")
        buf = buffer if isinstance(buffer, bytearray) else memoryview(buffer).cast("B")
        if getattr(buf, "readonly", False):
            raise TypeError("object with buffer protocol required")  # framebuf writes its buffer
        if stride is None:
            stride = width
        if format == MONO_HLSB:
            stride = (stride + 7) & ~7
        if format == MONO_VLSB:
            need = ((height + 7) >> 3) * stride
        elif format == MONO_HLSB:
            need = (stride * height) >> 3
        else:
            need = stride * height * 2
        if len(buf) < need:
            raise ValueError("buffer too small")
        # _fb_ names: a subclass (a display driver) may use .width, .buf ... for its own
        self._fb_buf = buf
        self._fb_width = width
        self._fb_height = height
        self._fb_format = format
        self._fb_stride = stride

    # ---- one pixel ----
    def _set(self, x, y, c):
        b = self._fb_buf
        f = self._fb_format
        if f == MONO_VLSB:
            i = (y >> 3) * self._fb_stride + x
            m = 1 << (y & 7)
            b[i] = (b[i] | m) if c else (b[i] & ~m & 0xFF)
        elif f == RGB565:
            i = (x + y * self._fb_stride) << 1
            b[i] = c & 0xFF
            b[i + 1] = (c >> 8) & 0xFF
        else:
            i = (x + y * self._fb_stride) >> 3
            m = 0x80 >> (x & 7)
            b[i] = (b[i] | m) if c else (b[i] & ~m & 0xFF)

    def _get(self, x, y):
        b = self._fb_buf
        f = self._fb_format
        if f == MONO_VLSB:
            return (b[(y >> 3) * self._fb_stride + x] >> (y & 7)) & 1
        if f == RGB565:
            i = (x + y * self._fb_stride) << 1
            return b[i] | (b[i + 1] << 8)
        return (b[(x + y * self._fb_stride) >> 3] >> (7 - (x & 7))) & 1

    def pixel(self, x, y, c=None):
        if 0 <= x < self._fb_width and 0 <= y < self._fb_height:
            if c is None:
                return self._get(x, y)
            self._set(x, y, c)
        return None

    # ---- rectangles ----
    def fill_rect(self, x, y, w, h, c):
        fw = self._fb_width
        fh = self._fb_height
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= fh or x >= fw:
            return
        xend = min(fw, x + w)
        yend = min(fh, y + h)
        x = max(x, 0)
        y = max(y, 0)
        b = self._fb_buf
        f = self._fb_format
        stride = self._fb_stride
        if f == RGB565:
            row = bytes((c & 0xFF, (c >> 8) & 0xFF)) * (xend - x)
            for yy in range(y, yend):
                i = (yy * stride + x) << 1
                b[i : i + len(row)] = row
        elif f == MONO_VLSB:
            # whole bytes per page, a mask for the rows of the page inside the rectangle
            yy = y
            while yy < yend:
                page = yy >> 3
                last = min(yend, (page + 1) << 3)
                m = 0
                for r in range(yy, last):
                    m |= 1 << (r & 7)
                i0 = page * stride + x
                i1 = page * stride + xend
                if c:
                    for i in range(i0, i1):
                        b[i] |= m
                else:
                    nm = ~m & 0xFF
                    for i in range(i0, i1):
                        b[i] &= nm
                yy = last
        else:
            for yy in range(y, yend):
                for xx in range(x, xend):
                    self._set(xx, yy, c)

    def fill(self, c):
        self.fill_rect(0, 0, self._fb_width, self._fb_height, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
        else:
            self.fill_rect(x, y, w, 1, c)
            self.fill_rect(x, y + h - 1, w, 1, c)
            self.fill_rect(x, y, 1, h, c)
            self.fill_rect(x + w - 1, y, 1, h, c)

    # ---- copying ----
    def blit(self, fbuf, x, y, key=-1, palette=None):
        if not isinstance(fbuf, FrameBuffer):
            raise TypeError("blit source must be a FrameBuffer")
        sw = fbuf._fb_width
        sh = fbuf._fb_height
        if x >= self._fb_width or y >= self._fb_height or -x >= sw or -y >= sh:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(self._fb_width, x + sw)
        y0end = min(self._fb_height, y + sh)
        get = fbuf._get
        put = self._set
        pget = palette._get if palette is not None else None
        key &= 0xFFFFFFFF  # the C code compares as uint32: -1 never matches
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = get(cx1, y1)
                if pget is not None:
                    col = pget(col, 0)
                if col != key:
                    put(cx0, y0, col)
                cx1 += 1
            y0 += 1
            y1 += 1
