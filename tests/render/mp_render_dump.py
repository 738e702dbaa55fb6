# The MicroPython half of tests/render/test_render.py: draws the sample screens with the real
# framebuf module and writes each frame buffer to OUTDIR, for pytest to compare with CPython's.
#   micropython -X heapsize=4M tests/render/mp_render_dump.py OUTDIR
# Files: <screen>_<w>x<h>_<blit|runs|bands|direct>.bin (direct: mono only, the native glyph writer; partial: the same, each screen drawn over the one before), ops_<format>_<seed>.bin (fb_ops), and
# report.txt: one "key value" line per measurement.
import gc
import sys

import framebuf


def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


HERE = _dirname(__file__)
sys.path.append(HERE + "/../..")  # the repository root, for firmware.*

import fb_ops  # noqa: E402
from firmware.ui.partial import Partial  # noqa: E402
from firmware.ui.render import Renderer  # noqa: E402
from render_samples import SCREENS, SIZES, texts  # noqa: E402

BAND = 16


def new_fb(w, h, color):
    if color:
        buf = bytearray(w * h * 2)
        return buf, framebuf.FrameBuffer(buf, w, h, framebuf.RGB565)
    buf = bytearray(w * h // 8)
    return buf, framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB)


def draw_banded(r, w, h, color, model, scroll):
    # as the ST7789 driver's show(): one band buffer, cleared, drawn shifted by -y0, sent
    full = bytearray(w * h * 2 if color else w * h // 8)
    band_bytes = w * BAND * 2 if color else w * BAND // 8
    bbuf = bytearray(band_bytes)
    fmt = framebuf.RGB565 if color else framebuf.MONO_VLSB
    fb = framebuf.FrameBuffer(bbuf, w, BAND, fmt)
    y = 0
    while y < h:
        fb.fill(0)
        r.draw(fb, model, scroll, y, BAND)
        start = y * w * 2 if color else (y // 8) * w
        full[start : start + band_bytes] = bbuf
        y += BAND
    return full


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main(out):
    report = []
    for w, h, color in SIZES:
        for blit in (True, False):
            r = Renderer(w, h, color=color, blit=blit)
            for name, model, scroll in SCREENS:
                buf, fb = new_fb(w, h, color)
                used = r.draw(fb, model, scroll)
                report.append("scroll_%s_%dx%d %d" % (name, w, h, used))
                write("%s/%s_%dx%d_%s.bin" % (out, name, w, h, "blit" if blit else "runs"), buf)
        if not color:  # glyphs written straight into the MONO_VLSB buffer (firmware/ui/glyph_viper.py)
            r = Renderer(w, h)
            for name, model, scroll in SCREENS:
                buf, fb = new_fb(w, h, color)
                r.direct(fb, buf)
                r.draw(fb, model, scroll)
                write("%s/%s_%dx%d_direct.bin" % (out, name, w, h), buf)
            report.append("native_%dx%d %d" % (w, h, 1 if r._vb is not None else 0))
            # the screens one after another into one frame, only their changed parts drawn again
            # (firmware/ui/partial.py)
            buf, fb = new_fb(w, h, color)
            r.direct(fb, buf)
            p = Partial(r)
            for name, model, scroll in list(SCREENS) + [SCREENS[i] for i in range(len(SCREENS) - 1, -1, -1)]:
                p.draw(fb, model, scroll)
                write("%s/%s_%dx%d_partial.bin" % (out, name, w, h), buf)
            if r._vb is not None:  # the native fill against framebuf's, over a frame with pixels set
                from firmware.ui import glyph_viper
                a, fa = new_fb(w, h, color)
                b, fb2 = new_fb(w, h, color)
                same = 0
                for c in (1, 0, 1, 0):
                    for k in range(len(a)):
                        a[k] = b[k] = (k * 37) & 255
                    fa.fill(c)
                    glyph_viper.fill(b, len(b), c)
                    same += 1 if a == b else 0
                report.append("fill_%dx%d %d" % (w, h, same))
            for k, text in enumerate(texts()):  # widths: the native measure where it loaded
                report.append("width_%d_%dx%d %d" % (k, w, h, r.text_width(text)))
            buf, fb = new_fb(w, h, color)
            r.direct(fb, buf)
            for label, text in (("short", "清"), ("long", "清一色一色三同顺 Full Flush")):
                model = (text, [text, text + "\t24", text], text)
                r.draw(fb, model)
                gc.collect()
                a = gc.mem_alloc()
                for _ in range(5):
                    r.draw(fb, model)
                report.append("alloc_direct_%s_%dx%d %d" % (label, w, h, (gc.mem_alloc() - a) // 5))
        r = Renderer(w, h, color=color)
        report.append("rows_%dx%d %d" % (w, h, r.rows))
        for name, model, scroll in SCREENS:
            write("%s/%s_%dx%d_bands.bin" % (out, name, w, h), draw_banded(r, w, h, color, model, scroll))
        # bytes allocated by a draw must not grow with the number of glyphs drawn
        buf, fb = new_fb(w, h, color)
        for label, text in (("short", "清"), ("long", "清一色一色三同顺 Full Flush")):
            model = (text, [text, text + "\t24", text], text)
            r.draw(fb, model)
            gc.collect()
            a = gc.mem_alloc()
            for _ in range(5):
                r.draw(fb, model)
            report.append("alloc_%s_%dx%d %d" % (label, w, h, (gc.mem_alloc() - a) // 5))
    for fmt_name, _ in fb_ops.FORMATS:
        for seed in (1, 2, 3):
            data, reads = fb_ops.run(framebuf, seed, fmt_name, 37, 21)
            write("%s/ops_%s_%d.bin" % (out, fmt_name, seed), data)
            report.append("reads_%s_%d %s" % (fmt_name, seed, ",".join(str(v) for v in reads)))
    write(out + "/report.txt", ("\n".join(report) + "\n").encode())
    print("done")


main(sys.argv[1])
