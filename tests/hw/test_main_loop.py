"""firmware/main.py's Device on the simulator board: keys reach the app through the key matrix
and the keypad scanner, tags through the reader interface and the tile-tag decoder, one tap is
one read, bad tags and two tiles on the reader give messages, the display is redrawn only when the
screen model changes (and pages through long screens), *0# opens the tag checker, the clock does
not wrap; boot() and serve() are the loop every mode runs."""
import pytest

from firmware import board
from firmware.app import App
from firmware.journal import Journal
from firmware.main import SCROLL_MS, Clock, Device
from simulator import parts as sparts
from simulator import virtual


class Screen:
    """The board's screen, remembering what it was asked to show and what it showed."""

    def __init__(self, inner):
        self.inner = inner
        self.rows = inner.rows
        self.shows = 0
        self.model = None
        self.scroll = None

    def show(self, model, scroll=0):
        self.shows += 1
        self.model = model
        self.scroll = self.inner.show(model, scroll)
        return self.scroll


def make(tmp_path):
    t = [0]
    p = sparts.Parts()
    hw = board.build(board.load("sim"), {"parts": p})
    hw.display = Screen(hw.display)
    app = App(Journal(str(tmp_path / "j")), lambda: t[0], device_id="b")
    dev = Device(hw, app, lambda: t[0], files=str(tmp_path))
    dev.parts = p
    return dev, hw, t


def run(dev, t, steps=30, ms=5):
    for _ in range(steps):
        dev.step()
        t[0] += ms


def keys(dev, hw, t, s):
    m = dev.parts.matrix
    for k in s:
        r, c = divmod("123A456B789C*0#D".index(k), 4)
        m.press(r, c)
        run(dev, t, 6)
        m.release(r, c)
        run(dev, t, 6)
    run(dev, t)


def tap(dev, t, tag):
    dev.hw.reader.place(tag)
    run(dev, t)
    dev.hw.reader.lift(tag)


def start_session(dev, hw, t):
    keys(dev, hw, t, "D13#1#101#102#103#104#1#")
    assert dev.app.state == "main"


def test_redraw_only_when_the_model_changes(tmp_path):
    dev, hw, t = make(tmp_path)
    run(dev, t, 400)  # two seconds of idle: one draw at boot
    assert hw.display.shows == 1 and dev.steps == 400
    keys(dev, hw, t, "D")
    assert hw.display.shows == 2 and hw.display.model[0] == dev.app.screen()[0]
    keys(dev, hw, t, "C")  # a key the rules step ignores: same model, no draw
    assert hw.display.shows == 2


def test_taps_reach_the_app_once(tmp_path):
    dev, hw, t = make(tmp_path)
    start_session(dev, hw, t)
    keys(dev, hw, t, "A13")
    tiles = virtual.tile_set(1)
    tag = tiles[2, 0]
    hw.reader.place(tag)
    run(dev, t, 100)  # half a second on the reader: one read, then the tag is halted
    assert dev.app.d["entry"].current == [2] and tag.halted and hw.reader.reads == 1
    hw.reader.lift(tag)
    tap(dev, t, virtual.bad_tag())
    assert hw.display.model[1][0] == "! 不是麻将牌签"  # not a tile tag: the app words it
    hw.reader.place(tiles[3, 0])
    hw.reader.place(tiles[4, 0])
    run(dev, t)
    # two tiles at once: both read, one after the other (the reader's anticollision), once each
    assert sorted(dev.app.d["entry"].current) == [2, 3, 4] and hw.reader.reads == 4  # 2m, the bad tag, 3 and 4
    hw.reader.lift(tiles[4, 0])
    run(dev, t)
    assert sorted(dev.app.d["entry"].current) == [2, 3, 4]
    hw.reader.lift()
    tap(dev, t, virtual.tile_set(9)[5, 0])
    assert hw.display.model[1][0] == "! 别的牌套的牌"  # a tile of another set


def test_keys_go_through_the_scanner(tmp_path):
    # a contact shorter than the debounce is no key; a held key is one key
    dev, hw, t = make(tmp_path)
    m = dev.parts.matrix
    m.press(3, 3)  # D for two scans only
    run(dev, t, 2)
    m.release(3, 3)
    run(dev, t, 10)
    assert dev.app.state == "idle"
    m.press(3, 3)
    run(dev, t, 400)  # two seconds
    m.release(3, 3)
    run(dev, t, 10)
    assert dev.app.state == "cfg"
    keys(dev, hw, t, "1")
    assert dev.app.state != "cfg" or dev.app.d.get("step", 0) > 0


def test_long_screens_page_on_a_key_not_a_timer(tmp_path):
    # the app lays screens out for the display (app.fit) and pages them itself: # turns the page,
    # nobody waits for a timed scroll (app stream: the screen model of issue 11)
    dev, hw, t = make(tmp_path)
    start_session(dev, hw, t)
    keys(dev, hw, t, "A10")
    tiles = virtual.tile_set(1)
    for tile, copy in zip((18, 18, 18, 19, 19, 19, 20, 20, 20, 21, 21, 21, 22, 22),
                          (0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1)):
        tap(dev, t, tiles[tile, copy])
    assert dev.app.state == "confirm"
    title, lines, hint = dev.model
    pages = int(title.rsplit("/", 1)[1])
    assert title.endswith("\t1/%d" % pages) and pages > 1 and len(lines) == 3
    shows = hw.display.shows
    run(dev, t, SCROLL_MS // 5 + 2)
    assert dev.scroll == 0 and hw.display.shows == shows  # no timed scroll
    keys(dev, hw, t, "#")
    assert dev.model[0].endswith("\t2/%d" % pages) and dev.model[1] != lines


def test_tag_checker_from_the_keypad(tmp_path):
    dev, hw, t = make(tmp_path)
    keys(dev, hw, t, "*0#")
    assert dev.tags.active and dev.model[0] == "Tag check"
    tap(dev, t, virtual.tile_set(1)[33, 2])
    assert dev.model[1][0] == "P copy 3"
    tap(dev, t, virtual.bad_tag())
    assert dev.model[1][0] == "corrupt"
    keys(dev, hw, t, "*")
    assert not dev.tags.active and dev.app.state == "idle"


def test_tag_settings_persist(tmp_path):
    from firmware.main import load_tag_settings
    from firmware.tags.tile_tag import UidRegistry
    dev, hw, t = make(tmp_path)
    blob = UidRegistry.build(7, [(b"\x3a\x9c\x51\xd2", 4, 1)])
    dev.save_tag_settings(7, blob)
    set_id, reg = load_tag_settings(str(tmp_path))
    assert set_id == 7 and reg.lookup(b"\x3a\x9c\x51\xd2", 4) == 4 * 4 + 1
    dev.save_tag_settings(8, None)
    assert load_tag_settings(str(tmp_path)) == (8, None)


def test_clock_does_not_wrap():
    ticks = [(1 << 30) - 10]

    def ticks_ms():
        return ticks[0]

    def diff(a, b):  # MicroPython's ticks_diff over a 2^30 period
        return ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)

    import firmware.main as m
    old = m.ticks_diff
    m.ticks_diff = diff
    try:
        c = Clock(ticks_ms)  # since the chip's reset: ticks_ms() counts from 0 there
        fresh = Clock(ticks_ms, since_boot=False)
        assert c() == (1 << 30) - 10 and fresh() == 0
        ticks[0] = ((1 << 30) - 10 + 50) & ((1 << 30) - 1)  # wrapped
        assert c() == (1 << 30) + 40 and fresh() == 50
    finally:
        m.ticks_diff = old


def test_boot_and_serve(tmp_path):
    # main.boot: the board's parts, the journal under the root, the chip id as the device id,
    # the tag settings; serve: the hook before each step, the sleep between steps
    from firmware import main
    (tmp_path / "tagset").write_text("7\n")
    p = sparts.Parts(uid=b"\x01\x02\x03\x04\x05\xaa\xbb\xcc")
    t = [0]
    dev = main.boot("sim", mods={"parts": p}, root=str(tmp_path), clock=lambda: t[0], link=False)
    assert dev.app.device_id == "box-aabbcc" and dev.tag_set == 7 and dev.link is None
    assert (tmp_path / "journal").is_dir() and dev.hw.keys.kp is not None
    slept = []

    def sleep(ms):
        slept.append(ms)
        t[0] += ms

    def hook(d, n):
        if n == 3:
            p.matrix.press(3, 3)  # D, held
        return n >= 40
    main.serve(dev, hook=hook, sleep=sleep)
    assert dev.steps == 40 and slept == [main.LOOP_MS] * 40 and dev.app.state == "cfg"
    with pytest.raises(ValueError, match="no board 'nope'"):
        main.boot("nope", root=str(tmp_path))


def test_an_idle_screen_dims_and_moves_and_the_first_key_still_counts(tmp_path):
    from firmware.ui.screensaver import DIM_AFTER_MS, SHIFT_MS
    t = [0]
    p = sparts.Parts()
    hw = board.build(board.load("sim"), {"parts": p})
    dims = []
    hw.display.dim = lambda on: dims.append(on)  # the desktop frame has no contrast: record it
    app = App(Journal(str(tmp_path / "j")), lambda: t[0], device_id="b")
    dev = Device(hw, app, lambda: t[0], files=str(tmp_path))
    dev.parts = p
    run(dev, t, 20)
    frame = p.frame
    w = frame.width
    before = bytes(frame.buf)

    def row(buf, y):
        return [buf[(y >> 3) * w + x] >> (y & 7) & 1 for x in range(w)]
    t[0] += DIM_AFTER_MS
    run(dev, t, 2)
    assert dims == [True] and bytes(frame.buf) == before  # dimmed, not moved yet
    t[0] += SHIFT_MS
    run(dev, t, 2)
    dy = hw.display.dy
    assert dy == 1
    moved = bytes(frame.buf)
    # the whole picture one row lower: no pixel lit in the same place for hours
    assert all(row(moved, y + dy) == row(before, y) for y in range(0, 60))
    t[0] += SHIFT_MS
    run(dev, t, 2)
    assert hw.display.dy == 2
    # the first key wakes the screen and is the key it is: D opens the session's config
    m = p.matrix
    m.press(3, 3)
    run(dev, t, 6)
    m.release(3, 3)
    run(dev, t, 6)
    assert dims == [True, False] and hw.display.dy == 0 and app.state == "cfg"
