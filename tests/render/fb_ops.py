# A fixed pseudo-random sequence of framebuf calls, run by tests/render on CPython against
# simulator/framebuf_compat.py and on MicroPython against the real framebuf: both must leave the
# same bytes and read back the same pixels. Only what both interpreters have (no random module).
FORMATS = (("MONO_VLSB", 0), ("RGB565", 1), ("MONO_HLSB", 3))


class Lcg:
    def __init__(self, seed):
        self.s = seed & 0x7FFFFFFF

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n

    def rng(self, lo, hi):  # lo..hi inclusive
        return lo + self.next(hi - lo + 1)


def _size(fmt_code, w, h):
    if fmt_code == 0:
        return ((h + 7) // 8) * w
    if fmt_code == 1:
        return w * h * 2
    return ((w + 7) // 8) * h


def _colour(r, fmt_code):
    if fmt_code == 1:
        return r.next(0x10000)
    return r.rng(0, 2)  # 2: any non-zero colour sets a mono pixel


def run(framebuf, seed, fmt_name, w, h, steps=300):
    """Returns (bytes of the buffer, list of pixel reads)."""
    fmt = getattr(framebuf, fmt_name)
    fmt_code = dict(FORMATS)[fmt_name]
    buf = bytearray(_size(fmt_code, w, h))
    fb = framebuf.FrameBuffer(buf, w, h, fmt)
    r = Lcg(seed)
    reads = []
    pal_buf = bytearray(4)
    pal = framebuf.FrameBuffer(pal_buf, 2, 1, framebuf.RGB565)
    for _ in range(steps):
        op = r.next(9)
        x = r.rng(-12, w + 4)
        y = r.rng(-12, h + 4)
        c = _colour(r, fmt_code)
        if op == 0:
            fb.fill(c)
        elif op == 1:
            fb.pixel(x, y, c)
        elif op == 2:
            fb.hline(x, y, r.rng(-3, w + 8), c)
        elif op == 3:
            fb.vline(x, y, r.rng(-3, h + 8), c)
        elif op == 4:
            fb.rect(x, y, r.rng(-2, w), r.rng(-2, h), c, r.next(2) == 1)
        elif op == 5:
            fb.fill_rect(x, y, r.rng(-2, w), r.rng(-2, h), c)
        elif op == 6:
            reads.append(fb.pixel(x, y))
        else:
            # blit a mono glyph-like source, through a palette or not, with or without key
            sw = r.rng(1, 17)
            sh = r.rng(1, 19)
            sfmt_name = ("MONO_HLSB", "MONO_VLSB")[r.next(2)]
            scode = dict(FORMATS)[sfmt_name]
            sbuf = bytearray(_size(scode, sw, sh))
            for i in range(len(sbuf)):
                sbuf[i] = r.next(256)
            src = framebuf.FrameBuffer(sbuf, sw, sh, getattr(framebuf, sfmt_name))
            key = (-1, 0, 1, c)[r.next(4)]
            if op == 7:
                pal.pixel(0, 0, _colour(r, fmt_code))
                pal.pixel(1, 0, _colour(r, fmt_code))
                fb.blit(src, x, y, key, pal)
            else:
                fb.blit(src, x, y, key)
    for y in range(-1, h + 1, 3):
        for x in range(-1, w + 1, 5):
            reads.append(fb.pixel(x, y))
    return bytes(buf), reads
