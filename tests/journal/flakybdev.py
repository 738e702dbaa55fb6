# A RAM block device for MicroPython's VfsLfs2 that can lose power at the K-th flash mutation.
#
# Extended block protocol (what VfsLfs2 uses): readblocks(n, buf, off), writeblocks(n, buf, off)
# programs bytes inside an already erased block, ioctl(6, n) erases block n; ioctl 1/2 init and
# deinit, 3 sync, 4 block count, 5 block size. Every prog and every erase is one "mutation"; the
# mutation numbered `cut_at` (1-based) is where the power dies:
#   torn=False  that mutation never reaches the flash
#   torn=True   half of it does: the first half of a prog's bytes, the first half of an erased block
#   torn=2      as torn=True, and the other half is left half-done: a prog's second half gets
#               pseudo-random bits still at 1 (NOR programs 1 -> 0), an erase's second half
#               random bits already at 1
# and from then on the device is dead: it changes nothing and answers every call with -EIO, so
# littlefs unwinds through its own error paths (no exception is thrown through C code) and the
# bytes stay exactly as the cut left them. "Reboot" = a new FlakyBdev over the same bytearray.
EIO = 5


class FlakyBdev:
    def __init__(self, mem=None, blocks=64, block_size=512, cut_at=0, torn=False, strict=False):
        self.bs = block_size
        self.blocks = blocks if mem is None else len(mem) // block_size
        self.mem = bytearray(b"\xff" * (blocks * block_size)) if mem is None else mem
        self.mv = memoryview(self.mem)
        self.erased = b"\xff" * block_size
        self.cut_at = cut_at  # 0: never
        self.torn = torn
        self.strict = strict  # count progs onto bytes that are not erased (NOR can't do that)
        self.dead = False
        self.ops = 0  # mutations so far: progs + erases
        self.reads = 0
        self.progs = 0
        self.erases = 0
        self.syncs = 0
        self.bad_progs = 0
        self._rnd = 12345

    def _noise(self):
        self._rnd = (self._rnd * 1103515245 + 12345) & 0x7FFFFFFF
        return (self._rnd >> 16) & 0xFF

    def _cut_now(self):
        self.ops += 1
        return self.ops == self.cut_at

    def readblocks(self, block, buf, off=0):
        if self.dead:
            return -EIO
        self.reads += 1
        a = block * self.bs + off
        buf[:] = self.mv[a : a + len(buf)]
        return 0

    def writeblocks(self, block, buf, off=None):
        if self.dead:
            return -EIO
        if off is None:  # simple protocol: whole blocks, erase implied
            for i in range(len(buf) // self.bs):
                r = self._erase(block + i)
                if r:
                    return r
            off = 0
        n = len(buf)
        a = block * self.bs + off
        if self.strict:
            m = self.mv
            for i in range(a, a + n):
                if m[i] != 0xFF:
                    self.bad_progs += 1
                    break
        self.progs += 1
        if self._cut_now():
            if self.torn:
                k = n // 2
                self.mv[a : a + k] = memoryview(buf)[:k]
                if self.torn == 2:
                    m = self.mv
                    for i in range(k, n):
                        m[a + i] = buf[i] | self._noise()
            self.dead = True
            return -EIO
        self.mv[a : a + n] = buf
        return 0

    def _erase(self, block):
        if self.dead:
            return -EIO
        a = block * self.bs
        self.erases += 1
        if self._cut_now():
            if self.torn:
                k = self.bs // 2
                self.mv[a : a + k] = memoryview(self.erased)[:k]
                if self.torn == 2:
                    m = self.mv
                    for i in range(a + k, a + self.bs):
                        m[i] |= self._noise()
            self.dead = True
            return -EIO
        self.mv[a : a + self.bs] = self.erased
        return 0

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return self.bs
        if op == 6:  # erase
            return self._erase(arg)
        if op == 3:  # sync
            if self.dead:
                return -EIO
            self.syncs += 1
            return 0
        if op in (1, 2):  # init, deinit
            return 0
        return None
