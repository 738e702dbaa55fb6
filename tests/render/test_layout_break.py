"""firmware/ui/layout.py breaks a line too wide by adding up its characters' widths once; the rows
must be those of the plain rule (the longest prefix whose measured width fits, at least one
character, then back to the last space), measured here prefix by prefix with the real font."""
import random

from firmware.ui import layout
from firmware.ui.render import Renderer
from simulator import framebuf_compat  # noqa: F401  (registers the framebuf stand-in on CPython)


def prefix_break(view, s, width):
    out = []
    while s:
        if view.measure(s) <= width:
            out.append(s)
            break
        n = 1
        while n < len(s) and view.measure(s[:n + 1]) <= width:
            n += 1
        sp = s.rfind(" ", 0, n + 1)
        if sp > 0:
            out.append(s[:sp])
            s = s[sp + 1:]
        else:
            out.append(s[:n])
            s = s[n:]
    return out or [""]


def test_rows_equal_prefix_measuring():
    rnd = random.Random(18)
    chars = "1s 3m 9p EW 清一色番东南西北 ab.,:-" + "\u9e92"  # the last is not in the font: a box
    views = [layout.View(), layout.View.of(Renderer(128, 64))]
    checked = 0
    for _ in range(100):
        s = "".join(rnd.choice(chars) for _ in range(rnd.randint(0, 60)))
        for v in views:
            for width in (v.width, v.half(), 20, 7):
                assert layout._break(v, s, width) == prefix_break(v, s, width), (s, width)
                checked += 1
    assert checked == 100 * 8
