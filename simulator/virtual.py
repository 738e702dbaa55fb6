"""Virtual hardware of the simulator board (board_configs/sim.py), with the interfaces of the
real ones as firmware/board.py hands them to firmware/main.py:

  VirtualKeypad    poll() -> key name or None; press(key) queues a key
  VirtualReader    the reader drivers' API (poll / read / write / halt, uid, uid_len, result
                   codes of firmware/drivers/mfrc522.py); tap(tag) lays a tag on the antenna,
                   where it stays until the device has read and halted it (the tile is lifted)
  VirtualTag       an NTAG213-like tag: 7-byte UID, 45 pages, optionally read-only
  VirtualDisplay   128x64 (or 320x240) frame buffer drawn by firmware/render.py; on_show(model,
                   scroll, display) is called after each show()
  tile_set(set_id) the 144 tagged tiles of a set (34 x 4 + 8 flowers), as VirtualTags
"""
from firmware.drivers.mfrc522 import ERR_NAK, MULTIPLE, NO_TAG, OK
from firmware.render import Renderer, load_font
from firmware.tile_tag import encode
from simulator import framebuf_compat as framebuf


class VirtualKeypad:
    def __init__(self, keymap="123A456B789C*0#D"):
        self.keymap = keymap
        self.queue = []

    def press(self, key):
        if key not in self.keymap:
            raise ValueError("no key %r on the keypad" % key)
        self.queue.append(key)

    def poll(self):
        return self.queue.pop(0) if self.queue else None


class VirtualTag:
    def __init__(self, uid, read_only=False, name="tag"):
        self.uid = bytes(uid)
        self.mem = bytearray(45 * 4)
        self.mem[0:len(self.uid)] = self.uid
        self.read_only = read_only
        self.name = name
        self.halted = False

    def record(self, data):
        self.mem[16:16 + len(data)] = data
        return self


class VirtualReader:
    def __init__(self):
        self.field = []  # tags on the antenna
        self.uid = bytearray(10)
        self.uid_len = 0
        self.active = None
        self.polls = 0
        self.reads = 0

    # the person at the table
    def tap(self, tag):
        tag.halted = False
        if tag not in self.field:
            self.field.append(tag)

    def lift(self, tag=None):
        if tag is None:
            self.field = []
        elif tag in self.field:
            self.field.remove(tag)

    # the driver API
    def poll(self, wakeup=False):
        self.polls += 1
        awake = [t for t in self.field if wakeup or not t.halted]
        if not awake:
            self.active = None
            return NO_TAG
        if len(awake) > 1:
            self.active = None
            return MULTIPLE
        t = awake[0]
        self.active = t
        n = len(t.uid)
        self.uid[0:n] = t.uid
        self.uid_len = n
        return OK

    def read(self, page, dest):
        t = self.active
        if t is None:
            return 3  # LOST
        self.reads += 1
        for i in range(16):
            dest[i] = t.mem[((page + i // 4) % 45) * 4 + i % 4]
        return OK

    def write(self, page, data):
        t = self.active
        if t is None:
            return 3
        if t.read_only or page < 4 or page >= 40:
            return ERR_NAK
        t.mem[page * 4:page * 4 + 4] = data[0:4]
        return OK

    def halt(self):
        # the device is done with this tag: it stays silent, and the simulated hand lifts it
        t = self.active
        if t is not None:
            t.halted = True
            self.lift(t)
        self.active = None
        return OK


def tile_uid(tile, copy):
    return bytes((0x04, 0x53, tile, copy, 0x11, 0x22, 0x33))


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


def bad_tag():
    """A tag that is not one of ours: an NDEF text record where a tile record would be."""
    return VirtualTag(b"\x04\x99\x99\x99\x01\x02\x03", name="bad").record(b"\x03\x0b\xd1\x01\x07\x54\x02\x65")


class VirtualDisplay:
    def __init__(self, width=128, height=64, color=False, font=12, on_show=None):
        self.width = width
        self.height = height
        self.color = color
        self.r = Renderer(width, height, color=color, font=load_font(font))
        self.rows = self.r.rows
        if color:
            self.buf = bytearray(width * height * 2)
            self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.RGB565)
        else:
            self.buf = bytearray(width * height // 8)
            self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self.on_show = on_show
        self.model = None
        self.scroll = 0
        self.shows = 0

    def show(self, model, scroll=0):
        used = self.r.draw(self.fb, model, scroll)
        self.model = model
        self.scroll = used
        self.shows += 1
        if self.on_show is not None:
            self.on_show(model, used, self)
        return used
