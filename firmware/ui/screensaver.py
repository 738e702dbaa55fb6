# The OLED at a table all day: an SSD1306 pixel loses brightness with the hours it is lit, so a
# screen left as it is (the idle screen between sessions, a session's standing screen between
# hands) burns its title bar and text into the panel. After DIM_AFTER_MS without a key or a tag
# the screen dims (contrast down) and then moves by a pixel every SHIFT_MS, so no pixel stays lit
# in the same place for hours; the first key or tag brings it back at once, and that key or tag
# counts as any other (it is not eaten to wake the box).
#
#   saver = Saver(display)          # firmware/board/base.py's screen: shift(dy), and dim(on) if the
#   saver.touch(now)                #   panel has a contrast (the desktop's frame has none)
#   if saver.tick(now): redraw()    # a move of the picture wants a redraw with saver.dy
#
# The move is in the drawing (the renderer draws dy rows lower), not in the panel's start line,
# so the desktop simulator draws the same pixels as the board at every moment.
from firmware.compat import const

DIM_AFTER_MS = const(120000)
SHIFT_MS = const(60000)
_STEPS = (1, 2, 1, 0)  # rows down: the picture wanders over 3 rows and back


class Saver:
    def __init__(self, display, dim_after_ms=DIM_AFTER_MS, shift_ms=SHIFT_MS):
        self.display = display
        self.dim_after = dim_after_ms
        self.shift_every = shift_ms
        self.last_input = None
        self.dimmed = False
        self.step = -1
        self.next_shift = 0
        self.dy = 0  # rows the picture is drawn lower now

    def touch(self, now):
        """A key or a tag: full brightness, the picture back in place. True when it had moved
        (the caller redraws)."""
        self.last_input = now
        moved = self.dy != 0
        if self.dimmed:
            self.dimmed = False
            self._dim(False)
        self.dy = 0
        self.step = -1
        return moved

    def tick(self, now):
        """True when the picture moves now (the caller redraws with self.dy)."""
        if self.last_input is None:
            self.last_input = now
        if now - self.last_input < self.dim_after:
            return False
        if not self.dimmed:
            self.dimmed = True
            self._dim(True)
            self.next_shift = now + self.shift_every
            return False
        if now - self.next_shift < 0:
            return False
        self.next_shift = now + self.shift_every
        self.step = (self.step + 1) % len(_STEPS)
        self.dy = _STEPS[self.step]
        return True

    def _dim(self, on):
        f = getattr(self.display, "dim", None)
        if f is not None:
            f(on)
