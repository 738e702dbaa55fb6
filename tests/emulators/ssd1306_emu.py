# SSD1306 emulator behind a fake I2C bus (writeto, writevto): parses the control bytes (Co, D/C),
# the command set with its argument counts, and rebuilds the 128 x 64 display RAM from the data
# in page, horizontal or vertical addressing mode. lit(x, y) is what the glass shows: the usual
# module is wired so that segment remap (A1) and reversed COM scan (C8) give an upright picture;
# the multiplex ratio (A8h), display offset (D3h) and start line (40h-7Fh) move it as the SSD1306
# datasheet (rev. 1.1) §10.1.6, §10.1.11 and §10.1.15 say: the COM line scanned for glass row y
# (y with C8, 63 - y with C0) shows display row (line + offset) mod 64, dark past the multiplex
# ratio, and display row j is RAM row (j + start line) mod 64 (pico/lib/ssd1306.mjs alike).
#
# An unknown command raises: it is a driver bug. Parsing allocates nothing (unless .log is set
# to record the command bytes), so show() can be measured for allocations with the emulator in
# the loop.
W = 128
H = 64

_ARGS = {
    0x81: 1, 0x8D: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1, 0xD9: 1,
    0xDB: 1, 0xAD: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
}
_SINGLE = (0xAE, 0xAF, 0xA0, 0xA1, 0xC0, 0xC8, 0xA4, 0xA5, 0xA6, 0xA7, 0x2E, 0x2F, 0xE3)


class SSD1306Emu:
    def __init__(self, addr=0x3C):
        self.addr = addr
        self.ram = bytearray(W * H // 8)
        self.transactions = 0
        self.data_bytes = 0
        self.log = None  # a bytearray here records every command-stream byte
        self.on = False
        self.charge_pump = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_reversed = False
        self.mode = 2  # reset: page addressing
        self.mux = 63
        self.start_line = 0
        self.offset = 0
        self.page = 0
        self.col = 0
        self.col_start = 0
        self.col_range = [0, W - 1]
        self.page_range = [0, H // 8 - 1]
        self._cmd = -1  # command waiting for arguments
        self._args = bytearray(6)
        self._nargs = 0
        self._need = 0

    # -- bus -----------------------------------------------------------------------------
    def writeto(self, addr, buf, stop=True):
        self._check(addr)
        self.transactions += 1
        self._stream(buf, 0, True)

    def writevto(self, addr, vector, stop=True):
        self._check(addr)
        self.transactions += 1
        first = True
        for buf in vector:
            self._stream(buf, 0, first)
            first = False

    def _check(self, addr):
        if addr != self.addr:
            raise OSError(19)

    # one I2C transaction is: control byte, then (Co = 1) one byte and another control byte, or
    # (Co = 0) every remaining byte of the transaction as commands (D/C = 0) or data (D/C = 1)
    def _stream(self, buf, i, start):
        if start:
            self._ctl = -1
        n = len(buf)
        while i < n:
            b = buf[i]
            i += 1
            if self._ctl < 0:  # expecting a control byte
                if b & 0x3F:
                    raise AssertionError("SSD1306: bad control byte 0x%02x" % b)
                self._ctl = b
                continue
            ctl = self._ctl
            if ctl & 0x40:
                self._data(b)
            else:
                self._command_byte(b)
            if ctl & 0x80:
                self._ctl = -1

    # -- commands ------------------------------------------------------------------------
    def _command_byte(self, b):
        if self.log is not None:
            self.log.append(b)
        if self._cmd >= 0:
            self._args[self._nargs] = b
            self._nargs += 1
            if self._nargs == self._need:
                self._exec(self._cmd)
                self._cmd = -1
            return
        need = _ARGS.get(b, 0)
        if need:
            self._cmd = b
            self._nargs = 0
            self._need = need
            return
        if b in _SINGLE:
            self._exec(b)
        elif 0x40 <= b <= 0x7F:
            self.start_line = b & 0x3F
        elif 0xB0 <= b <= 0xB7:
            self.page = b & 0x07
        elif b <= 0x0F:
            self.col_start = (self.col_start & 0xF0) | b
            self.col = self.col_start
        elif b <= 0x1F:
            self.col_start = (self.col_start & 0x0F) | (b & 0x0F) << 4
            self.col = self.col_start
        else:
            raise AssertionError("SSD1306: unknown command 0x%02x" % b)

    def _exec(self, c):
        a = self._args
        if c in (0xAE, 0xAF):
            self.on = c == 0xAF
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xC0, 0xC8):
            self.com_reversed = c == 0xC8
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverted = c == 0xA7
        elif c == 0x81:
            self.contrast = a[0]
        elif c == 0x8D:
            self.charge_pump = a[0] & 0x04 != 0
        elif c == 0x20:
            if a[0] & 3 == 3:
                raise AssertionError("SSD1306: invalid addressing mode")
            self.mode = a[0] & 3
        elif c == 0x21:
            self.col_range[0] = a[0] & 0x7F
            self.col_range[1] = a[1] & 0x7F
            self.col = self.col_range[0]
        elif c == 0x22:
            self.page_range[0] = a[0] & 7
            self.page_range[1] = a[1] & 7
            self.page = self.page_range[0]
        elif c == 0xA8:
            if a[0] & 0x3F < 15:
                raise AssertionError("SSD1306: multiplex ratio below 16 is invalid")
            self.mux = a[0] & 0x3F
        elif c == 0xD3:
            self.offset = a[0] & 0x3F

    # -- display RAM ---------------------------------------------------------------------
    def _data(self, b):
        self.data_bytes += 1
        self.ram[self.page * W + self.col] = b
        if self.mode == 2:  # page: the column wraps, the page stays
            self.col = self.col + 1 if self.col < W - 1 else self.col_start
            return
        c0, c1 = self.col_range[0], self.col_range[1]
        p0, p1 = self.page_range[0], self.page_range[1]
        if self.mode == 0:  # horizontal
            if self.col < c1:
                self.col += 1
            else:
                self.col = c0
                self.page = self.page + 1 if self.page < p1 else p0
        else:  # vertical
            if self.page < p1:
                self.page += 1
            else:
                self.page = p0
                self.col = self.col + 1 if self.col < c1 else c0

    def ram_bit(self, col, row):
        return self.ram[(row >> 3) * W + col] >> (row & 7) & 1

    def ram_row(self, y):
        """The RAM row glass row y shows, -1 for a dark line (past the multiplex ratio)."""
        line = y if self.com_reversed else H - 1 - y
        j = (line + self.offset) & 63
        if j > self.mux:
            return -1
        return (j + self.start_line) & 63

    def lit(self, x, y):
        """1 if the pixel at (x, y) of the glass is lit."""
        if not (self.on and self.charge_pump):
            return 0
        row = self.ram_row(y)
        if row < 0:
            return 0
        if self.entire_on:
            return 1
        col = x if self.seg_remap else W - 1 - x
        return self.ram_bit(col, row) ^ (1 if self.inverted else 0)
