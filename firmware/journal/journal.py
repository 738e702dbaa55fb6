# Hand journal: append-only records on flash that survive power loss.
#
# Runs on MicroPython (littlefs through VfsLfs2, on the device) and on CPython (a plain directory,
# for host-side tests). Only MicroPython built-ins: no os.path, no struct tuples in hot paths.
# The files and the record format: firmware/journal/format.py. Their check at boot, which the
# constructor runs (torn tails cut, damage reported, a bad ack lowered):
# firmware/journal/recovery.py.
#
# Appending, in two halves (append() = prepare() + commit()):
#   prepare  writes pend.tmp: the last segment's records copied, then the new record (or the new
#            record alone, for a new segment), and syncs it. This is the slow half: littlefs
#            never programs a synced block again, so any durable append costs a flash erase
#            (45 ms typical on the Pico's W25Q16JV) and a copy of the segment's last block.
#   commit   renames pend.tmp over the segment: one small metadata commit (a millisecond or two).
# The app can prepare a hand's record while the seats confirm and commit it on the last key;
# discard() drops a prepared record.
#
# Durability (MicroPython 1.2x VfsLfs2, read in extmod/vfs_lfsx_file.c and checked by the power-cut
# sweep in tests/journal/powercut.py):
#   * file.flush() is lfs_file_sync: the file's new size and data blocks go in with one metadata
#     commit, atomic. close() syncs too. There is no os.sync / os.fsync to call.
#   * os.rename onto an existing file in the same directory is lfs_rename: deleting the old
#     file and renaming the new one is one commit. So commit() returning == record committed,
#     a power cut before it leaves the old segment (and a pend.tmp that boot removes), and a
#     segment file only ever changes whole. ack() writes ack.tmp, flushes, closes and renames it
#     over ack the same way, so ack is always the old or the new value; its CRC guards the rest.
#   * On CPython flush() is followed by os.fsync, and a directory fsync after rename/create.
#
# Space: prune() deletes whole segments, oldest first, whose every record is <= acked, never the
# last one. can_start_session() estimates the flash a session needs, prunes if that helps, and
# answers; start_session() raises JournalFull with what to do. A refused session drops nothing.
import os

from firmware import heap
from firmware.compat import const
from firmware.journal.format import (  # noqa: F401  (crc32_soft: for the tests and the host)
    HEADER, JournalCorrupt, JournalError, JournalFull, crc32 as _crc32, crc32_soft, fsync as _fsync, le32,
    replace as _replace, sync_file)

_ENOSPC = const(28)
_ENOENT = const(2)
_COPY = const(256)  # bytes a read when prepare() copies a segment


class Journal:
    """The hand journal in directory `path` (created if missing). Recovers on construction.

    Read-only attributes after construction:
      last_seq      highest committed seq (0 for an empty journal); appends continue from it
      acked         highest seq the host has acknowledged (0 if none, or if the ack file is bad)
      first_seq     oldest seq still on flash, or None
      corrupt       None, or (segment index, byte offset, reason) of the first bad record that is
                    not a torn tail; then records() ends before it and append() raises
      dropped_tail  bytes cut off the last segment at boot (a torn, never-returned append)
      ack_error     None, or why the ack file was ignored
    """

    # max_payload (default 1536, or what a smaller segment holds): within one link frame
    # (firmware/link/engine.py: 38 + 1536 + 10 <= 2048 bytes), and room for a Sichuan hand of several
    # kongs, penalties and three wins (~1.2 KB as protocol/record.py writes it; the app refuses
    # an event that would leave a hand's record no room for its wins)
    def __init__(self, path, segment_size=4096, max_payload=None, reserve_blocks=4, room=0):
        if max_payload is None:
            max_payload = min(1536, segment_size - HEADER)
        if max_payload < 1 or max_payload > 0xFFFF:
            raise ValueError("max_payload must be 1..65535")
        if segment_size < HEADER + max_payload:
            raise ValueError("segment_size must hold one record of max_payload")
        self.path = path
        self.segment_size = segment_size
        self.max_payload = max_payload
        self.reserve_blocks = reserve_blocks
        self._hdr = bytearray(HEADER)  # append's header
        self._hdr6 = memoryview(self._hdr)[:6]
        self._rhdr = bytearray(HEADER)  # records()'s header, so appends between yields are safe
        self._rhdr6 = memoryview(self._rhdr)[:6]
        self._ackbuf = bytearray(8)
        # One record fits: recovery reads a whole suspect tail into it, records() a payload.
        self._buf = bytearray(HEADER + max_payload)
        self._mv = memoryview(self._buf)
        self._cbuf = memoryview(bytearray(_COPY))
        # room: bytes of heap held from the start and let go when prepare() finds no room for
        # its files (littlefs gives each open file a ~1.1 KB buffer, two are open at once): a
        # long session on a small heap (the stock firmware's) leaves free memory only in runs
        # too short for them, and the hand's record would not be written
        self._room_n = room
        self._room = bytearray(room) if room else None
        self._lent = False
        self._pend = None  # (segment index, new segment, seq, payload length, crc) prepared
        self._segs = []  # [index, first seq or None] per segment, oldest first
        self._tail = 0  # committed size of the last segment
        self.last_seq = 0
        self.acked = 0
        self.corrupt = None
        self.dropped_tail = 0
        self.ack_error = None
        try:
            os.stat(path)
        except OSError:
            os.mkdir(path)
        from firmware.journal import recovery   # boot-time code: forgotten once it ran
        recovery.recover(self, _crc32)
        recovery = None
        heap.done_with("firmware.journal.recovery")

    # ---------------------------------------------------------------- paths

    def _seg_path(self, idx):
        return "%s/j%04d.log" % (self.path, idx)

    def _sync_dir(self):
        # A rename or a new file is durable on POSIX only once the directory is synced;
        # littlefs commits both at once, and MicroPython has no os.fsync.
        if _fsync is not None and hasattr(os, "O_RDONLY"):
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except OSError:
                return
            try:
                _fsync(fd)
            except OSError:
                pass
            os.close(fd)

    def _remove_quiet(self, name):
        try:
            os.remove(self.path + "/" + name)
        except OSError:
            pass

    # ---------------------------------------------------------------- ack

    def ack(self, seq):
        """Record that the host has stored every record up to `seq`. Durable when it returns.
        Returns False (and writes nothing) if `seq` is not above the current ack."""
        if seq > self.last_seq:
            raise ValueError("ack %d beyond last seq %d" % (seq, self.last_seq))
        if seq <= self.acked:
            return False
        b = self._ackbuf
        for i in range(4):
            b[i] = (seq >> (8 * i)) & 0xFF
        c = _crc32(memoryview(b)[:4])
        for i in range(4):
            b[4 + i] = (c >> (8 * i)) & 0xFF
        tmp = self.path + "/ack.tmp"
        f = open(tmp, "wb")
        try:
            f.write(b)
            sync_file(f)
        finally:
            f.close()
        _replace(tmp, self.path + "/ack")
        self._sync_dir()
        self.acked = seq
        return True

    # ---------------------------------------------------------------- append

    def append(self, payload):
        """Commit one record; returns its seq. When it returns the record survives power loss.
        Raises JournalFull if the flash ran out (the record is then not in the journal). If it
        raises anything, `last_seq` says whether the record got in: an interrupted append can
        have committed it whole, never in part."""
        self.prepare(payload)
        return self.commit()

    def prepare(self, payload):
        """Write the next record to flash without committing it: the slow half of append().
        commit() then makes it the journal's next record, discard() drops it; until commit()
        returns, a power cut leaves the journal as it was. Preparing again replaces it."""
        if self.corrupt is not None:
            raise JournalCorrupt("journal damaged at segment %d offset %d: %s" % self.corrupt)
        n = len(payload)
        if n > self.max_payload:
            raise ValueError("payload of %d bytes over max_payload %d" % (n, self.max_payload))
        self.discard()
        if not self._segs:
            self._segs.append([0, None])
        seq = self.last_seq + 1
        h = self._hdr
        h[0] = n & 0xFF
        h[1] = n >> 8
        for i in range(4):
            h[2 + i] = (seq >> (8 * i)) & 0xFF
        c = _crc32(payload, _crc32(self._hdr6))
        for i in range(4):
            h[6 + i] = (c >> (8 * i)) & 0xFF
        new = self._tail > 0 and self._tail + HEADER + n > self.segment_size
        idx = self._segs[-1][0] + (1 if new else 0)
        try:
            self._write_pend(new, idx, payload)
        except MemoryError:
            if self._room is None:
                raise
            self._room = None
            import gc
            gc.collect()
            self._write_pend(new, idx, payload)
        self._pend = (idx, new, seq, n, c)

    def let_go(self):
        """Lend the held room to the heap (a config's parse and its names' bitmaps, the
        session's biggest allocations) until hold()."""
        self._room = None
        self._lent = True

    def hold(self):
        """Hold the room again, wherever it fits now (if it fits)."""
        self._lent = False
        if self._room is None and self._room_n:
            try:
                self._room = bytearray(self._room_n)
            except MemoryError:
                pass

    def _write_pend(self, new, idx, payload):
        h = self._hdr
        tmp = self.path + "/pend.tmp"
        try:
            f = open(tmp, "wb")
            try:
                if not new and self._tail:
                    self._copy_segment(idx, f)
                f.write(h)
                f.write(payload)
                sync_file(f)
            finally:
                f.close()
        except BaseException as e:  # KeyboardInterrupt too: the journal stays as it was
            self._remove_quiet("pend.tmp")
            if isinstance(e, OSError) and e.args and e.args[0] == _ENOSPC:
                raise JournalFull("flash full: record %d not journalled" % (self.last_seq + 1))
            raise

    def pending(self):
        """The seq the prepared record would take, or None when none is prepared."""
        return None if self._pend is None else self._pend[2]

    def append_prepared(self, payload):
        """append(payload), in one small flash write when prepare() wrote this very payload
        ahead (same bytes: length and CRC) and nothing was appended since; else in full. For a
        record known before its confirmation: prepare() it while the screen asks, append_prepared()
        on the key."""
        p = self._pend
        if p is not None and p[3] == len(payload):
            h = self._hdr
            for i in range(4):
                h[2 + i] = (p[2] >> (8 * i)) & 0xFF
            h[0] = p[3] & 0xFF
            h[1] = p[3] >> 8
            if _crc32(payload, _crc32(self._hdr6)) == p[4]:
                return self.commit()
        return self.append(payload)

    def _copy_segment(self, idx, dst):
        # the committed bytes of segment idx (all of it: segments only change whole)
        buf = self._cbuf
        src = open(self._seg_path(idx), "rb")
        try:
            left = self._tail
            while left:
                k = left if left < _COPY else _COPY
                if src.readinto(buf[:k]) != k:
                    raise JournalError("segment shorter than its records")
                dst.write(buf[:k])
                left -= k
        finally:
            src.close()

    def commit(self):
        """Make the prepared record part of the journal (one small flash write); returns its
        seq. If it raises, `last_seq` says whether the record got in."""
        if self._pend is None:
            raise JournalError("no record prepared")
        idx, new, seq, n, c = self._pend
        try:
            _replace(self.path + "/pend.tmp", self._seg_path(idx))
            self._sync_dir()
        except BaseException:
            # The rename is one commit: the record is in exactly when pend.tmp is gone. When the
            # flash cannot even say (a dying device), last_seq stays: boot will know.
            if self._gone("pend.tmp"):
                self._committed()
            raise
        self._committed()
        if not self._lent:
            self.hold()  # the room prepare() let go
        return seq

    def _gone(self, name):
        try:
            os.stat(self.path + "/" + name)
            return False
        except OSError as e:
            return bool(e.args) and e.args[0] == _ENOENT

    def _committed(self):
        idx, new, seq, n, c = self._pend
        self._pend = None
        if new:
            self._segs.append([idx, seq])
            self._tail = HEADER + n
        else:
            self._tail += HEADER + n
            seg = self._segs[-1]
            if seg[1] is None:
                seg[1] = seq
        self.last_seq = seq

    def discard(self):
        """Drop a prepared, uncommitted record (nothing when there is none)."""
        if self._pend is not None:
            self._pend = None
            self._remove_quiet("pend.tmp")

    def close(self):
        """Drop a prepared record; the journal holds no open file otherwise."""
        self.discard()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---------------------------------------------------------------- reading

    @property
    def first_seq(self):
        for s in self._segs:
            if s[1] is not None:
                return s[1]
        return None

    def segments(self):
        """[(file name, first seq or None)] oldest first: for diagnostics and the host tool."""
        return [("j%04d.log" % s[0], s[1]) for s in self._segs]

    def records(self, from_seq=1, copy=True):
        """Yield (seq, payload) for every record with seq >= from_seq, oldest first, one record
        in RAM at a time; segments wholly below from_seq are not opened, records below it in the
        first segment are skipped with seek. With copy=False the payload is a memoryview into the
        journal's buffer, valid only until the next step of this (or any other) iterator.
        Records appended during the iteration may or may not be yielded (a littlefs handle sees
        its file as it was when opened). Raises JournalCorrupt if a record went bad since boot."""
        segs = self._segs
        start = 0
        for i in range(len(segs)):
            if segs[i][1] is not None and segs[i][1] <= from_seq:
                start = i
        h = self._rhdr
        mv = self._mv
        for i in range(start, len(segs)):
            idx = segs[i][0]
            expect = segs[i][1]
            if expect is None:
                continue  # empty segment
            if expect > self.last_seq:
                return
            f = open(self._seg_path(idx), "rb")
            try:
                while expect <= self.last_seq:
                    if f.readinto(h) != HEADER:
                        break  # end of this segment
                    ln = h[0] | (h[1] << 8)
                    seq = le32(h, 2)
                    if seq != expect or ln > self.max_payload:
                        raise JournalCorrupt("j%04d.log: seq %d, expected %d" % (idx, seq, expect))
                    if seq < from_seq:
                        f.seek(ln, 1)
                    else:
                        m = mv[:ln]
                        if f.readinto(m) != ln or _crc32(m, _crc32(self._rhdr6)) != le32(h, 6):
                            raise JournalCorrupt("j%04d.log: record %d damaged" % (idx, seq))
                        yield seq, (bytes(m) if copy else m)
                    expect += 1
            finally:
                f.close()

    # ---------------------------------------------------------------- space

    def prune(self):
        """Delete, oldest first, whole segments whose every record is <= acked. Never the last
        segment, nothing at or after damage. Returns the number of segments deleted."""
        segs = self._segs
        stop = len(segs) - 1
        if self.corrupt is not None:
            for i in range(len(segs)):
                if segs[i][0] == self.corrupt[0]:
                    stop = i
                    break
        done = 0
        while done < stop:
            nxt = None
            for j in range(done + 1, len(segs)):
                if segs[j][1] is not None:
                    nxt = segs[j][1]
                    break
            last_in_seg = (nxt - 1) if nxt is not None else self.last_seq
            if segs[done][1] is not None and last_in_seg > self.acked:
                break
            os.remove(self._seg_path(segs[done][0]))
            done += 1
        if done:
            del segs[:done]
            self._sync_dir()
        return done

    def free_bytes(self):
        """Free bytes of the filesystem under the journal (os.statvfs; littlefs counts blocks)."""
        st = os.statvfs(self.path)
        # VfsLfs2 computes f_bfree as block_count - blocks in use in uint32; littlefs's traverse
        # also counts the blocks an open file is rewriting, so on a nearly full flash the
        # subtraction wraps to ~2**32 blocks. More free blocks than blocks means none.
        if st[4] > st[2]:
            return 0
        return st[1] * st[4]

    def flash_needed(self, nbytes):
        """Estimate of free filesystem bytes needed to append `nbytes` of records (payloads plus
        HEADER each): whole blocks less littlefs's skip-list words, a partly filled last block
        per segment, and `reserve_blocks` for littlefs's copy-on-write and metadata."""
        bs = os.statvfs(self.path)[1]
        per_block = bs - 8
        blocks = (nbytes + per_block - 1) // per_block
        blocks += nbytes // self.segment_size + 1  # partly filled last block per new segment
        return (blocks + self.reserve_blocks) * bs

    def can_start_session(self, bytes_needed, prune=True):
        """True if a session appending `bytes_needed` bytes of records fits. Prunes acked
        segments first if that is needed and `prune` is set; never drops an unacked record."""
        need = self.flash_needed(bytes_needed)
        if self.free_bytes() >= need:
            return True
        if prune and self.prune():
            return self.free_bytes() >= need
        return False

    def start_session(self, bytes_needed):
        """Like can_start_session but raises JournalFull (or JournalCorrupt) with a message."""
        if self.corrupt is not None:
            raise JournalCorrupt("journal damaged at segment %d offset %d: %s" % self.corrupt)
        if not self.can_start_session(bytes_needed):
            if self.last_seq > self.acked:
                hint = "sync hands %d..%d to the host" % (self.acked + 1, self.last_seq)
            else:
                hint = "every hand is synced: other files fill the flash"
            raise JournalFull(
                "flash full: a session needs %d bytes, %d free; %s"
                % (self.flash_needed(bytes_needed), self.free_bytes(), hint)
            )
