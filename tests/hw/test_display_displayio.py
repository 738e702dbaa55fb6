"""The displayio backend (firmware/ui/displayio_screen.py) draws the same pixels as the framebuf
backend: every sample screen of tests/render at 128x64 mono and 320x240 colour, into a
displayio.Bitmap (Blinka displayio) and on through a displayio display (pygame, offscreen) to
the pixels it shows."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "render"))
from render_samples import SCREENS, SIZES  # noqa: E402

from firmware.ui.displayio_screen import DisplayioScreen, rgb888  # noqa: E402
from firmware.ui.render import Renderer, colors565  # noqa: E402
from simulator import framebuf_compat as fbc  # noqa: E402


def framebuf_pixels(w, h, color, model, scroll):
    buf = bytearray(w * h * 2 if color else w * h // 8)
    fb = fbc.FrameBuffer(buf, w, h, fbc.RGB565 if color else fbc.MONO_VLSB)
    used = Renderer(w, h, color=color).draw(fb, model, scroll)
    return [[fb.pixel(x, y) for x in range(w)] for y in range(h)], used


@pytest.mark.parametrize("w,h,color", SIZES)
def test_bitmap_pixels_equal_framebuf_pixels(w, h, color):
    scr = DisplayioScreen(None, w, h, color=color)
    for name, model, scroll in SCREENS:
        want, used = framebuf_pixels(w, h, color, model, scroll)
        assert scr.draw(model, scroll) == used
        got = [[scr.rgb565(x, y) for x in range(w)] for y in range(h)]
        assert got == want, name


def test_palette_round_trips_to_rgb565():
    for c in colors565():
        v = rgb888(c)
        assert ((v >> 19) & 31) << 11 | ((v >> 10) & 63) << 5 | ((v >> 3) & 31) == c


@pytest.mark.parametrize("w,h,color", SIZES)
def test_what_a_displayio_display_shows(w, h, color):
    import pygame  # noqa: F401  (requirements-dev.txt: the window the display draws in)
    from simulator.window import make_display
    import displayio
    disp = make_display(w, h)
    try:
        scr = DisplayioScreen(disp, w, h, color=color)
        for name, model, scroll in SCREENS[:3]:
            want, _ = framebuf_pixels(w, h, color, model, scroll)
            before = disp.refreshes
            scr.show(model, scroll)
            assert disp.refreshes == before + 1
            surf = disp._pygame_screen
            for y in range(0, h, 3):
                for x in range(0, w, 2):
                    r, g, b = tuple(surf.get_at((x, y)))[:3]
                    if color:
                        # pygamedisplay expands RGB565 as v * 255 / 31 (or 63), truncated
                        v = want[y][x]
                        exp = (int((v >> 11) * 255 / 31), int(((v >> 5) & 63) * 255 / 63), int((v & 31) * 255 / 31))
                        assert (r, g, b) == exp, (name, x, y)
                    else:
                        assert ((r, g, b) != (0, 0, 0)) == bool(want[y][x]), (name, x, y)
    finally:
        displayio.release_displays()


def test_clipping_like_framebuf():
    from firmware.ui.displayio_screen import BitmapTarget
    import displayio
    bm = displayio.Bitmap(8, 4, 2)
    t = BitmapTarget(bm, 8, 4)
    t.fill_rect(-3, -2, 5, 4, 1)  # clipped to (0,0)-(2,2)
    t.hline(6, 3, 10, 1)
    t.pixel(9, 9, 1)
    t.fill_rect(2, 2, 0, 5, 1)  # zero width: nothing
    lit = {(x, y) for y in range(4) for x in range(8) if bm[x, y]}
    assert lit == {(0, 0), (1, 0), (0, 1), (1, 1), (6, 3), (7, 3)}
