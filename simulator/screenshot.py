"""Screen models to PNG files through the device's renderer (firmware/render.py), for
`python -m simulator --png`: writer(board) returns render(screen, path).

Boards: "st7789" / "320x240" (colour, 16 px font) or anything else, "sim" and "ssd1306"
included (128x64 mono, 12 px font). Scaled up 4x (128x64) or 2x (320x240) for reading."""
from firmware.render import Renderer
from simulator import framebuf_compat as framebuf
from simulator import png

BOARDS = {
    "ssd1306": (128, 64, False),
    "128x64": (128, 64, False),
    "st7789": (320, 240, True),
    "320x240": (320, 240, True),
}


def writer(board="sim", scale=None):
    w, h, color = BOARDS.get(board, (128, 64, False))
    if scale is None:
        scale = 4 if w <= 128 else 2
    r = Renderer(w, h, color=color)
    if color:
        buf = bytearray(w * h * 2)
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.RGB565)
        fmt = png.RGB565
    else:
        buf = bytearray(w * h // 8)
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB)
        fmt = png.MONO_VLSB

    def render(screen, path, scroll=0):
        r.draw(fb, screen, scroll)
        png.write_framebuf(path, buf, w, h, fmt, scale=scale)

    return render
