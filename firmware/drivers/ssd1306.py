# SSD1306 OLED (128x64, also 128x32) over I2C, as a framebuf.FrameBuffer: draw with the
# FrameBuffer methods, then show().
#
#   oled = SSD1306_I2C(i2c, 128, 64)      # i2c: machine.I2C or SoftI2C, 400 kHz
#   oled.fill(0); oled.text("East 32", 0, 0, 1); oled.show()
#
# MONO_VLSB is the controller's own RAM layout (a byte is 8 pixels of one column, a page is 8
# rows), so show() sends the buffer untouched: in page addressing mode, per page one command
# transaction (page, column) and one data transaction. The I2C vector, the command bytes and
# the page views are made once; show() allocates only the view of a page's changed columns.
#
# Only what changed since the last show() goes on the bus (a copy of what the panel holds is
# kept: 1 KiB): of each page that changed, the columns from its first changed byte to its last
# (the page's column start address, datasheet §10.1.1-2, then the data). At 400 kHz, the
# SSD1306's fast-mode I2C, a whole page is ~3 ms and the whole frame ~24 ms; a tile added to a
# line of tiles changes a dozen columns of two or three pages. show(full=True) sends every page
# whole (after the panel may have lost its RAM); every _REFRESH_EVERY-th show also sends one more
# page whole, round the pages in turn, in case a glitch on the bus left a byte wrong (each page
# within 64 shows, and never the whole frame's 24 ms on top of one show).
#
# Burn-in: dim() lowers the contrast; shift(rows) moves the picture with the display start line
# (40h-7Fh, datasheet §10.1.6), in the panel, without sending the frame again.
import framebuf

from firmware.compat import const

_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_MEM_ADDR = const(0x20)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)
_SET_PAGE = const(0xB0)
_PAGE_ADDRESSING = const(0x02)
_CTRL_CMD = const(0x00)  # Co = 0, D/C = 0: the rest of the transaction is commands
_CTRL_DATA = const(0x40)  # Co = 0, D/C = 1: the rest is display RAM data
_REFRESH_EVERY = const(8)  # x 8 pages: each page sent whole at least every 64 shows


class SSD1306_I2C(framebuf.FrameBuffer):
    mono_vlsb = True  # .buffer is MONO_VLSB: a renderer may write glyphs into it directly

    def __init__(self, i2c, width=128, height=64, addr=0x3C, external_vcc=False, col_offset=0):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.external_vcc = external_vcc
        self.pages = height // 8
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        mv = memoryview(self.buffer)
        self._page_views = tuple(mv[p * width:(p + 1) * width] for p in range(self.pages))
        self._sent = bytearray(self.pages * width)  # what the panel's RAM holds
        sv = memoryview(self._sent)
        self._sent_views = tuple(sv[p * width:(p + 1) * width] for p in range(self.pages))
        self._shows = 0
        self._next = 0  # the page the next refresh sends whole
        self._col0 = col_offset
        self._vec = [bytes((_CTRL_DATA,)), None]  # writevto: control byte, then the page
        self._pc = bytearray((_CTRL_CMD, _SET_PAGE, col_offset & 0x0F, 0x10 | col_offset >> 4))
        self._c2 = bytearray((_CTRL_CMD, 0))
        self._c3 = bytearray((_CTRL_CMD, 0, 0))
        self.init_display()

    def init_display(self):
        self._cmds((
            _SET_DISP,  # off while configuring
            _SET_MEM_ADDR, _PAGE_ADDRESSING,
            _SET_DISP_START_LINE,
            _SET_SEG_REMAP | 0x01,  # column 0 at the left of the usual module
            _SET_MUX_RATIO, self.height - 1,
            _SET_COM_OUT_DIR | 0x08,  # row 0 at the top
            _SET_DISP_OFFSET, 0x00,
            _SET_COM_PIN_CFG, 0x02 if self.width > 2 * self.height else 0x12,
            _SET_DISP_CLK_DIV, 0x80,
            _SET_PRECHARGE, 0x22 if self.external_vcc else 0xF1,
            _SET_VCOM_DESEL, 0x30,
            _SET_CONTRAST, 0xFF,
            _SET_ENTIRE_ON,  # show RAM
            _SET_NORM_INV,
            _SET_CHARGE_PUMP, 0x10 if self.external_vcc else 0x14,
            _SET_DISP | 0x01,
        ))
        self.fill(0)
        self.show(True)

    def _cmds(self, cmds):
        # a one-off command sequence in one transaction
        self.i2c.writeto(self.addr, bytes((_CTRL_CMD,)) + bytes(cmds))

    def _cmd(self, c):
        self._c2[1] = c
        self.i2c.writeto(self.addr, self._c2)

    def _cmd1(self, c, arg):
        self._c3[1] = c
        self._c3[2] = arg
        self.i2c.writeto(self.addr, self._c3)

    def poweroff(self):
        self._cmd(_SET_DISP)

    def poweron(self):
        self._cmd(_SET_DISP | 0x01)

    def contrast(self, c):
        self._cmd1(_SET_CONTRAST, c)

    def invert(self, on):
        self._cmd(_SET_NORM_INV | (1 if on else 0))

    def rotate(self, flipped):
        # a module mounted upside down: mirror both axes in the controller, not in software
        self._cmd(_SET_COM_OUT_DIR | (0 if flipped else 0x08))
        self._cmd(_SET_SEG_REMAP | (0 if flipped else 0x01))

    def dim(self, on):
        self._cmd1(_SET_CONTRAST, 0x08 if on else 0xFF)

    def shift(self, rows):
        # the picture `rows` lower (0..7): RAM row 64 - rows on the top line
        self._cmd(_SET_DISP_START_LINE | (-rows & 0x3F))

    def show(self, full=False):
        pc = self._pc
        vec = self._vec
        w = self.width
        self._shows += 1
        whole = -1  # a page sent whole this time (the refresh)
        if self._shows >= _REFRESH_EVERY:
            self._shows = 0
            whole = self._next
            self._next = (whole + 1) % self.pages
        for p in range(self.pages):
            page = self._page_views[p]
            sent = self._sent_views[p]
            c0 = 0
            c1 = w
            if not full and p != whole:
                if page == sent:
                    continue
                while page[c0] == sent[c0]:  # a changed page: from its first changed column
                    c0 += 1
                while page[c1 - 1] == sent[c1 - 1]:  # to its last
                    c1 -= 1
            c = self._col0 + c0
            pc[1] = _SET_PAGE | p
            pc[2] = c & 0x0F
            pc[3] = 0x10 | c >> 4
            self.i2c.writeto(self.addr, pc)
            vec[1] = page if c1 - c0 == w else page[c0:c1]
            self.i2c.writevto(self.addr, vec)
            sent[:] = page
