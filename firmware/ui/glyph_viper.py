# Native (viper) glyph writer: a glyph of the font tables (firmware/ui/glyphs_NN.py: rows of 1 or
# 2 bytes, MSB first) straight into a MONO_VLSB frame buffer (the SSD1306's page layout: a byte
# is 8 rows of one column). firmware/ui/render.py uses it for a target that says its buffer is
# MONO_VLSB (Renderer.direct) where this module imports: on a board whose build compiles it with
# mpy-cross -march (board_configs MPY_ARCH), frozen or as .mpy; the unix port compiles it from
# source. Elsewhere (CPython, CircuitPython) its import fails and the glyph is copied into a
# FrameBuffer and blitted, as before.
#
# Same pixels as that blit through the renderer's palette with the background as key: a set bit
# of the glyph is a pixel of colour fg, a clear one leaves the frame as it is, pixels outside the
# frame are skipped, and fg equal to the background draws nothing. tests/render/test_render.py
# holds the frames equal on the unix port; the emulated Pico's screens (tests/pico) hold them
# equal on the chip. One glyph costs a few microseconds instead of a Python loop and a blit.
import micropython


@micropython.viper
def glyph(buf, bw: int, bh: int, bm, off: int, gw: int, gh: int, x: int, y: int, fg: int, bg: int):
    if fg == bg:
        return
    d = ptr8(buf)
    s = ptr8(bm)
    stride = (gw + 7) >> 3
    r = 0
    while r < gh:
        yy = y + r
        if yy >= 0 and yy < bh:
            row = (yy >> 3) * bw
            bit = 1 << (yy & 7)
            px = 0
            while px < gw:
                if s[off + (px >> 3)] & (0x80 >> (px & 7)):
                    xx = x + px
                    if xx >= 0 and xx < bw:
                        if fg:
                            d[row + xx] = d[row + xx] | bit
                        else:
                            d[row + xx] = d[row + xx] & (0xFF ^ bit)
                px += 1
        off += stride
        r += 1


@micropython.viper
def measure(b, i: int, n: int, codes, ncodes: int, widths, tofu: int) -> int:
    # Renderer._measure: the width of the UTF-8 bytes b[i:n], the glyph of each code point found as
    # firmware/ui/render.py's _index finds it (ASCII 32..126 by place, else a binary search of
    # CODES), a code point without one as wide as an empty box (tofu)
    p = ptr8(b)
    cp = ptr8(codes)
    wp = ptr8(widths)
    w = 0
    while i < n:
        c = int(p[i])
        if c < 0x80:
            i += 1
        elif c < 0xE0:
            c = ((c & 0x1F) << 6) | (int(p[i + 1]) & 0x3F)
            i += 2
        elif c < 0xF0:
            c = ((c & 0x0F) << 12) | ((int(p[i + 1]) & 0x3F) << 6) | (int(p[i + 2]) & 0x3F)
            i += 3
        else:
            c = 0xFFFD
            i += 4
        g = -1
        if c >= 32 and c < 127:
            g = c - 32
        else:
            lo = 0
            hi = ncodes - 1
            while lo <= hi:
                mid = (lo + hi) >> 1
                v = (int(cp[mid << 1]) << 8) | int(cp[(mid << 1) + 1])
                if v < c:
                    lo = mid + 1
                elif v > c:
                    hi = mid - 1
                else:
                    g = mid + 95
                    break
        if g >= 0:
            w += int(wp[g])
        else:
            w += tofu
    return w


@micropython.viper
def _dot(d, bw: int, bh: int, x: int, y: int, fg: int):
    # one pixel of colour fg (a tofu box's edge), skipped outside the frame
    if x >= 0 and x < bw and y >= 0 and y < bh:
        p = ptr8(d)
        o = (y >> 3) * bw + x
        bit = 1 << (y & 7)
        if fg:
            p[o] = p[o] | bit
        else:
            p[o] = p[o] & (0xFF ^ bit)


@micropython.viper
def text(buf, bw: int, bh: int, b, i: int, n: int, x: int, y: int, stop: int, fg: int, bg: int, font) -> int:
    # Renderer._text's loop over the UTF-8 bytes b[i:n] from x, glyphs as glyph() writes them and
    # a code point without one as the empty box the renderer draws (its edges in fg), up to the
    # first glyph that would pass stop. Returns ink_end, where an ellipsis would follow: the end of
    # the last glyph drawn that is not a space (x itself when none is). font: render.Font.
    codes = font.codes
    cp = ptr8(codes)
    ncodes = int(font.ncodes)
    wp = ptr8(font.widths)
    op = ptr8(font.offsets)
    bm = font.bitmaps
    gh = int(font.height)
    tofu = int(font.size)
    ascent = int(font.ascent)
    p = ptr8(b)
    ink = x
    while i < n:
        c = int(p[i])
        if c < 0x80:
            i += 1
        elif c < 0xE0:
            c = ((c & 0x1F) << 6) | (int(p[i + 1]) & 0x3F)
            i += 2
        elif c < 0xF0:
            c = ((c & 0x0F) << 12) | ((int(p[i + 1]) & 0x3F) << 6) | (int(p[i + 2]) & 0x3F)
            i += 3
        else:
            c = 0xFFFD
            i += 4
        g = -1
        if c >= 32 and c < 127:
            g = c - 32
        else:
            lo = 0
            hi = ncodes - 1
            while lo <= hi:
                mid = (lo + hi) >> 1
                v = (int(cp[mid << 1]) << 8) | int(cp[(mid << 1) + 1])
                if v < c:
                    lo = mid + 1
                elif v > c:
                    hi = mid - 1
                else:
                    g = mid + 95
                    break
        if g < 0:  # an empty box: two hlines and two one-pixel-wide rects, as the renderer draws it
            if x + tofu > stop:
                break
            h = ascent - 1
            k = 0
            while k < tofu - 2:
                _dot(buf, bw, bh, x + 1 + k, y + 1, fg)
                _dot(buf, bw, bh, x + 1 + k, y + h, fg)
                k += 1
            k = 0
            while k < h:
                _dot(buf, bw, bh, x + 1, y + 1 + k, fg)
                _dot(buf, bw, bh, x + tofu - 2, y + 1 + k, fg)
                k += 1
            x += tofu
            ink = x
            continue
        w = int(wp[g])
        if x + w > stop:
            break
        if c != 32:
            ink = x + w
        off = (int(op[g << 1]) << 8) | int(op[(g << 1) + 1])
        glyph(buf, bw, bh, bm, off, w, gh, x, y, fg, bg)
        x += w
    return ink
