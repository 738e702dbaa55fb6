# Player names the box's fonts cannot draw, drawn by the server (issue 18.6): a session config's
# name_bitmaps (protocol/config.py: one 1-bit bitmap per chair, base64 of a 3-byte header and
# MONO_HLSB rows). A kept name becomes one character, U+E000 + its chair in the config (the
# Unicode private use area: no registered name holds it), which the session puts where the
# name goes (Session.who), so every screen that names a player draws it through the same
# format strings and layout as a name in text; firmware/ui/render.py asks this module for that
# character's width and pixels (its "not in the font" path, so the glyphs' path costs nothing).
#
#   ch = name_bitmaps.keep(chair, text)   # the character standing for the name, or None
#   name_bitmaps.clear()                  # a new session: the last one's names go
#
# Loaded only by a session with such a name. Held: at most 4 x (3 + 12 x 12) bytes of rows and a
# FrameBuffer over each (the config's own width cap, NAME_PX_MAX).
from firmware.compat import const

PUA = const(0xE000)
_SEATS = const(4)

_kept = [None] * _SEATS   # by chair: (width, height, baseline, rows bytearray, FrameBuffer or None)


def clear():
    for i in range(_SEATS):
        _kept[i] = None
    from firmware.ui import render
    render.use_names(None)   # no drawn names: the native glyph writer may draw every run


def keep(chair, text):
    """Keep the bitmap of the name at a chair (its base64 text from the config); the character
    that stands for it, or None when the text is not a whole bitmap (nothing kept then)."""
    from binascii import a2b_base64
    try:
        raw = a2b_base64(text)
    except ValueError:
        return None
    if len(raw) < 3:
        return None
    w = raw[0]
    h = raw[1]
    base = raw[2]
    # the config's check ran when the config came; checked again here, as the sizes are what
    # the drawing trusts (a journal read back after a power cut is this box's own, but cheap)
    if w < 1 or h < 1 or not 1 <= base <= h or len(raw) != 3 + h * ((w + 7) >> 3):
        return None
    rows = bytearray(raw[3:])
    fb = None
    from firmware.ui import render
    fbm = render.framebuf
    if fbm is not None:
        # a FrameBuffer's MONO_HLSB stride rounds up to 8 px: the rows are exactly that
        fb = fbm.FrameBuffer(rows, w, h, fbm.MONO_HLSB)
    _kept[chair] = (w, h, base, rows, fb)
    import sys
    render.use_names(sys.modules[__name__])
    return chr(PUA + chair)


def _dy(font, k):
    # rows down from the line's top: the bitmap's baseline on the font's, moved as little as
    # keeps every row inside the line's cell (a name with a tall accent, Å, comes with its
    # baseline lower: the server keeps the ink whole rather than the baseline)
    dy = font.ascent - k[2]
    if dy + k[1] > font.height:
        dy = font.height - k[1]
    return dy if dy > 0 else 0


def width(font, cp):
    """The width of the name a character stands for, in a line of this font; 0: none (or one
    taller than the font's cell, whose player is then shown by id)."""
    i = cp - PUA
    if i < 0 or i >= _SEATS:
        return 0
    k = _kept[i]
    if k is None or k[1] > font.height:
        return 0
    return k[0]


def draw(font, fb, cp, x, y, room, fg, pal, key):
    """Draw the name cp stands for at x, y (the line's top), at most room px of it (the rest is
    cut: the renderer's ellipsis follows). pal, key: the renderer's 2-colour palette and
    transparent colour when fb is a FrameBuffer (blit), pal None to draw runs of pixels."""
    k = _kept[cp - PUA]
    w, h, base, rows, nfb = k
    y += _dy(font, k)
    if pal is not None and nfb is not None and room >= w:
        fb.blit(nfb, x, y, key, pal)
        return
    from firmware.ui.render import hline_rows
    hline_rows(fb, rows, 0, (w + 7) >> 3, min(w, room), h, x, y, fg)

