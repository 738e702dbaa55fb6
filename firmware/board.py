# Hardware objects from a board config (board_configs/NAME.py; on a device the build installs the
# chosen one as the top-level module `board_config`).
#
#   cfg = board.load()               # board_config on a device, board.load("pico") on a laptop
#   hw = board.build(cfg)            # hw.keys, hw.display, hw.reader, hw.cfg
#   k = hw.keys.poll()               # one key name ("0".."9", "A".."D", "*", "#") or None
#   hw.display.show(model, scroll)   # a screen model (title, lines, hint); hw.display.rows
#   r = hw.reader.poll()             # the reader driver itself: poll / read / write / halt, uid
#
# The port's modules are imported here, lazily, and only those the board needs: `machine` on
# MicroPython, `board` / `busio` / `digitalio` / `displayio` on CircuitPython, nothing on the
# simulator board (simulator/virtual.py). Tests pass stand-ins: build(cfg, mods={"machine": fake}).


def load(name=None):
    """The board config module: `board_config` when name is None, else board_configs.<name>."""
    if name is None:
        import board_config
        return board_config
    mod = __import__("board_configs." + name)
    return getattr(mod, name)


class Hardware:
    def __init__(self, cfg, keys, display, reader):
        self.cfg = cfg
        self.keys = keys
        self.display = display
        self.reader = reader


def _mod(mods, name):
    if mods is not None and name in mods:
        return mods[name]
    return __import__(name)


def build(cfg, mods=None):
    plat = cfg.PLATFORM
    if plat == "micropython":
        return _build_mp(cfg, _mod(mods, "machine"))
    if plat == "circuitpython":
        return _build_cp(cfg, mods)
    if plat == "sim":
        from simulator import virtual
        return Hardware(cfg, virtual.VirtualKeypad(cfg.KEYPAD["keymap"]),
                        virtual.VirtualDisplay(cfg.DISPLAY["width"], cfg.DISPLAY["height"],
                                               cfg.DISPLAY.get("color", False), cfg.FONT),
                        virtual.VirtualReader())
    raise ValueError("unknown platform " + str(plat))


# ---- keys --------------------------------------------------------------------------------
class MatrixKeys:
    """The keypad scanner behind poll(): scans once per call, returns the next key press."""

    def __init__(self, kp):
        self.kp = kp

    def poll(self):
        from firmware.drivers.keypad import GHOST, is_down
        kp = self.kp
        kp.scan()
        while True:
            ev = kp.get()
            if ev < 0:
                return None
            if ev != GHOST and is_down(ev):
                return kp.name(ev)


# ---- screens -----------------------------------------------------------------------------
def _renderer(cfg, swap=False):
    from firmware.render import Renderer, load_font
    d = cfg.DISPLAY
    return Renderer(d["width"], d["height"], color=d.get("color", False), font=load_font(cfg.FONT),
                    swap=swap)


class FramebufScreen:
    """A display driver that is a framebuf.FrameBuffer with show() (SSD1306)."""

    def __init__(self, dev, renderer):
        self.dev = dev
        self.r = renderer
        self.rows = renderer.rows

    def show(self, model, scroll=0):
        used = self.r.draw(self.dev, model, scroll)
        self.dev.show()
        return used


class BandedScreen:
    """ST7789: the panel's RAM is the frame; the renderer draws it band by band."""

    def __init__(self, lcd, renderer):
        self.lcd = lcd
        self.r = renderer
        self.rows = renderer.rows

    def show(self, model, scroll=0):
        self.r.set(model, scroll, self.lcd.band_rows)
        self.lcd.show(self.r.band)
        return scroll


# ---- MicroPython -------------------------------------------------------------------------
def _build_mp(cfg, machine):
    Pin = machine.Pin
    buses = {}

    def pin_out(n, v=1):
        return Pin(n, Pin.OUT, value=v)

    def i2c(c):
        key = ("i2c", c["i2c_id"])
        if key not in buses:
            buses[key] = machine.I2C(c["i2c_id"], sda=Pin(c["sda"]), scl=Pin(c["scl"]), freq=c["freq"])
        return buses[key]

    def spi(c):
        key = ("spi", c["spi_id"])
        if key not in buses:
            kw = {"baudrate": c["baudrate"], "polarity": 0, "phase": 0, "sck": Pin(c["sck"]),
                  "mosi": Pin(c["mosi"])}
            if c.get("miso") is not None:
                kw["miso"] = Pin(c["miso"])
            buses[key] = machine.SPI(c["spi_id"], **kw)
        return buses[key]

    # keypad: rows open-drain outputs, columns inputs with pull-ups
    k = cfg.KEYPAD
    from firmware.drivers.keypad import Keypad
    rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in k["rows"]]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in k["cols"]]
    keys = MatrixKeys(Keypad(rows, cols, k["keymap"], debounce=k.get("debounce", 3)))

    d = cfg.DISPLAY
    if d["driver"] == "ssd1306":
        from firmware.drivers.ssd1306 import SSD1306_I2C
        display = FramebufScreen(SSD1306_I2C(i2c(d), d["width"], d["height"], addr=d.get("addr", 0x3C)),
                                 _renderer(cfg))
    elif d["driver"] == "st7789":
        from firmware.drivers.st7789 import ST7789
        if d.get("backlight") is not None:
            pin_out(d["backlight"], 1)
        rot = d.get("rotation", 0)
        w, h = (d["height"], d["width"]) if rot & 1 else (d["width"], d["height"])
        lcd = ST7789(spi(d), pin_out(d["dc"], 0), cs=pin_out(d["cs"]) if d.get("cs") is not None else None,
                     rst=pin_out(d["rst"]) if d.get("rst") is not None else None, width=w, height=h,
                     rotation=rot, band_rows=d.get("band_rows", 16))
        display = BandedScreen(lcd, _renderer(cfg, swap=True))
    else:
        raise ValueError("display driver " + d["driver"])

    r = cfg.READER
    if r["driver"] == "mfrc522":
        from firmware.drivers.mfrc522 import MFRC522
        reader = MFRC522(spi(r), pin_out(r["cs"]), rst=pin_out(r["rst"]) if r.get("rst") is not None else None)
    elif r["driver"] == "pn532":
        from firmware.drivers.pn532 import PN532, PN532_I2C, PN532_SPI
        irq = Pin(r["irq"], Pin.IN, Pin.PULL_UP) if r.get("irq") is not None else None
        if r["bus"] == "i2c":
            reader = PN532(PN532_I2C(i2c(r)), irq=irq)
        else:
            reader = PN532(PN532_SPI(spi(r), pin_out(r["cs"]), reverse=True), irq=irq)
    else:
        raise ValueError("reader driver " + r["driver"])
    return Hardware(cfg, keys, display, reader)


# ---- CircuitPython -----------------------------------------------------------------------
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


def _build_cp(cfg, mods):
    board = _mod(mods, "board")
    busio = _mod(mods, "busio")
    dio = _mod(mods, "digitalio")

    def pin(name):
        return getattr(board, name)

    k = cfg.KEYPAD
    from firmware.drivers.keypad import Keypad
    rows = [_cp_out(dio, pin(n), 1, open_drain=True) for n in k["rows"]]
    cols = [_cp_in(dio, pin(n)) for n in k["cols"]]
    keys = MatrixKeys(Keypad(rows, cols, k["keymap"], debounce=k.get("debounce", 3)))

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
    from firmware.display_displayio import DisplayioScreen
    display = DisplayioScreen(dev, d["width"], d["height"], color=d.get("color", False), font_size=cfg.FONT)

    r = cfg.READER
    if r["driver"] != "mfrc522":
        raise ValueError("reader driver " + r["driver"])
    from firmware.drivers.mfrc522 import MFRC522
    spi = CPSpi(busio.SPI(pin(r["sck"]), MOSI=pin(r["mosi"]), MISO=pin(r["miso"])), r["baudrate"])
    reader = MFRC522(spi, _cp_out(dio, pin(r["cs"])),
                     rst=_cp_out(dio, pin(r["rst"])) if r.get("rst") is not None else None)
    return Hardware(cfg, keys, display, reader)
