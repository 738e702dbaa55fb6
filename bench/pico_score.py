"""Scoring and commit figures on the emulated Pico (real MicroPython v1.28.0 in rp2040js, the
chip's own time.ticks_us at 125 MHz): `make bench-pico` (which `make bench` runs).

    .venv/bin/python bench/pico_score.py [--only stock|frozen] [--json build/bench/pico_score.json]

1. The score protocol (rules_min/request.py handle_line) over the fixed corpora
   bench/corpus_pico_{mcr,sichuan,guangdong}.txt (bench/gen_pico_corpus.py: 500 MCR hands with
   the rare shapes, 200 Sichuan, 200 Guangdong), hand by hand on the chip
   (bench/pico_score_chip.py): time, bytes allocated, and the scorer alone with the heap locked.
   Every reply is checked against CPython's reply for the same line (sha256 digests): the native
   kernels (rules_min/mcr_viper.py) only run on the chip, so this is their differential test.
2. The commit: simulator/scenarios/mcr_session.txt played straight into the App on the chip
   (bench/pico_commit_chip.py), its journal on the chip's littlefs (flash erase/program times of
   the W25Q16JV added by the harness): the time of each key press that commits a record, i.e.
   from the last confirmation key to the record on flash.

3. Boot: power on to the first screen of the box's own main.py.

Firmware: the stock UF2 with `make firmware BOARD=pico`'s .mpy files on littlefs, and the frozen
UF2 of `make pico-uf2` when build/pico-uf2/firmware.uf2 exists. Targets (issue 10): MCR median
<= 10 ms and worst <= 30 ms, Sichuan and Guangdong worst <= 10 ms, commit median <= 50 ms.
Exit status 1 when a reply differs from CPython's or a run fails (not when a target is missed).
"""
import argparse
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from pico import fsimage  # noqa: E402
from pico.run import run_script, missing_firmware, node_modules_missing  # noqa: E402

RULES = ("mcr", "sichuan", "guangdong")
CORPUS = {r: os.path.join(HERE, "corpus_pico_%s.txt" % r) for r in RULES}
CHIP = os.path.join(HERE, "pico_score_chip.py")
FS = os.path.join(REPO, "build", "pico", "fs")
FROZEN = os.path.join(REPO, "build", "pico-uf2")
SCENARIO = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")
TARGETS = {"mcr": (10.0, 30.0), "sichuan": (None, 10.0), "guangdong": (None, 10.0)}
TARGET_COMMIT_MS = 50.0

COMMIT_CHIP = os.path.join(HERE, "pico_commit_chip.py")


def expected_digests():
    from rules_min.request import handle_line

    out = {}
    for rules in RULES:
        with open(CORPUS[rules], encoding="utf-8") as f:
            out[rules] = [hashlib.sha256(handle_line(ln, rules).encode()).hexdigest()[:12] for ln in f]
    return out


def firmwares(only):
    """[(name, files on littlefs, uf2, elf)]: the stock UF2 with .mpy files, the frozen UF2."""
    out = []
    corpora = {}
    for rules in RULES:
        with open(CORPUS[rules], "rb") as f:
            corpora["c_%s.txt" % rules] = f.read()
    if only in (None, "stock"):
        files = fsimage.tree(FS, skip=("main.py",))
        files.update(corpora)
        out.append(("stock v1.28.0 + .mpy on littlefs", files, None, None))
    uf2 = os.path.join(FROZEN, "firmware.uf2")
    if only in (None, "frozen") and os.path.exists(uf2):
        out.append(("frozen (make pico-uf2)", dict(corpora), uf2, os.path.join(FROZEN, "firmware.elf")))
    return out


def pct(v, q):
    return v[min(len(v) - 1, max(0, int(round(q / 100.0 * len(v) + 0.5)) - 1))]


def score_run(name, files, uf2, elf, expect):
    with open(CHIP) as f:
        src = f.read()
    t = time.time()
    r = run_script(src, files, uf2=uf2, elf=elf, timeout=3600)
    wall = time.time() - t
    if r.rc != 0 or "S done" not in r.out:
        raise RuntimeError("%s: chip run failed (rc %s)\n%s\n%s" % (name, r.rc, r.out[-2000:], r.err[-2000:]))
    rows = {rules: [] for rules in RULES}
    native = None
    for ln in r.out.splitlines():
        p = ln.split()
        if p[:2] == ["S", "native"]:
            native = p[2] == "1"
        elif p and p[0] == "H":
            rows[p[1]].append((int(p[2]), int(p[3]), int(p[4]), p[5], int(p[6]), int(p[7])))
    res = {"firmware": name, "native_kernels": native, "wall_s": round(wall, 1), "rules": {}}
    for rules in RULES:
        got = rows[rules]
        exp = expect[rules]
        bad = [row[0] for row in got if row[0] >= len(exp) or row[3] != exp[row[0]]]
        if len(got) != len(exp):
            bad.append(-1)  # hands missing from the chip's output
        us = sorted(row[1] for row in got)
        al = sorted(row[2] for row in got)
        sb = sorted(row[4] for row in got)
        slow = sorted(got, key=lambda row: -row[1])[:3]
        med_t, worst_t = TARGETS[rules]
        res["rules"][rules] = {
            "hands": len(got), "expected": len(exp), "replies_differ": len(bad), "differ_index": bad[:10],
            "median_ms": us[len(us) // 2] / 1000.0, "p90_ms": pct(us, 90) / 1000.0, "worst_ms": us[-1] / 1000.0,
            "alloc_median_bytes": al[len(al) // 2], "alloc_max_bytes": al[-1],
            "scorer_alloc_max_bytes": sb[-1], "scorer_heap_locked_ok": sum(row[5] for row in got),
            "slowest": [{"index": row[0], "ms": row[1] / 1000.0} for row in slow],
            "target_median_ms": med_t, "target_worst_ms": worst_t,
        }
    return res


def commit_run(name, files, uf2, elf, flash_timing=True):
    files = {k: v for k, v in files.items() if not k.startswith("c_")}
    with open(SCENARIO, "rb") as f:
        files["scenario.txt"] = f.read()
    with open(COMMIT_CHIP) as f:
        src = f.read()
    r = run_script(src, files, uf2=uf2, elf=elf, timeout=3600, flash_timing=flash_timing)
    if r.rc != 0 or "S done" not in r.out:
        return {"error": "commit run failed (rc %s): %s %s" % (r.rc, r.out[-1500:], r.err[-1500:])}
    c = [ln.split() for ln in r.out.splitlines() if ln.startswith("C ")]
    us = [int(p[2]) for p in c]
    ju = sorted(int(p[3]) for p in c)
    pre = sorted(int(ln.split()[1]) for ln in r.out.splitlines() if ln.startswith("P "))
    s = sorted(us)
    return {"records": len(us), "median_ms": s[len(s) // 2] / 1000.0 if s else None,
            "worst_ms": s[-1] / 1000.0 if s else None, "all_ms": [u / 1000.0 for u in us],
            "journal_median_ms": ju[len(ju) // 2] / 1000.0 if ju else None,
            "prepared_ahead": len(pre), "prepare_press_median_ms": pre[len(pre) // 2] / 1000.0 if pre else None,
            "prepare_press_worst_ms": pre[-1] / 1000.0 if pre else None,
            "target_median_ms": TARGET_COMMIT_MS}


def boot_run(name, files, uf2, elf):
    """Emulated ms from power on to the first lit pixel on the glass (20 ms steps): the box's
    own main.py, as `make firmware BOARD=pico` installs it."""
    from pico.harness import Pico

    files = {k: v for k, v in files.items() if not k.startswith("c_")}
    with open(os.path.join(FS, "main.py"), "rb") as f:
        files["main.py"] = f.read()
    with Pico(uf2=uf2, elf=elf, mode="cycles") as p:
        p.boot(files=files)
        t = 0
        while t < 20000:
            p.run(20)
            t += 20
            if any(p.glass()):
                return {"first_screen_ms": t}
    return {"error": "no screen after 20 s"}


def report(results):
    L = ["== bench-pico: scoring and commit on the emulated Pico (ticks_us, 125 MHz) =="]
    for res in results:
        L.append("-- %s: native kernels %s, %.0f s wall --" % (res["firmware"], res["native_kernels"], res["wall_s"]))
        if not res["rules"]:
            L.append("(scoring not run: --commit-only)")
        else:
            L.append("%-10s %5s %9s %9s %9s %12s %12s %10s %s" % ("rules", "hands", "median", "p90", "worst",
                                                                "alloc med", "alloc max", "scorer B", "replies"))
        for rules in res["rules"]:
            x = res["rules"][rules]
            L.append("%-10s %5d %7.2fms %7.2fms %7.2fms %10dB %10dB %10d %s" % (
                rules, x["hands"], x["median_ms"], x["p90_ms"], x["worst_ms"], x["alloc_median_bytes"],
                x["alloc_max_bytes"], x["scorer_alloc_max_bytes"],
                "all as CPython" if not x["replies_differ"] else "%d DIFFER %s" % (x["replies_differ"], x["differ_index"])))
        m = res["rules"].get("mcr")
        if m:
            L.append("MCR scorer (mcr.score into a fan table made once) ran with the heap locked on %d of %d hands" % (
                m["scorer_heap_locked_ok"], m["hands"]))
        c = res.get("commit")
        if c and "error" in c:
            L.append("commit: FAILED: %s" % c["error"])
            c = None
        elif c:
            L.append("commit (last confirmation key -> record on flash, %d records): median %.1f ms, worst %.1f ms;"
                     " of it in the journal: median %.1f ms" % (c["records"], c["median_ms"], c["worst_ms"],
                                                                 c.get("journal_median_ms") or 0.0))
            if c.get("prepared_ahead"):
                L.append("  %d records prepared ahead at their preview (the erase before the key): that key press or"
                         " tap median %.1f ms, worst %.1f ms" % (c["prepared_ahead"], c["prepare_press_median_ms"],
                                                              c["prepare_press_worst_ms"]))
        cm = res.get("commit_max")
        if cm and "error" not in cm:
            L.append("commit with the flash's maximum times (erase 400 ms, program 3 ms): median %.1f ms, worst %.1f ms;"
                     " the preparing press/tap (the erase) median %.1f ms, worst %.1f ms" % (
                         cm["median_ms"], cm["worst_ms"], cm.get("prepare_press_median_ms") or 0.0,
                         cm.get("prepare_press_worst_ms") or 0.0))
        elif cm:
            L.append("commit with maximum flash times: FAILED: %s" % cm["error"])
        b = res.get("boot")
        if b:
            L.append("boot: power on to the first screen %s" % (
                "%d ms (20 ms steps)" % b["first_screen_ms"] if "first_screen_ms" in b else "FAILED: " + b["error"]))
        L.append("targets:")
        for rules in res["rules"]:
            x = res["rules"][rules]
            if x["target_median_ms"] is not None:
                L.append("  %-4s %s median %.2f ms <= %.0f ms" % (
                    "PASS" if x["median_ms"] <= x["target_median_ms"] else "FAIL", rules, x["median_ms"], x["target_median_ms"]))
            L.append("  %-4s %s worst %.2f ms <= %.0f ms" % (
                "PASS" if x["worst_ms"] <= x["target_worst_ms"] else "FAIL", rules, x["worst_ms"], x["target_worst_ms"]))
        if c:
            L.append("  %-4s commit median %.1f ms <= %.0f ms" % (
                "PASS" if c["median_ms"] <= TARGET_COMMIT_MS else "FAIL", c["median_ms"], TARGET_COMMIT_MS))
    return "\n".join(L)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("stock", "frozen"))
    ap.add_argument("--no-commit", action="store_true", help="skip the App session (scoring only)")
    ap.add_argument("--commit-only", action="store_true", help="the App session and boot, no scoring")
    ap.add_argument("--json", default=os.path.join(REPO, "build", "bench", "pico_score.json"))
    a = ap.parse_args(argv)
    why = missing_firmware() or node_modules_missing()
    if why:
        print("bench-pico: not run: " + why)
        return 0
    expect = None if a.commit_only else expected_digests()
    results = []
    failed = False
    for name, files, uf2, elf in firmwares(a.only):
        if a.commit_only:
            res = {"firmware": name, "native_kernels": None, "wall_s": 0.0, "rules": {}}
        else:
            res = score_run(name, files, uf2, elf, expect)
        if not a.no_commit:
            res["commit"] = commit_run(name, files, uf2, elf)
            # the W25Q16JV's maximum times (sector erase 400 ms, page program 3 ms)
            res["commit_max"] = commit_run(name, files, uf2, elf, flash_timing="max")
        res["boot"] = boot_run(name, files, uf2, elf)
        results.append(res)
        failed = failed or any(x["replies_differ"] for x in res["rules"].values()) or "error" in res.get("commit", {})
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    with open(a.json, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    print(report(results))
    print("JSON: %s" % os.path.relpath(a.json, REPO))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
