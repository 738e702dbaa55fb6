# Power-loss proof of firmware/journal/ on littlefs (MicroPython unix port, VfsLfs2).
#   micropython -X heapsize=256K tests/journal/powercut.py [--only-clean] [--posix DIR] [--mpy DIR]
#                                                          [--bs BLOCK_SIZE --blocks COUNT]
#
# Scenario "session": a 16-hand session (appends of 100..300 bytes, the ack after hands 8 and 16,
# each followed by prune) on a fresh 64 x 512-byte littlefs, 1536-byte segments.
# Scenario "soak": 3 sessions, 48 hands, 1024-byte segments, an ack every 2 hands lagging 1 to 3
# hands behind and a prune after every ack, so segments rotate and are pruned at the ack boundary.
# The clean run of a scenario counts the flash mutations W (progs + erases, mount included, format
# excluded). Then for every K in 1..W and for each cut kind (the K-th mutation lost entirely /
# half applied / half applied and half garbled): run from the formatted image until the power
# dies at K, reboot (new device over the same bytes, mount, Journal recovery), check the recovered
# journal, continue the session from what was recovered, reboot again and check that the
# journal's files are byte for byte those of the clean run.
#
# What "correct after a cut" means here:
#   * every record whose append() returned is present, byte-identical, seq contiguous, no
#     duplicates; the one append in flight (if any) is present or absent, never partial
#     (recovery drops nothing: dropped_tail == 0, corrupt is None: littlefs syncs are atomic)
#   * acked is the last value whose ack() returned, or the one in flight; the ack file is never
#     garbage (ack_error is None)
#   * no record above acked was pruned (first_seq <= acked + 1)
# Also here: full-flash behaviour on littlefs, and heap use of the journal.
import gc
import os
import sys
import time

import vfs


def _dirname(p):
    i = p.rfind("/")
    return p[:i] if i > 0 else "."


HERE = _dirname(__file__)
sys.path.insert(0, HERE)
sys.path.insert(0, HERE + "/../..")
if "--mpy" in sys.argv:  # a folder holding firmware/journal/*.mpy from mpy-cross: test the build
    sys.path.insert(0, sys.argv[sys.argv.index("--mpy") + 1])

from flakybdev import FlakyBdev  # noqa: E402
from firmware.journal import journal as jm  # noqa: E402

MNT = "/fl"
BS = 512  # flash block size (--bs)
JDIR = MNT + "/journal"
HANDS = 16  # per session
SESSION_BYTES = HANDS * (300 + jm.HEADER)
KINDS = ((False, "lost"), (True, "torn"), (2, "garbled"))


class Scenario:
    def __init__(self, name, seg, maxp, steps):
        self.name = name
        self.seg = seg
        self.maxp = maxp
        self.steps = steps
        self.hands = max(n for op, n in steps if op == "a")
        self.final_ack = max(n for op, n in steps if op == "k")


def _session_steps():
    steps = [("s", 0)] + [("a", i) for i in range(1, 9)] + [("k", 8), ("p", 0)]
    return steps + [("a", i) for i in range(9, 17)] + [("k", 16), ("p", 0)]


def _soak_steps():
    steps = []
    for n in range(1, 3 * HANDS + 1):
        if n % HANDS == 1:
            steps.append(("s", 0))
        steps.append(("a", n))
        if n % 2 == 0 and n >= 4:  # the host lags 1, 2 or 3 hands: acks land on segment ends
            steps += [("k", n - 1 - (n // 2) % 3), ("p", 0)]
    return steps + [("k", 3 * HANDS), ("p", 0)]


SESSION = Scenario("session", 1536, 1024, _session_steps())
SOAK = Scenario("soak", 1024, 1000, _soak_steps())
SC = SESSION  # the scenario being run


def payload(i):
    n = 100 + (i * 73) % 201  # 100..300 bytes
    s = (b"hand %d;" % i) * (n // 6 + 1)
    return s[:n]


failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL", msg)


class Progress:
    """What the session has done, as the application would know it: which calls returned."""

    def __init__(self):
        self.appended = 0  # highest seq whose append() returned
        self.inflight = 0  # seq of an append() that did not return
        self.acked = 0  # last ack() that returned
        self.ack_inflight = 0


def open_journal():
    return jm.Journal(JDIR, segment_size=SC.seg, max_payload=SC.maxp)


def run_session(j, pr):
    for op, n in SC.steps:
        if op == "s":
            j.start_session(SESSION_BYTES)
        elif op == "a":
            if n <= j.last_seq:
                continue
            if n != j.last_seq + 1:
                raise AssertionError("session would skip hand %d (last_seq %d)" % (n, j.last_seq))
            pr.inflight = n
            seq = j.append(payload(n))
            if seq != n:
                raise AssertionError("append returned seq %d for hand %d" % (seq, n))
            pr.appended = n
            pr.inflight = 0
        elif op == "k":
            if j.acked >= n:
                continue
            pr.ack_inflight = n
            j.ack(n)
            pr.acked = n
            pr.ack_inflight = 0
        else:
            j.prune()
            f = j.first_seq
            if (f is not None and f > j.acked + 1) or (f is None and j.last_seq > j.acked):
                raise AssertionError("prune dropped unacked records: first %r acked %d" % (f, j.acked))


def mount(bd):
    fs = vfs.VfsLfs2(bd)
    vfs.mount(fs, MNT)


def umount():
    vfs.umount(MNT)


def snapshot_files():
    out = []
    for name in sorted(os.listdir(JDIR)):
        with open(JDIR + "/" + name, "rb") as f:
            out.append((name, f.read()))
    return out


def check_recovered(j, pr, tag):
    ok = True
    if j.corrupt is not None or j.dropped_tail or j.ack_error is not None:
        fail("%s: corrupt=%r dropped_tail=%d ack_error=%r" % (tag, j.corrupt, j.dropped_tail, j.ack_error))
        ok = False
    allowed = (pr.appended, pr.inflight) if pr.inflight else (pr.appended,)
    if j.last_seq not in allowed:
        fail("%s: last_seq %d, expected one of %r" % (tag, j.last_seq, allowed))
        ok = False
    acks = (pr.acked, pr.ack_inflight) if pr.ack_inflight else (pr.acked,)
    if j.acked not in acks:
        fail("%s: acked %d, expected one of %r" % (tag, j.acked, acks))
        ok = False
    first = j.first_seq
    if first is None:
        if j.last_seq != j.acked:
            fail("%s: no records on flash but last_seq %d > acked %d" % (tag, j.last_seq, j.acked))
            ok = False
    elif first > j.acked + 1:
        fail("%s: unacked records pruned: first_seq %d, acked %d" % (tag, first, j.acked))
        ok = False
    expect = first
    try:
        for seq, data in j.records(1):
            if seq != expect or data != payload(seq):
                fail("%s: record %d wrong (expected seq %d)" % (tag, seq, expect))
                return False
            expect += 1
    except jm.JournalError as e:
        fail("%s: records() raised %r" % (tag, e))
        return False
    if first is not None and expect != j.last_seq + 1:
        fail("%s: records end at %d, last_seq %d" % (tag, expect - 1, j.last_seq))
        ok = False
    return ok


MEM = None  # the one flash image, reused: a fresh 32 KB bytearray per cut fragments the heap


def image(formatted):
    global MEM
    if MEM is None:
        MEM = bytearray(formatted)
    else:
        MEM[:] = formatted
    return MEM


def clean_run(formatted):
    mem = image(formatted)
    bd = FlakyBdev(mem, block_size=BS, strict=True)
    mount(bd)
    pr = Progress()
    j = open_journal()
    run_session(j, pr)
    j.close()
    files = snapshot_files()
    ok = check_recovered(j, pr, "clean")
    umount()
    return bd, files, ok


def one_cut(formatted, k, torn, final_files):
    tag = "%s K=%d %s" % (SC.name, k, torn)
    mem = image(formatted)
    bd = FlakyBdev(mem, block_size=BS, cut_at=k, torn=torn)
    pr = Progress()
    j = None
    try:
        mount(bd)
        j = open_journal()
        run_session(j, pr)
    except Exception as e:  # the power cut surfaces as OSError(EIO) from littlefs
        if not bd.dead:
            fail("%s: %r before the cut" % (tag, e))
            return False
    if not bd.dead:
        fail("%s: session ended before the cut" % tag)
        return False
    if j is not None:
        j.close()  # the dead device ignores it
    try:
        umount()
    except OSError:
        pass  # the cut came before the mount finished
    # reboot 1: recover, check, continue the session
    mount(FlakyBdev(mem, block_size=BS))
    ok = False
    try:
        j = open_journal()
        ok = check_recovered(j, pr, tag)
        run_session(j, pr)
        j.close()
    finally:
        umount()
    # reboot 2: the continued session is durable and equals the clean run, file for file
    mount(FlakyBdev(mem, block_size=BS))
    try:
        j = open_journal()
        ok = check_recovered(j, pr, tag + " after continuing") and ok
        if j.last_seq != SC.hands or j.acked != SC.final_ack:
            fail("%s: final last_seq %d acked %d" % (tag, j.last_seq, j.acked))
            ok = False
        j.close()
        if snapshot_files() != final_files:
            fail("%s: final journal files differ from the clean run" % tag)
            ok = False
    finally:
        umount()
    return ok


def heap_report(formatted):
    """Heap bytes allocated (garbage, not retained) by append() and by recovery, and retained by a
    Journal, on littlefs. The Python test bdev allocates one memoryview slice per read or prog
    (on the board the flash driver is C and allocates nothing): that share is shown apart."""
    per_read, per_prog = bdev_call_churn()
    per_call = 1
    mem = image(formatted)
    bd = FlakyBdev(mem, block_size=BS)
    mount(bd)

    def calls():  # bytes the bdev allocated so far
        return bd.reads * per_read + bd.progs * per_prog

    gc.collect()
    a0 = gc.mem_alloc()
    c = calls()
    j = open_journal()
    a1 = gc.mem_alloc()
    new_bdev = (calls() - c) * per_call
    gc.collect()
    retained_empty = gc.mem_alloc() - a0
    churn = []
    for i in range(1, HANDS + 1):
        p = payload(i)
        gc.collect()
        b0 = gc.mem_alloc()
        c = calls()
        j.append(p)
        churn.append(gc.mem_alloc() - b0 - (calls() - c) * per_call)
    j.ack(HANDS)
    j.close()
    del j
    gc.collect()
    c0 = gc.mem_alloc()
    c = calls()
    j = open_journal()
    c1 = gc.mem_alloc()
    rec_bdev = (calls() - c) * per_call
    gc.collect()
    retained = gc.mem_alloc() - c0
    gc.collect()
    d0 = gc.mem_alloc()
    c = calls()
    n = 0
    for seq, data in j.records(1, copy=False):
        n += 1
    d1 = gc.mem_alloc()
    it_bdev = (calls() - c) * per_call
    j.close()
    umount()
    print("heap on littlefs (bytes allocated; the test bdev's %d B/read, %d B/prog taken out):"
          % (per_read, per_prog))
    print("  new empty journal: %d allocated (+%d by bdev), %d retained" % (a1 - a0 - new_bdev, new_bdev, retained_empty))
    print("  append: min %d, max %d, mean %d per hand (garbage: prepare's two littlefs file objects, pend.tmp and"
          " the segment it copies, each with its cache)"
          % (min(churn), max(churn), sum(churn) // len(churn)))
    print("  recovery of %d hands in %d segments: %d allocated (+%d by bdev), %d retained"
          % (HANDS, len(j.segments()), c1 - c0 - rec_bdev, rec_bdev, retained))
    print("  records(copy=False) over %d hands: %d allocated (+%d by bdev)" % (n, d1 - d0 - it_bdev, it_bdev))


def bdev_call_churn():
    """(bytes per readblocks, bytes per writeblocks) that the Python test bdev allocates."""
    bd = FlakyBdev(bytearray(b"\xff" * 4096), blocks=8)
    buf = bytearray(32)
    gc.collect()
    a = gc.mem_alloc()
    bd.readblocks(1, buf, 0)
    r = gc.mem_alloc() - a
    gc.collect()
    a = gc.mem_alloc()
    bd.writeblocks(1, buf, 0)
    return r, gc.mem_alloc() - a


def heap_posix(d):
    """The same measurements on the unix port's own filesystem (VfsPosix): no Python bdev."""
    gc.collect()
    a0 = gc.mem_alloc()
    j = jm.Journal(d, segment_size=SC.seg, max_payload=SC.maxp)
    a1 = gc.mem_alloc()
    churn = []
    for i in range(1, HANDS + 1):
        p = payload(i)
        gc.collect()
        b0 = gc.mem_alloc()
        j.append(p)
        churn.append(gc.mem_alloc() - b0)
    j.close()
    del j
    gc.collect()
    c0 = gc.mem_alloc()
    j = jm.Journal(d, segment_size=SC.seg, max_payload=SC.maxp)
    c1 = gc.mem_alloc()
    gc.collect()
    retained = gc.mem_alloc() - c0
    j.close()
    print("heap (posix dir): new journal %d allocated; append min %d max %d mean %d; "
          "recovery %d allocated, %d retained"
          % (a1 - a0, min(churn), max(churn), sum(churn) // len(churn), c1 - c0, retained))


def full_flash(formatted):
    """Sessions until the flash refuses one; each accepted session must complete. Then raw
    appends until ENOSPC: JournalFull, nothing committed lost; ack + prune makes room again."""
    ok = True
    mem = image(formatted)
    mount(FlakyBdev(mem, block_size=BS))
    j = open_journal()
    sessions = 0
    hand = 0
    try:
        while j.can_start_session(SESSION_BYTES):
            j.start_session(SESSION_BYTES)
            for _ in range(HANDS):
                hand += 1
                j.append(payload(300 + hand % 7))  # worst case sizes
            sessions += 1
    except jm.JournalError as e:
        fail("full flash: accepted session failed at hand %d: %r" % (hand, e))
        ok = False
    free_at_refusal = j.free_bytes()
    try:
        j.start_session(SESSION_BYTES)
        fail("full flash: start_session did not refuse")
        ok = False
    except jm.JournalFull as e:
        msg = str(e)
    extra = 0
    try:
        while True:
            j.append(payload(300 + (hand + 1) % 7))
            hand += 1
            extra += 1
            if extra > 1000:
                break
    except jm.JournalFull:
        pass
    except OSError as e:
        fail("full flash: append raised %r, not JournalFull" % (e,))
        ok = False
    last = j.last_seq
    if last != hand:
        fail("full flash: last_seq %d after %d appends returned" % (last, hand))
        ok = False
    j.close()
    umount()
    mount(FlakyBdev(mem, block_size=BS))
    j = open_journal()
    if j.last_seq != hand or j.corrupt is not None or j.dropped_tail:
        fail("full flash: after reboot last_seq %d (want %d) corrupt %r dropped %d"
             % (j.last_seq, hand, j.corrupt, j.dropped_tail))
        ok = False
    n = 0
    for seq, data in j.records(1):
        n += 1
        if data != payload(300 + seq % 7):
            fail("full flash: record %d damaged" % seq)
            ok = False
            break
    if n != hand:
        fail("full flash: %d records readable of %d" % (n, hand))
        ok = False
    refused = not j.can_start_session(SESSION_BYTES, prune=True)  # nothing acked: nothing pruned
    if not refused:
        fail("full flash: session allowed with no room and nothing acked")
        ok = False
    try:
        j.ack(j.last_seq)
    except OSError as e:
        fail("full flash: ack on a full flash raised %r" % (e,))
        ok = False
    room = j.can_start_session(SESSION_BYTES)
    if not room:
        fail("full flash: no room after ack + prune")
        ok = False
    else:
        j.start_session(SESSION_BYTES)
        for _ in range(HANDS):
            hand += 1
            j.append(payload(300 + hand % 7))
    j.close()
    umount()
    print("full flash: %d sessions (%d hands) accepted, then refused with %d bytes free: %s"
          % (sessions, sessions * HANDS, free_at_refusal, msg))
    print("full flash: %d more raw appends fitted before JournalFull (margin kept by the estimate);"
          " after ack+prune a new session ran, last_seq %d" % (extra, hand))
    return ok


def lfs_units(formatted):
    """Journal paths that littlefs's atomic syncs never produce in the sweeps, forced by hand:
    a torn tail (cut by copy + rename: VfsLfs2 files have no truncate), with a power cut at every
    mutation of that repair; damage in the middle; reading while appending."""
    global SC
    SC = SESSION
    ok = True
    mem = image(formatted)
    mount(FlakyBdev(mem, block_size=BS))
    j = open_journal()
    for i in range(1, 6):
        j.append(payload(i))
    j.close()
    seg = JDIR + "/" + j.segments()[-1][0]
    with open(seg, "ab") as f:  # a torn append: header and half a payload, committed
        f.write(b"\x2c\x01\x06\x00\x00\x00\x00\x00\x00\x00" + payload(6)[:100])
    torn_files = snapshot_files()
    umount()
    j = None
    gc.collect()
    torn_image = bytes(mem)

    def check(tag, dropped_ok):
        j = open_journal()
        got = [s for s, d in j.records(1) if d == payload(s)]
        good = (j.last_seq == 5 and j.corrupt is None and j.dropped_tail in dropped_ok
                and got == [1, 2, 3, 4, 5] and "trunc.tmp" not in os.listdir(JDIR))
        if not good:
            fail("%s: last_seq %d corrupt %r dropped %d records %r"
                 % (tag, j.last_seq, j.corrupt, j.dropped_tail, got))
        return j, good

    bd = FlakyBdev(mem, block_size=BS)
    mount(bd)
    c = bd.ops
    j, good = check("lfs torn tail", (110,))
    w = bd.ops - c
    trimmed_files = snapshot_files()
    j.append(payload(6))
    j.close()
    umount()
    mount(FlakyBdev(mem, block_size=BS))
    j = open_journal()
    if j.last_seq != 6 or j.dropped_tail or [s for s, d in j.records(4)] != [4, 5, 6]:
        fail("lfs torn tail: append after the repair")
        good = False
    umount()
    ok = ok and good
    cuts = 0
    for torn, kind in KINDS:
        for k in range(1, w + 1):
            tag = "lfs torn tail, cut %d %s" % (k, kind)
            mem[:] = torn_image
            bd = FlakyBdev(mem, block_size=BS, cut_at=k, torn=torn)
            mount(bd)
            try:
                open_journal().close()
            except OSError:
                pass
            umount()
            if not bd.dead:
                fail("%s: repair finished before the cut" % tag)
                continue
            mount(FlakyBdev(mem, block_size=BS))
            # the segment is the torn one or the trimmed one; at most a trunc.tmp beside it
            files = [f for f in snapshot_files() if f[0] != "trunc.tmp"]
            if files != torn_files and files != trimmed_files:
                fail("%s: half-repaired segment" % tag)
            elif check(tag, (0, 110))[1]:
                cuts += 1
            umount()
    print("lfs units: torn tail cut by copy+rename (%d mutations), power cut at each: %d of %d passed"
          % (w, cuts, w * len(KINDS)))
    ok = ok and cuts == w * len(KINDS)

    # damage in the middle of the last segment: reported, nothing dropped, appends refused
    mem[:] = formatted
    mount(FlakyBdev(mem, block_size=BS))
    j = open_journal()
    for i in range(1, 4):
        j.append(payload(i))
    j.close()
    seg = JDIR + "/" + j.segments()[-1][0]
    with open(seg, "rb") as f:
        data = bytearray(f.read())
    mid = jm.HEADER + len(payload(1)) + jm.HEADER + 7  # a payload byte of record 2
    data[mid] ^= 0x01
    with open(seg, "wb") as f:
        f.write(data)
    j = open_journal()
    refused = False
    try:
        j.append(b"x")
    except jm.JournalCorrupt:
        refused = True
    with open(seg, "rb") as f:
        kept = f.read() == data
    if not (j.corrupt and j.corrupt[2] == "bad crc" and j.last_seq == 1 and refused and kept
            and [s for s, d in j.records(1)] == [1]):
        fail("lfs damaged middle record: corrupt %r last_seq %d refused %r kept %r"
             % (j.corrupt, j.last_seq, refused, kept))
        ok = False
    j.close()
    umount()

    # append() interrupted (Ctrl-C) in prepare, with pend.tmp half written, or between the
    # rename and the end of commit: after a reboot the record is absent, or present, whole
    import struct

    for whole in (False, True):
        mem[:] = formatted
        mount(FlakyBdev(mem, block_size=BS))
        j = open_journal()
        for i in range(1, 4):
            j.append(payload(i))
        p4 = payload(4)
        if whole:
            j.prepare(p4)
            jm._replace(JDIR + "/pend.tmp", JDIR + "/" + j.segments()[-1][0])  # commit's rename, then Ctrl-C
        else:
            hdr = bytearray(struct.pack("<HI", len(p4), 4))
            with open(JDIR + "/pend.tmp", "wb") as f:  # prepare had copied part of the segment
                f.write(hdr)
        j.close()
        umount()
        mount(FlakyBdev(mem, block_size=BS))
        j = open_journal()
        good = j.last_seq == (4 if whole else 3) and j.corrupt is None and "pend.tmp" not in os.listdir(JDIR)
        good = good and j.append(b"next") == j.last_seq
        j.close()
        umount()
        mount(FlakyBdev(mem, block_size=BS))
        j = open_journal()
        want = [1, 2, 3, 4, 5] if whole else [1, 2, 3, 4]
        got = [s_ for s_, d in j.records(1)]
        if not (good and got == want and j.dropped_tail == 0 and j.corrupt is None):
            fail("lfs interrupted append (whole=%r): records %r dropped %d" % (whole, got, j.dropped_tail))
            ok = False
        j.close()
        umount()

    # reading while appending: the reader sees a contiguous, intact prefix at least
    mem[:] = formatted
    mount(FlakyBdev(mem, block_size=BS))
    j = open_journal()
    for i in range(1, 4):
        j.append(payload(i))
    it = j.records(1)
    seen = [next(it)[0]]
    for i in range(4, 12):
        j.append(payload(i))
    for s_, d in it:
        if d != payload(s_):
            fail("lfs read while appending: record %d wrong" % s_)
            ok = False
        seen.append(s_)
    if seen != list(range(1, len(seen) + 1)) or len(seen) < 3:
        fail("lfs read while appending: saw %r" % seen)
        ok = False
    j.close()
    umount()
    print("lfs units: damaged middle record reported and kept; interrupted appends consistent;"
          " reader during appends saw 1..%d of 11" % seen[-1])
    return ok


def soft_crc():
    """crc32_soft (for ports built without binascii.crc32) agrees with binascii.crc32 here."""
    import binascii

    ok = jm.crc32_soft(b"123456789") == 0xCBF43926
    data = bytearray(300)
    x = 1
    for i in range(300):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        data[i] = x >> 23
    for n in (0, 1, 7, 100, 300):
        ok = ok and jm.crc32_soft(data[:n], 0x12345678) == binascii.crc32(data[:n], 0x12345678)
    t = time.ticks_us()
    for _ in range(10):
        jm.crc32_soft(data)
    us = time.ticks_diff(time.ticks_us(), t) // 10
    print("soft crc32: %s, %d us per 300-byte record on this host" % ("matches binascii.crc32" if ok else "WRONG", us))
    if not ok:
        fail("crc32_soft differs from binascii.crc32")


def sweep(sc, formatted, only_clean):
    global SC
    SC = sc
    t0 = time.ticks_ms()
    bd, final_files, ok = clean_run(formatted)
    w = bd.ops
    print("%s: clean run W = %d mutations (%d progs, %d erases), %d bdev syncs, %d progs onto unerased bytes"
          % (sc.name, w, bd.progs, bd.erases, bd.syncs, bd.bad_progs))
    print("%s: final files %s" % (sc.name, ", ".join("%s:%d" % (n, len(b)) for n, b in final_files)))
    if not ok or w <= 0 or bd.bad_progs:
        fail("%s: clean run failed" % sc.name)
    tested = 0
    if not only_clean:
        for torn, kind in KINDS:
            for k in range(1, w + 1):
                if one_cut(formatted, k, torn, final_files):
                    tested += 1
                gc.collect()
    print("%s: cut points passed %d of %d (W=%d x %d kinds: %s), %d ms"
          % (sc.name, tested, w * len(KINDS), w, len(KINDS), "/".join(n for t, n in KINDS),
             time.ticks_diff(time.ticks_ms(), t0)))
    print("RESULT %s W=%d CUTS=%d KINDS=%d" % (sc.name, w, tested, len(KINDS)))


def main():
    only_clean = "--only-clean" in sys.argv
    posix_dir = None
    if "--posix" in sys.argv:
        posix_dir = sys.argv[sys.argv.index("--posix") + 1]
    t0 = time.ticks_ms()
    print("journal module: %s" % getattr(jm, "__file__", "?"))
    global BS
    geometry = {}
    if "--bs" in sys.argv:  # e.g. --bs 4096 --blocks 32: the RP2040/ESP32 erase-block size
        geometry["block_size"] = int(sys.argv[sys.argv.index("--bs") + 1])
        geometry["blocks"] = int(sys.argv[sys.argv.index("--blocks") + 1])
    fmt = FlakyBdev(**geometry)
    BS = fmt.bs
    print("flash: %d blocks x %d bytes" % (fmt.blocks, fmt.bs))
    vfs.VfsLfs2.mkfs(fmt)
    formatted = bytes(fmt.mem)
    sweep(SESSION, formatted, only_clean)
    heap_report(formatted)
    if posix_dir:
        heap_posix(posix_dir)
    if not full_flash(formatted):
        fail("full flash")
    if not lfs_units(formatted):
        fail("lfs units")
    soft_crc()
    sweep(SOAK, formatted, only_clean)
    print("total %d ms" % time.ticks_diff(time.ticks_ms(), t0))
    if failures:
        print("%d failures" % len(failures))
        sys.exit(1)
    print("powercut: OK")


main()
