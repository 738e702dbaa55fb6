# Time and allocation of rules_min/shanten.py under MicroPython (also runs under CPython).
#   .venv/bin/micropython bench/mp_shanten.py [hands]
# Hand sets (fixed xorshift seed, identical under every interpreter):
#   random  13-tile concealed hands drawn from the 136-tile wall
#   melds   1 or 2 random pungs declared, 10 or 7 tiles drawn from the rest
#   dense   13 tiles drawn from one suit (most are ready or 1 away, long wait lists: the
#           slow end of the decomposition search)
#   win     14-tile hands for is_complete (a dense hand plus one tile)
#   hard    the 4 one-suit hands that take the most search steps (found offline over 30,000
#           one- and two-suit hands), 250 times each
# Per call: ms median / mean / worst over the hands (each hand timed 3 times, the fastest
# kept, to leave out OS jitter), and bytes allocated per call (micropython.mem_total() before
# and after, GC disabled), the most over the set.
import gc
import sys
import time

try:
    import micropython
except ImportError:
    micropython = None


def _root():
    f = __file__
    i = f.rfind("/")
    d = f[:i] if i > 0 else "."
    return d + "/.."


sys.path.insert(0, _root())
from rules_min.shanten import is_complete, shanten, waits, waits_into  # noqa: E402

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython
    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b

_seed = [2463534242]


def rnd(n):
    x = _seed[0]
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    _seed[0] = x
    return x % n


def wall_hand(melds):
    wall = bytearray(34)
    for t in range(34):
        wall[t] = 4
    k = 0
    while k < melds:
        t = rnd(34)
        if wall[t] >= 3:
            wall[t] -= 3
            k += 1
    c = bytearray(34)
    n = 0
    while n < 13 - 3 * melds:
        t = rnd(34)
        if wall[t] > c[t]:
            c[t] += 1
            n += 1
    return c


def dense_hand():
    c = bytearray(34)
    b = 9 * rnd(3)
    n = 0
    while n < 13:
        t = b + rnd(9)
        if c[t] < 4:
            c[t] += 1
            n += 1
    return c


HARD = (
    (1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 7),  # 2233344445568m
    (0, 3, 3, 3, 4, 4, 5, 5, 5, 5, 6, 6, 7),  # 1444556666778m
    (0, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 8),  # 1556667777889m
    (1, 3, 3, 4, 4, 5, 5, 5, 5, 6, 6, 7, 7),  # 2445566667788m
)


def run(label, hands, melds, fn):
    out = bytearray(34)
    for h, m in zip(hands, melds):  # warm-up
        fn(h, m, out)
    times = []
    alloc = 0
    gc.collect()
    gc.disable()
    for h, m in zip(hands, melds):
        dt = 1 << 30
        for _ in range(3):
            if micropython:
                a = micropython.mem_total()
            t0 = ticks_us()
            fn(h, m, out)
            t1 = ticks_diff(ticks_us(), t0)
            if micropython:
                a = micropython.mem_total() - a
                if a > alloc:
                    alloc = a
            if t1 < dt:
                dt = t1
        times.append(dt)
        if micropython and micropython.mem_current() > 100000:
            gc.enable()
            gc.collect()
            gc.disable()
    gc.enable()
    times.sort()
    n = len(times)
    print(
        "%-22s %5d  median %7.3f ms  mean %7.3f ms  worst %7.3f ms  alloc %s B"
        % (label, n, times[n // 2] / 1000, sum(times) / n / 1000, times[-1] / 1000,
           alloc if micropython else "-")
    )


def f_shanten(h, m, out):
    shanten(h, m)


def f_waits(h, m, out):
    waits(h, m)


def f_waits_into(h, m, out):
    waits_into(h, m, out)


def f_complete(h, m, out):
    is_complete(h, m)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rand = [wall_hand(0) for _ in range(n)]
    meld_m = [1 + (i & 1) for i in range(n)]
    meld = [wall_hand(meld_m[i]) for i in range(n)]
    dense = [dense_hand() for _ in range(n)]
    wins = []
    for h in dense:
        w = bytearray(h)
        t = rnd(34)
        while w[t] == 4:
            t = rnd(34)
        w[t] += 1
        wins.append(w)
    zeros = [0] * n
    hard = []
    for tiles in HARD:
        c = bytearray(34)
        for t in tiles:
            c[t] += 1
        hard.append(c)
    hard = hard * 250
    ready = sum(1 for h in dense if waits(h, 0))
    print("MicroPython" if micropython else "CPython", sys.version)
    print("%d hands per set; dense set: %d ready" % (n, ready))
    run("shanten  random", rand, zeros, f_shanten)
    run("shanten  melds", meld, meld_m, f_shanten)
    run("shanten  dense", dense, zeros, f_shanten)
    run("shanten  hard", hard, [0] * len(hard), f_shanten)
    run("waits    random", rand, zeros, f_waits)
    run("waits    dense", dense, zeros, f_waits)
    run("waits_into random", rand, zeros, f_waits_into)
    run("waits_into dense", dense, zeros, f_waits_into)
    run("is_complete dense+1", wins, zeros, f_complete)


main()
