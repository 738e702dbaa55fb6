"""firmware/main.py's Device on the simulator board: keys and tags reach the app, one tap is one
read, bad tags and two tiles on the reader give messages, the display is redrawn only when the
screen model changes (and pages through long screens), *0# opens the tag checker, the clock does
not wrap."""
from firmware import board
from firmware.app import App
from firmware.journal import Journal
from firmware.main import SCROLL_MS, Clock, Device
from simulator import virtual


def make(tmp_path):
    t = [0]
    hw = board.build(board.load("sim"))
    app = App(Journal(str(tmp_path / "j")), lambda: t[0], device_id="b")
    dev = Device(hw, app, lambda: t[0], files=str(tmp_path))
    return dev, hw, t


def run(dev, t, steps=30, ms=5):
    for _ in range(steps):
        dev.step()
        t[0] += ms


def keys(dev, hw, t, s):
    for k in s:
        hw.keys.press(k)
    run(dev, t)


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
    hw.reader.tap(tag)
    run(dev, t)
    assert dev.app.d["entry"].current == [2]
    assert hw.reader.field == []  # halted and lifted
    hw.reader.tap(virtual.bad_tag())
    run(dev, t)
    assert hw.display.model[1][0] == "! 不是麻将牌签"  # not a tile tag
    hw.reader.tap(tiles[3, 0])
    hw.reader.tap(tiles[4, 0])
    run(dev, t)
    assert hw.display.model[1][0] == "! 一次只拍一张"  # one tile at a time
    assert dev.app.d["entry"].current == [2]
    hw.reader.lift(tiles[4, 0])
    run(dev, t)
    assert dev.app.d["entry"].current == [2, 3]
    foreign = virtual.tile_set(9)[5, 0]
    hw.reader.tap(foreign)
    run(dev, t)
    assert hw.display.model[1][0] == "! 别的牌套的牌"  # a tile of another set


def test_long_screens_page_on_a_key_not_a_timer(tmp_path):
    # the app lays screens out for the display (app.fit) and pages them itself: # turns the page,
    # nobody waits for a timed scroll
    dev, hw, t = make(tmp_path)
    start_session(dev, hw, t)
    keys(dev, hw, t, "A10")
    for c in range(14):
        hw.reader.tap(virtual.tile_set(1)[(18, 18, 18, 19, 19, 19, 20, 20, 20, 21, 21, 21, 22, 22)[c],
                                          (0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1)[c]])
        run(dev, t)
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
    hw.reader.tap(virtual.tile_set(1)[33, 2])
    run(dev, t)
    assert dev.model[1][0] == "P copy 3"
    hw.reader.tap(virtual.bad_tag())
    run(dev, t)
    assert dev.model[1][0] == "corrupt"
    keys(dev, hw, t, "*")
    assert not dev.tags.active and dev.app.state == "idle"


def test_tag_settings_persist(tmp_path):
    from firmware.main import load_tag_settings
    from firmware.tile_tag import UidRegistry
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
        c = Clock(ticks_ms)
        ticks[0] = ((1 << 30) - 10 + 50) & ((1 << 30) - 1)  # wrapped
        assert c() == 50
    finally:
        m.ticks_diff = old
