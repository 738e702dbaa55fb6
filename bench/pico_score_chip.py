# Runs ON the emulated Pico (bench/pico_score.py sends it with the corpora): the score protocol
# over each corpus, hand by hand, timed with the chip's own time.ticks_us (125 MHz).
#
# Per hand, with the GC off between a collection and the end of the hand:
#   H <rules> <index> <us> <bytes> <digest> <score_bytes> <locked>
#     us, bytes     request.handle_line: time and bytes allocated (gc.mem_alloc delta: the
#                   request dict, parsing, the reply)
#     digest        first 6 bytes of sha256(reply), hex: the host compares it with CPython's
#     score_bytes   the scorer alone on the parsed hand, its Win made beforehand (mcr.score
#                   into a fan table made once, sichuan.score, guangdong.score): bytes
#                   allocated (gc.mem_alloc delta)
#     locked        1 if the scorer then ran again with the heap locked (micropython.heap_lock:
#                   any allocation raises MemoryError), i.e. it allocated nothing; 0 if it raised
# Then "S native <0|1>" (whether rules_min/mcr_viper.py's kernels are in use) and "S done".
import gc
import time
import micropython
import hashlib
import binascii
import json

from rules_min.request import handle_line
from rules_min import mcr, mcr_shapes, sichuan, guangdong
from rules_min.notation import parse
from rules_min.win import Win

_WINDS = "ESWN"


_MCR_FT = bytearray(mcr.NUM_FANS)
_SICHUAN_FT = bytearray(sichuan.NUM_FANS)


def scorer(rules, req):
    # the scorer's arguments, made outside the measurement
    melds, counts, win, _fl = parse(req["hand"])
    if rules == "mcr":
        return mcr.score, (Win(melds, counts, win, req.get("self_drawn", False), req.get("last_of_kind", False),
                               req.get("last_tile", False), req.get("kong", False),
                               seat_wind=27 + _WINDS.find(req.get("seat_wind", "E")),
                               prevalent_wind=27 + _WINDS.find(req.get("prevalent_wind", "E"))), _MCR_FT)
    if rules == "sichuan":
        return sichuan.score, (Win(melds, counts, win, req.get("self_drawn", False), kong=req.get("kong", False),
                                   last_tile=req.get("last_tile", False)), _SICHUAN_FT)
    return guangdong.score, (Win(melds, counts, win),)


def call(fn, a):
    # no f(*a): a star call builds its argument array on the heap
    if len(a) == 2:
        return fn(a[0], a[1])
    return fn(a[0])


def run(rules):
    f = open("c_%s.txt" % rules)
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
        reply = handle_line(line, rules)
        t1 = ticks_us()
        a1 = gc.mem_alloc()
        gc.enable()
        digest = binascii.hexlify(hashlib.sha256(reply.encode()).digest()[:6]).decode()
        fn, args = scorer(rules, json.loads(line))
        call(fn, args)  # once unlocked: a first call may intern or cache
        gc.collect()
        gc.disable()
        s0 = gc.mem_alloc()
        call(fn, args)
        s1 = gc.mem_alloc()
        gc.enable()
        locked = 1
        micropython.heap_lock()
        try:
            call(fn, args)
        except MemoryError:
            locked = 0
        micropython.heap_unlock()
        print("H", rules, i, time.ticks_diff(t1, t0), a1 - a0, digest, s1 - s0, locked)
        i += 1
    f.close()


print("S native", 1 if mcr_shapes._nv is not None else 0)
for _rules in ("mcr", "sichuan", "guangdong"):
    run(_rules)
print("S done")
