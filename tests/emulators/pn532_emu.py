# Frame-level PN532 emulator behind a fake I2C bus or a fake SPI bus with its chip-select pin.
#
#   frames     normal information frames 00 00 FF LEN LCS TFI PD.. DCS 00 (LEN + LCS = 0,
#              TFI + PD + DCS = 0 mod 256), ACK 00 00 FF 00 FF 00, NACK 00 00 FF FF 00 00, the
#              application error frame 00 00 FF 01 FF 7F 81 00. A host frame with a bad checksum is
#              ignored (no ACK), as the chip does; a host ACK aborts the running command.
#   I2C        address 0x24; every read starts with the status byte (bit 0: ready), then the frame
#   SPI        LSB first on the wire; first byte 0x02 status read, 0x01 data write, 0x03 data read.
#              SPI(lsb_first=False) is a bus that can only shift MSB first (RP2040): the chip then
#              sees every byte bit-reversed, unless the driver reverses them itself.
#   commands   GetFirmwareVersion, SAMConfiguration, RFConfiguration (MaxRetries),
#              InListPassiveTarget (106 kbit/s type A, MaxTg 1 or 2), InDataExchange (the tag's
#              own answer: READ / WRITE / HLTA through the ISO 14443A tag model of tags.py)
#
# Time is virtual (Clock, ns): bus transactions and the driver's sleeps advance it, and every
# answer becomes ready a realistic while after its command. MaxRetries 0xFF (the chip's default)
# with no tag in the field means InListPassiveTarget never answers, as on the chip.
from emulators.fakepins import Clock, FakePin
from emulators.tags import crc_a, with_crc

ADDR = 0x24
ACK = b"\x00\x00\xff\x00\xff\x00"
APP_ERROR = b"\x00\x00\xff\x01\xff\x7f\x81\x00"

NS_TXN = 50000  # per bus transaction
NS_BYTE = 25000  # one byte at 400 kHz I2C (SPI is charged the same: it keeps the model simple)
ACK_NS = 500000
CMD_NS = 1000000
ACTIVATION_NS = 4000000  # one passive activation attempt
EXCHANGE_NS = 3000000
WRITE_NS = 6000000

FIRMWARE = b"\x32\x01\x06\x07"  # PN532, v1.6, ISO 14443A + B + 18092


def rev8(b):
    r = 0
    for i in range(8):
        if b >> i & 1:
            r |= 0x80 >> i
    return r


def frame(data, tfi=0xD5):
    body = bytes((tfi,)) + bytes(data)
    n = len(body)
    return b"\x00\x00\xff" + bytes((n, (-n) & 0xFF)) + body + bytes(((-sum(body)) & 0xFF, 0))


def parse(buf):
    """A host frame -> (cmd, params) | "ack" | "nack" | None (bad frame)."""
    b = bytes(buf)
    i = b.find(b"\x00\xff")
    if i < 0:
        return None
    b = b[i + 2:]
    if b[:3] == b"\x00\xff\x00":
        return "ack"
    if b[:3] == b"\xff\x00\x00":
        return "nack"
    if len(b) < 4:
        return None
    n, lcs = b[0], b[1]
    if (n + lcs) & 0xFF or len(b) < n + 3:
        return None
    body = b[2:2 + n]
    if (sum(body) + b[2 + n]) & 0xFF or n < 2 or body[0] != 0xD4:
        return None
    return body[1], body[2:]


class PN532Emu:
    def __init__(self, tags=(), clock=None):
        self.tags = list(tags)
        self.clock = clock or Clock()
        self.transactions = 0
        self.commands = []  # command codes received, in order
        self.bad_frames = 0
        self.aborts = 0
        self.corrupt_next = None  # "dcs", "lcs", "tfi" or "ack": damage the next frame sent
        self.retries = 0xFF  # RFConfiguration MxRtyPassiveActivation
        self.sam_configured = False
        self._out = []  # [ready time ns, frame bytes] waiting for the host, oldest first
        self._last = None
        self._targets = []
        self.irq = IrqPin(self)

    # -- host-side objects ----------------------------------------------------------------
    def i2c(self):
        return FakeI2C(self)

    def spi(self, lsb_first=True):
        return FakeSPI(self, lsb_first)

    def sleep_us(self, us):
        self.clock.sleep_us(us)

    # -- chip ----------------------------------------------------------------------------
    def _tick(self, nbytes):
        self.transactions += 1
        self.clock.ns += NS_TXN + NS_BYTE * nbytes

    def ready(self):
        return bool(self._out) and self.clock.ns >= self._out[0][0]

    def head(self):
        return self._out[0][1] if self.ready() else None

    def consumed(self):
        self._last = self._out.pop(0)[1]

    def _damage(self, f):
        how = self.corrupt_next
        if how is None:
            return f
        self.corrupt_next = None
        f = bytearray(f)
        if how == "ack":
            f[4] ^= 0x01
        elif how == "lcs":
            f[4] ^= 0x01
        elif how == "tfi":
            f[5] = 0xD4
        else:  # dcs
            f[-2] ^= 0x5A
        return bytes(f)

    def _queue(self, delay_ns, f, ack=False):
        if ack and self.corrupt_next != "ack":
            self._out.append([self.clock.ns + delay_ns, f])
            return
        self._out.append([self.clock.ns + delay_ns, self._damage(f)])

    def host_frame(self, buf):
        p = parse(buf)
        if p is None:
            self.bad_frames += 1
            return
        if p == "ack":  # abort: drop whatever was coming
            self.aborts += 1
            self._out = []
            return
        if p == "nack":
            if self._last is not None:
                self._out.append([self.clock.ns, self._last])
            return
        cmd, params = p
        self.commands.append(cmd)
        self._out = []
        self._queue(ACK_NS, ACK, ack=True)
        r = self._execute(cmd, params)
        if r is None:
            return  # no answer (yet): InListPassiveTarget waiting forever
        delay, data = r
        f = APP_ERROR if data is None else frame(bytes((cmd + 1,)) + data)
        self._queue(ACK_NS + delay, f)

    def _execute(self, cmd, p):
        if cmd == 0x02:
            return CMD_NS, FIRMWARE
        if cmd == 0x14:
            if len(p) < 1 or p[0] != 0x01:
                return CMD_NS, None
            self.sam_configured = True
            return CMD_NS, b""
        if cmd == 0x32:
            if len(p) == 4 and p[0] == 0x05:
                self.retries = p[3]
            return CMD_NS, b""
        if cmd == 0x4A:
            return self._in_list(p)
        if cmd == 0x40:
            return self._exchange(p)
        return CMD_NS, None

    def _activate(self, tag):
        # REQA, then anticollision + select per cascade level, through the tag's own state machine
        if tag.receive(b"\x26", 7) is None:
            return None
        uid = b""
        for sel in (0x93, 0x95):
            a = tag.receive(bytes((sel, 0x20)), 0)
            if a is None:
                return None
            cl = a[0][:5]
            s = tag.receive(with_crc(bytes((sel, 0x70)) + cl), 0)
            if s is None:
                return None
            sak = s[0][0]
            if sak & 0x04:
                uid += cl[1:4]
            else:
                return uid + cl[:4], sak
        return None

    def _in_list(self, p):
        if not self.sam_configured or len(p) < 2 or p[1] != 0x00 or p[0] not in (1, 2):
            return CMD_NS, None
        attempts = self.retries + 1
        present = [t for t in self.tags if t.present]
        if not present and self.retries == 0xFF:
            return None
        found = []
        tries = 0
        while tries < attempts and not found:
            tries += 1
            for t in present:
                if len(found) < p[0]:
                    r = self._activate(t)
                    if r is not None:
                        found.append((t, r))
        self._targets = [t for t, _ in found]
        out = bytearray((len(found),))
        for i, (t, (uid, sak)) in enumerate(found):
            out += bytes((i + 1, t.atqa[1], t.atqa[0], sak, len(uid))) + uid
        return tries * ACTIVATION_NS, bytes(out)

    def _exchange(self, p):
        if len(p) < 2 or not 1 <= p[0] <= len(self._targets):
            return CMD_NS, b"\x27"  # command not acceptable in this context
        tag = self._targets[p[0] - 1]
        data = bytes(p[1:])
        ans = tag.receive(with_crc(data), 0)
        delay = WRITE_NS if data[0] == 0xA2 else EXCHANGE_NS
        if ans is None:
            return delay, b"\x01"  # timeout: no answer from the target
        a, bits, _ = ans
        if bits == 4:
            return delay, b"\x00" if a[0] == 0x0A else b"\x00" + bytes((a[0],))
        if len(a) < 3 or crc_a(a[:-2]) != a[-2] | a[-1] << 8:
            return delay, b"\x02"  # CRC error
        return delay, b"\x00" + a[:-2]


class IrqPin:
    """The chip's IRQ output: low while a frame is ready for the host."""

    def __init__(self, emu):
        self.emu = emu

    def value(self, v=None):
        return 0 if self.emu.ready() else 1

    def __call__(self, v=None):
        return self.value(v)


class FakeI2C:
    def __init__(self, emu, addr=ADDR):
        self.emu = emu
        self.addr = addr

    def _check(self, addr):
        if addr != self.addr:
            raise OSError(19)  # ENODEV, as machine.I2C reports a missing device

    def writeto(self, addr, buf, stop=True):
        self._check(addr)
        self.emu._tick(len(buf) + 1)
        self.emu.host_frame(buf)
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        self._check(addr)
        emu = self.emu
        emu._tick(len(buf) + 1)
        f = emu.head()
        if f is None:
            for i in range(len(buf)):
                buf[i] = 0
            return
        buf[0] = 0x01
        for i in range(1, len(buf)):
            buf[i] = f[i - 1] if i - 1 < len(f) else 0
        if len(buf) - 1 >= len(f):
            emu.consumed()


class FakeSPI:
    """The SPI bus plus the PN532's chip select (self.cs)."""

    def __init__(self, emu, lsb_first=True):
        self.emu = emu
        self.lsb_first = lsb_first
        self.cs = FakePin(1, self._cs_edge, "cs")
        self._mode = None
        self._pos = 0
        self._wr = bytearray()

    def _cs_edge(self, v):
        if v == 0:
            self.emu._tick(0)
            self._mode = None
            self._pos = 0
            self._wr = bytearray()
        elif self._mode == 0x01:
            self.emu.host_frame(self._wr)
        elif self._mode == 0x03 and self._frame is not None and self._pos >= len(self._frame):
            self.emu.consumed()

    def _wire(self, b):
        return b if self.lsb_first else rev8(b)

    def write(self, buf):
        self._xfer(buf, None)

    def write_readinto(self, out, inp):
        if len(out) != len(inp):
            raise ValueError("write_readinto: buffers differ in length")
        self._xfer(out, inp)

    def _xfer(self, out, inp):
        if self.cs._v:
            raise AssertionError("PN532: SPI transfer with chip select high")
        self.emu.clock.ns += NS_BYTE * len(out)
        for i in range(len(out)):
            b = self._wire(out[i])
            r = 0
            if self._mode is None:
                self._mode = b
                self._frame = self.emu.head() if b == 0x03 else None
            elif self._mode == 0x02:
                r = 0x01 if self.emu.ready() else 0x00
            elif self._mode == 0x01:
                self._wr.append(b)
            elif self._mode == 0x03:
                f = self._frame
                r = f[self._pos] if f is not None and self._pos < len(f) else 0
                self._pos += 1
            if inp is not None:
                inp[i] = self._wire(r)
