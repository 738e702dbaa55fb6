# SSD1306 driver: the emulator rebuilds the glass from the I2C bytes; it must equal the
# FrameBuffer. On CPython `framebuf` is tests/shims/framebuf.py, on MicroPython the built-in one.
import gc

import emu_path
from emulators.ssd1306_emu import SSD1306Emu
from firmware.drivers.ssd1306 import SSD1306_I2C


def make(**kw):
    emu = SSD1306Emu()
    return emu, SSD1306_I2C(emu, 128, 64, **kw)


def scene(fb):
    fb.fill(0)
    fb.rect(0, 0, 128, 64, 1)
    fb.fill_rect(10, 5, 30, 20, 1)
    fb.fill_rect(14, 9, 8, 8, 0)
    fb.line(0, 63, 127, 0, 1)
    fb.line(64, 2, 70, 61, 1)
    fb.hline(3, 40, 100, 1)
    fb.vline(100, 3, 58, 1)
    for i in range(0, 64, 7):
        fb.pixel(120 - i, i, 1)


def mismatches(emu, fb, xf=None):
    bad = 0
    for y in range(64):
        for x in range(128):
            sx, sy = (x, y) if xf is None else xf(x, y)
            if emu.lit(x, y) != fb.pixel(sx, sy):
                bad += 1
    return bad


def test_init_turns_the_panel_on_with_its_charge_pump_and_a_blank_screen():
    emu, oled = make()
    assert emu.on and emu.charge_pump and emu.mode == 2
    assert emu.seg_remap and emu.com_reversed and emu.mux == 63
    assert not any(emu.ram)
    assert mismatches(emu, oled) == 0


def test_command_bytes_of_init_and_show():
    emu = SSD1306Emu()
    emu.log = bytearray()
    SSD1306_I2C(emu, 128, 64)
    init, pages = bytes(emu.log[:-24]), bytes(emu.log[-24:])
    assert init[:8] == b"\xae\x20\x02\x40\xa1\xa8\x3f\xc8"  # off, page mode, ..., mux 64
    assert b"\x8d\x14" in init and init.endswith(b"\xaf")  # charge pump, then on
    assert pages == b"".join(bytes((0xB0 | p, 0x00, 0x10)) for p in range(8))  # page, column 0
    assert emu.data_bytes == 1024  # the blank screen of init


def test_glass_equals_the_framebuffer_after_show():
    emu, oled = make()
    scene(oled)
    t = emu.transactions
    oled.show()
    assert emu.transactions - t == 16  # 8 pages: position + data
    assert emu.ram == oled.buffer
    assert mismatches(emu, oled) == 0
    assert sum(emu.lit(x, 0) for x in range(128)) == 128  # the frame's top edge


def test_a_second_show_sends_the_changes():
    emu, oled = make()
    scene(oled)
    oled.show()
    oled.fill_rect(50, 30, 20, 20, 1)
    oled.pixel(0, 0, 0)
    oled.show()
    assert mismatches(emu, oled) == 0 and emu.lit(0, 0) == 0 and emu.lit(55, 35) == 1


def test_show_sends_only_the_pages_that_changed():
    emu, oled = make()
    scene(oled)
    oled.show()
    t = emu.transactions
    oled.show()
    assert emu.transactions == t  # nothing changed: nothing on the bus
    oled.pixel(50, 17, 1 - oled.pixel(50, 17))  # row 17: page 2 only
    oled.show()
    assert emu.transactions - t == 2 and mismatches(emu, oled) == 0
    t = emu.transactions
    oled.show(full=True)
    assert emu.transactions - t == 16


def test_a_panel_that_lost_a_page_gets_it_back_within_64_shows():
    emu, oled = make()
    scene(oled)
    oled.show()
    emu.ram[300] ^= 0xFF  # a glitch on the bus: page 2 of the panel is wrong
    for _ in range(64):
        oled.show()
    assert mismatches(emu, oled) == 0


def test_dim_and_shift_for_burn_in():
    emu, oled = make()
    scene(oled)
    oled.show()
    oled.dim(True)
    assert emu.contrast == 0x08
    oled.shift(2)  # the picture 2 rows lower, in the panel: nothing sent again
    assert emu.start_line == 62
    assert all(emu.lit(x, y + 2) == oled.pixel(x, y) for x in range(0, 128, 7) for y in range(0, 62, 3))
    oled.shift(0)
    oled.dim(False)
    assert emu.start_line == 0 and emu.contrast == 0xFF and mismatches(emu, oled) == 0


def test_rotate_flips_the_picture_in_the_controller():
    emu, oled = make()
    scene(oled)
    oled.rotate(True)
    oled.show()
    assert mismatches(emu, oled, lambda x, y: (127 - x, 63 - y)) == 0
    oled.rotate(False)
    assert mismatches(emu, oled) == 0


def test_invert_contrast_and_power():
    emu, oled = make()
    scene(oled)
    oled.show()
    oled.invert(True)
    assert emu.lit(12, 7) == 0 and emu.lit(16, 11) == 1
    oled.invert(False)
    oled.contrast(0x20)
    assert emu.contrast == 0x20
    oled.poweroff()
    assert not any(emu.lit(x, 7) for x in range(128))
    oled.poweron()
    assert mismatches(emu, oled) == 0


def test_128x32_panel():
    emu = SSD1306Emu()
    oled = SSD1306_I2C(emu, 128, 32)
    assert emu.mux == 31
    oled.fill(1)
    oled.show()
    assert emu.ram[:512] == b"\xff" * 512 and not any(emu.ram[512:])


def test_show_allocates_nothing_on_micropython():
    emu, oled = make()
    scene(oled)
    oled.show()
    emu_path.needs_micropython()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(10):
            oled.show()
        after = gc.mem_alloc()
    finally:
        gc.enable()
    print("SSD1306 show: %d bytes allocated over 10 frames" % (after - before))
    assert after - before < 100


def test_show_sends_the_changed_columns_of_a_page():
    emu, oled = make()
    scene(oled)
    oled.show()
    d = emu.data_bytes
    oled.pixel(50, 17, 1 - oled.pixel(50, 17))  # page 2, column 50
    oled.show()
    assert emu.data_bytes - d == 1 and mismatches(emu, oled) == 0
    d = emu.data_bytes
    oled.pixel(10, 30, 1 - oled.pixel(10, 30))  # page 3, columns 10 and 100: 91 columns
    oled.pixel(100, 25, 1 - oled.pixel(100, 25))
    oled.show()
    assert emu.data_bytes - d == 91 and mismatches(emu, oled) == 0


def test_the_refresh_sends_one_page_whole_not_the_frame():
    emu, oled = make()
    scene(oled)
    oled.show()
    most = 0
    for i in range(64):
        d = emu.data_bytes
        oled.pixel(i, 0, 1 - oled.pixel(i, 0))  # one byte of page 0 each time
        oled.show()
        most = max(most, emu.data_bytes - d)
    assert most <= 128 + 1  # at most a page whole and the changed byte
