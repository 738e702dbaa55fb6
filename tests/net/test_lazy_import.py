"""One code path: a board without a NETWORK never loads firmware/net (nor protocol/push.py);
the same boot on a board with one does, and the firmware build leaves the package out of a
board without a network."""
import json
import subprocess
import sys

from tests.sync.helpers import REPO

PROBE = """
import json, sys, tempfile
from simulator import push as spush
from simulator.runner import Sim
cfg = spush.parts_sim()
if sys.argv[1] == "net":
    cfg = spush.network_board(cfg, "http://127.0.0.1:9")
sim = Sim(cfg=cfg, folder=tempfile.mkdtemp(), port=spush.unplugged())
sim.line("keys A")
print(json.dumps([m for m in sorted(sys.modules) if m.startswith("firmware.net") or m == "protocol.push"]))
print(json.dumps(sim.dev.net is not None))
"""


def probe(kind):
    r = subprocess.run([sys.executable, "-c", PROBE, kind], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    return json.loads(lines[-2]), json.loads(lines[-1])


def test_no_network_no_network_code():
    mods, has_net = probe("plain")
    assert mods == [] and has_net is False


def test_network_board_loads_it():
    mods, has_net = probe("net")
    assert {"firmware.net", "firmware.net.push", "firmware.net.http", "protocol.push"} <= set(mods) and has_net is True


def test_firmware_build_leaves_it_out_without_a_network():
    sys.path.insert(0, str(REPO / "tools"))
    import firmware_build
    from firmware.board import load
    pico = [src for src, _ in firmware_build.sources(load("pico"))]
    pico_w = [src for src, _ in firmware_build.sources(load("pico_w"))]
    assert not any(s.startswith("firmware/net/") for s in pico)
    assert "firmware/net/push.py" in pico_w and "firmware/net/http.py" in pico_w
