"""The simulator window: `make sim` (python -m simulator.window).

The box's screen drawn through displayio (firmware/ui/displayio_screen.py on Blinka displayio, a
blinka_displayio_pygamedisplay display rendering into an offscreen surface, shown 4x), a
clickable 4x4 keypad, a tile rack (click a tile: its next copy's tag is laid on the reader; all
34 kinds and the 8 flowers, and a "bad tag"), and the path of the pty the device link listens on
(`python -m host_tools tags write --port PATH` talks to it).

Without a display ($DISPLAY / $WAYLAND_DISPLAY unset, or SDL cannot open a window) it runs in
the terminal with the same controls: keys 0-9 A-D * # (several at once: `A1`), tiles as `5m`,
`E`, `a` (`tC` is the red dragon, since C alone is a key), `bad` for a bad tag, `q` to quit;
the screen is printed as text after each line. --terminal / --window force one or the other.

Tests drive the window offscreen (SDL_VIDEODRIVER=dummy) through the same event handler
(Window.handle_event) and compare screenshots with tests/sim_window/reference/.
"""
import argparse
import os
import sys
import time

W, H = 960, 544
SCALE = 4
SCREEN_AT = (24, 48)
KEYPAD_AT = (616, 48)
KEY_W, KEY_H, KEY_GAP = 66, 56, 8
KEYS = "123A456B789C*0#D"
SUIT_AT = (24, 392)
TILE_W, TILE_H, TILE_GAP = 52, 40, 6
HONOUR_AT = (616, 392)
FLOWER_AT = (616, 438)
BAD_AT = (616, 484)
FRAME_MS = 33

BG = (34, 38, 46)
PANEL = (52, 58, 70)
TEXT = (230, 232, 236)
DIM = (150, 156, 168)
KEY_BG = (222, 222, 214)
KEY_FN = (236, 200, 120)
TILE_BG = (246, 242, 226)
SUIT_COL = {"m": (176, 30, 30), "s": (20, 120, 50), "p": (30, 70, 170)}
HONOUR_COL = (20, 20, 20)
FLOWER_COL = (130, 50, 150)


def tile_name(t):
    if t < 27:
        return "%d%s" % (t % 9 + 1, "msp"[t // 9])
    if t < 34:
        return "ESWNCFP"[t - 27]
    return "abcdefgh"[t - 34]


def parse_tile(tok):
    if len(tok) == 2 and tok[0] in "123456789" and tok[1] in "msp":
        return "msp".index(tok[1]) * 9 + int(tok[0]) - 1
    if len(tok) == 1 and tok in "ESWNFP":
        return 27 + "ESWNCFP".index(tok)
    if len(tok) == 1 and tok in "abcdefgh":
        return 34 + "abcdefgh".index(tok)
    if len(tok) >= 2 and tok[0] == "t":
        rest = tok[1:]
        if rest == "C":
            return 31
        return parse_tile(rest)
    return None


class Button:
    def __init__(self, kind, value, rect, label, fg, bg):
        self.kind = kind  # "key", "tile", "bad"
        self.value = value
        self.rect = rect
        self.label = label
        self.fg = fg
        self.bg = bg

    @property
    def center(self):
        x, y, w, h = self.rect
        return x + w // 2, y + h // 2

    def hit(self, pos):
        x, y, w, h = self.rect
        return x <= pos[0] < x + w and y <= pos[1] < y + h


def layout():
    b = []
    for i, k in enumerate(KEYS):
        r, c = divmod(i, 4)
        x = KEYPAD_AT[0] + c * (KEY_W + KEY_GAP)
        y = KEYPAD_AT[1] + r * (KEY_H + KEY_GAP)
        b.append(Button("key", k, (x, y, KEY_W, KEY_H), k, (20, 20, 20), KEY_FN if k in "ABCD*#" else KEY_BG))
    for s in range(3):
        for n in range(9):
            t = s * 9 + n
            x = SUIT_AT[0] + n * (TILE_W + TILE_GAP)
            y = SUIT_AT[1] + s * (TILE_H + TILE_GAP)
            b.append(Button("tile", t, (x, y, TILE_W, TILE_H), tile_name(t), SUIT_COL["msp"[s]], TILE_BG))
    for i in range(7):
        b.append(Button("tile", 27 + i, (HONOUR_AT[0] + i * 44, HONOUR_AT[1], 40, TILE_H), tile_name(27 + i),
                        HONOUR_COL, TILE_BG))
    for i in range(8):
        b.append(Button("tile", 34 + i, (FLOWER_AT[0] + i * 38, FLOWER_AT[1], 34, TILE_H), tile_name(34 + i),
                        FLOWER_COL, TILE_BG))
    b.append(Button("bad", None, (BAD_AT[0], BAD_AT[1], 140, TILE_H), "bad tag", (255, 255, 255), (150, 40, 40)))
    return b


def make_display(width=128, height=64):
    """An offscreen blinka_displayio_pygamedisplay display: displayio renders into a pygame
    Surface of the box's size, which the window shows scaled."""
    import displayio
    import pygame
    from blinka_displayio_pygamedisplay import PyGameDisplay

    displayio.release_displays()  # Blinka allows one display at a time

    class OffscreenDisplay(PyGameDisplay):
        def _initialize(self, init_sequence):
            pygame.init()
            self._pygame_screen = pygame.Surface((self.width, self.height))
            self.refreshes = 0

        def _release(self):
            pass  # PyGameDisplay quits pygame here: the window is not the display's to close

        def _refresh_display(self):
            # displayio's own refresh into the surface, without flipping the window
            import busdisplay
            busdisplay.BusDisplay._refresh_display(self)
            self._last_refresh = time.monotonic()
            self._refresh_pending = False
            self.refreshes = getattr(self, "refreshes", 0) + 1

    return OffscreenDisplay(width=width, height=height, auto_refresh=False)


class Window:
    def __init__(self, workdir="build/sim", pty=True, virtual=False, epoch=None, read_ms=None, board="sim"):
        import pygame
        from firmware.ui.displayio_screen import DisplayioScreen
        from simulator import parts
        from simulator.device import SimDevice

        cfg = parts.for_board(board)  # ValueError: no such board
        d = cfg.DISPLAY
        self.board = board
        self.w, self.h, color = d["width"], d["height"], d.get("color", False)
        self.scale = SCALE if self.w <= 128 else 1  # 320x240 fits the panel as it is
        pygame.init()
        self.pg = pygame
        self.surface = pygame.display.set_mode((W, H))
        pygame.display.set_caption("Mahjong table box - simulator")
        self.display = make_display(self.w, self.h)
        self.screen = DisplayioScreen(self.display, self.w, self.h, color=color, font_size=cfg.FONT)
        self.box = SimDevice(workdir, pty=pty, virtual=virtual, epoch=epoch, read_ms=read_ms, display=self.screen,
                             board=board)
        self.buttons = layout()
        self.font = pygame.font.Font(None, 26)
        self.small = pygame.font.Font(None, 20)
        self.last = ""
        self.running = True
        self.box.step()
        self.draw()

    # ---- input ----
    def handle_event(self, ev):
        pg = self.pg
        if ev.type == pg.QUIT:
            self.running = False
        elif ev.type == pg.MOUSEBUTTONDOWN and ev.button == 1:
            for b in self.buttons:
                if b.hit(ev.pos):
                    self.press(b)
                    break
        elif ev.type == pg.KEYDOWN:
            ch = ev.unicode.upper() if ev.unicode else ""
            if ch and ch in KEYS:
                self.box.press(ch)
                self.last = "key " + ch
            elif ev.key == pg.K_ESCAPE:
                self.running = False

    def press(self, b):
        if b.kind == "key":
            self.box.press(b.value)
            self.last = "key " + b.value
        elif b.kind == "tile":
            self.box.tap(b.value)
            self.last = "tapped " + b.label
        else:
            self.box.tap_bad()
            self.last = "tapped a bad tag"

    def click(self, kind, value):
        """Post a left click on a button's centre through handle_event (tests)."""
        for b in self.buttons:
            if b.kind == kind and b.value == value:
                self.handle_event(self.pg.event.Event(self.pg.MOUSEBUTTONDOWN, pos=b.center, button=1))
                return b
        raise KeyError((kind, value))

    # ---- drawing ----
    def port_label(self):
        box = self.box
        if box.port_path is None:
            return "serial: off"
        if box.link is None:
            return "serial: %s (%s)" % (box.port_path, box.link_note)
        return "serial: %s  (host_tools: --port %s)" % (box.port_path, box.port_path)

    def draw(self):
        pg = self.pg
        s = self.surface
        s.fill(BG)
        what = "128x64 SSD1306" if self.board == "sim" else "%s's %dx%d screen" % (self.board, self.w, self.h)
        s.blit(self.font.render("Mahjong table box - simulator (board sim, %s)" % what, True, TEXT), (24, 14))
        x, y = SCREEN_AT
        sw, sh = self.w * self.scale, self.h * self.scale
        pg.draw.rect(s, PANEL, (x - 10, y - 10, sw + 20, sh + 20), border_radius=8)
        shot = pg.transform.scale(self.display._pygame_screen, (sw, sh))
        s.blit(shot, (x, y))
        s.blit(self.small.render(self.port_label(), True, DIM), (24, 322))
        s.blit(self.small.render("last: " + (self.last or "-"), True, DIM), (24, 342))
        s.blit(self.small.render("keypad (or type 0-9 A-D * #)", True, DIM), (KEYPAD_AT[0], 26))
        s.blit(self.small.render("honours, flowers", True, DIM), (HONOUR_AT[0], HONOUR_AT[1] - 20))
        s.blit(self.small.render("tiles: click to tap on the reader", True, DIM), (SUIT_AT[0], SUIT_AT[1] - 20))
        for b in self.buttons:
            pg.draw.rect(s, b.bg, b.rect, border_radius=6)
            pg.draw.rect(s, (90, 90, 90), b.rect, width=1, border_radius=6)
            f = self.font if b.kind == "key" else self.small
            img = f.render(b.label, True, b.fg)
            s.blit(img, img.get_rect(center=b.center))

    def settle(self):
        """Step the box until the clicks so far are handled, then redraw (tests)."""
        self.box.settle()
        self.draw()

    def screenshot(self, path):
        self.pg.image.save(self.surface, path)

    def device_pixels(self):
        """The box's screen as the window shows it, unscaled: [(r, g, b)] rows."""
        surf = self.display._pygame_screen
        return [[tuple(surf.get_at((x, y)))[:3] for x in range(self.w)] for y in range(self.h)]

    def run(self):
        """The device loop (firmware/main.py serve) runs the window too: every FRAME_MS its
        hook takes the window's events and shows the box's screen."""
        due = [0.0]

        def frame(box):
            now = time.monotonic()
            if now >= due[0]:
                due[0] = now + FRAME_MS / 1000
                for ev in self.pg.event.get():
                    self.handle_event(ev)
                self.draw()
                self.pg.display.flip()
            return not self.running

        self.box.serve(frame)
        self.close()

    def close(self):
        import displayio
        self.box.close()
        displayio.release_displays()
        self.pg.quit()


# ---- the terminal ----
def dump(screen):
    title, lines, hint = screen
    out = ["+" + "-" * 30, "| [" + title + "]"]
    out += ["| " + ln.replace("\t", "    ") for ln in lines]
    out += ["| (" + hint + ")", "+" + "-" * 30]
    return "\n".join(out)


def terminal(workdir="build/sim", inp=sys.stdin, out=sys.stdout, pty=True, virtual=False, board="sim"):
    """Each line's keys and tiles are played in turn (a key takes 250 ms, a tile 500 ms), then the
    screen they led to is printed: lines piped in queue up and each gets its own screen."""
    from simulator.device import SimDevice
    box = SimDevice(workdir, pty=pty, virtual=virtual, board=board)
    print("mahjong box simulator (terminal): keys 0-9 A-D * #, tiles 5m E a (tC: red dragon), "
          "bad = bad tag, q = quit", file=out)
    if box.port_path:
        print("serial: %s" % box.port_path, file=out)
    settle = box.settle if virtual else box.wait
    if not virtual:
        box.start()  # the device loop, in a thread: the link answers while we wait for a line
    try:
        settle()
        print(dump(box.screen()), file=out, flush=True)
        for line in inp:
            toks = line.split()
            if toks and toks[0] in ("q", "quit", "exit"):
                break
            for tok in toks:
                err = terminal_token(box, tok)
                if err:
                    print("? " + err, file=out)
            settle()
            print(dump(box.screen()), file=out, flush=True)
    finally:
        box.close()


def terminal_token(box, tok):
    if tok == "bad":
        box.tap_bad()
        return None
    t = parse_tile(tok)
    if t is not None:
        box.tap(t)
        return None
    if all(ch in KEYS for ch in tok):
        for ch in tok:
            box.press(ch)
        return None
    return "not a key or tile: " + tok


def can_open_window():
    if os.environ.get("SDL_VIDEODRIVER") == "dummy":
        return True
    if sys.platform in ("darwin", "win32"):
        return True
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import pygame
        pygame.display.init()
        pygame.display.quit()
        return True
    except Exception:
        return False


def main(argv=None):
    ap = argparse.ArgumentParser(prog="simulator.window", description="the box in a window (or the terminal)")
    ap.add_argument("--dir", default="build/sim", help="journal, key and tag settings (default build/sim)")
    ap.add_argument("--board", default="sim", help="show this board's screen and keypad map (board_configs/NAME.py)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--terminal", action="store_true")
    g.add_argument("--window", action="store_true")
    a = ap.parse_args(argv)
    from simulator import parts
    try:
        parts.for_board(a.board)
    except ValueError as e:
        ap.error(str(e))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if a.terminal or (not a.window and not can_open_window()):
        terminal(a.dir, board=a.board)
        return 0
    try:
        win = Window(a.dir, board=a.board)
    except Exception as e:  # SDL could not open a window after all
        print("no window (%s): running in the terminal" % e, file=sys.stderr)
        terminal(a.dir, board=a.board)
        return 0
    print(win.port_label(), flush=True)
    win.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
