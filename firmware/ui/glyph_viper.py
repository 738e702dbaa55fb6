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
#
# A call into viper code costs ~45 us of the Pico's time with a dozen arguments (boxing them),
# more than a 12x12 glyph's pixels: text() measures its run and writes every glyph of it in the
# one call, and a glyph row's set bits are walked (16 bits, the first pixel in the top one), not
# each of its pixels tested.
import micropython


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
def text(buf, bw: int, bh: int, b, i0: int, n: int, x0: int, y: int, limit: int, ell_w: int, fg: int, bg: int,
         font) -> int:
    # Renderer._text for the UTF-8 bytes b[i0:n] from x0: measured first (as measure()); a run
    # wider than limit - x0 is drawn up to limit - ell_w, else up to limit. Each glyph is written
    # as the renderer blits it (a set bit a pixel of colour fg, the rest of the frame kept, pixels
    # outside it skipped, nothing where fg is the background), a code point without one as the
    # renderer's empty box (its edges in fg), up to the first glyph that would pass the stop.
    # Returns ink_end (where an ellipsis would follow: the end of the last glyph drawn that is not
    # a space, x0 when none is), or -1 - ink_end when the run was cut (the caller adds the dots).
    cp = ptr8(font.codes)
    ncodes = int(font.ncodes)
    wp = ptr8(font.widths)
    op = ptr8(font.offsets)
    s = ptr8(font.bitmaps)
    gh = int(font.height)
    tofu = int(font.size)
    ascent = int(font.ascent)
    d = ptr8(buf)
    p = ptr8(b)
    stop = limit
    cut = 0
    ink = x0
    phase = 0  # 0: measure the run, 1: draw it
    while phase < 2:
        x = x0
        i = i0
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
            if phase == 0:
                x += int(wp[g]) if g >= 0 else tofu
                continue
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
            if fg != bg:
                off = (int(op[g << 1]) << 8) | int(op[(g << 1) + 1])
                two = w > 8
                inside = x >= 0 and x + w <= bw
                r = 0
                while r < gh:
                    yy = y + r
                    if yy >= 0 and yy < bh:
                        bit = 1 << (yy & 7)
                        keep = 0xFF ^ bit
                        put = bit if fg else 0
                        o = (yy >> 3) * bw + x
                        bits = int(s[off]) << 8
                        if two:
                            bits = bits | int(s[off + 1])
                        if inside:
                            while bits:
                                if bits & 0x8000:
                                    d[o] = (int(d[o]) & keep) | put
                                bits = (bits << 1) & 0xFFFF
                                o += 1
                        else:
                            xx = x
                            while bits:
                                if (bits & 0x8000) and xx >= 0 and xx < bw:
                                    d[o] = (int(d[o]) & keep) | put
                                bits = (bits << 1) & 0xFFFF
                                o += 1
                                xx += 1
                    off += 2 if two else 1
                    r += 1
            x += w
        if phase == 0 and x > limit:
            stop = limit - ell_w
            cut = 1
        phase += 1
    if cut:
        return -1 - ink
    return ink



@micropython.viper
def fill(buf, n: int, c: int):
    # framebuf's fill(c) on a MONO_VLSB frame of n bytes (a multiple of 4: 128x64 is 1024), a
    # word at a time: framebuf sets each pixel alone, ~0.8 ms of the Pico's time a whole frame
    d = ptr32(buf)
    v = 0
    if c & 1:
        v = -1
    k = 0
    n = n >> 2
    while k < n:
        d[k] = v
        k += 1
