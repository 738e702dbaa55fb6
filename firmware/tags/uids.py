# The UIDs of the tags written in one tag session (firmware/tags/mode.py), so that a clone tag
# (sold with the UID of another: cheap NTAG213 clones repeat UIDs) is refused before it is
# written: two tags with one UID answer the reader's anticollision as one tag, and a UID
# registry could not tell them apart. One bytearray of 10-byte entries (UID length, 7 UID bytes,
# tile, copy), grown by a set's worth at a time: 144 tags take 1.4 KB.
_ENTRY = 10
_GROW = 144


class UidLog:
    def __init__(self):
        self.buf = bytearray(_ENTRY * _GROW)
        self.n = 0

    def find(self, uid):
        """(tile, copy) of the tag written with this UID, or None."""
        b = self.buf
        k = len(uid)
        for i in range(self.n):
            o = i * _ENTRY
            if b[o] == k:
                j = 0
                while j < k and b[o + 1 + j] == uid[j]:
                    j += 1
                if j == k:
                    return b[o + 8], b[o + 9]
        return None

    def add(self, uid, tile, copy):
        o = self.n * _ENTRY
        for i in range(self.n):  # the same tag written again with another tile: replace it
            q = i * _ENTRY
            if self.buf[q] == len(uid) and bytes(self.buf[q + 1:q + 1 + len(uid)]) == bytes(uid):
                o = q
                break
        else:
            if o + _ENTRY > len(self.buf):
                self.buf.extend(bytearray(_ENTRY * _GROW))
            self.n += 1
        b = self.buf
        b[o] = len(uid)
        for j in range(len(uid)):
            b[o + 1 + j] = uid[j]
        b[o + 8] = tile
        b[o + 9] = copy
