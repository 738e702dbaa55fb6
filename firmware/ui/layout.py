# Lays a screen's lines out on the rows of the display, in pages: a line too wide is wrapped
# (at a space, else between characters), two short cells share a row as two columns, and the
# rows go to pages of view.rows each. The app shows one page and says which ("1/2" in the
# title); # turns the page on screens that list things (firmware/states.py PAGED), so nobody
# waits for a timed scroll.
#
# A line is a str ("left\tright": the right part is right-aligned, as firmware/ui/render.py draws
# it) or a pair (left, right) of such cells: one row of two columns when both fit half the
# width, else a row each; a pair (left, right, True) is one row always (the left part of a
# cell too wide is cut short, its right part kept: a score stays whole, a long player id ends
# in dots). On a wide screen (view.wide) every cell has a row of its own. Widths come from the renderer's font (View.of(renderer)); without one
# (the headless app) a 128x64 screen's 12 px font is assumed: 12 px a CJK character, 6 an ASCII.

COL = "\x1e"   # between the two cells of a row drawn in two columns (firmware/ui/render.py)


def approx_width(s):
    w = 0
    for ch in s:
        w += 6 if ord(ch) < 128 else 12
    return w


class View:
    def __init__(self, rows=3, width=126, measure=approx_width, tab_gap=6, col_gap=4):
        self.rows = rows              # text rows a page has
        self.width = width            # pixels a row has
        self.measure = measure
        self.tab_gap = tab_gap        # least room between a left part and its right-aligned part
        self.col_gap = col_gap
        self.wide = rows >= 6         # room to spare: one item a row, longer words

    @staticmethod
    def of(r):
        """The view of a firmware/ui/render.py Renderer."""
        return View(r.rows, r.width - 2 * r.mx, r.text_width, r.font.size >> 1, r.col_gap)

    def half(self):
        return (self.width - self.col_gap) // 2

    def cell(self, s):
        """Width a cell takes, its right-aligned part included."""
        t = s.find("\t")
        if t < 0:
            return self.measure(s)
        return self.measure(s[:t]) + self.tab_gap + self.measure(s[t + 1:])


def _break(view, s, width):
    # s has no tab: rows of at most width pixels, broken at the last space that fits, else
    # between two characters. A text's width is the sum of its characters' (the font has no
    # kerning), so the row's characters are measured once each, not as ever longer prefixes
    # (a row of tiles took ~10 ms of the Pico's time that way)
    out = []
    measure = view.measure
    while s:
        if measure(s) <= width:
            out.append(s)
            break
        n = 0
        used = 0
        for ch in s:
            used += measure(ch)
            if used > width:
                break
            n += 1
        if n < 1:
            n = 1
        sp = s.rfind(" ", 0, n + 1)
        if sp > 0:
            out.append(s[:sp])
            s = s[sp + 1:]
        else:
            out.append(s[:n])
            s = s[n:]
    return out or [""]


def wrap(view, s, width=None):
    """One line as rows that each fit width (the view's by default)."""
    if width is None:
        width = view.width
    if view.cell(s) <= width:
        return [s]
    t = s.find("\t")
    if t < 0:
        return _break(view, s, width)
    right = s[t + 1:]
    rw = view.measure(right) + view.tab_gap
    rows = _break(view, s[:t], width)
    last = rows[-1]
    if view.measure(last) + rw <= width:
        rows[-1] = last + "\t" + right
    else:
        rows.append("\t" + right)
    return rows


def rows_of(view, lines):
    """Lines and pairs -> display rows."""
    out = []
    half = view.half()
    for ln in lines:
        if isinstance(ln, tuple):
            a, b = ln[0], ln[1]
            if not view.wide and (len(ln) > 2 or (view.cell(a) <= half and view.cell(b) <= half)):
                out.append(a + COL + b)
            else:
                out.extend(wrap(view, a))
                if b:
                    out.extend(wrap(view, b))
        else:
            out.extend(wrap(view, ln))
    return out


def pages(view, rows):
    n = len(rows)
    return 1 if n <= view.rows else (n + view.rows - 1) // view.rows


def page(view, rows, p):
    r = view.rows
    return rows[p * r:(p + 1) * r]
