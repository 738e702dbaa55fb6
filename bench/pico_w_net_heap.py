"""Heap of the box on the emulated Pico W's frozen build (make pico-w-uf2) with the network code
loaded, the radio absent (issue 20's floor: at least 100 KB free at the session's peak).

    .venv/bin/python bench/pico_w_net_heap.py [--script simulator/scenarios/mcr_session.txt] [--only net|none]

The same probe and figures as bench/pico_heap.py (its docstring says what each is), run twice:
  none  the littlefs holds no network settings: firmware/net starts without a server and loads
        only its package, the settings and the USB link's NET request (what bench/pico_heap.py
        --board pico_w measures)
  net   the littlefs holds /net.json (Wi-Fi name, password, server), as `sync --wifi` leaves it:
        the box loads the radio (network.WLAN(STA_IF).active(True): no CYW43439 answers, the
        driver gives up in ~350 ms at boot), the pusher, the fetcher, the HTTP client, the wire
        formats and the socket and select modules, and steps them every loop; with no radio they
        wait ("no radio", a join tried every 15 s), which is the Pico W at an event whose access
        point is down
Extra figure: net_loaded, a bit mask the probe reads on the chip at the first loop step:
1 the pusher, 2 the fetcher, 4 firmware.net.http imported, 8 the radio says "no radio".
What it cannot show: the heap of a radio that joins (lwIP's pools are static, docs/pico_w.md, but
a socket's Python object, a request's buffers and an answer's JSON are allocated only when a
request is under way: bench/push_heap.py measures those on the unix port).
"""
import argparse
import json
import os
import struct
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, "bench"))
import pico_heap  # noqa: E402  (the probe and its figures)

SETTINGS = {"ssid": "hall", "password": "a hall password", "server": "http://10.0.0.2:8000"}
SLOTS = pico_heap.SLOTS + ("net_loaded",)
PROBE_MAIN = pico_heap.PROBE_MAIN.replace("_H = bytearray(12 + 4 * %d)" % len(pico_heap.SLOTS),
                                          "_H = bytearray(12 + 4 * %d)" % len(SLOTS)).replace(
    """    if n == 0:
        _put(0, f + gc.mem_alloc())
        _put(1, f)
""", """    if n == 0:
        _put(0, f + gc.mem_alloc())
        _put(1, f)
        import sys
        net = dev.net
        m = 0
        if net is not None and net.pusher is not None:
            m |= 1
        if net is not None and getattr(net, "fetcher", None) is not None:
            m |= 2
        if "firmware.net.http" in sys.modules:
            m |= 4
        if net is not None and net.radio is not None and net.radio.state == "no radio":
            m |= 8
        _put(%d, m)
        f = gc.mem_free()
""" % (len(SLOTS) - 1))
assert "_put(%d, m)" % (len(SLOTS) - 1) in PROBE_MAIN and "4 * %d)" % len(SLOTS) in PROBE_MAIN


def measure(script, net, fs=None, uf2_dir=None):
    """The figures of one run (fs, uf2_dir: pico/sim.py box_firmware's, build/ by default)."""
    from pico.harness import Pico
    from pico.player import ChipPlayer
    from pico.sim import box_firmware, journal_diff, play_desktop
    kw, files = box_firmware(True, fs=fs, uf2_dir=uf2_dir, board="pico_w")
    files = dict(files)
    files["main.py"] = PROBE_MAIN.encode()
    if net:
        files["net.json"] = json.dumps(SETTINGS).encode()
    t = time.time()
    with Pico(**kw) as p:
        pl = ChipPlayer(p, files)
        pl.play_file(script)
        pl.run_to(pl.power_at + p.ms + 3 * pico_heap.COLLECT_EVERY * 5 + 500)  # a last collection
        raw = p.peek(pico_heap.MAGIC, 4 * len(SLOTS))
        journal = pl.journal()
    wall = time.time() - t
    if raw is None:
        raise SystemExit("the probe's figures are not in SRAM: did main.py run?")
    out = dict(zip(SLOTS, struct.unpack("<%dI" % len(SLOTS), raw)))
    out.update({"firmware": "frozen (make pico-w-uf2)", "board": "pico_w", "network_settings": bool(net),
                "script": os.path.relpath(script, REPO), "wall_s": round(wall, 1),
                "journal_as_desktop": journal_diff(play_desktop(script, board="pico_w"), journal) == []})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--script", default=os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt"))
    ap.add_argument("--only", choices=("net", "none"))
    a = ap.parse_args(argv)
    for net in (False, True):
        if a.only == ("net" if not net else "none"):
            continue
        print(json.dumps(measure(os.path.abspath(a.script), net)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
