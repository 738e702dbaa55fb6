# ST7789 driver: the emulator rebuilds controller RAM from CASET / RASET / RAMWR; the banded
# show() must produce the same bytes as one FrameBuffer drawn whole. RAM is compared 40 rows at
# a time (a pass per slice) to stay inside the MicroPython test heap.
import emu_path  # first: on CPython it makes tests/shims/framebuf.py importable
import framebuf
from emulators.st7789_emu import ST7789Emu
from firmware.drivers.st7789 import ST7789, color565

RED = color565(255, 0, 0)
GREEN = color565(0, 255, 0)
BLUE = color565(0, 0, 255)
WHITE = color565(255, 255, 255)
SLICE = 40


def make(capture=(0, 320), **kw):
    emu = ST7789Emu(capture)
    use_rst = kw.pop("use_rst", False)
    lcd = ST7789(emu, emu.dc, cs=emu.cs, rst=emu.rst if use_rst else None,
                 sleep_ms=emu.sleep_ms, **kw)
    return emu, lcd


def scene(fb, y0):
    # a whole 240 x 320 screen, drawn shifted up by y0
    fb.rect(0, 0 - y0, 240, 320, WHITE)
    fb.fill_rect(10, 10 - y0, 60, 85, RED)  # a tile face crossing band edges
    fb.fill_rect(20, 20 - y0, 40, 65, WHITE)
    fb.line(0, 319 - y0, 239, 0 - y0, GREEN)
    fb.line(120, 5 - y0, 125, 314 - y0, BLUE)
    fb.hline(5, 160 - y0, 230, RED)
    for i in range(0, 320, 13):
        fb.pixel((i * 7) % 240, i - y0, GREEN)


def reference(y0, rows):
    buf = bytearray(240 * rows * 2)
    fb = framebuf.FrameBuffer(buf, 240, rows, framebuf.RGB565)
    fb.fill(BLUE)
    scene(fb, y0)
    return buf


def test_color565_is_byte_swapped_for_the_framebuffer():
    assert RED == 0x00F8 and BLUE == 0x1F00 and GREEN == 0xE007
    emu, lcd = make((0, 8))
    lcd.fill_rect(0, 0, 4, 4, RED)
    lcd.fill_rect(4, 0, 4, 4, BLUE)
    assert emu.pixel(0, 0) == 0xF800 and emu.pixel(5, 1) == 0x001F  # as the panel reads them


def test_init_sequence_and_timing():
    emu, lcd = make((0, 1))
    assert emu.commands[:3] == [0x01, 0x11, 0x3A]
    assert emu.colmod == 0x55 and emu.madctl == 0x00
    assert emu.on and not emu.asleep and emu.inverted
    emu, lcd = make((0, 1), use_rst=True)
    assert 0x01 not in emu.commands and emu.on


def test_the_emulator_refuses_a_driver_that_skips_the_reset_delays():
    emu = ST7789Emu((0, 1))
    try:
        ST7789(emu, emu.dc, cs=emu.cs, sleep_ms=lambda ms: None)
    except AssertionError:
        return
    assert False, "no timing error"


def test_the_frame_buffer_is_one_band_not_a_frame():
    emu, lcd = make((0, 1))
    assert len(lcd._band) == 240 * 16 * 2  # 7,680 bytes, not 153,600


def test_banded_show_equals_one_whole_framebuffer():
    for y0 in range(0, 320, SLICE):
        emu, lcd = make((y0, y0 + SLICE))
        t = emu.transactions
        lcd.show(scene, bg=BLUE)
        assert emu.transactions - t == 3 + 20  # CASET, RASET, RAMWR, then 20 bands
        assert emu.pixels == 240 * 320
        assert emu.gram == reference(y0, SLICE), y0  # the captured rows, byte for byte


def test_banded_show_with_a_partial_last_band():
    emu, lcd = make((280, 320), band_rows=24)  # 13 bands of 24 rows, then 8
    lcd.show(scene, bg=BLUE)
    assert emu.pixels == 240 * 320
    assert emu.gram == reference(280, 40)


def test_blit_buffer_writes_one_window():
    emu, lcd = make((0, 40))
    sprite = bytearray(4 * 3 * 2)
    for i in range(12):
        sprite[2 * i] = 0x10 + i  # pixel i, big-endian
        sprite[2 * i + 1] = 0x80
    lcd.blit_buffer(sprite, 5, 7, 4, 3)
    for i in range(12):
        assert emu.pixel(5 + i % 4, 7 + i // 4) == (0x10 + i) << 8 | 0x80
    assert emu.pixel(9, 7) == 0 and emu.pixel(5, 10) == 0
    for bad in ((-1, 0), (237, 0), (0, 318)):
        try:
            lcd.blit_buffer(sprite, bad[0], bad[1], 4, 3)
        except ValueError:
            continue
        assert False, bad


def test_fill_rect_is_clipped_to_the_screen():
    emu, lcd = make((300, 320))
    lcd.fill_rect(230, 310, 50, 50, RED)
    assert emu.pixels == 10 * 10
    assert emu.pixel(230, 310) == 0xF800 and emu.pixel(239, 319) == 0xF800
    assert emu.pixel(229, 319) == 0 and emu.pixel(239, 309) == 0


def test_rotation_180_mirrors_both_axes():
    emu, lcd = make((300, 320), rotation=2)
    lcd.fill_rect(0, 0, 3, 2, RED)  # top left of the rotated screen
    assert emu.pixel(239, 319) == 0xF800 and emu.pixel(237, 318) == 0xF800
    assert emu.pixel(236, 319) == 0 and emu.pixel(239, 317) == 0


def test_rotation_90_is_landscape():
    emu, lcd = make((300, 302), rotation=1)
    assert (lcd.width, lcd.height) == (320, 240)
    sprite = bytearray(b"\x12\x34\x56\x78")  # two pixels in a row
    lcd.blit_buffer(sprite, 300, 10, 2, 1)
    # the emulator's MADCTL model: MV then MX, logical (x, y) -> RAM (239 - y, x)
    assert emu.pixel(229, 300) == 0x1234 and emu.pixel(229, 301) == 0x5678
    lcd.fill(GREEN)
    assert emu.pixels == 2 + 320 * 240


def test_small_panel_with_a_ram_offset():
    for first, inside, outside in ((38, 40, 39), (278, 279, 280)):
        emu, lcd = make((first, first + 3), width=135, height=240, xstart=52, ystart=40)
        lcd.fill(RED)
        assert emu.pixels == 135 * 240
        assert emu.pixel(52, inside) == 0xF800 and emu.pixel(186, inside) == 0xF800
        assert emu.pixel(51, inside) == 0 and emu.pixel(187, inside) == 0
        assert emu.pixel(52, outside) == 0
