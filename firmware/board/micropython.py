# The builder for MicroPython boards (firmware/board/__init__.py's build()): the drivers of
# firmware/drivers/ on the buses and pins of machine (or the stand-in a test hands in), as the
# board config names them.
from firmware.board.base import BandedScreen, FramebufScreen, Hardware, _matrix, _renderer


def build_mp(cfg, machine, rp2=None):
    # rp2: the port's built-in _rp2 module (its StateMachine), for a keypad the PIO scans
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

    # keypad: rows open-drain outputs, columns inputs with pull-ups; on the RP2040 a PIO state
    # machine drives the rows and reads the columns (firmware/drivers/keypad_pio.py)
    k = cfg.KEYPAD
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in k["cols"]]
    if k.get("scanner") == "pio":
        # no pull on the rows: the RP2040's pads come out of reset with pull-downs on, which
        # against a column's pull-up through a pressed key leave the line mid-rail
        for n in k["rows"]:
            Pin(n, Pin.IN, None)
        from firmware.board.base import MatrixKeys
        from firmware.drivers.keypad_pio import PioKeypad
        keys = MatrixKeys(PioKeypad(rp2.StateMachine, k.get("pio_sm", 0), k["rows"], k["cols"], k["keymap"],
                                    Pin=Pin, debounce=k.get("debounce", 3), eager=k.get("eager", False)))
    else:
        rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in k["rows"]]
        keys = _matrix(k, rows, cols)

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
    return Hardware(cfg, keys, display, reader, getattr(machine, "unique_id", None))
