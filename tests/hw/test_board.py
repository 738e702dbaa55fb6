"""Board configs and firmware/board/: each MicroPython config builds the real drivers on the
emulated parts (tests/emulators) through a stand-in `machine`, with the pins and buses the
config names; the device loop then reads keys off the key matrix and tags off the reader, and
draws on the display."""
import pytest

from emulators import tags as vtags
from emulators.mfrc522_emu import MFRC522Emu
from emulators.pn532_emu import PN532Emu
from emulators.ssd1306_emu import SSD1306Emu
from emulators.st7789_emu import ST7789Emu
from fake_machine import FakeMachine
from firmware import board
from firmware.tags import tile_tag
from firmware.app import App
from firmware.journal import Journal
from firmware.main import Device

FEATHER_RP2040_PINS = {"A0", "A1", "A2", "A3", "D4", "D5", "D6", "D9", "D10", "D11", "D12", "D13", "D24",
                       "D25", "SCK", "MOSI", "MISO", "SDA", "SCL", "RX", "TX"}


def device(hw, tmp_path):
    t = [0]
    app = App(Journal(str(tmp_path / "j")), lambda: t[0], device_id="b")
    dev = Device(hw, app, lambda: t[0])
    dev.read_ms = 0
    return dev, t


def press(fm, dev, t, key, scans=4):
    fm.press(key)
    for _ in range(scans):
        dev.step()
        t[0] += 5
    fm.release_all()
    for _ in range(scans):
        dev.step()
        t[0] += 5


def test_every_config_has_the_fields_board_py_reads():
    for name in ("pico", "esp32s3", "circuitpython_feather", "sim"):
        cfg = board.load(name)
        assert cfg.NAME == name
        assert cfg.PLATFORM in ("micropython", "circuitpython", "parts")
        if cfg.PLATFORM == "parts":
            assert board._import(cfg.PARTS).key_pins
        assert cfg.KEYPAD["keymap"] == "123A456B789C*0#D"
        assert cfg.FONT == (12 if cfg.DISPLAY["height"] < 160 else 16)
        assert cfg.JOURNAL


def test_a_board_that_does_not_exist():
    for name in ("nonsense", "", "../sim", "sim.x", "pico "):
        with pytest.raises(ValueError, match="no board"):
            board.load(name)


def test_pico_wiring(tmp_path, monkeypatch):
    from firmware.drivers import mfrc522
    cfg = board.load("pico")
    tag = vtags.ntag213()
    tag.mem[16:24] = tile_tag.encode(1, 4, 2)
    fm = FakeMachine(cfg, rfid=MFRC522Emu(), oled=SSD1306Emu())
    monkeypatch.setattr(mfrc522, "_sleep_us", fm.rfid.sleep_us)  # the emulator's time, not ours
    hw = board.build(cfg, {"machine": fm, "_rp2": fm.rp2()})
    # buses as in docs/hardware.md: I2C0 GP4/GP5 400 kHz, SPI0 GP18/19/16
    assert fm.i2c_calls == [(0, 4, 5, 400000)]
    assert fm.spi_calls == [(0, 4000000, 0, 0, 18, 19, 16)]
    modes = {n: (mode, pull) for n, mode, pull, _ in fm.pin_calls if mode is not None}
    # the keypad: PIO0's machine 0 drives the rows GP6-9 (set pins) and reads GP10-13 (in pins),
    # whose pull-ups the builder sets; the rows are inputs without a pull until the PIO drives one
    assert fm.sm_calls == [(0, 10000, 6, 10)]
    assert all(modes[n] == (fm.Pin.IN, None) for n in (6, 7, 8, 9))  # no pull: reset's pull-down off
    assert all(modes[n] == (fm.Pin.IN, fm.Pin.PULL_UP) for n in (10, 11, 12, 13))
    assert modes[17][0] == fm.Pin.OUT and modes[20][0] == fm.Pin.OUT
    assert hw.reader.version == 0x92 and hw.display.rows == 3
    dev, t = device(hw, tmp_path)
    dev.step()
    assert fm.oled.on and any(fm.oled.lit(x, 5) for x in range(128))  # the title bar
    press(fm, dev, t, "D")
    assert dev.app.state == "cfg"
    for k in "1" "3#" "1#" "11#" "12#" "13#" "14#" "1" "#" "A" "1" "0":
        press(fm, dev, t, k)
    assert dev.app.state == "tiles"
    fm.rfid.add_tag(tag)
    dev.step()
    assert dev.app.d["entry"].current == [4]  # 5m, read off the tag through the MFRC522
    dev.step()
    assert dev.app.d["entry"].current == [4]  # halted: one tap, one tile


def test_esp32s3_wiring(tmp_path, monkeypatch):
    from firmware.drivers import pn532, st7789
    cfg = board.load("esp32s3")
    nfc = PN532Emu([vtags.ntag213()])
    lcd = ST7789Emu()
    monkeypatch.setattr(pn532, "_sleep_us", nfc.sleep_us)
    monkeypatch.setattr(st7789, "_sleep_ms", lcd.sleep_ms)
    fm = FakeMachine(cfg, lcd=lcd, nfc=nfc)
    hw = board.build(cfg, {"machine": fm})
    assert fm.spi_calls == [(2, 40000000, 0, 0, 12, 11, None)]
    assert fm.i2c_calls == [(0, 1, 2, 400000)]
    assert hw.display.lcd.width == 320 and hw.display.lcd.height == 240 and hw.display.rows >= 8
    assert hw.reader.firmware is not None
    assert fm.pins[21].value() == 1  # backlight on
    dev, t = device(hw, tmp_path)
    dev.step()
    assert lcd.on and lcd.pixels >= 320 * 240
    assert dev.model[0] == dev.app.screen()[0]


def test_circuitpython_config_uses_feather_rp2040_pin_names():
    cfg = board.load("circuitpython_feather")
    names = list(cfg.KEYPAD["rows"]) + list(cfg.KEYPAD["cols"])
    names += [cfg.READER[k] for k in ("sck", "mosi", "miso", "cs", "rst")]
    names += [cfg.DISPLAY["sda"], cfg.DISPLAY["scl"]]
    assert set(names) <= FEATHER_RP2040_PINS
    assert len(set(names)) == len(names) - 0  # no pin twice
    assert not {"D5", "D6", "D9"} & set(names)  # the OLED wing's buttons A/B/C stay free


class _IO:
    def __init__(self, pin):
        self.pin = pin
        self.value = True

    def switch_to_output(self, value=True, drive_mode=None):
        self.value = value
        self.drive = drive_mode

    def switch_to_input(self, pull=None):
        self.pull = pull


class _Dio:
    DigitalInOut = _IO

    class DriveMode:
        OPEN_DRAIN = "od"
        PUSH_PULL = "pp"

    class Pull:
        UP = "up"


def test_circuitpython_build_with_stand_ins():
    import displayio
    cfg = board.load("circuitpython_feather")
    from firmware.drivers import mfrc522
    emu = MFRC522Emu()
    mfrc522_sleep = mfrc522._sleep_us
    mfrc522._sleep_us = emu.sleep_us
    made = {}

    class Board:
        def __getattr__(self, name):
            return name

    class Busio:
        @staticmethod
        def I2C(scl, sda, frequency):
            made["i2c"] = (scl, sda, frequency)
            return "i2c"

        @staticmethod
        def SPI(sck, MOSI, MISO):
            made["spi"] = (sck, MOSI, MISO)

            class S:
                def try_lock(self):
                    return True

                def configure(self, **kw):
                    made["spi_cfg"] = kw

                def unlock(self):
                    pass

                def write(self, b):
                    emu.write(b)

                def write_readinto(self, o, i):
                    emu.write_readinto(o, i)
            return S()

    class Bus:
        @staticmethod
        def I2CDisplayBus(i2c, device_address):
            made["bus"] = (i2c, device_address)
            return "bus"

    class SH:
        @staticmethod
        def SH1107(bus, width, height, rotation):
            made["sh1107"] = (bus, width, height, rotation)
            return None

    # the MFRC522's chip select: the driver calls the pin callable; route it to the emulator
    from firmware.board import circuitpython as board_cp
    real_out = board_cp._cp_out

    def cp_out(dio, pin, value=1, open_drain=False):
        if pin == "D10":
            return emu.cs
        return real_out(dio, pin, value, open_drain)

    board_cp._cp_out = cp_out
    try:
        hw = board.build(cfg, {"board": Board(), "busio": Busio, "digitalio": _Dio, "displayio": displayio,
                               "i2cdisplaybus": Bus, "adafruit_displayio_sh1107": SH})
    finally:
        board_cp._cp_out = real_out
        mfrc522._sleep_us = mfrc522_sleep
    assert made["i2c"] == ("SCL", "SDA", 400000) and made["bus"] == ("i2c", 0x3C)
    assert made["sh1107"] == ("bus", 128, 64, 0)
    assert made["spi"] == ("SCK", "MOSI", "MISO") and made["spi_cfg"]["baudrate"] == 4000000
    assert hw.reader.version == 0x92
    hw.display.show(("T", ["a"], "h"))
    assert hw.display.rows == 3 and hw.display.index(2, 2) == 1  # title bar lit


def test_the_firmware_never_imports_the_simulator():
    # no firmware module names the simulator; importing all of them loads none of it (the sim
    # board's parts come in only through its config, board_configs/sim.py PARTS)
    import re
    import subprocess
    import sys
    from pathlib import Path
    repo = Path(__file__).resolve().parents[2]
    mods = []
    for p in sorted((repo / "firmware").rglob("*.py")):
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+simulator\b", text, re.M), p
        assert "simulator import" not in text and "__import__(\"simulator" not in text, p
        # the port's own modules (framebuf, displayio), the flat stdio scripts and native code
        # (glyph_viper: MicroPython compiles it, CPython cannot): checked above
        if p.name not in ("__init__.py", "displayio_screen.py", "circuitpython.py", "ssd1306.py", "st7789.py",
                          "settle_stdio.py", "glyph_viper.py"):
            mods.append(".".join(p.relative_to(repo).with_suffix("").parts))
    code = ("import sys\n" + "".join("import %s\n" % m for m in mods) +
            "bad = [m for m in sys.modules if m.split('.')[0] == 'simulator']\n"
            "assert not bad, bad\n"
            "from firmware.ui import render\n"
            "assert render.framebuf is None, render.framebuf\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr


def test_the_pico_w_has_the_picos_parts_on_the_same_pins():
    # the Pico W keeps the Pico's header pinout: its parts' configs are the Pico's, field for field
    # (a keypad timing added to one and not the other left the Pico W's scan without its settle time)
    from firmware.board import load
    pico, pico_w = load("pico"), load("pico_w")
    for part in ("DISPLAY", "READER", "KEYPAD"):
        assert getattr(pico_w, part) == getattr(pico, part), part
    assert (pico_w.FONT, pico_w.SERIAL, pico_w.MCU) == (pico.FONT, pico.SERIAL, pico.MCU)
