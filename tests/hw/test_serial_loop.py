"""The boxes on a serial port run firmware/main.py's device loop, not a loop of the link alone:
`python -m simulator --serial` (CPython, a pty) and firmware/link/stdio.py (the MicroPython unix
port on stdin/stdout) answer the tags mode's TAGS request, which only the device loop's Device
attaches to the link, and the simulator's box reads tags off its reader while the host watches."""
import os
import subprocess
import sys
import time
from pathlib import Path

from host_tools.tags import LinkClient, open_port

REPO = Path(__file__).resolve().parents[2]
MICROPYTHON = Path(sys.executable).parent / "micropython"
SCEN = REPO / "simulator" / "scenarios"


def serial_path(proc, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if line.startswith("serial: "):
            return line.split()[1]
        if not line and proc.poll() is not None:
            break
    raise AssertionError("no serial path: " + proc.stderr.read())


def ask(path, tries=20):
    for _ in range(tries):
        try:
            port = open_port(path)
            break
        except Exception:
            time.sleep(0.1)
    try:
        c = LinkClient(port)
        hello = c.hello()
        key = os.urandom(32)
        c.box.provision(key)  # tags mode changes the box: it needs the key (issue 19.7)
        c.box.key = key
        return hello, c.tags({"op": "begin"}), c.tags({"op": "end"})
    finally:
        port.close()


def test_simulator_on_a_pty_runs_the_device_loop(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("keys *0#\ntap 5m\nkeys *\n")  # the tag checker, from the keypad
    env = dict(os.environ, MAHJONG_TABLE_SIM_MARKER=str(tmp_path / "marker"))
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "--script", str(script), "--out", str(tmp_path / "o"),
                             "--no-png", "--serial", "--keep-serving"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        path = serial_path(proc)
        assert proc.stdout.readline().startswith("script done")  # the host comes after the scenario
        hello, begin, end = ask(path)
        assert hello["device"] == "box-000000"  # the scripted chip id, as on the emulated Pico
        assert begin["ok"] is True and begin["device"] == "box-000000" and begin["set"] == 1
        assert end == {"ok": True}
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    screens = (tmp_path / "o" / "screens.txt").read_text()
    assert "[Tag check]" in screens and "5m copy 1" in screens


def test_micropython_link_device_runs_the_device_loop(tmp_path):
    assert MICROPYTHON.exists(), "needs the MicroPython unix port at %s (make venv installs it)" % MICROPYTHON
    m, s = os.openpty()
    import tty
    tty.setraw(s)
    path = os.ttyname(s)
    os.close(s)
    proc = subprocess.Popen([str(MICROPYTHON), "-X", "heapsize=512K", str(REPO / "firmware" / "link" / "stdio.py"),
                             "--journal", str(tmp_path / "j"), "--key", str(tmp_path / "k"), "--device-id", "mp-9",
                             "--stats", str(tmp_path / "stats.json")],
                            stdin=m, stdout=m, stderr=subprocess.PIPE, cwd=REPO, env=dict(os.environ, MICROPYPATH=str(REPO)))
    os.close(m)
    try:
        hello, begin, end = ask(path)
        assert hello["device"] == "mp-9" and begin["ok"] is True and begin["device"] == "mp-9"
        assert proc.wait(20) == 0  # the host hung up: the loop ends
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        err = proc.stderr.read().decode()
        proc.stderr.close()
    assert not err
    import json
    st = json.loads((tmp_path / "stats.json").read_text())
    assert st["steps"] > 0 and st["rx_frames"] >= 3 and st["hangups"] == 1
