# CircuitPython 9 board: Adafruit Feather RP2040 (product 4884) with the Adafruit FeatherWing
# OLED 128x64 (product 4650: SH1107 on I2C at 0x3C, STEMMA QT), shown through displayio
# (firmware/ui/displayio_screen.py, adafruit_displayio_sh1107 from the CircuitPython bundle).
# RFID: MFRC522 breakout on the Feather's SPI pins (SCK, MO, MI), CS on D10, RST on D11;
# keypad rows D4 D24 D25 A2, columns D12 D13 A0 A1. Pin names are the `board` module's.
# The wing takes SDA/SCL (display) and D9/D6/D5 (its buttons A/B/C): those stay free.
NAME = "circuitpython_feather"
PLATFORM = "circuitpython"
MCU = "rp2040"
MPY_ARCH = None            # CircuitPython's .mpy format differs: the build ships .py sources

DISPLAY = {
    "driver": "displayio_sh1107",
    "bus": "i2c", "sda": "SDA", "scl": "SCL", "freq": 400000, "addr": 0x3C,
    "width": 128, "height": 64, "rotation": 0, "color": False,
}
READER = {
    "driver": "mfrc522",
    "bus": "spi", "sck": "SCK", "mosi": "MOSI", "miso": "MISO", "baudrate": 4000000,
    "cs": "D10", "rst": "D11",
}
KEYPAD = {
    "driver": "matrix",
    "rows": ("D4", "D24", "D25", "A2"),
    "cols": ("D12", "D13", "A0", "A1"),
    "keymap": "123A456B789C*0#D",
    "debounce": 3,
}
FONT = 12
JOURNAL = "/journal"    # needs boot.py: storage.remount("/", readonly=False) (see docs/hardware.md)
SERIAL = "usb"
