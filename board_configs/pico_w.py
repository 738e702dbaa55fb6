# Raspberry Pi Pico W (RP2040 + CYW43439 Wi-Fi; MicroPython v1.28.0 built by tools/pico_w_uf2.py,
# `make pico-w-uf2`): the reference build's parts on the same header pins as board_configs/pico.py
# (the Pico W keeps the Pico's pinout; wiring in docs/hardware.md). GPIO 23, 24, 25 and 29 drive
# the radio inside the module (power, SPI data/IRQ, chip select, clock) and are not on the header:
# nothing here may use them.
NAME = "pico_w"
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
# The board has a network: Wi-Fi station through MicroPython's network.WLAN(network.STA_IF)
# (CYW43439, lwIP). Name, password and server address are set over the USB link, never here.
# A board without this key (or with None) has no network and runs as before.
NETWORK = {"driver": "cyw43", "interface": "sta"}
FONT = 12                          # firmware/ui/glyphs_12.py: 128x64 screens
JOURNAL = "/journal"               # littlefs on the Pico W's 848 KB flash filesystem
JOURNAL_ROOM = 2560                # heap held for the journal's two open files (firmware/journal/journal.py)
SERIAL = "usb"                     # the host link: USB CDC (sys.stdin / sys.stdout)
