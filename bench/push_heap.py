"""Heap and loop time of the box online (issue 20) on the MicroPython unix port: the MCR session
through the device loop without a network and with one pushing every record over the port's real
sockets to a stand-in server (tests/net/standin.py, in this process), from build/mpy's .mpy files
(`make sim-mpy`) and, when `make unix-frozen` built it, the 32-bit frozen binary.

    .venv/bin/python bench/push_heap.py [--heap 512K] [--json FILE]

Figures: heap after boot, peak heap held (collected after every loop step), their difference
with and without the network, and the share of the loop's time in the network's steps.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
SCRIPT = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")
MPY = os.path.join(REPO, "build", "mpy")


def run(exe, frozen, url, heap, key):
    from firmware.link import store
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as empty:
        store.store_key(os.path.join(folder, "device.key"), key)
        cwd, path = (empty, ".frozen:" + MPY) if frozen else (MPY, MPY)
        r = subprocess.run([exe, "-X", "heapsize=" + heap, os.path.join(REPO, "bench", "mp_push_heap.py"), SCRIPT, folder, url or "-"],
                           cwd=cwd, env=dict(os.environ, MICROPYPATH=path), capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    m = re.search(r"records (\d+) synced (\w+).*?after boot (\d+) peak held (\d+).*?loop us (\d+) net us (\d+) net steps (\d+)", out, re.S)
    if r.returncode or not m:
        return {"error": out.strip()[-400:]}
    return {"records": int(m.group(1)), "synced": m.group(2), "after_boot": int(m.group(3)), "peak_held": int(m.group(4)),
            "loop_us": int(m.group(5)), "net_us": int(m.group(6)), "net_steps": int(m.group(7))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--heap", default="512K")
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args(argv)
    from tests.net.standin import StandIn
    key = os.urandom(32)
    exes = [(os.path.join(REPO, ".venv", "bin", "micropython"), False, "unix 64-bit, .mpy")]
    for bits in (32, 64):
        p = os.path.join(REPO, "build", "unix-frozen", "micropython%d" % bits)
        if os.path.exists(p):
            exes.append((p, True, "unix %d-bit frozen" % bits))
            exes.append((p, False, "unix %d-bit, .mpy" % bits))
            break
    rows = []
    for exe, frozen, label in exes:
        srv = StandIn(key, "box-heap")
        try:
            plain = run(exe, frozen, None, a.heap, key)
            online = run(exe, frozen, srv.url, a.heap, key)
        finally:
            srv.close()
        rows.append({"build": label, "no_network": plain, "network": online, "stored": len(srv.stored)})
    for r in rows:
        p, o = r["no_network"], r["network"]
        if "error" in p or "error" in o:
            print("%-22s error: %s" % (r["build"], p.get("error") or o.get("error")))
            continue
        print("%-22s after boot %6d -> %6d (+%d)   peak held %6d -> %6d (+%d)   records %d, on the server %d (synced %s)   "
              "network's share of loop time %.1f%% (%d steps)" % (
                  r["build"], p["after_boot"], o["after_boot"], o["after_boot"] - p["after_boot"], p["peak_held"], o["peak_held"],
                  o["peak_held"] - p["peak_held"], o["records"], r["stored"], o["synced"], 100.0 * o["net_us"] / max(1, o["loop_us"]),
                  o["net_steps"]))
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
