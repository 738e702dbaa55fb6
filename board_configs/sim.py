# The desktop simulator's board: a 128x64 mono screen like the reference build's SSD1306,
# a virtual 4x4 keypad and a virtual reader (simulator/virtual.py). `python -m simulator` and
# `make sim` use it; firmware/board.py builds it with no machine module at all.
NAME = "sim"
PLATFORM = "sim"
MCU = None
MPY_ARCH = None

DISPLAY = {"driver": "virtual", "width": 128, "height": 64, "color": False}
READER = {"driver": "virtual"}
KEYPAD = {"driver": "virtual", "keymap": "123A456B789C*0#D"}
FONT = 12
JOURNAL = "build/sim/journal"
SERIAL = "pty"
