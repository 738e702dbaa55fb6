# ESP32-S3-DevKitC-1 (N8R8, MicroPython 1.23+ ESP32_GENERIC_S3), PN532 NFC module on I2C (its DIP
# switches set to I2C), 2.0" ST7789 320x240 IPS on SPI2, 4x4 keypad. Pins avoid the strapping
# pins (0, 3, 45, 46), USB (19, 20) and the octal PSRAM pins (35-37).
NAME = "esp32s3"
PLATFORM = "micropython"
MCU = "esp32s3"
MPY_ARCH = "xtensawin"     # only used if a module is ever compiled to native code (none is)

DISPLAY = {
    "driver": "st7789",
    "bus": "spi", "spi_id": 2, "sck": 12, "mosi": 11, "miso": None, "baudrate": 40000000,
    "cs": 10, "dc": 9, "rst": 14, "backlight": 21,
    "width": 320, "height": 240, "rotation": 1, "color": True, "band_rows": 16,
}
READER = {
    "driver": "pn532",
    "bus": "i2c", "i2c_id": 0, "sda": 1, "scl": 2, "freq": 400000,
    "irq": 40,
}
KEYPAD = {
    "driver": "matrix",
    "rows": (4, 5, 6, 7),
    "cols": (15, 16, 17, 18),
    "keymap": "123A456B789C*0#D",
    "debounce": 3,
}
# The board has a network: Wi-Fi station through MicroPython's network.WLAN(network.STA_IF) (the
# ESP32-S3's own radio), as on the Pico W (firmware/net/radio.py Wlan). Name, password and server
# address are set over the USB link, never here.
NETWORK = {"driver": "wlan", "interface": "sta"}
FONT = 16                          # firmware/ui/glyphs_16.py: 320x240 screens
JOURNAL = "/journal"               # littlefs on the "vfs" partition
SERIAL = "usb"                     # native USB CDC (sys.stdin / sys.stdout)
