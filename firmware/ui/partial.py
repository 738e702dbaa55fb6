# Redraw only what changed: a screen's parts (title bar, each visible line, hint) are drawn in
# rows of the frame that no other part touches, so a frame that already holds the last screen
# needs only the parts whose text differs redrawn, each after its rows are cleared as the full
# draw clears them. The pixels are those of Renderer.draw (tests/render/test_partial_flush.py
# holds them equal, screen after screen); a key that changes one line of a 3-line screen
# draws one line's glyphs instead of some sixty.
#
#   p = Partial(renderer)
#   p.draw(oled, model, scroll, y0)    # as renderer.draw(oled, model, scroll, y0), same pixels
#
# The frame must be the renderer's alone (FramebufScreen's display buffer): anything else drawn
# into it is not seen, so forget() before the next draw if someone did. A change of the scroll
# bar (lines that do not all fit, another page of them) or of y0 (the screensaver's shift) is
# drawn whole. The parts' texts are kept by reference (the model's own str objects): no copies.
from firmware.ui.render import BG, FG, TITLE_BG, TITLE_FG, HINT_BG, HINT_FG, RULE


class Partial:
    def __init__(self, renderer):
        self.r = renderer
        self._fb = None
        self._y0 = 0
        self._bar = None  # (lines, scroll) when the scroll bar shows, else None
        self._title = None
        self._lines = [None] * renderer.rows  # the text in each visible line's rows ("" for none)
        self._hint = None
        self.parts = 0  # parts drawn by the last draw() (the whole screen counts rows + 2)

    def forget(self):
        self._fb = None

    def draw(self, fb, model, scroll=0, y0=0):
        r = self.r
        title, lines, hint = model
        n = len(lines)
        rows = r.rows
        # scroll clamped as Renderer.draw clamps it
        if scroll > n - rows:
            scroll = n - rows
        if scroll < 0:
            scroll = 0
        bar = (n, scroll) if n > rows else None
        if fb is not self._fb or y0 != self._y0 or bar != self._bar:
            used = r.draw(fb, model, scroll, y0)
            self._fb = fb
            self._y0 = y0
            self._bar = bar
            self._title = title
            vis = self._lines
            for k in range(rows):
                vis[k] = lines[scroll + k] if scroll + k < n else ""
            self._hint = hint
            self.parts = rows + 2
            return used
        r.target(fb)
        col = r.colors
        width = r.width
        drawn = 0
        if title != self._title:
            self._title = title
            fb.fill_rect(0, -y0, width, r.title_h, col[TITLE_BG])
            r._line(fb, title, r.mx + 1, r.title_y - y0, width - r.mx - 1, col[TITLE_FG], col[TITLE_BG])
            drawn += 1
        limit = width - r.mx
        if bar is not None:
            limit -= r.sb_w + 1
        fh = r.font.height
        vis = self._lines
        y = r.top - y0
        for k in range(rows):
            s = lines[scroll + k] if scroll + k < n else ""
            if s != vis[k]:
                vis[k] = s
                # the line's text never passes limit; right of it: the scroll bar, unchanged
                fb.fill_rect(0, y, limit, fh, col[BG])
                if s:
                    r._line(fb, s, r.mx, y, limit, col[FG], col[BG])
                drawn += 1
            y += r.pitch
        if hint != self._hint:
            self._hint = hint
            ht = r.hint_top
            fb.fill_rect(0, ht - 2 - y0, width, r.height - ht + 2, col[BG])
            if col[RULE] != col[HINT_BG]:
                fb.hline(0, ht - 2 - y0, width, col[RULE])
            if col[HINT_BG] != col[BG]:
                fb.fill_rect(0, ht - y0, width, r.hint_h, col[HINT_BG])
            r._line(fb, hint, r.mx, ht + ((r.hint_h - r.font.size) >> 1) - y0, width - r.mx, col[HINT_FG],
                    col[HINT_BG])
            drawn += 1
        self.parts = drawn
        return scroll
