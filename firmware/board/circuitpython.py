# The builder for CircuitPython boards (firmware/board/__init__.py's build()): busio / digitalio
# pins wrapped as the drivers take them, displayio for the screen (firmware/ui/displayio_screen.py).
from firmware.board.base import Hardware, _matrix, _mod


class CPSpi:
    """busio.SPI as the drivers use machine.SPI: write / write_readinto, locked and configured
    per transaction (CircuitPython shares the bus between devices that way)."""

    def __init__(self, spi, baudrate):
        self.spi = spi
        self.baudrate = baudrate

    def _lock(self):
        while not self.spi.try_lock():
            pass
        self.spi.configure(baudrate=self.baudrate, polarity=0, phase=0)

    def write(self, buf):
        self._lock()
        try:
            self.spi.write(buf)
        finally:
            self.spi.unlock()

    def write_readinto(self, out, inp):
        self._lock()
        try:
            self.spi.write_readinto(out, inp)
        finally:
            self.spi.unlock()


def _cp_out(dio, pin, value=1, open_drain=False):
    # a callable pin, as the drivers take one: p(0) / p(1). Not an object with .value: on
    # CircuitPython that is a property, and the drivers would take it for machine.Pin.value()
    io = dio.DigitalInOut(pin)
    io.switch_to_output(value=bool(value),
                        drive_mode=dio.DriveMode.OPEN_DRAIN if open_drain else dio.DriveMode.PUSH_PULL)

    def set_(v=None):
        if v is None:
            return 1 if io.value else 0
        io.value = bool(v)
    return set_


def _cp_in(dio, pin):
    io = dio.DigitalInOut(pin)
    io.switch_to_input(pull=dio.Pull.UP)

    def get(v=None):
        return 1 if io.value else 0
    return get


def build_cp(cfg, mods):
    board = _mod(mods, "board")
    busio = _mod(mods, "busio")
    dio = _mod(mods, "digitalio")

    def pin(name):
        return getattr(board, name)

    k = cfg.KEYPAD
    rows = [_cp_out(dio, pin(n), 1, open_drain=True) for n in k["rows"]]
    cols = [_cp_in(dio, pin(n)) for n in k["cols"]]
    keys = _matrix(k, rows, cols)

    d = cfg.DISPLAY
    displayio = _mod(mods, "displayio")
    displayio.release_displays()
    i2c = busio.I2C(pin(d["scl"]), pin(d["sda"]), frequency=d["freq"])
    try:
        bus_mod = _mod(mods, "i2cdisplaybus")  # CircuitPython 9
        bus = bus_mod.I2CDisplayBus(i2c, device_address=d["addr"])
    except ImportError:
        bus = displayio.I2CDisplay(i2c, device_address=d["addr"])  # CircuitPython 8
    if d["driver"] == "displayio_sh1107":
        sh = _mod(mods, "adafruit_displayio_sh1107")
        dev = sh.SH1107(bus, width=d["width"], height=d["height"], rotation=d.get("rotation", 0))
    elif d["driver"] == "displayio_ssd1306":
        ss = _mod(mods, "adafruit_displayio_ssd1306")
        dev = ss.SSD1306(bus, width=d["width"], height=d["height"])
    else:
        raise ValueError("display driver " + d["driver"])
    from firmware.ui import render
    if render.framebuf is None:  # CircuitPython has no framebuf: the renderer's glyph buffers need one
        from firmware.ui import framebuf_py
        render.use_framebuf(framebuf_py)
    from firmware.ui.displayio_screen import DisplayioScreen
    display = DisplayioScreen(dev, d["width"], d["height"], color=d.get("color", False), font_size=cfg.FONT)

    r = cfg.READER
    if r["driver"] != "mfrc522":
        raise ValueError("reader driver " + r["driver"])
    from firmware.drivers.mfrc522 import MFRC522
    spi = CPSpi(busio.SPI(pin(r["sck"]), MOSI=pin(r["mosi"]), MISO=pin(r["miso"])), r["baudrate"])
    reader = MFRC522(spi, _cp_out(dio, pin(r["cs"])),
                     rst=_cp_out(dio, pin(r["rst"])) if r.get("rst") is not None else None)
    return Hardware(cfg, keys, display, reader)
