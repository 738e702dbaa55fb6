"""Time to the glass on the emulated Pico, and tiles as fast as hands move (issue 21), part of
`make bench-pico`:

    .venv/bin/python bench/pico_glass.py [--only stock|frozen] [--script FILE] [--json F] [--profile]

1. Time to the glass: the shipped 16-hand MCR session (simulator/scenarios/mcr_session.txt)
   played on the box's own main.py (pico/player.py: keys on the modelled matrix, contacts that
   bounce; tags on the modelled MFRC522), with the W25Q16JV's typical flash times and again with
   its maximum ones (sector erase 400 ms, page program 3 ms). For each input: from the key's
   first contact (or the tag entering the field) to the last byte of the new screen on the
   display's I2C bus (the model's bus time: 400 kHz). Grouped by the screen the input led to
   (app.state, from the desktop simulator playing the same script). Targets: every key <= 50 ms
   at p99; the last tile of a win to the result ("confirm") <= 100 ms. A key that writes to the
   flash before its screen (the confirmation that commits a hand or a penalty) is listed apart as
   "commit": its target is the record on flash, as today (issue 21), and both times are shown.
   An input's screen is the first update after its contact that starts before the next input's
   contact, or later when the flash kept the box busy. Under the maximum flash
   times: the keys whose contact fell into a flash erase or program, and their latency.
2. A swept hand: the 14 tiles of a win laid on the reader one after another, each in the field
   for 150-200 ms (a fixed-seed draw), the next entering `pitch` ms after the one before (under
   the dwell: two tiles in the field at once), with the reader's frame timings of the model. Read
   completely, each tile once, none missed, in <= 4 s; and the fastest pitch that still reads
   every tile. A tile held on the reader for 3 s is read once.
--profile: the board's main.py with a probe that times each screen update's parts (the wait for
the step that sees the input, the input's handling, the screen's model, its rendering, the bus),
kept in a bytearray in SRAM and read by the harness (Pico.peek): where each screen's time goes.
The probe's calls cost a little time and heap, so its figures are for the split, not the targets.
The chip's own clock (125 MHz cycles): figures are deterministic; a real board is somewhat slower
(flash reads cost what RAM reads cost here: no XIP cache misses).
"""
import argparse
import json
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

SCRIPT = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")
TARGET_KEY_P99_MS = 50.0
TARGET_RESULT_MS = 100.0
TARGET_SWEEP_S = 4.0
BURST_GAP_MS = 5.0  # display bytes closer than this belong to one screen update
MCR = {"rules": "mcr", "tournament": "T", "session": 1, "table": 1,
       "players": ["11", "12", "13", "14"], "first_dealer": 0}
WIN = "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, max(0, int(round(q / 100.0 * len(v) + 0.5)) - 1))]


def desktop_states(lines):
    """(what, app.state after it) for every shot of these script lines on the desktop."""
    from simulator import parts
    from simulator.runner import Sim
    out = []
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        ref = []
        sim = Sim(cfg=parts.for_board("pico"), folder=d,
                  on_screen=lambda n, what, s: out.append((what, ref[0].app.state if ref[0].app else "off")))
        ref.append(sim)
        for ln in lines:
            sim.line(ln)
        sim.journal.close()
    return out


# ---- where the time goes (--profile) ---------------------------------------------------------
PROF_N = 300  # screen updates after an input kept (the 16-hand session has ~190 inputs; the stock
# box's heap has room for little more)
PROF_SLOTS = ("step", "input", "screen", "model", "render", "show")
PROF_PARTS = ("wait", "input", "between", "model", "render", "bus")
PROF_MAGIC = bytes((i * 53 + 7) & 255 for i in range(12))  # built on the chip too: no literal in RAM
PROFILE_MAIN = """# bench/pico_glass.py --profile: the board's main.py loop, each screen update timed
import time
from firmware import main as M
from firmware.drivers import ssd1306
_P = bytearray(16 + 14 * %(n)d)
for _i in range(12):
    _P[_i] = (_i * 53 + 7) & 255
_T = time.ticks_us
_s = [0, 0, 0, 0, 0, 0]  # step start, input handled, screen(), model made, show (render done), bus done
_c = [0]


def _put(o, v):
    v &= 0x3FFFFFFF
    _P[o] = v & 255
    _P[o + 1] = (v >> 8) & 255
    _P[o + 2] = (v >> 16) & 255
    _P[o + 3] = (v >> 24) & 255


def _put2(o, a, b):
    v = time.ticks_diff(b, a) // 10  # 10 us units
    if v < 0 or v > 65535:
        v = 65535
    _P[o] = v & 255
    _P[o + 1] = v >> 8


D = M.Device
_step, _key, _tag, _screen, _draw = D.step, D.key, D.read_tag, D.screen, D._draw
_show = ssd1306.SSD1306_I2C.show


def step(self):
    _s[0] = _T()
    _s[1] = _s[0]
    return _step(self)


def key(self, k):
    r = _key(self, k)
    _s[1] = _T()
    return r


def read_tag(self):
    d = self.dirty
    r = _tag(self)
    if self.dirty and not d:
        _s[1] = _T()
    return r


def screen(self):
    _s[2] = _T()
    r = _screen(self)
    _s[3] = _T()
    return r


def show(self, full=False):
    _s[4] = _T()
    _show(self, full)
    _s[5] = _T()


def draw(self):
    _s[4] = _s[5] = 0
    _draw(self)
    n = _c[0]
    if n < %(n)d and _s[1] != _s[0] and _s[5]:  # an input in this step, and the screen went out
        o = 16 + 14 * n
        _put(o, _s[0])
        for i in range(5):
            _put2(o + 4 + 2 * i, _s[i], _s[i + 1])
        _c[0] = n + 1
        _put(12, n + 1)


D.step, D.key, D.read_tag, D.screen, D._draw = step, key, read_tag, screen, draw
ssd1306.SSD1306_I2C.show = show
M.run()
""" % {"n": PROF_N}


def profile_records(p):
    """The probe's records: [{slot: chip us (mod 2^30; 10 us steps after "step")}] in draw order."""
    import struct
    head = p.peek(PROF_MAGIC, 4)
    if head is None:
        raise SystemExit("the profile's records are not in SRAM: did main.py run?")
    n = struct.unpack("<I", head)[0]
    raw = p.peek(PROF_MAGIC, 4 + 14 * n)[4:]
    out = []
    for i in range(n):
        v = struct.unpack_from("<I5H", raw, 14 * i)
        t = [v[0]]
        for dv in v[1:]:
            t.append(t[-1] + 10 * dv)
        out.append(dict(zip(PROF_SLOTS, t)))
    return out


def attribute(row, recs):
    """Split an input's time to the glass with the probe's record of the update whose bus time
    ended at the row's last byte: wait (contact to the step that saw it), input (the scan or the
    reader's read, the app's handling), between (the reader's poll, the app's tick), model
    (screen()), render (the renderer into the frame), bus (show(): the changed pages on I2C)."""
    m = 1 << 30
    end = int(round(row["end"] * 1000)) % m
    best = None
    for r in recs:
        if abs((r["show"] - end + m // 2) % m - m // 2) < 1500:
            best = r
            break
    if best is None:
        return
    t0 = int(round(row["t0"] * 1000)) % m

    def d(a, b):
        return round(((b - a) % m) / 1000.0, 2)
    row["parts"] = {"wait": d(t0, best["step"]), "input": d(best["step"], best["input"]),
                    "between": d(best["input"], best["screen"]), "model": d(best["screen"], best["model"]),
                    "render": d(best["model"], best["render"]), "bus": d(best["render"], best["show"])}


def first_burst_end(times, t0):
    """The last byte of the first screen update at or after t0 (bytes closer than BURST_GAP_MS
    are one update), or None."""
    after = [t for t in times if t >= t0]
    if not after:
        return None
    end = after[0]
    for t in after[1:]:
        if t - end > BURST_GAP_MS:
            break
        end = t
    return end


def match(inputs, writes, flash):
    """Rows for inputs [(kind, label, t0, state)] from one power-on's display and flash logs.
    An input's screen is the first update after its contact that starts before the next input's
    contact; one that starts later still is its own when the box was busy with the flash then
    (matching each input only up to the next scripted shot left such slow inputs uncounted)."""
    out = []
    starts = [i[2] for i in inputs[1:]] + [float("inf")]
    for (kind, label, t0, state), nxt in zip(inputs, starts):
        end = first_burst_end(writes, t0)
        if end is None:
            continue  # the input changed nothing on the screen
        first = min(t for t in writes if t >= t0)
        busy = [f for f in flash if f[1] <= t0 < f[2]]
        if first >= nxt and not busy and not [f for f in flash if t0 <= f[1] < nxt]:
            continue  # it changed nothing: that update is the next input's
        # a key that writes to the flash before its screen commits (a hand's or a penalty's
        # confirmation, a setting): its own target is the record on flash, its glass time apart
        wrote = [f for f in flash if t0 <= f[1] < first]
        out.append({"kind": kind, "input": label, "state": state, "ms": round(end - t0, 2),
                    "first_byte_ms": round(first - t0, 2), "bytes": sum(1 for t in writes if first <= t <= end),
                    "in_flash": busy[0][0] if busy else None, "t0": t0, "end": end,
                    "flash_ms": round(max(f[2] for f in wrote) - t0, 2) if wrote else None})
    return out


def glass_run(lines, frozen, flash_timing=True, profile=False):
    """Every input of the script on the chip: [{kind, what, state, ms, in_flash}] (profile: and
    where its time went, "parts")."""
    from pico.harness import Pico
    from pico.player import ChipPlayer
    from pico.sim import box_firmware
    from simulator.runner import Script
    kw, files = box_firmware(frozen)
    states = desktop_states(lines)
    rows = []
    if profile:
        files = dict(files)
        files["main.py"] = PROFILE_MAIN.encode()
    with Pico(flash_timing=flash_timing, **kw) as p:
        pl = ChipPlayer(p, files)
        sc = Script(pl.keymap, pl.ncols)
        evs = sc.start() + [ev for ln in lines for ev in sc.line(ln)]
        pl.play(evs[:1])
        p.display_writes(True)
        p.flash_waits(True)
        inputs = []  # (kind, label, t0, state): every input a shot followed, since the power on
        pending = None
        shot = 0
        recs = []

        def flush():
            rows.extend(match(inputs, p.display_writes(), p.flash_waits()))
            del inputs[:]
        for ev in evs[1:]:
            if ev[1] == "powercut":
                flush()  # the chip's clock starts again at its next power on
                if profile:
                    recs += profile_records(p)  # the chip's RAM goes with the power
            pl.play([ev])
            name = ev[1]
            if name == "boot":
                p.display_writes(True)
                p.flash_waits(True)
            elif name in ("down", "place"):
                pending = ("key" if name == "down" else "tile", ev[2] if name == "down" else ev[2].hex(), p.ms)
            elif name == "shot":
                what, state = states[shot] if shot < len(states) else ("?", "?")
                shot += 1
                if pending is not None:
                    inputs.append(pending + (state,))
                pending = None
        p.run(2000)  # the last input's screen, however slow
        flush()
        emulated = p.ms
        if profile:
            recs += profile_records(p)
            for r in rows:
                attribute(r, recs)
    return rows, emulated


def summarize(rows):
    keys = [r["ms"] for r in rows if r["kind"] == "key" and r["flash_ms"] is None]
    commits = [r for r in rows if r["kind"] == "key" and r["flash_ms"] is not None]
    result = [r["ms"] for r in rows if r["kind"] == "tile" and r["state"] == "confirm"]
    by = {}
    for r in rows:
        by.setdefault(("commit" if r.get("flash_ms") is not None else r["kind"], r["state"]), []).append(r)
    # where the time goes: before the first byte on the bus (the scan or poll, the app's handling,
    # the screen's model and its rendering) and on the bus (the changed pages at 400 kHz)
    screens = []
    for k, rs in sorted(by.items()):
        v = [r["ms"] for r in rs]
        screens.append({"input": k[0], "screen": k[1], "n": len(v), "p50_ms": pct(v, 50), "p99_ms": pct(v, 99),
                        "max_ms": max(v), "first_byte_p50_ms": pct([r["first_byte_ms"] for r in rs], 50),
                        "bus_p50_ms": pct([round(r["ms"] - r["first_byte_ms"], 2) for r in rs], 50),
                        "bytes_p50": pct([r["bytes"] for r in rs], 50)})
        prof = [r["parts"] for r in rs if "parts" in r]
        if prof:  # --profile: the p50 of each part, and the parts of the slowest input
            screens[-1]["parts_p50_ms"] = {k: pct([x[k] for x in prof], 50) for k in prof[0]}
            worst = max((r for r in rs if "parts" in r), key=lambda r: r["ms"])
            screens[-1]["parts_of_max_ms"] = worst["parts"]
    during = [r for r in rows if r["kind"] == "key" and r["in_flash"]]
    return {
        "keys": len(keys), "key_p50_ms": pct(keys, 50) if keys else None, "key_p99_ms": pct(keys, 99) if keys else None,
        "key_max_ms": max(keys) if keys else None,
        "result_taps": len(result), "result_p50_ms": pct(result, 50) if result else None,
        "result_max_ms": max(result) if result else None,
        "commit_keys": len(commits),
        "commit_flash_p50_ms": pct([r["flash_ms"] for r in commits], 50) if commits else None,
        "commit_flash_max_ms": max(r["flash_ms"] for r in commits) if commits else None,
        "commit_glass_p50_ms": pct([r["ms"] for r in commits], 50) if commits else None,
        "commit_glass_max_ms": max(r["ms"] for r in commits) if commits else None,
        "keys_during_flash": [{"input": r["input"], "state": r["state"], "ms": r["ms"], "op": r["in_flash"]} for r in during],
        "screens": screens,
    }


# ---- a swept hand ---------------------------------------------------------------------------
def booted_box(frozen, script_lines):
    """A Pico on the box's main.py with the script lines played (config, keys)."""
    from pico.harness import Pico
    from pico.player import ChipPlayer
    from pico.sim import box_firmware
    from simulator.runner import Script
    kw, files = box_firmware(frozen)
    p = Pico(**kw)
    pl = ChipPlayer(p, files)
    sc = Script(pl.keymap, pl.ncols)
    evs = sc.start() + [ev for ln in script_lines for ev in sc.line(ln)]
    pl.play(evs)
    pl._settle()
    return p, pl, sc


def sweep(frozen, pitch_ms, dwell=(150, 200), seed=21, tiles=WIN, hold=False):
    """The win's tiles swept over the reader: {read, once, missed, first_in_ms, last_read_ms,
    seconds, result_ms}."""
    from rules_min.tiles import parse_tile
    p, pl, sc = booted_box(frozen, ["config " + json.dumps(MCR), "keys A13"])
    try:
        rnd = random.Random(seed)
        t0 = p.ms + 50
        ids = []
        t = t0
        last_out = t0
        for i, name in enumerate(tiles.split()):
            uid, data = sc.next_tag(parse_tile(name))
            tid = "s%d" % i
            d = rnd.uniform(*dwell)
            p.place_at(t, uid, data, tid)
            p.lift_at(t + d, tid)
            ids.append(tid)
            last_out = max(last_out, t + d)
            t += pitch_ms
        p.display_writes(True)
        p.run(last_out - p.ms + 400)
        info = [p.tag_info(tid) for tid in ids]
        reads = [i["reads"] for i in info]
        firsts = [i["first_read_ms"] for i in info if i["first_read_ms"] is not None]
        writes = p.display_writes()
        last_read = max(firsts) if firsts else None
        res_end = first_burst_end(writes, last_read) if last_read else None
        return {"pitch_ms": pitch_ms, "tiles": len(ids), "read": sum(1 for r in reads if r), "once": sum(1 for r in reads if r == 1),
                "missed": sum(1 for r in reads if not r), "seconds": round((last_read - t0) / 1000.0, 3) if last_read else None,
                "glass_s": round((res_end - t0) / 1000.0, 3) if res_end else None, "reads": reads}
    finally:
        p.close()


def held_tile(frozen, seconds=3.0):
    """A tile laid on the reader and left there: how many times it is read."""
    from rules_min.tiles import parse_tile
    p, pl, sc = booted_box(frozen, ["config " + json.dumps(MCR), "keys A13"])
    try:
        uid, data = sc.next_tag(parse_tile("5m"))
        p.place(uid, data, tag_id="held")
        p.run(seconds * 1000)
        return p.tag_reads("held")
    finally:
        p.close()


def sweeps(frozen):
    out = {"swept": sweep(frozen, 170), "held_reads": held_tile(frozen), "fastest": None, "tried": []}
    # the fastest pitch that still reads every tile once (dwell 150-200 ms: tiles overlap below it)
    for pitch in (150, 120, 100, 80, 60, 40):
        s = sweep(frozen, pitch)
        out["tried"].append(s)
        if s["once"] == s["tiles"]:
            out["fastest"] = s
        else:
            break
    return out


def firmwares(only):
    out = []
    if only in (None, "stock"):
        out.append(("stock", False))
    if only in (None, "frozen") and os.path.exists(os.path.join(REPO, "build", "pico-uf2", "firmware.uf2")):
        out.append(("frozen", True))
    return out


def report(res):
    L = ["== bench-pico: time to the glass (key contact / tag in the field -> last byte of the new screen on I2C) =="]
    for name, r in res.items():
        for timing in ("typical", "max"):
            g = r.get("glass_" + timing)
            if not g:
                continue
            L.append("-- %s, flash %s times (%s): %d keys p50 %.1f ms p99 %.1f ms max %.1f ms; last tile -> result: %d, "
                     "p50 %.1f ms max %.1f ms" % (name, timing, "45 ms erase, 0.4 ms program" if timing == "typical"
                                                 else "400 ms erase, 3 ms program", g["keys"], g["key_p50_ms"],
                                                 g["key_p99_ms"], g["key_max_ms"], g["result_taps"],
                                                 g["result_p50_ms"] or 0, g["result_max_ms"] or 0))
            if timing == "typical":
                L.append("   %-6s %-14s %5s %8s %8s %8s   %-11s %8s %6s" % ("input", "screen", "n", "p50", "p99", "max",
                                                                         "p50: first", "bus", "bytes"))
                for s in g["screens"]:
                    L.append("   %-6s %-14s %5d %6.1fms %6.1fms %6.1fms   %8.1fms %6.1fms %6d" % (
                        s["input"], s["screen"], s["n"], s["p50_ms"], s["p99_ms"], s["max_ms"],
                        s["first_byte_p50_ms"], s["bus_p50_ms"], s["bytes_p50"]))
                if any("parts_p50_ms" in s for s in g["screens"]):
                    L.append("   where the time goes (--profile), p50 and [the slowest input] in ms: wait = contact to the "
                             "step that scans it; input = scan/read + the app's handling; between = reader poll, "
                             "tick; model = screen(); render; bus")
                    L.append("   %-6s %-14s %s" % ("input", "screen", " ".join("%-13s" % k for k in PROF_PARTS)))
                    for s in g["screens"]:
                        if "parts_p50_ms" in s:
                            a, b = s["parts_p50_ms"], s["parts_of_max_ms"]
                            L.append("   %-6s %-14s %s" % (s["input"], s["screen"], " ".join(
                                "%-13s" % ("%.1f [%.1f]" % (a[k], b[k])) for k in PROF_PARTS)))
            if g.get("commit_keys"):
                L.append("   keys that commit (write to the flash before their screen; not in the key p99): %d, "
                         "-> on flash p50 %.1f ms max %.1f ms, -> on the glass p50 %.1f ms max %.1f ms" % (
                             g["commit_keys"], g["commit_flash_p50_ms"], g["commit_flash_max_ms"],
                             g["commit_glass_p50_ms"], g["commit_glass_max_ms"]))
            d = g["keys_during_flash"]
            L.append("   keys pressed while the flash was erasing or programming: %d%s" % (
                len(d), (", latency " + ", ".join("%.0f ms (%s)" % (x["ms"], x["op"]) for x in d[:12])) if d else ""))
            L.append("   %-4s key p99 %.1f ms <= %.0f ms" % ("PASS" if g["key_p99_ms"] <= TARGET_KEY_P99_MS else "FAIL",
                                                          g["key_p99_ms"], TARGET_KEY_P99_MS))
            if g["result_max_ms"] is not None:
                L.append("   %-4s last tile -> result max %.1f ms <= %.0f ms" % (
                    "PASS" if g["result_max_ms"] <= TARGET_RESULT_MS else "FAIL", g["result_max_ms"], TARGET_RESULT_MS))
        s = r.get("sweeps")
        if s:
            w = s["swept"]
            L.append("-- %s: a hand of %d tiles swept over the reader (each 150-200 ms in the field, one every %d ms): "
                     "%d read, %d once, %d missed; last tile read %.2f s after the first entered, result on the glass "
                     "at %.2f s" % (name, w["tiles"], w["pitch_ms"], w["read"], w["once"], w["missed"], w["seconds"] or -1,
                                    w["glass_s"] or -1))
            f = s["fastest"]
            L.append("   fastest sweep read whole: %s" % ("one tile every %d ms, %.2f s for 14 tiles" % (f["pitch_ms"], f["seconds"])
                                                     if f else "none of those tried"))
            L.append("   a tile held on the reader 3 s: read %d time(s)" % s["held_reads"])
            ok = w["once"] == w["tiles"] and w["seconds"] is not None and w["seconds"] <= TARGET_SWEEP_S
            L.append("   %-4s swept hand read whole, each tile once, in <= %.0f s" % ("PASS" if ok else "FAIL", TARGET_SWEEP_S))
    return "\n".join(L)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("stock", "frozen"))
    ap.add_argument("--script", default=SCRIPT)
    ap.add_argument("--no-max", action="store_true", help="skip the run with the flash's maximum times")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--profile", action="store_true",
                    help="time each screen update's parts on the chip (a probing main.py: the glass figures are "
                         "then a little slower than the box's own)")
    ap.add_argument("--json", default=os.path.join(REPO, "build", "bench", "pico_glass.json"))
    a = ap.parse_args(argv)
    from pico.run import missing_firmware, node_modules_missing
    why = missing_firmware() or node_modules_missing()
    if why:
        print("bench-pico (glass): not run: " + why)
        return 0
    with open(a.script) as f:
        lines = f.readlines()
    res = {}
    for name, frozen in firmwares(a.only):
        r = res[name] = {}
        t = time.time()
        rows, ms = glass_run(lines, frozen, profile=a.profile)
        r["glass_typical"] = summarize(rows)
        r["glass_typical"]["wall_s"] = round(time.time() - t)
        if not a.no_max:
            rows, ms = glass_run(lines, frozen, flash_timing="max")
            r["glass_max"] = summarize(rows)
        if not a.no_sweep:
            r["sweeps"] = sweeps(frozen)
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(res, f, indent=1)
    print(report(res))
    print("JSON: %s" % os.path.relpath(a.json, REPO))
    return 0


if __name__ == "__main__":
    sys.exit(main())
