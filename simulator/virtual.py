"""The simulator's tag reader and tags (board_configs/sim.py; simulator/parts.py hands the reader
to firmware/board/). MicroPython code, like the rest of the simulator's board.

  VirtualReader    the reader drivers' interface (poll / read / write / halt, uid, uid_len, the
                   result codes of firmware/drivers/mfrc522.py). place(tag) lays a tag on the
                   antenna, lift(tag) takes it off. As an ISO 14443 tag does, a tag answers one
                   device at a time, and a halted tag stays silent until it leaves the field: one
                   placement is one read. Several tags in the field are read one by one, in the
                   order the driver's bitwise anticollision selects them
  VirtualTag       an NTAG213-like tag: 7- or 4-byte UID, 45 pages, optionally read-only; the
                   tile record (firmware/tags/tile_tag.py) or any bytes from page 4
  tile_set(set_id) the 144 tagged tiles of a set (34 x 4 + 8 flowers), as VirtualTags
  tile_tag_for(set_id, tile, copy), bad_tag(): single tags
"""
from firmware.drivers.mfrc522 import ERR_NAK, MULTIPLE, NO_TAG, OK
from firmware.tags.tile_tag import encode

LOST = 3  # the driver's code for a tag that left mid-read
PAGES = 45


class VirtualTag:
    def __init__(self, uid, read_only=False, name="tag"):
        self.uid = bytes(uid)
        self.mem = bytearray(PAGES * 4)
        self.mem[0:len(self.uid)] = self.uid
        self.read_only = read_only
        self.name = name
        self.halted = False

    def record(self, data):
        """The bytes from page 4 on (a tile record, or anything)."""
        self.mem[16:16 + len(data)] = data
        return self

    def holds(self, data):
        mem = self.mem
        for i in range(len(data)):
            if mem[16 + i] != data[i]:
                return False
        return True


def _cascade(uid):
    # the UID CLn of each cascade level with its BCC, as the tag sends them in anticollision
    cls = [uid] if len(uid) == 4 else [b"\x88" + uid[0:3], uid[3:7]]
    out = []
    for cl in cls:
        x = 0
        for b in cl:
            x ^= b
        out.append(bytes(cl) + bytes((x,)))
    return out


def _anticollision(tags):
    """The tag the reader driver's bitwise anticollision selects among several in the field
    (firmware/drivers/mfrc522.py: at the first bit where they differ, a 1), level by level; None
    if none can be told apart (one UID on several tags: clone tags)."""
    cands = list(tags)
    for level in range(2):
        cands = [t for t in cands if len(_cascade(t.uid)) > level]
        if not cands:
            return None
        for k in range(40):
            ones = [t for t in cands if _cascade(t.uid)[level][k >> 3] >> (k & 7) & 1]
            if ones and len(ones) < len(cands):
                cands = ones
        if len(cands) == 1:
            return cands[0]
        done = [t for t in cands if len(_cascade(t.uid)) == level + 1]
        if done:
            return done[0] if len(done) == 1 else None
    return None


class VirtualReader:
    def __init__(self):
        self.field = []  # tags on the antenna
        self.uid = bytearray(10)
        self.uid_len = 0
        self.active = None
        self.polls = 0
        self.reads = 0

    # the person at the table
    def place(self, tag):
        tag.halted = False  # a tag entering the field powers up anew
        if tag not in self.field:
            self.field.append(tag)

    def lift(self, tag=None):
        if tag is None:
            self.field = []
        elif tag in self.field:
            self.field.remove(tag)
        if self.active is not None and self.active not in self.field:
            self.active = None

    def waiting(self):
        """A tag on the antenna that the device has not halted yet."""
        for t in self.field:
            if not t.halted:
                return True
        return False

    # the driver API
    def poll(self, wakeup=False):
        self.polls += 1
        awake = [t for t in self.field if wakeup or not t.halted]
        if not awake:
            self.active = None
            return NO_TAG
        t = awake[0] if len(awake) == 1 else _anticollision(awake)
        if t is None:
            self.active = None
            return MULTIPLE
        self.active = t
        n = len(t.uid)
        self.uid[0:n] = t.uid
        self.uid_len = n
        return OK

    def read(self, page, dest):
        t = self.active
        if t is None:
            return LOST
        self.reads += 1
        for i in range(16):
            dest[i] = t.mem[((page + i // 4) % PAGES) * 4 + i % 4]
        return OK

    def write(self, page, data):
        t = self.active
        if t is None:
            return LOST
        if t.read_only or page < 4 or page >= 40:
            return ERR_NAK
        t.mem[page * 4:page * 4 + 4] = data[0:4]
        return OK

    def halt(self):
        # the device is done with this tag: silent until it leaves the field and comes back
        t = self.active
        if t is not None:
            t.halted = True
        self.active = None
        return OK


def tile_uid(tile, copy):
    return bytes((0x04, 0x53, tile, copy, 0x11, 0x22, 0x33))


def tile_tag_for(set_id, tile, copy):
    return VirtualTag(tile_uid(tile, copy), name="%d.%d" % (tile, copy)).record(encode(set_id, tile, copy))


def tile_set(set_id=1, blank=False):
    """{(tile, copy): VirtualTag} of a full set; blank=True: tags not written yet."""
    tags = {}
    for t in range(42):
        for c in range(4 if t < 34 else 1):
            tag = VirtualTag(tile_uid(t, c), name="%d.%d" % (t, c))
            if not blank:
                tag.record(encode(set_id, t, c))
            tags[t, c] = tag
    return tags


BAD_UID = b"\x04\x99\x99\x99\x01\x02\x03"
BAD_DATA = b"\x03\x0b\xd1\x01\x07\x54\x02\x65"  # an NDEF text record where a tile record would be


def bad_tag():
    """A tag that is not one of ours."""
    return VirtualTag(BAD_UID, name="bad").record(BAD_DATA)
