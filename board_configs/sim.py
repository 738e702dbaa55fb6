# The desktop simulator's board: a 128x64 mono screen like the reference build's SSD1306, a 4x4
# key matrix scanned by the firmware's keypad driver, and a tag reader with the reader drivers'
# interface. Its parts come from the module PARTS names (firmware/board/ imports it by that
# name; the firmware itself never names the simulator). `python -m simulator --board pico` (or
# esp32s3...) runs this board with that board's screen and keypad map (simulator/parts.py).
NAME = "sim"
PLATFORM = "parts"
PARTS = "simulator.parts"
MCU = None
MPY_ARCH = None

DISPLAY = {"driver": "framebuf", "width": 128, "height": 64, "color": False}
READER = {"driver": "virtual"}
KEYPAD = {
    "driver": "matrix",
    "rows": (0, 1, 2, 3),
    "cols": (4, 5, 6, 7),
    "keymap": "123A456B789C*0#D",
    "debounce": 3,
}
FONT = 12
JOURNAL = "/journal"     # under the simulator's folder (--out, --dir)
SERIAL = "pty"
