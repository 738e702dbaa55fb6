"""firmware/ui/render.py on CPython (simulator/framebuf_compat.py) and on MicroPython (the unix
port's real framebuf): the same screens give the same bytes, by blit, by hline runs and drawn in
bands as the ST7789 driver does. PNGs of every sample go to a temporary folder (or to
$RENDER_PNG_DIR) for a look."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
MICROPYTHON = Path(sys.executable).parent / "micropython"
sys.path.insert(0, str(HERE))

import fb_ops  # noqa: E402
from render_samples import SCREENS, SIZES, texts  # noqa: E402

from firmware.ui.render import MONO, Renderer, colors565, load_font  # noqa: E402
from simulator import framebuf_compat as fbc  # noqa: E402
from simulator import png  # noqa: E402

BAND = 16


def new_fb(w, h, color):
    if color:
        buf = bytearray(w * h * 2)
        return buf, fbc.FrameBuffer(buf, w, h, fbc.RGB565)
    buf = bytearray(w * h // 8)
    return buf, fbc.FrameBuffer(buf, w, h, fbc.MONO_VLSB)


def render(w, h, color, model, scroll=0, blit=None):
    buf, fb = new_fb(w, h, color)
    used = Renderer(w, h, color=color, blit=blit).draw(fb, model, scroll)
    return buf, fb, used


def draw_banded(r, w, h, color, model, scroll):
    full = bytearray(w * h * 2 if color else w * h // 8)
    band_bytes = w * BAND * 2 if color else w * BAND // 8
    bbuf = bytearray(band_bytes)
    fb = fbc.FrameBuffer(bbuf, w, BAND, fbc.RGB565 if color else fbc.MONO_VLSB)
    for y in range(0, h, BAND):
        fb.fill(0)
        r.draw(fb, model, scroll, y, BAND)
        start = y * w * 2 if color else (y // 8) * w
        full[start : start + band_bytes] = bbuf
    return full


class HlineOnly:
    """A target with only the methods the renderer requires (no blit): the runs path."""

    def __init__(self, fb):
        self.fb = fb

    def fill(self, c):
        self.fb.fill(c)

    def fill_rect(self, x, y, w, h, c):
        self.fb.fill_rect(x, y, w, h, c)

    def hline(self, x, y, w, c):
        self.fb.hline(x, y, w, c)

    def pixel(self, x, y, c=None):
        return self.fb.pixel(x, y, c)


@pytest.fixture(scope="module")
def cpython_frames():
    out = {}
    for w, h, color in SIZES:
        for name, model, scroll in SCREENS:
            for how, blit in (("blit", True), ("runs", False)):
                buf, _, _ = render(w, h, color, model, scroll, blit)
                out[name, w, h, how] = bytes(buf)
            r = Renderer(w, h, color=color)
            out[name, w, h, "bands"] = bytes(draw_banded(r, w, h, color, model, scroll))
    return out


@pytest.fixture(scope="module")
def micropython_dump(tmp_path_factory):
    assert MICROPYTHON.exists(), "no micropython in the venv (make venv)"
    out = tmp_path_factory.mktemp("mp_render")
    proc = subprocess.run(
        [str(MICROPYTHON), "-X", "heapsize=4M", str(HERE / "mp_render_dump.py"), str(out)],
        capture_output=True, text=True, timeout=120, cwd=str(REPO),
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "done", proc.stdout + proc.stderr
    report = {}
    for line in (out / "report.txt").read_text().splitlines():
        k, v = line.split(" ", 1)
        report[k] = v
    return out, report


def test_blit_runs_and_bands_draw_the_same_pixels(cpython_frames):
    for w, h, color in SIZES:
        for name, _, _ in SCREENS:
            blit = cpython_frames[name, w, h, "blit"]
            assert cpython_frames[name, w, h, "runs"] == blit, (name, w, h)
            assert cpython_frames[name, w, h, "bands"] == blit, (name, w, h)
            assert any(blit), (name, w, h)


def test_micropython_draws_identical_buffers(cpython_frames, micropython_dump):
    out, report = micropython_dump
    checked = 0
    for w, h, color in SIZES:
        for name, model, scroll in SCREENS:
            for how in ("blit", "runs", "bands"):
                mp = (out / ("%s_%dx%d_%s.bin" % (name, w, h, how))).read_bytes()
                assert mp == cpython_frames[name, w, h, how], (name, w, h, how)
                checked += 1
            _, _, used = render(w, h, color, model, scroll)
            assert int(report["scroll_%s_%dx%d" % (name, w, h)]) == used
    assert checked == len(SIZES) * len(SCREENS) * 3


def test_native_glyphs_draw_what_blit_draws(cpython_frames, micropython_dump):
    # firmware/ui/glyph_viper.py, compiled by the unix port's native emitter: the same frames as
    # the blit, and no allocation per glyph either (the chip runs it for armv6m: tests/pico)
    out, report = micropython_dump
    checked = 0
    for w, h, color in SIZES:
        if color:
            continue
        assert report["native_%dx%d" % (w, h)] == "1", "the native glyph writer did not load on the unix port"
        for name, _, _ in SCREENS:
            mp = (out / ("%s_%dx%d_direct.bin" % (name, w, h))).read_bytes()
            assert mp == cpython_frames[name, w, h, "blit"], (name, w, h)
            checked += 1
        short = int(report["alloc_direct_short_%dx%d" % (w, h)])
        assert int(report["alloc_direct_long_%dx%d" % (w, h)]) == short and short <= 5 * 64, short
    assert checked == len(SCREENS)


def test_native_partial_draws_leave_the_frame_a_full_draw_leaves(cpython_frames, micropython_dump):
    # each screen drawn over the one before (firmware/ui/partial.py), only its changed parts
    # drawn again, its glyphs written natively: the frame of a full draw in blit
    out, report = micropython_dump
    checked = 0
    for w, h, color in SIZES:
        if color:
            continue
        for name, _, _ in SCREENS:
            mp = (out / ("%s_%dx%d_partial.bin" % (name, w, h))).read_bytes()
            assert mp == cpython_frames[name, w, h, "blit"], (name, w, h)
            checked += 1
    assert checked == len(SCREENS)


def test_native_fill_fills_what_framebuf_fills(micropython_dump):
    _, report = micropython_dump
    for w, h, color in SIZES:
        if not color:
            assert report["fill_%dx%d" % (w, h)] == "4"


def test_native_measure_gives_the_widths_cpython_gives(micropython_dump):
    _, report = micropython_dump
    for w, h, color in SIZES:
        if color:
            continue
        r = Renderer(w, h)
        got = [int(report["width_%d_%dx%d" % (k, w, h)]) for k in range(len(texts()))]
        assert got == [r.text_width(t) for t in texts()]
        assert len(set(got)) > 10


def test_compat_framebuf_matches_micropython(micropython_dump):
    out, report = micropython_dump
    for fmt_name, _ in fb_ops.FORMATS:
        for seed in (1, 2, 3):
            data, reads = fb_ops.run(fbc, seed, fmt_name, 37, 21)
            assert (out / ("ops_%s_%d.bin" % (fmt_name, seed))).read_bytes() == data, (fmt_name, seed)
            assert report["reads_%s_%d" % (fmt_name, seed)] == ",".join(str(v) for v in reads)


def test_no_allocation_per_glyph_on_micropython(micropython_dump):
    _, report = micropython_dump
    for w, h, _ in SIZES:
        short = int(report["alloc_short_%dx%d" % (w, h)])
        long_ = int(report["alloc_long_%dx%d" % (w, h)])
        # 5 texts of 1 glyph vs 5 texts of 25 glyphs: the same few objects per text
        assert long_ == short, (w, h, short, long_)
        assert short <= 5 * 64, short


def test_layout_fits_title_three_lines_and_hint_on_128x64():
    r = Renderer(128, 64)
    assert r.font.height == 12 and r.rows == 3
    assert r.title_h + 1 <= r.top
    assert r.top + r.rows * r.pitch <= r.hint_top - 2 <= 64 - 12
    big = Renderer(320, 240, color=True)
    assert big.font.height == 18 and big.rows >= 8
    assert big.top + big.rows * big.pitch <= big.hint_top


def rows_of(fb, w, h):
    return [[fb.pixel(x, y) for x in range(w)] for y in range(h)]


def test_scroll_shows_later_lines_and_clamps():
    title, lines, hint = SCREENS[0][1]
    _, fb_a, used = render(128, 64, False, (title, lines, hint), 2)
    assert used == 2
    _, fb_b, _ = render(128, 64, False, (title, lines[2:] + ["x", "y"], hint), 0)
    r = Renderer(128, 64)
    body = slice(r.top, r.top + r.rows * r.pitch)
    # same text lines; only the scroll bar's thumb (right edge) differs
    a = [row[: 128 - r.sb_w] for row in rows_of(fb_a, 128, 64)[body]]
    b = [row[: 128 - r.sb_w] for row in rows_of(fb_b, 128, 64)[body]]
    assert a == b
    _, _, used = render(128, 64, False, (title, lines, hint), 99)
    assert used == len(lines) - 3
    _, _, used = render(128, 64, False, (title, lines[:2], hint), 5)
    assert used == 0


def test_long_text_ends_in_an_ellipsis_inside_the_screen():
    r = Renderer(128, 64)
    text = "平胡 对对胡 清一色 七对 龙七对 清七对 自摸 杠上开花"
    assert r.text_width(text) > 128
    buf, fb = new_fb(128, 64, False)
    r.draw(fb, ("", [text], ""))
    y0 = r.top
    ink = [x for x in range(128) for y in range(y0, y0 + 12) if fb.pixel(x, y)]
    assert max(ink) <= 128 - r.mx - 1
    # the last ink is three single dots on the baseline row
    base = y0 + r.font.ascent - 1
    tail = [x for x in range(max(ink) - 6, 128) if fb.pixel(x, base)]
    assert len(tail) == 3 and tail[1] - tail[0] == 2 and tail[2] - tail[1] == 2, tail


def test_right_aligned_part_after_a_tab():
    r = Renderer(128, 64)
    buf, fb = new_fb(128, 64, False)
    r.draw(fb, ("", ["清一色\t24"], ""))
    y0 = r.top
    ink = [x for x in range(128) for y in range(y0, y0 + 12) if fb.pixel(x, y)]
    assert min(ink) == r.mx  # 清 has ink in its first column
    right = 128 - r.mx - r.text_width("24")
    assert max(ink) < 128 - r.mx and max(ink) >= right


def test_missing_glyph_is_a_box_not_an_error():
    font = load_font(12)
    assert font.index(ord("麒")) == -1 and font.index(ord("★")) == -1
    r = Renderer(128, 64)
    buf, fb = new_fb(128, 64, False)
    r.draw(fb, ("麒", ["★"], ""))
    # the title's box, dark on the bar: top edge 1 row below the text's top, 10 px wide
    x0 = r.mx + 1 + 1
    y0 = r.title_y + 1
    assert [fb.pixel(x, y0) for x in range(x0 - 1, x0 + 11)] == [1] + [0] * 10 + [1]
    assert [fb.pixel(x0, y) for y in range(y0, y0 + r.font.ascent - 1)] == [0] * (r.font.ascent - 1)
    assert any(fb.pixel(x, r.top + 1) for x in range(r.mx, r.mx + 12))  # the line's box


def test_colours():
    assert MONO[0] == 0 and MONO[1] == 1
    plain = colors565()
    swapped = colors565(swap=True)
    assert plain[1] == 0xFFFF and plain[0] == 0
    for a, b in zip(plain, swapped):
        assert b == ((a & 0xFF) << 8 | a >> 8)
    buf, fb, _ = render(320, 240, True, SCREENS[0][1])
    assert fb.pixel(0, 0) == plain[2]  # title bar
    assert fb.pixel(0, 239) == plain[4]  # hint bar
    assert fb.pixel(0, 100) == plain[0]


def test_png_files(tmp_path_factory):
    folder = os.environ.get("RENDER_PNG_DIR")
    out = Path(folder) if folder else tmp_path_factory.mktemp("screens")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for w, h, color in SIZES:
        for name, model, scroll in SCREENS:
            buf, fb, _ = render(w, h, color, model, scroll)
            path = out / ("%s_%dx%d.png" % (name, w, h))
            scale = 4 if w <= 128 else 2
            png.write_framebuf(str(path), buf, w, h, png.RGB565 if color else png.MONO_VLSB, scale=scale)
            pw, ph, rows = png.read_rgb(str(path))
            assert (pw, ph) == (w * scale, h * scale)
            # spot check: PNG pixels are their frame buffer pixels
            for y in range(0, h, 3):
                for x in range(0, w, 2):
                    rgb = tuple(rows[y * scale + scale - 1][x * scale * 3 : x * scale * 3 + 3])
                    v = fb.pixel(x, y)
                    if color:
                        r5, g6, b5 = v >> 11, (v >> 5) & 63, v & 31
                        assert rgb == ((r5 << 3) | (r5 >> 2), (g6 << 2) | (g6 >> 4), (b5 << 3) | (b5 >> 2))
                    else:
                        assert rgb == (png.OLED_ON if v else png.OLED_OFF)
            written.append(path)
    print("PNGs in", out)
    assert len(written) == len(SIZES) * len(SCREENS)
