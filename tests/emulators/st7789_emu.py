# ST7789 emulator behind a fake SPI bus with CS, DC and RST pins. It parses commands (DC low) and
# their parameters or pixel data (DC high), and rebuilds the controller's 240 x 320 RGB565 RAM
# from CASET / RASET / RAMWR, through MADCTL:
#
#   the window addresses a logical (column, row); MV exchanges them, then MX mirrors the
#   physical column (239 - x) and MY the physical row (319 - y).
#
# Only the rows capture=(first, end) of the RAM are kept (the whole RAM is 150 KB, more than the
# MicroPython test heap); writes elsewhere are checked and counted. Timing rules of the data
# sheet are enforced on the virtual clock: 5 ms after a reset or SLPOUT before the next command,
# 120 ms after a reset before SLPOUT. Pixels need COLMOD 16 bits. A broken rule raises.
from emulators.fakepins import Clock, FakePin

W = 240
H = 320

_ARGS = {
    0x01: 0, 0x10: 0, 0x11: 0, 0x12: 0, 0x13: 0, 0x20: 0, 0x21: 0, 0x28: 0, 0x29: 0,
    0x2A: 4, 0x2B: 4, 0x2C: -1, 0x36: 1, 0x3A: 1, 0x37: 2, 0x33: 6,
    0xB2: 5, 0xB7: 1, 0xBB: 1, 0xC0: 1, 0xC2: 1, 0xC3: 1, 0xC4: 1, 0xC6: 1, 0xD0: 2,
    0xE0: 14, 0xE1: 14,
}
NS_BYTE = 800  # 10 MHz SCK


class ST7789Emu:
    def __init__(self, capture=(0, H), clock=None):
        self.clock = clock or Clock()
        self.cs = FakePin(1, self._cs_edge, "cs")
        self.dc = FakePin(1, None, "dc")
        self.rst = FakePin(1, self._rst_edge, "rst")
        self.row0, self.row1 = capture
        self.gram = bytearray(W * (self.row1 - self.row0) * 2)
        self.transactions = 0
        self.commands = []
        self.pixels = 0  # pixels written, captured or not
        self._cmd = -1
        self._args = bytearray(16)
        self._nargs = 0
        self._carry = -1
        self._power_on_reset(-10 ** 12)  # powered long before the driver starts

    def _power_on_reset(self, at=None):
        self.asleep = True
        self.on = False
        self.inverted = False
        self.colmod = 0x66
        self.madctl = 0x00
        self.xs, self.xe, self.ys, self.ye = 0, W - 1, 0, H - 1
        self.cx = self.cy = 0
        self._reset_ns = self.clock.ns if at is None else at
        self._wake_ns = None

    # -- the driver's side -----------------------------------------------------------------
    def sleep_ms(self, ms):
        self.clock.sleep_ms(ms)

    def _cs_edge(self, v):
        if v == 0:
            self.transactions += 1

    def _rst_edge(self, v):
        if v:
            self._power_on_reset()
            self._cmd = -1

    def write(self, buf):
        if self.cs._v:
            raise AssertionError("ST7789: SPI write with chip select high")
        if not self.rst._v:
            return
        self.clock.ns += NS_BYTE * len(buf)
        if not self.dc._v:
            for b in buf:
                self._command(b)
        elif self._cmd == 0x2C:
            self._pixels(buf)
        else:
            for b in buf:
                self._param(b)

    # -- commands --------------------------------------------------------------------------
    def _since(self, t):
        return self.clock.ns - t

    def _command(self, c):
        if self._cmd >= 0 and self._cmd != 0x2C and self._nargs < _ARGS[self._cmd]:
            raise AssertionError("ST7789: command 0x%02x cut short" % self._cmd)
        if c not in _ARGS:
            raise AssertionError("ST7789: unknown command 0x%02x" % c)
        if self._since(self._reset_ns) < 5000000:
            raise AssertionError("ST7789: command 0x%02x within 5 ms of a reset" % c)
        if self._wake_ns is not None and self._since(self._wake_ns) < 5000000:
            raise AssertionError("ST7789: command 0x%02x within 5 ms of SLPOUT" % c)
        self.commands.append(c)
        self._cmd = c
        self._nargs = 0
        if c == 0x01:
            self._power_on_reset()
            self._cmd = -1
        elif c == 0x11:
            if self._since(self._reset_ns) < 120000000:
                raise AssertionError("ST7789: SLPOUT within 120 ms of a reset")
            self.asleep = False
            self._wake_ns = self.clock.ns
        elif c == 0x10:
            self.asleep = True
        elif c in (0x20, 0x21):
            self.inverted = c == 0x21
        elif c in (0x28, 0x29):
            self.on = c == 0x29
        elif c == 0x2C:
            if self.colmod & 0x07 != 0x05:
                raise AssertionError("ST7789: RAMWR without COLMOD 16 bits per pixel")
            self.cx, self.cy = self.xs, self.ys
            self._carry = -1

    def _param(self, b):
        c = self._cmd
        if c < 0 or self._nargs >= _ARGS[c]:
            raise AssertionError("ST7789: data byte without a command taking it")
        a = self._args
        a[self._nargs] = b
        self._nargs += 1
        if self._nargs < _ARGS[c]:
            return
        cols = H if self.madctl & 0x20 else W
        rows = W if self.madctl & 0x20 else H
        if c == 0x2A:
            self.xs, self.xe = a[0] << 8 | a[1], a[2] << 8 | a[3]
            if not self.xs <= self.xe < cols:
                raise AssertionError("ST7789: CASET %d..%d" % (self.xs, self.xe))
        elif c == 0x2B:
            self.ys, self.ye = a[0] << 8 | a[1], a[2] << 8 | a[3]
            if not self.ys <= self.ye < rows:
                raise AssertionError("ST7789: RASET %d..%d" % (self.ys, self.ye))
        elif c == 0x36:
            self.madctl = a[0]
        elif c == 0x3A:
            self.colmod = a[0]

    # -- pixels ----------------------------------------------------------------------------
    def _place(self, c, p):
        m = self.madctl
        x, y = (p, c) if m & 0x20 else (c, p)
        if m & 0x40:
            x = W - 1 - x
        if m & 0x80:
            y = H - 1 - y
        return x, y

    def _advance(self, run):
        self.cx += run
        if self.cx > self.xe:
            self.cx = self.xs
            self.cy = self.cy + 1 if self.cy < self.ye else self.ys

    def _pixels(self, buf):
        n = len(buf)
        i = 0
        if self._carry >= 0 and n:
            self._put(self._carry, buf[0])
            self._carry = -1
            i = 1
        fast = not self.madctl & 0xE0
        g = self.gram
        while n - i >= 2:
            if fast:
                run = min(self.xe - self.cx + 1, (n - i) // 2)
                if self.row0 <= self.cy < self.row1:
                    o = ((self.cy - self.row0) * W + self.cx) * 2
                    g[o:o + run * 2] = buf[i:i + run * 2]
                self.pixels += run
                i += run * 2
                self._advance(run)
            else:
                self._put(buf[i], buf[i + 1])
                i += 2
        if i < n:
            self._carry = buf[i]

    def _put(self, hi, lo):
        x, y = self._place(self.cx, self.cy)
        if self.row0 <= y < self.row1:
            o = ((y - self.row0) * W + x) * 2
            self.gram[o] = hi
            self.gram[o + 1] = lo
        self.pixels += 1
        self._advance(1)

    # -- the test's side -------------------------------------------------------------------
    def pixel(self, x, y):
        """RGB565 at (x, y) of controller RAM (portrait, physical), from the captured rows."""
        if not self.row0 <= y < self.row1:
            raise IndexError("row %d not captured" % y)
        o = ((y - self.row0) * W + x) * 2
        return self.gram[o] << 8 | self.gram[o + 1]
