# Runs on the MicroPython unix port, from a firmware build's fs/ (the .mpy files a board gets):
# firmware.main.run() with the board's config, a stand-in `machine` wired to the emulators, a
# journal in ROOT. Keys go in through the key matrix, a tile's tag through the MFRC522 emulator.
#   cd build/pico/fs && MICROPYPATH=.:TESTS:TESTS/hw micropython TESTS/hw/mp_device_run.py ROOT
import gc
import sys

import board_config as cfg
from emulators import tags
from emulators.mfrc522_emu import MFRC522Emu
from emulators.ssd1306_emu import SSD1306Emu
from fake_machine import FakeMachine
from firmware import main
from firmware.tags import tile_tag
from firmware.drivers import mfrc522

root = sys.argv[1]
rfid = MFRC522Emu()
mfrc522._sleep_us = rfid.sleep_us  # the emulator's time
fm = FakeMachine(cfg, rfid=rfid, oled=SSD1306Emu())
KEYS = "D13#1#11#12#13#14#1#A10"
tag = tags.ntag213()
rec = tile_tag.encode(1, 4, 2)
tag.write4(4, rec[0:4])
tag.write4(5, rec[4:8])
states = []
TAP = len(KEYS) * 10 + 5


def hook(dev, n):
    k, phase = n // 10, n % 10
    if k < len(KEYS):
        if phase == 0:
            fm.press(KEYS[k])
        elif phase == 5:
            fm.release_all()
            states.append(dev.app.state + ("(" + dev.app.msg + ")" if dev.app.msg else ""))
    elif n == TAP:
        rfid.add_tag(tag)


dev = main.run(loops=TAP + 60, mods={"machine": fm, "_rp2": fm.rp2()}, root=root, hook=hook)
lit = 0
for y in range(64):
    for x in range(128):
        lit += fm.oled.lit(x, y)
print("state", dev.app.state)
print("msg", dev.app.msg)
print("states", ",".join(states))
print("current", dev.app.d["entry"].current)
print("device", dev.app.device_id)
print("lit", lit)
print("title", dev.model[0])
print("draws", dev.draws, "steps", dev.steps)
import gc
gc.collect()
print("mem_alloc", gc.mem_alloc())
