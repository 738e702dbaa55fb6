# Screen models onto a display. A model is (title, lines, hint): title and hint are str, lines a
# list of str; Chinese and ASCII mix freely. Drawn as
#
#   +---------------------------+
#   | title (inverted bar)      |
#   | line scroll+0             |#   <- scroll bar when the lines do not all fit
#   | line scroll+1      right  |#      a "\t" in a line right-aligns what follows it;
#   | left   1 | right     2    |       a "\x1e" splits a line into two columns (layout.COL)
#   | ...                       |
#   |---------------------------|
#   | hint                      |
#   +---------------------------+
#
# Text wider than its room is cut at a glyph boundary and ends in an ellipsis (three dots).
#
#   r = Renderer(128, 64)                       # SSD1306: mono, 12 px font, 3 lines
#   r.draw(oled, ("番种", ["清一色\t24", ...], "#=OK *=Back"), scroll=0); oled.show()
#
#   r = Renderer(320, 240, color=True, swap=True)   # ST7789 (colours byte-swapped, as color565)
#   r.set(model, scroll, lcd.band_rows); lcd.show(r.band)   # r.band(fb, y0) draws one band
#
# Fonts: firmware/ui/glyphs_12.py (128x64) and firmware/ui/glyphs_16.py (larger screens), built by
# tools/glyphs.py. A character outside the subset is drawn as an empty box.
#
# Glyphs go to the target one of two ways, same pixels either way:
#  - blit (target is a framebuf.FrameBuffer, or a subclass such as the SSD1306 driver): the glyph's
#    bytes are copied into a preallocated MONO_HLSB buffer (one per row stride) and blitted through
#    a 2-colour palette with the background as key;
#  - runs (any object with fill, fill_rect, pixel, hline): each run of set pixels in a glyph row
#    is one hline.
# Nothing is allocated per glyph: code points are decoded from the str's UTF-8 bytes
# (memoryview(str) on MicroPython: one small object per text, no copy).
from firmware.compat import MICROPYTHON as _MP, const

try:
    import framebuf
except ImportError:  # CPython, CircuitPython: whoever runs the firmware there registers a stand-in
    framebuf = None


_names = None  # firmware/ui/name_bitmaps.py, once a session has a name its fonts cannot draw


def use_names(mod):
    """Draw the characters firmware/ui/name_bitmaps.py stands names by (issue 18.6); None: the
    session has none."""
    global _names
    _names = mod


# the native glyph writer where this build compiled it (firmware/ui/glyph_viper.py); not tried on
# CPython, a port without a native emitter fails to compile it (SyntaxError), a .mpy for
# another architecture will not load (ValueError). Loaded from an .mpy file its ~4 KB of machine
# code would sit in the heap (frozen, it stays in flash), and the stock box has none to spare:
# there the glyphs are blitted.
_gv = None
if _MP and not globals().get("__file__", "").endswith(".mpy"):
    try:
        from firmware.ui import glyph_viper as _gv
    except (ImportError, SyntaxError, ValueError):
        _gv = None


def use_framebuf(mod):
    """Register the framebuf of a port without MicroPython's built-in one (firmware/ui/framebuf_py.py:
    the simulator does on CPython, firmware/board/circuitpython.py on CircuitPython). Same pixels."""
    global framebuf
    framebuf = mod


_NASCII = const(95)
_MAXW = const(16)

# colour slots
BG = const(0)
FG = const(1)
TITLE_BG = const(2)
TITLE_FG = const(3)
HINT_BG = const(4)
HINT_FG = const(5)
RULE = const(6)  # line above the hint (mono)
BAR = const(7)  # scroll bar thumb

MONO = (0, 1, 1, 0, 0, 1, 1, 1)


def rgb565(r, g, b, swap=False):
    c = (r & 0xF8) << 8 | (g & 0xFC) << 3 | b >> 3
    return ((c & 0xFF) << 8 | c >> 8) if swap else c


def colors565(swap=False):
    """Default colour scheme; swap=True gives the byte-swapped values the ST7789 driver uses."""
    return (
        rgb565(0, 0, 0, swap),  # bg
        rgb565(255, 255, 255, swap),  # fg
        rgb565(0, 88, 160, swap),  # title bar
        rgb565(255, 255, 255, swap),  # title text
        rgb565(40, 40, 40, swap),  # hint bar
        rgb565(255, 216, 112, swap),  # hint text
        rgb565(40, 40, 40, swap),  # rule
        rgb565(120, 120, 120, swap),  # scroll bar
    )


class Font:
    """A glyph module (firmware/ui/glyphs_NN.py) and the buffers to draw its glyphs from."""

    def __init__(self, mod):
        self.size = mod.SIZE
        self.height = h = mod.HEIGHT
        self.ascent = mod.ASCENT
        self.codes = mod.CODES
        self.ncodes = len(mod.CODES) >> 1
        self.widths = mod.WIDTHS
        self.offsets = mod.OFFSETS
        self.bitmaps = mod.BITMAPS
        # glyph rows are 1 byte (width <= 8) or 2 bytes: one buffer for each, and for every
        # width a FrameBuffer over the buffer of its stride
        self.buf1 = bytearray(h)
        self.buf2 = bytearray(2 * h)
        fbs = [None]
        for w in range(1, _MAXW + 1):
            fbs.append(framebuf.FrameBuffer(self.buf1 if w <= 8 else self.buf2, w, h, framebuf.MONO_HLSB))
        self.fbs = fbs
        # MicroPython's framebuf blits from a (buffer, width, height, format, stride) tuple with
        # no allocation: the bitmaps seen as one tall image of 1-byte rows and one of 2-byte rows,
        # so a glyph's rows reach its FrameBuffer by a blit clipped to it, copied in C instead of
        # a Python loop of 12-24 bytes a glyph (the stock Pico's render, which has no native glyph
        # writer). Not on CPython: the simulator's framebuf stand-in takes FrameBuffers only.
        self.src1 = self.src2 = None
        if _MP and getattr(framebuf, "__name__", "") == "framebuf":   # the built-in one
            bm = mod.BITMAPS
            self.src1 = (bm, 8, len(bm), framebuf.MONO_HLSB, 8)
            self.src2 = (bm, 16, len(bm) >> 1, framebuf.MONO_HLSB, 16)

    def index(self, cp):
        """Glyph number of a code point, -1 when it is not in the subset."""
        return _index(self, cp)

    def has(self, ch):
        return _index(self, ord(ch)) >= 0 or (_names is not None and _names.width(self, ord(ch)) > 0)


def _index(font, cp):
    # a function, not a method: taking font.index would allocate a bound method per text
    if 32 <= cp < 127:
        return cp - 32
    codes = font.codes
    lo = 0
    hi = font.ncodes - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        c = (codes[mid << 1] << 8) | codes[(mid << 1) + 1]
        if c < cp:
            lo = mid + 1
        elif c > cp:
            hi = mid - 1
        else:
            return mid + _NASCII
    return -1


def load_font(size):
    if size == 12:
        from firmware.ui import glyphs_12 as mod
    elif size == 16:
        from firmware.ui import glyphs_16 as mod
    else:
        raise ValueError("font sizes: 12, 16")
    return Font(mod)


def hline_rows(fb, bits, off, stride, w, h, x, y, fg):
    """Draw w x h MONO_HLSB pixels (bits[off:], stride bytes a row) into fb at x, y as runs of
    hline(): for a target that cannot blit (a glyph, a name drawn by the server)."""
    for r in range(h):
        run = -1
        for px in range(w):
            if bits[off + (px >> 3)] & (0x80 >> (px & 7)):
                if run < 0:
                    run = px
            elif run >= 0:
                fb.hline(x + run, y + r, px - run, fg)
                run = -1
        if run >= 0:
            fb.hline(x + run, y + r, w - run, fg)
        off += stride


def _utf8(s):
    # the str's UTF-8 bytes: MicroPython lends them without a copy
    return memoryview(s) if _MP else s.encode()


class Renderer:
    def __init__(self, width, height, color=False, font=None, colors=None, swap=False, blit=None):
        # blit: None picks per target (blit into a framebuf.FrameBuffer, hline runs otherwise),
        # True / False forces one way (benchmarks)
        self.width = width
        self.height = height
        if font is None:
            font = load_font(12 if height < 160 else 16)
        self.font = font
        if colors is None:
            colors = colors565(swap) if color else MONO
        self.colors = colors
        fh = font.height
        if fh < 16:  # 128x64: title 13 rows, 3 lines of 12, rule, hint 12 rows
            self.mx = 1
            self.title_h = fh + 1
            self.title_y = 1
            self.hint_h = fh
            self.gap = 0
            self.sb_w = 2
            self.dot = 1
        else:  # 320x240: bars of fh + 4 rows, lines 2 rows apart
            self.mx = 4
            self.title_h = fh + 4
            self.title_y = (self.title_h - font.size) >> 1  # CJK ink centred in the bar
            self.hint_h = fh + 4
            self.gap = 2
            self.sb_w = 4
            self.dot = 2
        self.hint_top = height - self.hint_h
        self.top = self.title_h + 1 + (self.gap >> 1)
        self.pitch = fh + self.gap
        self.rows = (self.hint_top - 2 - self.top + self.gap) // self.pitch
        if self.rows < 1:
            raise ValueError("screen too small for the font")
        self.ell_w = 6 * self.dot  # ". . ." and a gap before it
        self.col_gap = 2 * self.mx + 1  # between the two columns of a row (a dotted rule in it)
        self.cut = 0  # texts cut short (with an ellipsis) since this was last set to 0
        self._palbuf = bytearray(4)
        self._pal = framebuf.FrameBuffer(self._palbuf, 2, 1, framebuf.RGB565)
        self.blit = blit
        self._blit = True
        self._direct = None  # (fb, its MONO_VLSB buffer): see direct()
        self._vb = None  # the buffer glyphs go straight into for the target being drawn, or None
        self._model = None
        self._scroll = 0
        self._band_h = 0

    # ---- measuring ----
    def text_width(self, s):
        b = _utf8(s)
        return self._measure(b, 0, len(b))

    def _measure(self, b, i, n):
        # width of the UTF-8 bytes b[i:n]
        font = self.font
        if _gv is not None and _names is None:  # the native code knows no drawn names
            return _gv.measure(b, i, n, font.codes, font.ncodes, font.widths, font.size)
        widths = font.widths
        tofu = font.size
        w = 0
        while i < n:
            c = b[i]
            if c < 0x80:
                i += 1
            elif c < 0xE0:
                c = ((c & 0x1F) << 6) | (b[i + 1] & 0x3F)
                i += 2
            elif c < 0xF0:
                c = ((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F)
                i += 3
            else:
                c = 0xFFFD
                i += 4
            g = _index(font, c)
            w += widths[g] if g >= 0 else (_names is not None and _names.width(font, c)) or tofu
        return w

    # ---- drawing ----
    def direct(self, fb, buf):
        """fb's pixels are MONO_VLSB in buf (the SSD1306 driver's frame): glyphs drawn into fb are
        written into buf by the native glyph writer, where this build has it. Same pixels."""
        self._direct = (fb, buf) if _gv is not None else None

    def target(self, fb):
        """Pick the way glyphs go to fb (draw() does; so does whoever calls _line itself)."""
        self._blit = isinstance(fb, framebuf.FrameBuffer) if self.blit is None else self.blit
        d = self._direct
        self._vb = d[1] if d is not None and d[0] is fb and self._blit else None

    def draw(self, fb, model, scroll=0, y0=0, rows=0):
        """Draw model into fb. y0, rows: fb holds screen rows y0 .. y0+rows-1 (a band; rows=0:
        the whole screen). Returns the scroll offset used (clamped to what can scroll)."""
        title, lines, hint = model
        col = self.colors
        fh = self.font.height
        font_size = self.font.size
        width = self.width
        h = rows or self.height
        y1 = y0 + h
        self.target(fb)
        vb = self._vb
        if vb is not None and rows == 0 and not (len(vb) & 3):
            _gv.fill(vb, len(vb), col[BG])  # native: same pixels, a tenth of the time
        else:
            fb.fill(col[BG])
        # title bar
        if y0 < self.title_h:
            fb.fill_rect(0, -y0, width, self.title_h, col[TITLE_BG])
            self._line(fb, title, self.mx + 1, self.title_y - y0, width - self.mx - 1, col[TITLE_FG], col[TITLE_BG])
        # lines
        n = len(lines)
        rows_ = self.rows
        if scroll > n - rows_:
            scroll = n - rows_
        if scroll < 0:
            scroll = 0
        limit = width - self.mx
        if n > rows_:
            limit -= self.sb_w + 1
        y = self.top
        for k in range(scroll, min(n, scroll + rows_)):
            if y < y1 and y + fh > y0:
                self._line(fb, lines[k], self.mx, y - y0, limit, col[FG], col[BG])
            y += self.pitch
        # scroll bar
        if n > rows_:
            area = rows_ * self.pitch - self.gap
            th = area * rows_ // n
            if th < 4:
                th = 4
            ty = self.top + (area - th) * scroll // (n - rows_)
            fb.fill_rect(width - self.sb_w, ty - y0, self.sb_w, th, col[BAR])
        # hint
        ht = self.hint_top
        if y1 > ht - 2:
            if col[RULE] != col[HINT_BG]:
                fb.hline(0, ht - 2 - y0, width, col[RULE])
            if col[HINT_BG] != col[BG]:
                fb.fill_rect(0, ht - y0, width, self.hint_h, col[HINT_BG])
            self._line(fb, hint, self.mx, ht + ((self.hint_h - font_size) >> 1) - y0, width - self.mx, col[HINT_FG], col[HINT_BG])
        return scroll

    def set(self, model, scroll=0, rows=0):
        """Keep a model for band(); rows: the band height (0: the whole screen)."""
        self._model = model
        self._scroll = scroll
        self._band_h = rows

    def band(self, fb, y0):
        # render(fb, y0) callback of the ST7789 driver's show()
        self.draw(fb, self._model, self._scroll, y0, self._band_h)

    def _line(self, fb, s, x, y, limit, fg, bg):
        b = _utf8(s)
        n = len(b)
        if "\x1e" not in s:  # one column, most lines: found in C, not by a loop over the bytes
            if "\t" in s:
                self._cell(fb, b, 0, n, x, y, limit, fg, bg)
            else:
                self._text(fb, b, 0, n, x, y, limit, fg, bg)
            return
        c = 0
        while c < n and b[c] != 0x1E:  # two columns (firmware/ui/layout.py COL)
            c += 1
        if c < n:
            half = (limit - x - self.col_gap) >> 1
            self._cell(fb, b, 0, c, x, y, x + half, fg, bg)
            self._cell(fb, b, c + 1, n, limit - half, y, limit, fg, bg)
            # a dotted rule between the columns, so that "0 南 102" does not read as one cell
            rx = x + half + (self.col_gap >> 1)
            for k in range(0, self.font.height, 2):
                fb.pixel(rx, y + k, self.colors[RULE])
            return
        self._cell(fb, b, 0, n, x, y, limit, fg, bg)

    def _cell(self, fb, b, i0, n, x, y, limit, fg, bg):
        # the UTF-8 bytes b[i0:n] from x to limit; a tab right-aligns what follows it
        t = i0
        while t < n and b[t] != 9:  # a tab: the rest goes right-aligned
            t += 1
        if t == n:
            self._text(fb, b, i0, n, x, y, limit, fg, bg)
            return
        rw = self._measure(b, t + 1, n)
        rx = limit - rw
        if rx <= x:  # no room for the left part
            self._text(fb, b, t + 1, n, x, y, limit, fg, bg)
            return
        if t > i0:
            self._text(fb, b, i0, t, x, y, rx - (self.font.size >> 1), fg, bg)
        self._text(fb, b, t + 1, n, rx, y, limit, fg, bg)

    def _text(self, fb, b, i, n, x, y, limit, fg, bg):
        # draw the UTF-8 bytes b[i:n] from x, ending in an ellipsis if they pass limit
        font = self.font
        vb = self._vb
        if vb is not None and _names is None:
            # the whole run, measured and drawn, in one call of native code
            # (firmware/ui/glyph_viper.py): same pixels; a session with names drawn by the
            # server (issue 18.6) draws its text below in Python
            ink_end = _gv.text(vb, self.width, self.height, b, i, n, x, y, limit, self.ell_w, fg, bg, font)
            if ink_end >= 0:
                return
            self.cut += 1
            self._dots(fb, -1 - ink_end, y, fg)
            return
        if x + self._measure(b, i, n) <= limit:
            stop = limit
            ell = False
        else:
            stop = limit - self.ell_w
            ell = True
            self.cut += 1
        widths = font.widths
        offsets = font.offsets
        bm = font.bitmaps
        gh = font.height
        tofu = font.size
        blit = self._blit
        ink_end = x  # the ellipsis follows the last glyph drawn that is not a space
        if blit:
            pal = self._pal
            pal.pixel(0, 0, bg)
            pal.pixel(1, 0, fg)
            key = bg
            fbs = font.fbs
            buf1 = font.buf1
            buf2 = font.buf2
            src1 = font.src1
            src2 = font.src2
        while i < n:
            c = b[i]
            if c < 0x80:
                i += 1
            elif c < 0xE0:
                c = ((c & 0x1F) << 6) | (b[i + 1] & 0x3F)
                i += 2
            elif c < 0xF0:
                c = ((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F)
                i += 3
            else:
                c = 0xFFFD
                i += 4
            g = _index(font, c)
            if g < 0 and _names is not None and _names.width(font, c):  # a name drawn by the server
                w = _names.width(font, c)
                _names.draw(font, fb, c, x, y, stop - x, fg, pal if blit else None, bg)
                if x + w > stop:
                    x = ink_end = stop
                    break
                x += w
                ink_end = x
                continue
            if g < 0:  # not in the subset: an empty box
                if x + tofu > stop:
                    break
                bh = font.ascent - 1
                fb.hline(x + 1, y + 1, tofu - 2, fg)
                fb.hline(x + 1, y + bh, tofu - 2, fg)
                fb.fill_rect(x + 1, y + 1, 1, bh, fg)
                fb.fill_rect(x + tofu - 2, y + 1, 1, bh, fg)
                x += tofu
                ink_end = x
                continue
            w = widths[g]
            if x + w > stop:
                break
            if c != 32:
                ink_end = x + w
            off = (offsets[g << 1] << 8) | offsets[(g << 1) + 1]
            if blit:
                if w > 8:
                    buf = buf2
                    cnt = gh << 1
                    src = src2 if not off & 1 else None   # 2-byte rows start at an even byte
                    row = off >> 1
                else:
                    buf = buf1
                    cnt = gh
                    src = src1
                    row = off
                if src is not None:
                    fbs[w].blit(src, 0, -row)
                else:
                    for k in range(cnt):
                        buf[k] = bm[off + k]
                fb.blit(fbs[w], x, y, key, pal)
            else:
                hline_rows(fb, bm, off, (w + 7) >> 3, w, gh, x, y, fg)
            x += w
        if ell:
            self._dots(fb, ink_end, y, fg)

    def _dots(self, fb, ink_end, y, fg):
        # the ellipsis after a text cut short
        d = self.dot
        dy = y + self.font.ascent - d
        x = ink_end + d
        for _ in range(3):
            fb.fill_rect(x, dy, d, d, fg)
            x += 2 * d
