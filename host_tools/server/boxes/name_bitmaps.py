"""Players' names drawn for the boxes (issue 18.6): a box's fonts hold ASCII and the few hundred
Chinese characters of its own screens, so most registered Chinese names and accented Latin ones
are beyond them. The server draws every name that is not plain ASCII as a 1-bit bitmap, in the
box's own typeface and size (WenQuanYi Bitmap Song, the 12 px strike of Debian's ``xfonts-wqy``,
which tools/glyphs.py builds the box's glyphs from), and the config carries it as
``name_bitmaps`` (the wire format: protocol/config.py). The box draws its own text where it can
and the bitmap where it cannot (firmware/ui/name_bitmaps.py).

Drawn with Pillow, whose FreeType reads the PCF strike. Without Pillow or the font the configs
carry no bitmaps, and the boxes show those players by id, as before (``available``)."""
from __future__ import annotations

import base64
import functools
import os
from typing import Optional

from protocol import config as pconfig

# the 12 px strike (the box's 128x64 font); .gz: as some systems ship it
FONT_FILES = ("/usr/share/fonts/X11/misc/wenquanyi_9pt.pcf", "/usr/share/fonts/X11/misc/wenquanyi_9pt.pcf.gz")
ROWS = 12       # the cell of the box's 12 px font (firmware/ui/glyphs_12.py HEIGHT) ...
BASELINE = 10   # ... and its baseline (ASCENT): a bitmap lines up with the box's own glyphs
STRIKE = 12     # the PCF's pixel size
PAD = 4         # rows measured above and below the cell (the strike's ascent is 12, descent 3)


@functools.lru_cache(maxsize=1)
def _font():
    try:
        from PIL import ImageFont
    except ImportError:
        return None
    for path in FONT_FILES:
        if os.path.exists(path):
            return ImageFont.truetype(path, STRIKE)
    return None


def available() -> bool:
    """Whether this server can draw names (Pillow and the font are installed)."""
    return _font() is not None


def needs_bitmap(name: Optional[str]) -> bool:
    """A name beyond plain ASCII: the box's fonts may not hold it."""
    return bool(name) and any(ord(ch) > 126 for ch in name)


def draw(name: str) -> Optional[bytes]:
    """The bitmap of a name as the config carries it, decoded: the 3-byte header (width, rows,
    baseline), then MONO_HLSB rows. Cut at a character to NAME_PX_MAX pixels. None: no font."""
    font = _font()
    if font is None:
        return None
    from PIL import Image, ImageDraw

    ascent = font.getmetrics()[0]
    text = name
    while True:
        left, _, right, _ = font.getbbox(text)
        shift = -left if left < 0 else 0  # ink left of the pen (j, J) widens the bitmap, not clipped
        width = max(int(font.getlength(text)), right) + shift
        if width <= pconfig.NAME_PX_MAX or len(text) <= 1:
            break
        text = text[:-1].rstrip() or text[:1]
    width = max(1, min(width, pconfig.NAME_PX_MAX))
    # ink above the cell (the ring of Å, an accent on a capital) moves the name down as far as
    # its lowest ink allows: the whole name at a lower baseline, which the header says
    tall = Image.new("1", (width, ROWS + 2 * PAD), 0)   # the ink's rows, measured drawn
    ImageDraw.Draw(tall).text((shift, PAD + BASELINE - ascent), text, font=font, fill=1)
    ink = tall.getbbox()
    base = BASELINE
    if ink is not None and ink[1] < PAD:   # rows above the cell: down by those, if room below
        base = min(BASELINE + PAD - ink[1], ROWS - (ink[3] - PAD - BASELINE))
    img = tall.crop((0, PAD + BASELINE - base, width, PAD + BASELINE - base + ROWS))
    # mode "1" packs each row MSB first, padded to a byte: MONO_HLSB as framebuf and the glyphs
    return bytes((width, ROWS, base)) + img.tobytes()


def bitmaps_of(names: list) -> Optional[list]:
    """name_bitmaps for a config's names (by chair): base64 of draw() for every name beyond ASCII,
    None for the others; None when no name needs one or the server cannot draw."""
    if not any(needs_bitmap(n) for n in names) or not available():
        return None
    return [base64.b64encode(draw(n)).decode() if needs_bitmap(n) else None for n in names]
