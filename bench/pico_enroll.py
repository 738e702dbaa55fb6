"""Enrolling tile sets on the emulated Pico (issue 21, "Tiles sets at scale"): seconds per tag and
per 144-tile set through the box with the tag tool; part of `make bench-pico`.

    .venv/bin/python bench/pico_enroll.py [--only stock|frozen] [--tiles 144] [--json build/bench/pico_enroll.json]

The box's own main.py runs on the emulated chip (stock v1.28.0 with `make firmware BOARD=pico`'s
.mpy files; the frozen UF2 of `make pico-uf2` when it exists). The host side is the real tag tool,
host_tools/tags.py's write() and verify(), on the chip's USB CDC in this process (pico/cdc.py's
ChipSerial: a read runs the chip in emulated time; the tool's 20 ms pause between polls is run
on the chip as emulated time too). The key is provisioned first, as a referee's first sync does.

Scripted taps: for each prompt a blank NTAG213 (a new 7-byte UID) is laid on the modelled MFRC522
as soon as the box waits for it (the person is assumed instant), and lifted when the tool has its
answer. The reader model answers with the frames' real timings at the MFRC522's 106 kbit/s, so
the figures are the box's own share of a tag: the poll that finds it, anticollision, the write
of pages 4-5, the read back and the link round trips. Then the audit (verify) taps the same tags
in another order, one pass. A person adds their own time per tile (picking the tile up, finding
the tap mark); docs/hardware.md turns these figures into hours for 50 sets.

Reported: per tag (tag in the field -> the tool has the result) median and worst, per tag cycle
(prompt to prompt), and the whole set (begin to saved), for write and for verify.
"""
import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from pico import fsimage  # noqa: E402
from pico.run import missing_firmware, node_modules_missing  # noqa: E402

FS = os.path.join(REPO, "build", "pico", "fs")
FROZEN = os.path.join(REPO, "build", "pico-uf2")
SET_ID = 7
KEY = bytes(range(32))


def firmwares(only):
    out = []
    with open(os.path.join(FS, "main.py"), "rb") as f:
        main_py = f.read()
    if only in (None, "stock"):
        out.append(("stock v1.28.0 + .mpy on littlefs", fsimage.tree(FS), None, None))
    uf2 = os.path.join(FROZEN, "firmware.uf2")
    if only in (None, "frozen") and os.path.exists(uf2):
        out.append(("frozen (make pico-uf2)", {"main.py": main_py}, uf2, os.path.join(FROZEN, "firmware.elf")))
    return out


def uid_of(n):
    return bytes((0x04, 0x5A, 0x10, (n >> 16) & 255, (n >> 8) & 255, n & 255, 0x80))


def make_client(p, key):
    """host_tools/tags.py's LinkClient on the chip's CDC, the idle fill run as emulated time (its
    own constructor pauses in wall time, which the chip would not see)."""
    from host_tools.sync.client import Box, HostLink
    from host_tools.tags import LinkClient
    from pico.cdc import ChipSerial

    c = LinkClient.__new__(LinkClient)
    c.link = HostLink(ChipSerial(p), timeout=120, retries=1)
    c.box = Box(c.link, key)
    c.link.wake(pause=0)
    p.run(12)
    return c


class Taps:
    """The scripted person: a tag in the field as soon as the box waits for one (after the
    tool's write/read request is answered), lifted when the tool has the job's result; # on the
    box when a read job waits and no tag is left (the audit of a part set ends so)."""

    def __init__(self, p, client, tags):
        self.p = p
        self.tags = list(tags)  # (tag id, uid, user memory from page 4) in the order tapped
        self.on = None  # (tag id, chip ms it was laid down)
        self.per_tag = []  # ms from the tag in the field to the tool's result
        self.cycles = []  # ms from one write/read request to the next
        self.last_req = None
        self.inner = client.tags
        client.tags = self.hook

    def hook(self, obj):
        op = obj.get("op")
        if op in ("write", "read"):
            if self.last_req is not None:
                self.cycles.append(self.p.ms - self.last_req)
            self.last_req = self.p.ms
        r = self.inner(obj)
        if op in ("write", "read") and r.get("ok"):
            if self.tags:
                tid, uid, user = self.tags.pop(0)
                self.p.place(uid, user, tag_id=tid)
                self.on = (tid, self.p.ms)
            else:
                self.p.press("#", 60, 60)
        elif op == "poll" and r.get("state") == "done" and self.on is not None:
            tid, t0 = self.on
            self.per_tag.append(self.p.ms - t0)
            self.p.lift(tid)
            self.on = None
        return r


def summary(ms):
    s = sorted(ms)
    return {"n": len(s), "median_ms": round(s[len(s) // 2], 1), "worst_ms": round(s[-1], 1),
            "mean_ms": round(sum(s) / len(s), 1)} if s else None


def run(name, files, uf2, elf, n_tiles):
    import host_tools.tags as tagtool
    from firmware.tags import tile_tag
    from pico.harness import Pico

    res = {"firmware": name}
    real_sleep = tagtool.time.sleep
    with Pico(uf2=uf2, elf=elf, mode="cycles") as p:
        p.boot(files=files)
        p.run(1500)
        c = make_client(p, None)
        c.box.hello()
        c.box.provision(KEY)
        c = make_client(p, KEY)
        c.box.hello()
        tagtool.time.sleep = lambda s: p.run(s * 1000.0)  # the tool's pause between polls, on the chip
        try:
            full = tagtool.full_set("mcr")[:n_tiles]
            tags = [("w%d" % i, uid_of(i), b"") for i in range(len(full))]  # blank NTAG213s
            taps = Taps(p, c, tags)
            log = []
            t0 = p.ms
            w = tagtool.write(c, SET_ID, "mcr", out=log.append, only=full if n_tiles < 144 else None)
            res["write"] = {"tags": w["written"], "retries": len(w["retries"]), "set_s": round((p.ms - t0) / 1000.0, 2),
                            "per_tag": summary(taps.per_tag), "cycle": summary(taps.cycles)}
            if w["written"] != len(full) or w["retries"]:
                res["error"] = "write: %d of %d tags, retries %s" % (w["written"], len(full), w["retries"])
            # the audit: one pass over the same tags in another order, holding what write() wrote
            order = [("v%d" % i, uid_of(i), tile_tag.encode(SET_ID, t, k)) for i, (t, k) in enumerate(full)]
            random.Random(1).shuffle(order)
            c.tags = taps.inner
            taps2 = Taps(p, c, order)
            t0 = p.ms
            v = tagtool.verify(c, SET_ID, "mcr", out=log.append)
            res["verify"] = {"seen": v["seen"], "expected": v["expected"], "clean": v["ok"],
                             "set_s": round((p.ms - t0) / 1000.0, 2), "per_tag": summary(taps2.per_tag),
                             "cycle": summary(taps2.cycles)}
            if v["seen"] != len(full) or (n_tiles == 144 and not v["ok"]):
                res["error"] = "verify saw %d of %d tags (clean: %s)" % (v["seen"], len(full), v["ok"])
            res["log_tail"] = log[-4:]
        finally:
            tagtool.time.sleep = real_sleep
    return res


def report(results, n_tiles):
    L = ["== bench-pico: enrolling a tile set through the box on the emulated Pico (%d tags, instant taps) ==" % n_tiles]
    for r in results:
        L.append("-- %s --" % r["firmware"])
        if "error" in r:
            L.append("FAILED: %s" % r["error"])
        for what in ("write", "verify"):
            x = r.get(what)
            if not x or not x["per_tag"]:
                continue
            L.append("%-6s tag in the field -> result at the tool: median %.0f ms, worst %.0f ms; prompt to prompt:"
                     " median %.0f ms, mean %.0f ms; the set: %.1f s (%.2f s a tag)" % (
                         what, x["per_tag"]["median_ms"], x["per_tag"]["worst_ms"], x["cycle"]["median_ms"],
                         x["cycle"]["mean_ms"], x["set_s"], x["set_s"] / x["per_tag"]["n"]))
        if "verify" in r:
            L.append("verify: %d of %d tiles seen%s" % (r["verify"]["seen"], r["verify"]["expected"],
                                                       ", clean" if r["verify"]["clean"] else ""))
    return "\n".join(L)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("stock", "frozen"))
    ap.add_argument("--tiles", type=int, default=144, help="tags to write (the first N of an MCR set)")
    ap.add_argument("--json", default=os.path.join(REPO, "build", "bench", "pico_enroll.json"))
    a = ap.parse_args(argv)
    why = missing_firmware() or node_modules_missing()
    if why:
        print("bench-pico (enrolment): not run: " + why)
        return 0
    results = []
    for name, files, uf2, elf in firmwares(a.only):
        t = time.time()
        r = run(name, files, uf2, elf, a.tiles)
        r["wall_s"] = round(time.time() - t, 1)
        results.append(r)
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    with open(a.json, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    print(report(results, a.tiles))
    print("JSON: %s" % os.path.relpath(a.json, REPO))
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
