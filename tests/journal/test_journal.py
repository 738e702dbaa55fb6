"""firmware/journal/ on CPython over a plain directory: format, recovery, ack, pruning, space.
The power-loss sweep on littlefs is test_journal_powercut.py (MicroPython)."""
import os
import random
import struct
import tracemalloc
import zlib

import pytest

from firmware.journal import journal as jm
from firmware.journal.format import HEADER, JournalCorrupt, JournalFull

_opened = []


def Journal(*args, **kw):
    """firmware.journal.Journal, closed at the end of the test (it keeps its append handle)."""
    j = jm.Journal(*args, **kw)
    _opened.append(j)
    return j


@pytest.fixture(autouse=True)
def close_journals():
    yield
    while _opened:
        _opened.pop().close()


def payload(i, n=None):
    n = 100 + (i * 73) % 201 if n is None else n
    return ((b"hand %d;" % i) * (n // 6 + 1))[:n]


@pytest.fixture
def jdir(tmp_path):
    return str(tmp_path / "journal")


def fill(jdir, n, **kw):
    j = Journal(jdir, **kw)
    for i in range(1, n + 1):
        assert j.append(payload(i)) == i
    j.close()
    return j


def seg_files(jdir):
    return sorted(n for n in os.listdir(jdir) if n.startswith("j"))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def offsets(data):
    """Start offset of each record in a segment's bytes."""
    out, off = [], 0
    while off < len(data):
        out.append(off)
        off += HEADER + struct.unpack_from("<H", data, off)[0]
    return out


def records(j, from_seq=1):
    return [(s, bytes(p)) for s, p in j.records(from_seq)]


# ------------------------------------------------------------------ format


def test_empty_journal(jdir):
    j = Journal(jdir)
    assert (j.last_seq, j.acked, j.first_seq, j.corrupt, j.dropped_tail) == (0, 0, None, None, 0)
    assert list(j.records()) == [] and os.listdir(jdir) == []


def test_record_layout_is_len_seq_crc_payload(jdir):
    fill(jdir, 2)
    data = read(jdir + "/j0000.log")
    ln, seq, crc = struct.unpack_from("<HII", data, 0)
    assert (ln, seq) == (len(payload(1)), 1)
    assert crc == zlib.crc32(data[:6] + payload(1))
    assert data[HEADER : HEADER + ln] == payload(1)
    ln2, seq2, crc2 = struct.unpack_from("<HII", data, HEADER + ln)
    assert seq2 == 2 and crc2 == zlib.crc32(data[HEADER + ln : HEADER + ln + 6] + payload(2))
    assert len(data) == 2 * HEADER + len(payload(1)) + len(payload(2))


def test_reopen_continues_the_sequence(jdir):
    fill(jdir, 5)
    j = Journal(jdir)
    assert j.last_seq == 5 and j.first_seq == 1
    assert j.append(b"six") == 6
    j.close()
    assert records(Journal(jdir))[-2:] == [(5, payload(5)), (6, b"six")]


def test_limits(jdir):
    with pytest.raises(ValueError):
        Journal(jdir, segment_size=1000, max_payload=1024)
    j = Journal(jdir, max_payload=300)
    with pytest.raises(ValueError):
        j.append(b"x" * 301)
    assert j.append(b"x" * 300) == 1 and j.append(b"") == 2
    assert records(j) == [(1, b"x" * 300), (2, b"")]


def test_rotation(jdir):
    j = fill(jdir, 40, segment_size=1100, max_payload=1024)
    names = seg_files(jdir)
    assert len(names) > 5 and names[:3] == ["j0000.log", "j0001.log", "j0002.log"]
    firsts = [f for _, f in j.segments()]
    assert firsts[0] == 1 and firsts == sorted(firsts)
    for name in names:
        size = os.path.getsize(os.path.join(jdir, name))
        assert 0 < size <= 1100
    # each segment is full: the next record would not have fitted
    for k, name in enumerate(names[:-1]):
        size = os.path.getsize(os.path.join(jdir, name))
        nxt = payload(firsts[k + 1])
        assert size + HEADER + len(nxt) > 1100
    assert records(Journal(jdir, segment_size=1100)) == [(i, payload(i)) for i in range(1, 41)]


def test_segment_numbers_past_9999_sort_numerically(jdir):
    os.makedirs(jdir)
    j = Journal(jdir, segment_size=1100)
    j._segs = [[9999, None]]  # as after years of rotations
    j.append(payload(1))
    j.append(payload(2, 1000))  # does not fit beside record 1: the next segment
    j.close()
    assert seg_files(jdir) == ["j10000.log", "j9999.log"]
    j = Journal(jdir, segment_size=1100)
    assert j.segments() == [("j9999.log", 1), ("j10000.log", 2)] and j.last_seq == 2


# ------------------------------------------------------------------ recovery


def last_record_span(jdir, name):
    data = read(os.path.join(jdir, name))
    start = offsets(data)[-1]
    return data, start


@pytest.mark.parametrize("cut", [1, 5, 9, 10, 11, 50, -1])
def test_truncated_last_record_is_dropped(jdir, cut):
    fill(jdir, 5)
    path = jdir + "/j0000.log"
    data, start = last_record_span(jdir, "j0000.log")
    keep = start + cut if cut > 0 else len(data) + cut
    with open(path, "r+b") as f:
        f.truncate(keep)
    j = Journal(jdir)
    assert (j.last_seq, j.corrupt, j.dropped_tail) == (4, None, keep - start)
    assert os.path.getsize(path) == start
    assert j.append(b"again") == 5
    j.close()
    j = Journal(jdir)
    assert (j.last_seq, j.dropped_tail) == (5, 0)
    assert records(j)[-1] == (5, b"again")


def test_truncation_without_os_truncate_copies_and_renames(jdir, monkeypatch):
    # MicroPython's VfsLfs2 has no truncate: the good prefix goes to trunc.tmp, renamed over
    fill(jdir, 5)
    path = jdir + "/j0000.log"
    data, start = last_record_span(jdir, "j0000.log")
    with open(path, "r+b") as f:
        f.truncate(start + 20)
    monkeypatch.delattr(os, "truncate")
    j = Journal(jdir, max_payload=100 + 200)  # buffer smaller than the segment: chunked copy
    assert (j.last_seq, j.dropped_tail) == (4, 20)
    assert read(path) == data[:start] and "trunc.tmp" not in os.listdir(jdir)


def test_leftover_temp_files_are_removed(jdir):
    fill(jdir, 3)
    Journal(jdir).ack(2)
    for name in ("ack.tmp", "trunc.tmp"):
        with open(os.path.join(jdir, name), "wb") as f:
            f.write(b"half")
    j = Journal(jdir)
    assert (j.last_seq, j.acked) == (3, 2)
    assert sorted(os.listdir(jdir)) == ["ack", "j0000.log"]


def test_zero_filled_tail_is_a_torn_append(jdir):
    # a filesystem that grew the file before the data landed: zeros after the last record
    fill(jdir, 3)
    with open(jdir + "/j0000.log", "ab") as f:
        f.write(bytes(180))
    j = Journal(jdir)
    assert (j.last_seq, j.corrupt, j.dropped_tail) == (3, None, 180)


@pytest.mark.parametrize("where", ["payload", "length", "seq", "crc"])
def test_flipped_byte_in_middle_record_stops_recovery_and_is_reported(jdir, where):
    fill(jdir, 3)
    path = jdir + "/j0000.log"
    data = bytearray(read(path))
    start = offsets(data)[1]
    pos = {"payload": start + HEADER + 40, "length": start + 1, "seq": start + 2, "crc": start + 8}[where]
    data[pos] ^= 0x04
    with open(path, "wb") as f:
        f.write(data)
    j = Journal(jdir)
    assert j.corrupt is not None and j.corrupt[:2] == (0, start), j.corrupt
    assert j.last_seq == 1 and j.dropped_tail == 0
    assert records(j) == [(1, payload(1))]
    assert read(path) == bytes(data)  # nothing dropped: records 2 and 3 stay for the host
    with pytest.raises(JournalCorrupt):
        j.append(b"x")
    with pytest.raises(JournalCorrupt):
        j.start_session(100)


def test_damage_in_an_earlier_segment_leaves_later_segments_alone(jdir):
    fill(jdir, 20, segment_size=1100)
    names = seg_files(jdir)
    first = os.path.join(jdir, names[0])
    data = bytearray(read(first))
    data[-5] ^= 0xFF  # last record of a full, earlier segment
    with open(first, "wb") as f:
        f.write(data)
    before = {n: read(os.path.join(jdir, n)) for n in names}
    j = Journal(jdir, segment_size=1100)
    assert j.corrupt is not None and j.corrupt[0] == 0 and j.dropped_tail == 0
    assert {n: read(os.path.join(jdir, n)) for n in names} == before
    j.ack(j.last_seq)
    assert j.prune() == 0  # nothing at or after the damage is pruned


def test_a_bad_region_longer_than_one_record_is_damage_not_a_torn_tail(jdir):
    fill(jdir, 3, max_payload=300, segment_size=4096)
    path = jdir + "/j0000.log"
    with open(path, "ab") as f:
        f.write(b"\x07" * (HEADER + 300 + 1))
    size = os.path.getsize(path)
    j = Journal(jdir, max_payload=300)
    assert j.corrupt is not None and j.dropped_tail == 0 and os.path.getsize(path) == size


def test_a_valid_record_after_the_bad_one_means_damage(jdir):
    # the last segment's second-to-last record is damaged: the last one is intact, so this is
    # not a torn append and nothing may be cut
    fill(jdir, 3)
    path = jdir + "/j0000.log"
    data = bytearray(read(path))
    start = offsets(data)[1]
    struct.pack_into("<H", data, start, 900)  # length now runs past the end of the file
    with open(path, "wb") as f:
        f.write(data)
    j = Journal(jdir)
    assert j.corrupt is not None and j.dropped_tail == 0 and read(path) == bytes(data)


def test_a_missing_middle_segment_is_reported(jdir):
    fill(jdir, 30, segment_size=1100)
    names = seg_files(jdir)
    os.remove(os.path.join(jdir, names[1]))
    j = Journal(jdir, segment_size=1100)
    assert j.corrupt is not None and "expected" in j.corrupt[2]
    assert j.corrupt[0] == int(names[2][1:5]) and j.corrupt[1] == 0


def test_records_detects_damage_that_happens_after_boot(jdir):
    fill(jdir, 3)
    j = Journal(jdir)
    path = jdir + "/j0000.log"
    data = bytearray(read(path))
    data[offsets(data)[2] + HEADER] ^= 1
    with open(path, "wb") as f:
        f.write(data)
    it = j.records()
    assert [next(it)[0], next(it)[0]] == [1, 2]
    with pytest.raises(JournalCorrupt):
        next(it)


# ------------------------------------------------------------------ records()


def test_records_from_seq(jdir):
    j = fill(jdir, 30, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    firsts = [f for _, f in j.segments()]
    assert [s for s, _ in j.records(1)] == list(range(1, 31))
    for start in (1, 2, firsts[1], firsts[1] + 1, firsts[-1], 30):
        assert records(j, start) == [(i, payload(i)) for i in range(start, 31)]
    assert records(j, 31) == [] and records(j, 1000) == []


def test_records_copy_false_yields_views_into_one_buffer(jdir):
    j = fill(jdir, 4)
    j = Journal(jdir)
    views = []
    for seq, p in j.records(1, copy=False):
        assert isinstance(p, memoryview) and bytes(p) == payload(seq)
        views.append(p)
    assert all(v.obj is views[0].obj for v in views)


def test_records_stream_without_loading_the_journal(jdir):
    j = Journal(jdir, segment_size=8192, max_payload=1024)
    for i in range(1, 401):
        j.append(payload(i, 1000))  # ~400 KB on disk
    j.close()
    j = Journal(jdir, segment_size=8192, max_payload=1024)
    tracemalloc.start()
    n = 0
    for seq, p in j.records(1, copy=False):
        n += 1
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert n == 400
    assert peak < 32 * 1024, peak  # a file buffer and a few objects, not 400 KB


def test_records_is_lazy_and_opens_only_the_segments_it_needs(jdir, monkeypatch):
    fill(jdir, 30, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    opened = []
    real_open = open
    monkeypatch.setattr(jm, "open", lambda p, m="r": opened.append(p) or real_open(p, m), raising=False)
    it = j.records(28)
    assert opened == []  # a generator: nothing read before the first next()
    assert next(it) == (28, payload(28))
    assert [s for s, _ in it] == [29, 30]
    segs = j.segments()
    first_needed = max(k for k, (_, f) in enumerate(segs) if f <= 28)
    assert [os.path.basename(p) for p in opened] == [n for n, _ in segs[first_needed:]]


# ------------------------------------------------------------------ ack


def test_ack_is_durable_and_checked(jdir):
    fill(jdir, 5)
    j = Journal(jdir)
    assert j.ack(3) is True and j.acked == 3
    raw = read(jdir + "/ack")
    assert raw == struct.pack("<II", 3, zlib.crc32(struct.pack("<I", 3)))
    assert j.ack(2) is False and j.ack(3) is False and read(jdir + "/ack") == raw
    with pytest.raises(ValueError):
        j.ack(6)
    assert Journal(jdir).acked == 3


def test_ack_crash_before_rename_keeps_the_old_value(jdir, monkeypatch):
    fill(jdir, 5)
    Journal(jdir).ack(2)
    j = Journal(jdir)

    def crash(src, dst):
        raise OSError(5, "power cut")

    monkeypatch.setattr(jm, "_replace", crash)
    with pytest.raises(OSError):
        j.ack(4)
    monkeypatch.undo()
    assert os.path.exists(jdir + "/ack.tmp")
    j = Journal(jdir)
    assert j.acked == 2 and j.ack_error is None and not os.path.exists(jdir + "/ack.tmp")


@pytest.mark.parametrize("bad", [b"", b"\x03\x00\x00", b"\x03\x00\x00\x00\x00\x00\x00\x00", bytes(9)])
def test_a_garbled_ack_reads_as_zero_never_as_garbage(jdir, bad):
    fill(jdir, 5, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    j.ack(5)
    with open(jdir + "/ack", "wb") as f:
        f.write(bad)
    j = Journal(jdir, segment_size=1100)
    assert j.acked == 0 and j.ack_error is not None and j.last_seq == 5
    assert j.prune() == 0  # safe direction: nothing unconfirmed is deleted


def test_an_ack_beyond_the_records_is_lowered_not_trusted(jdir):
    # e.g. an ack file left from another journal: appending after seq 1000 would leave a gap
    fill(jdir, 5)
    with open(jdir + "/ack", "wb") as f:
        f.write(struct.pack("<II", 1000, zlib.crc32(struct.pack("<I", 1000))))
    j = Journal(jdir)
    assert (j.last_seq, j.acked) == (5, 5) and "beyond" in j.ack_error
    assert j.append(b"x") == 6


def test_an_empty_segment_in_the_middle_is_skipped(jdir):
    fill(jdir, 12, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    names = seg_files(jdir)
    last = int(names[-1][1:5])
    os.rename(os.path.join(jdir, names[-1]), os.path.join(jdir, "j%04d.log" % (last + 1)))
    open(os.path.join(jdir, names[-1]), "wb").close()  # an empty one before it
    j = Journal(jdir, segment_size=1100)
    assert (j.last_seq, j.corrupt) == (12, None)
    assert [s for s, _ in j.records()] == list(range(1, 13))


def test_journal_is_a_context_manager(jdir):
    with jm.Journal(jdir) as j:
        j.append(b"a")
        j.prepare(b"b")
        assert "pend.tmp" in os.listdir(jdir)
    assert "pend.tmp" not in os.listdir(jdir)  # leaving drops the record prepared
    assert records(jm.Journal(jdir)) == [(1, b"a")]


def test_ack_rename_replaces_an_existing_file(jdir):
    fill(jdir, 3)
    j = Journal(jdir)
    for s in (1, 2, 3):
        j.ack(s)
    assert sorted(os.listdir(jdir)) == ["ack", "j0000.log"] and Journal(jdir).acked == 3


# ------------------------------------------------------------------ pruning and space


def test_prune_deletes_only_whole_acked_segments(jdir):
    j = fill(jdir, 30, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    segs = j.segments()
    firsts = [f for _, f in segs]
    # ack one short of the end of segment 1: only segment 0 may go
    j.ack(firsts[2] - 2)
    assert j.prune() == 1 and j.segments() == segs[1:]
    assert j.first_seq == firsts[1]
    # exactly at the end of segment 1
    j.ack(firsts[2] - 1)
    assert j.prune() == 1 and j.first_seq == firsts[2]
    assert j.prune() == 0
    # everything acked: the last segment stays
    j.ack(30)
    j.prune()
    assert j.segments() == segs[-1:] and seg_files(jdir) == [segs[-1][0]]
    j = Journal(jdir, segment_size=1100)
    assert (j.last_seq, j.acked, j.first_seq) == (30, 30, firsts[-1])
    assert records(j) == [(i, payload(i)) for i in range(firsts[-1], 31)]


def test_sequence_survives_a_fully_pruned_journal(jdir):
    fill(jdir, 10, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    j.ack(10)
    j.close()
    for name in seg_files(jdir):  # e.g. the last segment lost to a later prune + empty rotation
        os.remove(os.path.join(jdir, name))
    j = Journal(jdir, segment_size=1100)
    assert (j.last_seq, j.first_seq) == (10, None)
    assert j.append(b"next") == 11


def test_an_empty_last_segment_is_used_and_prune_keeps_the_sequence(jdir):
    j = fill(jdir, 8, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    # as an older journal left it: a power cut after it created a segment, before its record
    open(os.path.join(jdir, "j%04d.log" % (int(seg_files(jdir)[-1][1:-4]) + 1)), "wb").close()
    j.close()
    j = Journal(jdir, segment_size=1100)
    assert j.segments()[-1][1] is None and j.last_seq == 8
    j.ack(8)
    n = len(j.segments())
    assert j.prune() == n - 1 and j.segments()[0][1] is None  # only the empty one is left
    j.close()
    j = Journal(jdir, segment_size=1100)
    assert j.last_seq == 8 and j.append(b"nine") == 9
    assert records(j) == [(9, b"nine")]


def test_free_bytes_and_the_session_estimate(jdir):
    j = Journal(jdir)
    st = os.statvfs(jdir)
    assert abs(j.free_bytes() - st.f_frsize * st.f_bavail) < 1 << 20
    need = j.flash_needed(16 * 310)
    assert need >= 16 * 310 + j.reserve_blocks * st.f_frsize
    assert j.can_start_session(16 * 310)


def test_statvfs_wrapping_past_zero_means_no_space(jdir, monkeypatch):
    j = Journal(jdir)
    monkeypatch.setattr(os, "statvfs", lambda p: (512, 512, 64, 4294967294, 4294967294, 0, 0, 0, 0, 255))
    assert j.free_bytes() == 0 and not j.can_start_session(100)


def test_full_flash_refuses_a_session_and_never_drops_unsynced_records(jdir, monkeypatch):
    fill(jdir, 30, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    monkeypatch.setattr(j, "free_bytes", lambda: 2048)
    before = seg_files(jdir)
    assert j.can_start_session(16 * 310) is False
    with pytest.raises(JournalFull) as e:
        j.start_session(16 * 310)
    assert "flash full" in str(e.value) and "sync hands 1..30" in str(e.value)
    assert seg_files(jdir) == before  # nothing acked: nothing deleted
    j.ack(30)
    with pytest.raises(JournalFull, match="every hand is synced"):
        j.start_session(16 * 310)
    assert len(seg_files(jdir)) == 1  # the acked segments went; the last one stays


def test_a_full_flash_prunes_acked_segments_to_make_room(jdir, monkeypatch):
    fill(jdir, 30, segment_size=1100)
    j = Journal(jdir, segment_size=1100)
    need = j.flash_needed(2000)
    n0 = len(j.segments())
    monkeypatch.setattr(j, "free_bytes", lambda: need - 1 + (len(j.segments()) < n0))
    j.ack(20)
    assert j.can_start_session(2000, prune=False) is False
    assert j.can_start_session(2000) is True
    assert j.first_seq <= 21 and [s for s, _ in j.records()][-1] == 30


class FailingFile:
    """A segment handle whose write puts part of the bytes on disk, then fails with ENOSPC."""

    def __init__(self, f, after):
        self.f, self.left = f, after

    def write(self, b):
        if len(b) > self.left:
            self.f.write(bytes(b[: self.left]))
            self.f.flush()
            raise OSError(28, "No space left on device")
        self.left -= len(b)
        return self.f.write(b)

    def __getattr__(self, name):
        return getattr(self.f, name)


def test_enospc_during_append_commits_nothing_and_keeps_the_journal_usable(jdir, monkeypatch):
    fill(jdir, 3)
    j = Journal(jdir)
    before = read(jdir + "/j0000.log")
    real_open = open
    monkeypatch.setattr(jm, "open", lambda p, m="r": FailingFile(real_open(p, m), 40) if "w" in m else real_open(p, m), raising=False)
    with pytest.raises(JournalFull):
        j.append(payload(4))
    monkeypatch.undo()
    assert j.last_seq == 3 and read(jdir + "/j0000.log") == before and "pend.tmp" not in os.listdir(jdir)
    assert j.append(payload(4)) == 4
    j.close()
    j = Journal(jdir)
    assert (j.last_seq, j.dropped_tail, j.corrupt) == (4, 0, None)


class InterruptedFile(FailingFile):
    """Ctrl-C between the header and the payload write of the record being prepared."""

    def write(self, b):
        if self.left == 0:
            raise KeyboardInterrupt
        self.left = 0
        return self.f.write(b)


@pytest.mark.parametrize("where, present", [("prepare", False), ("rename", False), ("after rename", True)])
def test_an_interrupted_append_leaves_a_consistent_journal(jdir, monkeypatch, where, present):
    fill(jdir, 3)
    j = Journal(jdir)
    real_open = open
    real_replace = jm._replace

    def replace(a, b):
        if where == "after rename":
            real_replace(a, b)
        raise KeyboardInterrupt

    if where == "prepare":
        monkeypatch.setattr(jm, "open", lambda p, m="r": InterruptedFile(real_open(p, m), 10) if "w" in m else real_open(p, m), raising=False)
    else:
        monkeypatch.setattr(jm, "_replace", replace)
    with pytest.raises(KeyboardInterrupt):
        j.append(payload(4))
    monkeypatch.undo()
    # the caller learns from last_seq whether the record made it; either way no torn bytes stay
    assert j.last_seq == (4 if present else 3) and j.corrupt is None
    if where == "rename":
        j.discard()  # prepared, not committed: the caller drops it (or commits it again)
    assert "pend.tmp" not in os.listdir(jdir)
    assert j.append(b"next") == j.last_seq
    j.close()
    j = Journal(jdir)
    assert (j.dropped_tail, j.corrupt) == (0, None)
    want = [payload(i) for i in range(1, 4)] + ([payload(4)] if present else []) + [b"next"]
    assert [bytes(p) for _, p in j.records()] == want


# ------------------------------------------------------------------ prepare / commit


def test_prepare_writes_nothing_to_the_journal_until_commit(jdir):
    j = fill(jdir, 3)
    j = Journal(jdir)
    before = read(jdir + "/j0000.log")
    j.prepare(payload(4))
    assert read(jdir + "/j0000.log") == before and j.last_seq == 3
    assert records(j) == [(i, payload(i)) for i in (1, 2, 3)]
    assert j.commit() == 4 and j.last_seq == 4
    assert records(Journal(jdir)) == [(i, payload(i)) for i in (1, 2, 3, 4)]
    with pytest.raises(jm.JournalError):
        j.commit()  # nothing prepared any more


def test_append_prepared_commits_the_same_bytes_and_appends_anything_else(jdir, monkeypatch):
    j = fill(jdir, 2)
    j = Journal(jdir)
    assert j.pending() is None
    j.prepare(payload(3))
    assert j.pending() == 3
    writes = []
    real = j.prepare
    monkeypatch.setattr(j, "prepare", lambda p: writes.append(bytes(p)) or real(p))
    assert j.append_prepared(payload(3)) == 3 and writes == []  # committed as prepared: no new write
    real(payload(4))
    other = payload(4)[:-1] + b"!"  # same length, other bytes: the CRC tells them apart
    assert j.append_prepared(other) == 4 and writes == [other]
    assert j.append_prepared(payload(5)) == 5  # nothing prepared: a whole append
    real(payload(6))
    j.append(b"referee")  # an append in between drops the prepared record
    assert j.pending() is None and j.append_prepared(payload(6)) == 7
    assert records(Journal(jdir)) == [(1, payload(1)), (2, payload(2)), (3, payload(3)), (4, other),
                                      (5, payload(5)), (6, b"referee"), (7, payload(6))]


def test_discard_and_a_second_prepare_drop_the_first(jdir):
    j = Journal(jdir)
    j.prepare(b"one")
    j.discard()
    j.prepare(b"two")
    j.prepare(b"three")
    assert j.commit() == 1
    assert records(Journal(jdir)) == [(1, b"three")]


def test_a_prepared_record_left_by_a_power_cut_is_removed_at_boot(jdir):
    j = fill(jdir, 2)
    j = Journal(jdir)
    j.prepare(payload(3))
    j = Journal(jdir)  # the box rebooted before the last confirmation
    assert "pend.tmp" not in os.listdir(jdir) and j.last_seq == 2 and j.append(b"x") == 3


def test_prepare_starts_a_new_segment_when_the_record_does_not_fit(jdir):
    j = Journal(jdir, segment_size=1100)
    for i in range(1, 20):
        j.prepare(payload(i))
        assert j.commit() == i
    j.close()
    j = Journal(jdir, segment_size=1100)
    assert len(j.segments()) > 3 and records(j) == [(i, payload(i)) for i in range(1, 20)]
    for name in seg_files(jdir):
        assert os.path.getsize(os.path.join(jdir, name)) <= 1100


# ------------------------------------------------------------------ CRC


def test_soft_crc32_matches_zlib():
    rnd = random.Random(7)
    assert jm.crc32_soft(b"123456789") == 0xCBF43926
    assert jm.crc32_soft(b"") == 0
    for _ in range(200):
        data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 300)))
        start = rnd.choice([0, rnd.randrange(1 << 32)])
        assert jm.crc32_soft(data, start) == zlib.crc32(data, start)
    assert jm.crc32_soft(memoryview(b"abcdef")[2:], jm.crc32_soft(b"ab")) == zlib.crc32(b"abcdef")


def test_journal_with_soft_crc_reads_the_same_files(jdir, monkeypatch):
    fill(jdir, 12, segment_size=1100)
    monkeypatch.setattr(jm, "_crc32", jm.crc32_soft)
    j = Journal(jdir, segment_size=1100)
    assert (j.last_seq, j.corrupt) == (12, None)
    assert j.append(b"soft") == 13
    monkeypatch.undo()
    assert records(Journal(jdir, segment_size=1100))[-1] == (13, b"soft")


# ------------------------------------------------------------------ a fragmented heap


def test_the_held_room_lets_a_record_in_when_the_heap_has_no_run_for_its_files(jdir, monkeypatch):
    # a long session on the stock firmware: free heap only in runs too short for littlefs's file
    # buffers, and open() raises MemoryError (make pico-test-full's sichuan_kongs_chajiao-stock
    # lost its hand's record so). The journal lets go of the room it held, collects, and writes.
    import builtins
    real_open = builtins.open
    fail = {"left": 0}

    def tight_open(path, *a, **k):
        if fail["left"] and str(path).endswith("pend.tmp"):
            fail["left"] -= 1
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return real_open(path, *a, **k)
    monkeypatch.setattr(jm, "open", tight_open, raising=False)
    j = Journal(jdir, room=3072)
    assert j.append(b"one") == 1 and len(j._room) == 3072
    fail["left"] = 1
    assert j.append(b"two") == 2
    assert len(j._room) == 3072  # held again once the record is in
    assert records(j) == [(1, b"one"), (2, b"two")]
    # with no room held the error is the caller's, and nothing was written
    k = Journal(jdir + "2")
    k.append(b"one")
    fail["left"] = 1
    with pytest.raises(MemoryError):
        k.append(b"two")
    assert k.last_seq == 1 and records(k) == [(1, b"one")] and not os.path.exists(jdir + "2/pend.tmp")
    # and twice in a row (the room let go, the heap still too tight): the caller's too
    fail["left"] = 2
    with pytest.raises(MemoryError):
        j.append(b"three")
    assert j.last_seq == 2 and j._room is None


def test_the_room_is_let_go_for_a_config_and_held_again_at_the_next_record(jdir):
    # firmware/link/requests.py config(): a config's names are the session's biggest allocations
    j = Journal(jdir, room=2560)
    j.let_go()
    assert j._room is None
    j.append(b"session")  # the config's own record: the room stays lent
    assert j._room is None
    j.hold()
    assert len(j._room) == 2560
    j.append(b"hand")
    assert len(j._room) == 2560
    assert Journal(jdir + "2")._room is None  # none held unless the board asks (JOURNAL_ROOM)
