"""Issue 19.7: a host without the box's key cannot put an idle box into tags mode (the TAGS
requests that change the box are authenticated like every other), and * on the keypad always
leaves tags mode, so nobody can freeze a box there. On the simulator's box (firmware/main.py's
Device with the real TagsMode, the link on a pty, the host tool's own client in this process)
and on the MicroPython unix port (firmware/link/stdio.py)."""
import json
import os
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from host_tools.sync.errors import DeviceError
from host_tools.tags import LinkClient, open_port
from protocol import frames as F

REPO = Path(__file__).resolve().parents[2]
MICROPYTHON = Path(sys.executable).parent / "micropython"
KEY = bytes(range(1, 33))
CHANGES = ("begin", "read", "cancel", "end", "write", "save")
SESSION = {"rules": "mcr", "tournament": "T", "session": 1, "table": 1,
           "players": ["101", "102", "103", "104"], "first_dealer": 0}


def raw_tags(c, op, **more):
    """A TAGS frame as a host without the key sends it (not TAGS_SET)."""
    return c.box.tags(dict(op=op, **more), authed=False)


@pytest.fixture
def box(tmp_path):
    from simulator.device import SimDevice
    b = SimDevice(str(tmp_path / "box"))
    b.dev.read_ms = 2
    b.start()
    port = open_port(b.port_path)
    c = LinkClient(port, timeout=2.0)
    c.hello()
    yield b, c
    port.close()
    b.close()


def test_a_host_without_the_key_cannot_enter_tags_mode(box):
    b, c = box
    idle = b.screen()
    for op in CHANGES:
        r = raw_tags(c, op, set=1, tile=0, copy=0)
        assert r["ok"] is False and r["code"] == "auth", (op, r)
        assert not b.dev.tags.active and b.dev.tags.job is None
    assert raw_tags(c, "poll") == {"ok": True, "state": "idle"}  # the one open op changes nothing
    b.wait()
    assert b.screen() == idle and b.app.state == "idle"
    # the keyed host then starts a session: the box shows it, not a tags screen
    c.box.provision(KEY)
    c.box.key = KEY
    c.box.push_config(SESSION)
    b.wait()
    assert not b.dev.tags.active and b.app.state != "idle"
    assert "Tag" not in b.screen()[0]


def test_star_always_leaves_tags_mode(box):
    b, c = box
    c.box.provision(KEY)
    c.box.key = KEY
    assert c.tags({"op": "begin"})["ok"] is True  # authenticated (TAGS_SET)
    b.wait()
    assert b.dev.tags.active and b.screen()[0] == "Tags" and b.screen()[2] == "* back"
    b.press("*")
    b.wait()
    assert not b.dev.tags.active and b.screen()[0] != "Tags"
    # a job waiting for a tag: the first * cancels it (the host learns it), the next leaves
    assert c.tags({"op": "write", "set": 1, "tile": 0, "copy": 0, "timeout": 60}) == {"ok": True, "state": "waiting"}
    b.press("*")
    b.wait()
    r = c.tags({"op": "poll"})
    assert r["state"] == "done" and r["result"]["code"] == "cancelled"
    assert b.dev.tags.active
    b.press("*")
    b.wait()
    assert not b.dev.tags.active and b.app.state == "idle"
    c.box.push_config(SESSION)  # and a session pushed afterwards is on the screen
    b.wait()
    assert b.app.state != "idle" and "Tag" not in b.screen()[0]


def test_the_host_tool_needs_the_key_for_verify_too(box, tmp_path):
    b, c = box
    p = subprocess.run([sys.executable, "-m", "host_tools", "tags", "verify", "--port", b.port_path],
                       capture_output=True, text=True, timeout=120, cwd=str(REPO))
    assert p.returncode == 2 and "needs the key" in p.stderr
    assert not b.dev.tags.active


def test_unix_port_refuses_tags_without_the_key(tmp_path):
    assert MICROPYTHON.exists(), "needs the MicroPython unix port at %s (make venv installs it)" % MICROPYTHON
    m, s = os.openpty()
    tty.setraw(s)
    path = os.ttyname(s)
    os.close(s)
    proc = subprocess.Popen([str(MICROPYTHON), "-X", "heapsize=512K", str(REPO / "firmware" / "link" / "stdio.py"),
                             "--journal", str(tmp_path / "j"), "--key", str(tmp_path / "k"), "--device-id", "mp-7"],
                            stdin=m, stdout=m, stderr=subprocess.PIPE, cwd=REPO, env=dict(os.environ, MICROPYPATH=str(REPO)))
    os.close(m)
    try:
        port = open_port(path)
        try:
            c = LinkClient(port, timeout=2.0)
            c.hello()
            for op in CHANGES:  # an unkeyed box: refused too
                assert raw_tags(c, op)["code"] == "auth", op
            with pytest.raises(DeviceError) as e:  # and TAGS_SET needs a key the box does not have
                c.box.link.request(F.T_TAGS_SET, json.dumps({"op": "begin"}).encode())
            assert e.value.code == F.E_NO_KEY
            c.box.provision(KEY)
            c.box.key = KEY
            for op in CHANGES:
                assert raw_tags(c, op)["code"] == "auth", op
            assert raw_tags(c, "poll") == {"ok": True, "state": "idle"}
            assert c.tags({"op": "begin"}) == {"ok": True, "device": "mp-7", "set": 1, "registry": 0}
            assert c.tags({"op": "end"}) == {"ok": True}
            c.box.bye()
        finally:
            port.close()
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        err = proc.stderr.read().decode()
        proc.stderr.close()
    assert not err
