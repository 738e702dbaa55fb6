# A pure-Python stand-in for MicroPython's built-in `framebuf`, for running the display drivers'
# tests on CPython. Only what the drivers and their tests use: MONO_VLSB, MONO_HLSB, RGB565 and
# GS8 buffers with fill, pixel, hline, vline, fill_rect, rect and line; the byte layout and the
# line algorithm are MicroPython's (extmod/modframebuf.c), and
# tests/drivers/test_drivers_on_micropython.py checks both draw the same bytes. Never on a device.
MONO_VLSB = MVLSB = 0
RGB565 = 1
MONO_HLSB = 3
GS8 = 6

_BPP = {MONO_VLSB: 1, RGB565: 16, MONO_HLSB: 1, GS8: 8}


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if format not in _BPP:
            raise ValueError("invalid format (shim: MONO_VLSB, MONO_HLSB, RGB565, GS8)")
        # _fb_ names: a driver subclass may use .buf, .width... for its own
        self._fb_buf = memoryview(buf).cast("B") if not isinstance(buf, bytearray) else buf
        self._fb_width = width
        self._fb_height = height
        self._fb_format = format
        stride = width if stride is None else stride
        if width < 1 or height < 1 or stride < width:
            raise ValueError()
        # buffer size as extmod/modframebuf.c reckons it
        bpp = _BPP[format]
        height_req = height
        width_req = width
        strides_req = height - 1
        if format == MONO_VLSB:
            height_req = (height + 7) & ~7
            strides_req = height_req - 8
        elif format == MONO_HLSB:
            stride = (stride + 7) & ~7
            width_req = (width + 7) & ~7
        self._fb_stride = stride
        need = (strides_req * stride + (height_req - strides_req) * width_req) * bpp // 8
        if need > len(self._fb_buf):
            raise ValueError()

    def _set(self, x, y, c):
        b = self._fb_buf
        f = self._fb_format
        if f == MONO_VLSB:
            i = (y >> 3) * self._fb_stride + x
            if c & 1:
                b[i] |= 1 << (y & 7)
            else:
                b[i] &= 0xFF ^ (1 << (y & 7))
        elif f == RGB565:
            i = (x + y * self._fb_stride) * 2
            b[i] = c & 0xFF
            b[i + 1] = (c >> 8) & 0xFF
        elif f == MONO_HLSB:
            i = (x + y * self._fb_stride) >> 3
            bit = 7 - (x & 7)
            if c & 1:
                b[i] |= 1 << bit
            else:
                b[i] &= 0xFF ^ (1 << bit)
        else:
            b[x + y * self._fb_stride] = c & 0xFF

    def _get(self, x, y):
        b = self._fb_buf
        f = self._fb_format
        if f == MONO_VLSB:
            return b[(y >> 3) * self._fb_stride + x] >> (y & 7) & 1
        if f == RGB565:
            i = (x + y * self._fb_stride) * 2
            return b[i] | b[i + 1] << 8
        if f == MONO_HLSB:
            return b[(x + y * self._fb_stride) >> 3] >> (7 - (x & 7)) & 1
        return b[x + y * self._fb_stride]

    def pixel(self, x, y, c=None):
        if 0 <= x < self._fb_width and 0 <= y < self._fb_height:
            if c is None:
                return self._get(x, y)
            self._set(x, y, c)
        return None

    def fill_rect(self, x, y, w, h, c):
        if (h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._fb_height
                or x >= self._fb_width):
            return
        xend = min(self._fb_width, x + w)
        yend = min(self._fb_height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        if self._fb_format == RGB565:  # row slices: the band redraws of the ST7789 tests
            run = bytes((c & 0xFF, (c >> 8) & 0xFF)) * (xend - x)
            for yy in range(y, yend):
                i = (x + yy * self._fb_stride) * 2
                self._fb_buf[i:i + len(run)] = run
            return
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

    def line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        sx = 1 if dx > 0 else -1
        dx = abs(dx)
        dy = y2 - y1
        sy = 1 if dy > 0 else -1
        dy = abs(dy)
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < self._fb_width and 0 <= x1 < self._fb_height:
                    self._set(y1, x1, c)
            elif 0 <= x1 < self._fb_width and 0 <= y1 < self._fb_height:
                self._set(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < self._fb_width and 0 <= y2 < self._fb_height:
            self._set(x2, y2, c)
