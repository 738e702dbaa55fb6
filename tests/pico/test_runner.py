# The minimal runner: a script on the emulated chip, its USB CDC output, the littlefs image made
# on the host and read back after the chip wrote to it, exceptions and timeouts.
from pico import fsimage
from pico.run import run_script

SCRIPT = """
import os, sys
print(sys.implementation._machine)
print(open('data/in.txt').read().upper())
with open('data/out.txt', 'w') as f:
    f.write('written on the chip')
print(sorted(os.listdir('data')))
"""


def test_script_runs_on_the_chip_and_its_writes_persist(node_ready):
    r = run_script(SCRIPT, {"data/in.txt": b"made on the host"}, keep_flash=True, timeout=120)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "Raspberry Pi Pico with RP2040"
    assert lines[1] == "MADE ON THE HOST"
    assert lines[2] == "['in.txt', 'out.txt']"
    files = fsimage.read(r.flash)
    assert files["data/out.txt"] == b"written on the chip"
    assert files["data/in.txt"] == b"made on the host"
    # and the chip boots again from the flash it left
    r2 = run_script("print(open('data/out.txt').read())", flash=r.flash, timeout=120)
    assert r2.rc == 0, r2
    assert r2.out.strip() == "written on the chip"


def test_exception_and_timeout(node_ready):
    r = run_script("print('before')\nraise ValueError('on purpose')\n", timeout=120)
    assert r.rc == 1
    assert r.out.strip() == "before"
    assert "ValueError: on purpose" in r.err
    r = run_script("while True:\n    pass\n", timeout=3)
    assert r.rc == 124
