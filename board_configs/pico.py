# Reference build: Raspberry Pi Pico (RP2040, MicroPython 1.23+), MFRC522 reader on SPI0,
# SSD1306 128x64 OLED on I2C0, 4x4 membrane keypad on GP6..GP13. Wiring: docs/hardware.md.
NAME = "pico"
PLATFORM = "micropython"
MCU = "rp2040"
MPY_ARCH = "armv6m"        # only used if a module is ever compiled to native code (none is)

DISPLAY = {
    "driver": "ssd1306",
    "bus": "i2c", "i2c_id": 0, "sda": 4, "scl": 5, "freq": 400000, "addr": 0x3C,
    "width": 128, "height": 64, "color": False,
}
READER = {
    "driver": "mfrc522",
    "bus": "spi", "spi_id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000,
    "cs": 17, "rst": 20,
}
KEYPAD = {
    "driver": "matrix",
    "rows": (6, 7, 8, 9),          # outputs, open-drain
    "cols": (10, 11, 12, 13),      # inputs with pull-ups
    "keymap": "123A456B789C*0#D",  # row-major, as printed on the usual 4x4 membrane keypad
    "debounce": 3,                 # scans a release must hold (5 ms apart: > the <= 5 ms bounce)
    "eager": True,                 # a press counts at its first scan (firmware/drivers/keypad.py)
    "settle_us": 10,               # the columns' recovery through the 80 kOhm pull-ups: ~4 us
    "scanner": "pio",              # PIO0's state machine 0 scans (firmware/drivers/keypad_pio.py):
    "pio_sm": 0,                   # a key pressed while the flash erases is not lost
}
FONT = 12                          # firmware/ui/glyphs_12.py: 128x64 screens
JOURNAL = "/journal"               # littlefs on the Pico's 1.4 MB flash filesystem
JOURNAL_ROOM = 2560                # heap held for the journal's two open files (firmware/journal/journal.py)
SERIAL = "usb"                     # the host link: USB CDC (sys.stdin / sys.stdout)
