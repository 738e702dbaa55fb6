# Runs ON the emulated Pico (bench/pico_score_shapes.py sends it with the independent corpus as
# c_shapes.txt): the score protocol hand by hand, timed with the chip's own time.ticks_us.
#   H <index> <us> <bytes> <digest>
#     us, bytes   request.handle_line(line, "mcr"): time, and bytes allocated (gc.mem_alloc delta)
#     digest      first 6 bytes of sha256(reply), hex: the host compares it with CPython's reply
# Then "S native <0|1>" (rules_min/mcr_viper.py's kernels in use) and "S done".
import gc
import time
import hashlib
import binascii

from rules_min.request import handle_line
from rules_min import mcr_shapes

f = open("c_shapes.txt")
i = 0
ticks_us = time.ticks_us
while True:
    line = f.readline()
    if not line:
        break
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    t0 = ticks_us()
    reply = handle_line(line, "mcr")
    t1 = ticks_us()
    a1 = gc.mem_alloc()
    gc.enable()
    print("H", i, time.ticks_diff(t1, t0), a1 - a0, binascii.hexlify(hashlib.sha256(reply.encode()).digest()[:6]).decode())
    i += 1
f.close()
print("S native", 1 if mcr_shapes._nv is not None else 0)
print("S done")
