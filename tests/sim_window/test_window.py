"""The simulator window, offscreen (SDL_VIDEODRIVER=dummy): clicks on the keypad and the tile
rack go through Window.handle_event as mouse events; a screenshot of each main screen is
compared with the reviewed reference in tests/sim_window/reference/.

Comparison: the box's screen area (the displayio output, scaled 4x) must match pixel for pixel;
in the rest of the window (pygame's bundled font for labels) at most 0.1 % of the pixels may
differ, so a different FreeType hinting on another machine does not fail the test while any
change of layout or of the box's screen does (one changed key label is ~0.2 %).
SIM_WINDOW_UPDATE=1 rewrites the references (review them before committing); the screenshots
of every run are left in build/sim_window/.
"""
import os
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

from firmware.ui.render import Renderer  # noqa: E402
from simulator import framebuf_compat as fbc  # noqa: E402
from simulator import window as winmod  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
REF = Path(__file__).resolve().parent / "reference"
OUT = REPO / "build" / "sim_window"
SCREEN = (winmod.SCREEN_AT[0], winmod.SCREEN_AT[1], 128 * winmod.SCALE, 64 * winmod.SCALE)
TOLERANCE = 0.001


@pytest.fixture
def win(tmp_path_factory):
    # the clock moves as the device loop sleeps, without waiting (the screens are the same on
    # every run)
    w = winmod.Window(str(tmp_path_factory.mktemp("box")), pty=False, virtual=True, epoch=1764400000)
    yield w
    w.close()


def keys(w, s):
    for k in s:
        w.click("key", k)
    w.settle()


def tiles(w, names):
    for n in names.split():
        w.click("tile", winmod.parse_tile(n))
        w.settle()


def pixels(path):
    surf = pygame.image.load(str(path))
    return surf


def compare(name, w):
    OUT.mkdir(parents=True, exist_ok=True)
    shot = OUT / (name + ".png")
    w.screenshot(str(shot))
    ref = REF / (name + ".png")
    if os.environ.get("SIM_WINDOW_UPDATE"):
        REF.mkdir(parents=True, exist_ok=True)
        w.screenshot(str(ref))
    assert ref.exists(), "no reference %s: run with SIM_WINDOW_UPDATE=1 and review it" % ref
    a = pixels(shot)
    b = pixels(ref)
    assert a.get_size() == b.get_size() == (winmod.W, winmod.H)
    sx, sy, sw, sh = SCREEN
    screen_diff = [(x, y) for y in range(sy, sy + sh, 1) for x in range(sx, sx + sw, 4)
                   if a.get_at((x, y)) != b.get_at((x, y))]
    assert not screen_diff, "%s: the box's screen differs from the reference at %s" % (name, screen_diff[:5])
    diff = 0
    for y in range(winmod.H):
        for x in range(0, winmod.W):
            if a.get_at((x, y)) != b.get_at((x, y)):
                diff += 1
    assert diff <= TOLERANCE * winmod.W * winmod.H, "%s: %d pixels differ" % (name, diff)


def same_as_framebuf(w):
    """The displayio output in the window is the framebuf renderer's picture (lit or not)."""
    model = w.box.dev.model
    buf = bytearray(128 * 64 // 8)
    fb = fbc.FrameBuffer(buf, 128, 64, fbc.MONO_VLSB)
    Renderer(128, 64).draw(fb, model, w.box.dev.scroll)
    px = w.device_pixels()
    for y in range(64):
        for x in range(128):
            assert (px[y][x] != (0, 0, 0)) == bool(fb.pixel(x, y)), (x, y, model)


def test_main_screens(win):
    keys(win, "D")
    assert win.box.app.state == "cfg"
    same_as_framebuf(win)
    compare("setup", win)

    keys(win, "13#1#101#102#103#104#1#")
    assert win.box.app.state == "main"
    same_as_framebuf(win)
    compare("main", win)

    # player 1 wins on player 3's discard: the knitted straight of simulator/scenarios/mcr_one_hand.txt
    keys(win, "A13")
    tiles(win, "3m 4m 5m")
    keys(win, "#")                      # the claimed chow (app stream's key path of issue 11)
    tiles(win, "2m 5m 8m 1s 4s 8s")
    assert win.box.app.state == "tiles"
    assert win.last == "tapped 8s"
    same_as_framebuf(win)
    compare("win_entry", win)

    tiles(win, "8s 3p 6p 9p 7s")        # the last tile in: the result, no key
    assert win.box.app.state == "confirm"
    same_as_framebuf(win)
    compare("confirm", win)

    keys(win, "1234")
    assert win.box.app.state == "main" and win.box.app.session.hand == 2

    keys(win, "C2")
    assert win.box.app.state == "pen_kind"
    same_as_framebuf(win)
    compare("penalty", win)

    keys(win, "**")
    keys(win, "D42580#2#")
    assert win.box.app.state == "ended"
    same_as_framebuf(win)
    compare("ended", win)


def test_bad_tag_and_flower_buttons(win):
    w = win
    w.click("bad", None)
    w.settle()
    assert w.last == "tapped a bad tag"
    assert w.box.hw.reader.field == []  # read, halted and lifted
    w.click("tile", 34)
    w.settle()
    assert w.last == "tapped a"
    assert len(w.buttons) == 16 + 34 + 8 + 1


def test_port_label_shows_the_pty(tmp_path):
    w = winmod.Window(str(tmp_path / "box"), pty=True)
    try:
        assert w.box.port_path.startswith("/dev/")
        assert w.box.port_path in w.port_label()
    finally:
        w.close()


def terminal(tmp_path, text, virtual=True):
    import io
    out = io.StringIO()
    kw = {"virtual": True} if virtual else {}  # the real clock: as a person runs it
    winmod.terminal(str(tmp_path / "box"), io.StringIO(text), out, pty=False, **kw)
    return out.getvalue().split("+------------------------------\n+")


def test_terminal_mode(tmp_path):
    screens = terminal(tmp_path, "D\n13#\nq\n")
    assert "[规则?]" in screens[1] and "[第几轮?]" in screens[2]


def test_terminal_shows_each_line_its_own_screen_and_keeps_piped_taps(tmp_path):
    # on the real clock, lines piped in at once: the tag checker (*0#) shows each line's tiles on
    # that line's screen (not the line before's), and the three tiles of one line all get read
    screens = terminal(tmp_path, "*0#\n5m\nE\n5m 6m tC\n", virtual=False)
    assert len(screens) == 5
    assert "[Tag check]" in screens[1]
    assert "| 5m copy 1\n" in screens[2]
    assert "| E copy 1\n" in screens[3]
    assert "| C copy 1\n" in screens[4] and "5 read" in screens[4]


def test_terminal_tokens():
    assert winmod.parse_tile("5m") == 4 and winmod.parse_tile("E") == 27
    assert winmod.parse_tile("tC") == 31 and winmod.parse_tile("C") is None
    assert winmod.parse_tile("a") == 34 and winmod.parse_tile("A") is None


def test_other_boards_screens(tmp_path):
    with pytest.raises(SystemExit) as e:
        winmod.main(["--board", "nonsense", "--terminal"])
    assert e.value.code == 2
    w = winmod.Window(str(tmp_path / "box"), pty=False, virtual=True, board="esp32s3")
    try:
        keys(w, "D")
        assert w.box.app.state == "cfg"
        px = w.device_pixels()
        assert (len(px[0]), len(px)) == (320, 240)
        assert len({c for row in px for c in row}) > 2  # colour: title bar, text, hint bar
        w.screenshot(str(tmp_path / "e.png"))
    finally:
        w.close()
