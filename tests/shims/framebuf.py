# MicroPython's built-in `framebuf` for running the display drivers' tests on CPython: the
# firmware's own pure-Python framebuf (firmware/ui/framebuf_py.py: MONO_VLSB, MONO_HLSB, RGB565,
# fill, pixel, lines, rectangles, blit) plus what only the drivers' tests draw with: GS8 buffers,
# line() and extmod/modframebuf.c's exact buffer-size check.
# tests/drivers/test_drivers_on_micropython.py checks this and the real module draw the same bytes.
# Never on a device.
from firmware.ui.framebuf_py import FrameBuffer as _Base
from firmware.ui.framebuf_py import MONO_HLSB, MONO_VLSB, MVLSB, RGB565  # noqa: F401

GS8 = 6

_BPP = {MONO_VLSB: 1, RGB565: 16, MONO_HLSB: 1, GS8: 8}


class FrameBuffer(_Base):
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
        if self._fb_format == GS8:
            self._fb_buf[x + y * self._fb_stride] = c & 0xFF
        else:
            _Base._set(self, x, y, c)

    def _get(self, x, y):
        if self._fb_format == GS8:
            return self._fb_buf[x + y * self._fb_stride]
        return _Base._get(self, x, y)

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
