"""PNG files of the box's display for `python -m simulator` (the frame buffer firmware/ui/render.py
drew, simulator/parts.py's Frame) and of screen models (the renderer at a board's size).
Scaled up 4x (128x64) or 2x (320x240) for reading."""
from firmware.ui.render import Renderer, load_font
from simulator import parts, png


def _scale(w):
    return 4 if w <= 128 else 2


def frame_writer(cfg=None, scale=None):
    """write(frame, path): the display's frame buffer as it is now."""

    def write(frame, path):
        fmt = png.RGB565 if frame.color else png.MONO_VLSB
        png.write_framebuf(path, frame.buf, frame.width, frame.height, fmt,
                           scale=scale or _scale(frame.width))

    return write


def writer(board="sim", scale=None):
    """render(screen, path, scroll=0): a screen model drawn at board's display size (a board
    name of board_configs/; ValueError for one that does not exist)."""
    cfg = parts.for_board(board)
    d = cfg.DISPLAY
    frame = parts.Frame(d["width"], d["height"], d.get("color", False))
    r = Renderer(d["width"], d["height"], color=frame.color, font=load_font(cfg.FONT))
    write = frame_writer(cfg, scale)

    def render(screen, path, scroll=0):
        r.draw(frame, screen, scroll)
        write(frame, path)

    return render
