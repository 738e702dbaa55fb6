# The journal's check of its files at boot (Journal's constructor runs recover()): every segment
# is read in order and each record checked (length <= max_payload, inside the file, seq =
# previous + 1, CRC); the file format is firmware/journal/format.py's.
#   * Torn tail: a bad region at the end of the LAST segment, shorter than one maximal record,
#     holding no intact record with the expected seq or the next. It can only be an append that
#     never returned (a journal written by in-place appends, before prepare/commit; POSIX
#     without fsync; littlefs never shows one); it is cut off (dropped_tail = bytes).
#     VfsLfs2 files have no truncate: the good prefix is copied to trunc.tmp, renamed over.
#   * Anything else is damage to committed data: `corrupt` = (segment, offset, reason), nothing
#     is cut or pruned at or after it, records() ends before it, append() and start_session()
#     raise JournalCorrupt. The files stay as they are for the host to salvage.
#   * An ack above the last record on flash is lowered to it (ack_error says so): appending
#     past a gap would make the next boot report damage. A garbled ack reads as 0. Both only
#     make pruning more careful.
# The functions work on the Journal being built (its buffers, its state) with the CRC function
# it uses (crc(data, start)), so the port's CRC and the pure-Python one check the same files.
import os

from firmware.journal.format import HEADER, JournalError, fsync, le32, replace, seg_index, sync_file


def recover(j, crc):
    """Set j's segments, tail, last_seq, acked, corrupt, dropped_tail and ack_error from its files."""
    j._remove_quiet("ack.tmp")  # rename never happened: ack still holds the old value
    j._remove_quiet("trunc.tmp")  # rename never happened: the segment is untouched
    j._remove_quiet("pend.tmp")  # a record prepared, never committed
    j.acked = read_ack(j, crc)
    idxs = []
    for name in os.listdir(j.path):
        i = seg_index(name)
        if i >= 0:
            idxs.append(i)
    idxs.sort()
    expect = 0  # next seq expected; 0 = anything (first record of the journal)
    last_rec = 0  # seq of the last good record, 0 if there is none
    n = len(idxs)
    for k in range(n):
        idx = idxs[k]
        p = j._seg_path(idx)
        size = os.stat(p)[6]
        seg = [idx, None]
        j._segs.append(seg)
        end, expect, why = scan(j, crc, p, size, expect, seg)
        if seg[1] is not None:
            last_rec = expect - 1
        if why is None:
            j._tail = size
            continue
        if k == n - 1 and is_torn_tail(j, crc, p, end, size, expect):
            truncate(j, p, end)
            j.dropped_tail = size - end
            j._tail = end
            break
        j.corrupt = (idx, end, why)
        j._tail = end
        break
    if j.corrupt is not None:
        j.last_seq = last_rec  # records() stops at the damage; appends are refused
    elif last_rec:
        if j.acked > last_rec:
            # Prune keeps the last record on flash, so this ack is not from this journal.
            # Trust the records: a lower ack only means the host gets some hands again.
            j.ack_error = "ack %d beyond the last record %d" % (j.acked, last_rec)
            j.acked = last_rec
        j.last_seq = last_rec
    else:
        j.last_seq = j.acked  # everything acked and pruned: the sequence goes on


def scan(j, crc, p, size, expect, seg, off=0):
    """Verify the records of one segment from byte `off`. Returns (end of the last good
    record, next expected seq, None or the reason the first bad record is bad)."""
    h = j._rhdr
    mv = j._mv
    f = open(p, "rb")
    try:
        if off:
            f.seek(off)
        while off < size:
            if size - off < HEADER:
                return off, expect, "short header"
            if f.readinto(h) != HEADER:
                return off, expect, "short header"
            ln = h[0] | (h[1] << 8)
            seq = le32(h, 2)
            if ln > j.max_payload:
                return off, expect, "bad length"
            if off + HEADER + ln > size:
                return off, expect, "short payload"
            if (expect and seq != expect) or seq == 0:
                return off, expect, "seq %d, expected %d" % (seq, expect)
            m = mv[:ln]
            if f.readinto(m) != ln:
                return off, expect, "short payload"
            if crc(m, crc(j._rhdr6)) != le32(h, 6):
                return off, expect, "bad crc"
            if seg[1] is None:
                seg[1] = seq
            expect = seq + 1
            off += HEADER + ln
    finally:
        f.close()
    return off, expect, None


def is_torn_tail(j, crc, p, end, size, expect):
    """A bad region at the end of the last segment is a torn append (one record that never
    returned) only if it is shorter than one maximal record and holds no valid record with
    the expected seq or the one after it. Anything else is damage to committed data."""
    region = size - end
    if region > HEADER + j.max_payload:
        return False
    mv = j._mv
    f = open(p, "rb")
    try:
        f.seek(end)
        got = f.readinto(mv[:region])
    finally:
        f.close()
    if got != region:
        return False
    b = j._buf
    for i in range(region - HEADER + 1):
        seq = le32(b, i + 2)
        if seq != expect and seq != expect + 1 and expect:
            continue
        ln = b[i] | (b[i + 1] << 8)
        if ln > j.max_payload or i + HEADER + ln > region:
            continue
        c = crc(mv[i + HEADER : i + HEADER + ln], crc(mv[i : i + 6]))
        if c == le32(b, i + 6):
            return False
    return True


def truncate(j, p, size):
    if hasattr(os, "truncate"):  # CPython: in place
        os.truncate(p, size)
        if fsync is not None:
            f = open(p, "rb")
            try:
                fsync(f.fileno())
            finally:
                f.close()
        return
    # MicroPython has no truncate: copy the good prefix to trunc.tmp and rename it over the
    # segment. The records are copied byte for byte; the rename is one littlefs commit, so
    # a power cut leaves either the old (torn) or the new (trimmed) segment.
    tmp = j.path + "/trunc.tmp"
    mv = j._mv
    src = open(p, "rb")
    try:
        dst = open(tmp, "wb")
        try:
            left = size
            while left:
                k = left if left < len(mv) else len(mv)
                if src.readinto(mv[:k]) != k:
                    raise JournalError("segment shrank while truncating")
                dst.write(mv[:k])
                left -= k
            sync_file(dst)
        finally:
            dst.close()
    finally:
        src.close()
    replace(tmp, p)
    j._sync_dir()


def read_ack(j, crc):
    """The acknowledged seq in the ack file; 0 (and ack_error set) when it is missing or bad."""
    b = j._ackbuf
    try:
        f = open(j.path + "/ack", "rb")
    except OSError:
        return 0
    try:
        got = f.readinto(b)
        extra = f.read(1)
    finally:
        f.close()
    if got != 8 or extra:
        j.ack_error = "ack file has the wrong size"
        return 0
    if crc(memoryview(b)[:4]) != le32(b, 4):
        j.ack_error = "ack file fails its crc"
        return 0
    return le32(b, 0)
