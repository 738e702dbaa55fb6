# The application over littlefs with the power cut at every flash mutation of a full 16-hand MCR
# session (MicroPython unix port):  micropython -X heapsize=2M tests/journal/app_powercut.py SCRIPT
# After each cut the box boots again: its journal must hold exactly the records committed before
# the cut, byte for byte, and the session must resume in the state the table had after them.
import os
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "tests/journal")

from flakybdev import FlakyBdev
from firmware.app import decode
from firmware.journal import Journal
from simulator.runner import Sim

BLOCKS = 128
BS = 512
MOUNT = "/pc"


def mount(bdev, fresh):
    if fresh:
        os.VfsLfs2.mkfs(bdev)
    os.mount(os.VfsLfs2(bdev), MOUNT)


def umount():
    try:
        os.umount(MOUNT)
    except OSError:
        pass


def state(app):
    s = app.session
    if s is None:
        return None
    return (s.hand, s.dealer, s.prevalent, tuple(s.chairs), tuple(s.totals), s.ended)


def lines_of(path):
    with open(path) as f:
        return [ln for ln in f if ln.strip() != "powercut"]


def same(got, records, written):
    """The records after the reboot are the committed ones. One may be new: the session's end,
    when the cut took it, is written again at boot (the app resumes a session whose last hand
    ended it); the box has no clock then (nobody set it since the power came back), so only
    its time may differ."""
    if got == records[:len(got)]:
        return True
    if len(got) != written + 1 or got[:-1] != records[:written]:
        return False
    a = decode(got[-1])
    b = decode(records[written])
    if a is None or b is None or a.get("kind") != "session_end":
        return False
    a.pop("time", None)
    b.pop("time", None)
    return a == b


def clean_run(lines, formatted):
    bdev = FlakyBdev(mem=bytearray(formatted), block_size=BS)
    mount(bdev, False)
    sim = Sim(lambda: Journal(MOUNT + "/j"))
    states = {0: None}
    for ln in lines:
        sim.line(ln)
        if sim.journal.last_seq not in states:   # the table right after that record
            states[sim.journal.last_seq] = state(sim.app)
    records = [bytes(p) for _, p in sim.journal.records(1)]
    umount()
    return bdev.ops, records, states


def main():
    lines = lines_of(sys.argv[1])
    base = FlakyBdev(blocks=BLOCKS, block_size=BS)
    os.VfsLfs2.mkfs(base)
    formatted = bytes(base.mem)
    W, records, states = clean_run(lines, formatted)
    failures = 0
    # argv[2] "i/n": only the cuts k with k % n == i (the pytest side runs the n parts at once,
    # one per core); every part makes the clean run itself
    part, parts = (int(x) for x in sys.argv[2].split("/")) if len(sys.argv) > 2 else (0, 1)
    for k in range(1, W + 1):
        if k % parts != part:
            continue
        bdev = FlakyBdev(mem=bytearray(formatted), block_size=BS, cut_at=k, torn=(k % 3 == 1))
        written = 0
        try:
            mount(bdev, False)
            sim = Sim(lambda: Journal(MOUNT + "/j"))
            for ln in lines:
                sim.line(ln)
                written = sim.journal.last_seq
                if bdev.dead:
                    break
        except OSError:
            pass   # the power died under the mount or the journal's own recovery
        umount()
        # reboot on the same flash
        again = FlakyBdev(mem=bdev.mem, block_size=BS)
        mount(again, False)
        sim = Sim(lambda: Journal(MOUNT + "/j"))
        got = [bytes(p) for _, p in sim.journal.records(1)]
        ok = same(got, records, written)
        ok = ok and sim.journal.corrupt is None
        ok = ok and state(sim.app) == states.get(len(got))
        if not ok:
            failures += 1
            print("FAIL cut", k, "records", len(got), state(sim.app), states.get(len(got)))
        umount()
    print("RESULT %s W=%d RECORDS=%d" % ("ok" if failures == 0 else "fail", W, len(records)))


main()
