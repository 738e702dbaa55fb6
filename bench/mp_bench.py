# MicroPython benchmark of the rules core (runs ON MicroPython, from the compiled .mpy files):
#
#   cd build/mpy && MICROPYPATH=$PWD micropython -X heapsize=96K <repo>/bench/mp_bench.py CORPUS \
#       [--check] [--proto] [--max=N] | --imports
#
# (bench/__main__.py compiles this file with mpy-cross and runs it as `micropython -m mp_bench`, so
# that the heap figures hold no compiler work; run as source it works the same.)
#
# CORPUS is bench/corpus_mcr.txt: one score request (JSON) a line. It is read line by line, so the
# corpus never sits in the heap. For every hand, parse + mcr.score (--proto: request.handle_line,
# the whole protocol as on the device) is run with the GC disabled between gc.collect() and the
# end of the hand, so gc.mem_alloc() after - before is every byte the hand allocated (its peak).
#
# Output, one line each:
#   H <index> <microseconds> <bytes allocated>     per hand (not with --check)
#   E <index> <exception type> <message>           a hand whose scoring raised (not MemoryError)
#   N <index>                                      a hand the core found no win
#   S <key> <value>                                summary (hands, median/max us and bytes, ...)
# --check prints only E/N/S lines, keeps no per-hand figures and leaves the GC on (collecting
# between hands, as firmware/score_stdio.py does): used to find the smallest heap that scores the
# corpus. --max=N stops after N hands (--max=0: the heap of the imports alone).
# --imports (no corpus needed) prints "M <module> <bytes>": the RAM each module keeps once imported.
# A MemoryError anywhere ends the run with exit status 3 (other uncaught errors: 1); under --proto
# the "out of memory" reply that handle_line makes of a MemoryError counts as one.
#
# Only MicroPython built-ins: time.ticks_us/ticks_diff and gc for the figures, json and sys.
import gc
import sys
import time

import json

_WINDS = "ESWN"
# import order for --imports: dependencies first, so each line is that module's own RAM
_MODULES = ("rules_min.tiles", "rules_min.mcr_table", "rules_min.mcr_shapes", "rules_min.notation",
            "rules_min.win", "rules_min.mcr", "rules_min.mcr_pay", "rules_min.shanten", "rules_min.request")


def imports():
    # RAM that stays allocated after importing each module (bytecode, constants, globals)
    gc.collect()
    start = gc.mem_alloc()
    for m in _MODULES:
        gc.collect()
        before = gc.mem_alloc()
        __import__(m)
        gc.collect()
        print("M", m, gc.mem_alloc() - before)
    print("M total", gc.mem_alloc() - start)


def _median(a, n):
    b = sorted(a)
    return b[n // 2] if n else 0


def run(path, check, proto, max_n):
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    us = None
    al = None
    if not check:
        us = []
        al = []
    from rules_min import mcr
    from rules_min.mcr_table import NUM_FANS
    from rules_min.notation import parse
    from rules_min.win import Win

    if proto:  # only then: request.py and its imports would count in the heap of parse + score
        from rules_min.request import handle_line
    ft = bytearray(NUM_FANS)  # the caller's fan table and Win, made once (rules_min/win.py)
    p = Win(None, None, 0)
    n = 0
    errors = 0
    no_win = 0
    f = open(path)
    while n != max_n:
        line = f.readline()
        if not line:
            break
        if proto:
            req = None
        else:
            req = json.loads(line)
            hand = req["hand"]
            sd = req.get("self_drawn", False)
            lk = req.get("last_of_kind", False)
            lt = req.get("last_tile", False)
            kg = req.get("kong", False)
            seat = 27 + _WINDS.find(req.get("seat_wind", "E"))
            prev = 27 + _WINDS.find(req.get("prevalent_wind", "E"))
            req = None
        gc.collect()  # as firmware/score_stdio.py does between requests
        if not check:
            gc.disable()
        before = gc.mem_alloc()
        t0 = ticks_us()
        err = None
        total = 1
        try:
            if proto:
                reply = handle_line(line, "mcr")
                if '"out of memory"' in reply:
                    raise MemoryError  # handle_line turns it into an error reply
                if '"ok": true' not in reply:
                    total = None if '"not_win"' in reply else 0
                    err = reply
            else:
                melds, counts, win, _fl = parse(hand)
                p.reset(melds, counts, win)
                p.self_drawn = sd
                p.last_of_kind = lk
                p.last_tile = lt
                p.kong = kg
                p.seat_wind = seat
                p.prevalent_wind = prev
                total = mcr.score(p, ft)
                if total < 0:
                    total = None
        except MemoryError:
            raise
        except Exception as e:
            err = "%s %s" % (type(e).__name__, e)
        t1 = ticks_us()
        after = gc.mem_alloc()
        gc.enable()
        reply = None
        if err is not None and total is not None:
            errors += 1
            print("E", n, err)
        elif total is None:
            no_win += 1
            print("N", n)
        if not check:
            dt = ticks_diff(t1, t0)
            print("H", n, dt, after - before)
            us.append(dt)
            al.append(after - before)
        n += 1
    f.close()
    print("S hands", n)
    print("S errors", errors)
    print("S no_win", no_win)
    if not check and n:
        print("S max_us", max(us))
        print("S max_bytes", max(al))
        print("S median_us", _median(us, n))
        print("S median_bytes", _median(al, n))
    gc.collect()
    print("S heap_free_end", gc.mem_free())
    print("S heap_alloc_end", gc.mem_alloc())


def main():
    args = sys.argv[1:]
    path = None
    check = False
    proto = False
    max_n = -1
    for a in args:
        if a.startswith("--max="):
            max_n = int(a[6:])
        elif a == "--imports":
            imports()
            return
        elif a == "--check":
            check = True
        elif a == "--proto":
            proto = True
        else:
            path = a
    if path is None:
        print("usage: mp_bench.py CORPUS [--check] [--proto] [--max=N] | --imports")
        sys.exit(2)
    try:
        run(path, check, proto, max_n)
    except MemoryError:
        gc.enable()
        print("S memory_error 1")
        sys.exit(3)


main()
