# PN532 (NXP) NFC controller over I2C or SPI, for the ISO 14443A tags in the tiles (NTAG21x,
# MIFARE Ultralight): the same job as mfrc522.py, with the same result codes.
#
#   nfc = PN532(PN532_I2C(i2c))            # or PN532(PN532_SPI(spi, cs)); irq=pin optional
#   r = nfc.poll()                          # OK, NO_TAG, MULTIPLE, LOST or ERR_*
#   if r == OK:                             # UID in nfc.uid[:nfc.uid_len]
#       r = nfc.read(4, buf16)              # nfc.write(4, four_bytes); nfc.halt()
#
# The host talks in frames: 00 00 FF LEN LCS TFI PD.. DCS 00, LEN + LCS = 0 and
# TFI + PD.. + DCS = 0 (mod 256); the chip ACKs each command, then answers when done. Every wait
# for the chip's ready status is bounded (a number of polls with sleeps in between, or the IRQ
# pin), and a command that does not finish is aborted with an ACK so the next one is heard.
# The chip's default MaxRetries would make InListPassiveTarget wait forever for a tag: init()
# sets one retry, so an empty poll ends with "no target".
#
# A frame with a bad checksum from the chip is ERR_FRAME, never an exception. Frames are built
# and parsed in the driver's own buffers: polling allocates nothing once each transfer length
# has been used (the transports make their byte views on first use of a length).
from firmware.compat import const, sleep_us as _sleep_us

# results: 0..7 as in mfrc522.py
OK = const(0)
NO_TAG = const(1)
MULTIPLE = const(2)
LOST = const(3)
ERR_CRC = const(4)
ERR_PROTOCOL = const(5)
ERR_NAK = const(6)
ERR_CHIP = const(7)  # no ACK or no answer in time
ERR_FRAME = const(8)  # a frame from the chip failed its checks (checksum, TFI, command)
_TIMEOUT = const(9)  # ACKed, but no answer in time: aborted

_I2C_ADDR = const(0x24)
_HOST = const(0xD4)
_CHIP = const(0xD5)
_GET_FIRMWARE_VERSION = const(0x02)
_SAM_CONFIGURATION = const(0x14)
_RF_CONFIGURATION = const(0x32)
_IN_DATA_EXCHANGE = const(0x40)
_IN_LIST_PASSIVE_TARGET = const(0x4A)

_TX = const(24)  # transport byte + frame with up to 15 parameters
_RX = const(48)  # status byte + a frame with two 10-byte-UID targets (31 data bytes) + slack
_P = const(8)  # first parameter byte in _tx
_STEP_US = const(1000)
_ACK_MS = const(10)
_CMD_MS = const(20)
_LIST_MS = const(60)  # two activation attempts without a tag, with margin
_WRITE_MS = const(40)


def _setter(pin):
    return pin.value if hasattr(pin, "value") else pin


class PN532_I2C:
    """i2c: machine.I2C (<= 400 kHz). Reads start with the chip's status byte."""

    def __init__(self, i2c, addr=_I2C_ADDR):
        self._i2c = i2c
        self._addr = addr
        self._st = bytearray(1)
        self._tv = [None] * (_TX + 1)
        self._rv = [None] * (_RX + 1)

    def bind(self, tx, rx):
        self._tx = tx
        self._rx = rx

    def send(self, n):
        # the frame is tx[1..n]
        v = self._tv[n]
        if v is None:
            v = self._tv[n] = memoryview(self._tx)[1:1 + n]
        self._i2c.writeto(self._addr, v)

    def ready(self):
        self._i2c.readfrom_into(self._addr, self._st)
        return self._st[0] & 1

    def recv(self, n):
        # n frame bytes into rx[1..n]; rx[0] is the status byte
        v = self._rv[n]
        if v is None:
            v = self._rv[n] = memoryview(self._rx)[:1 + n]
        self._i2c.readfrom_into(self._addr, v)
        return self._rx[0] & 1


class PN532_SPI:
    """spi: machine.SPI mode 0, <= 5 MHz. The PN532 shifts LSB first: with firstbit=SPI.LSB pass
    reverse=False; on MSB-only hardware (RP2040) pass reverse=True and the bytes are bit-reversed
    in software."""

    def __init__(self, spi, cs, reverse=False):
        self._spi = spi
        self._cs = _setter(cs)
        self._rev = _rev_table() if reverse else None
        self._st_out = bytearray(2)
        self._st_in = bytearray(2)
        self._dr = bytearray(_RX)
        self._tv = [None] * (_TX + 1)
        self._rv = [None] * (_RX + 1)
        self._cs(1)

    def bind(self, tx, rx):
        self._tx = tx
        self._rx = rx
        self._dr[0] = self._wire(0x03)
        self._st_out[0] = self._wire(0x02)

    def _wire(self, b):
        return self._rev[b] if self._rev is not None else b

    def _reverse(self, buf, n):
        t = self._rev
        if t is not None:
            for i in range(n):
                buf[i] = t[buf[i]]

    def send(self, n):
        tx = self._tx
        tx[0] = 0x01  # data write
        self._reverse(tx, n + 1)
        v = self._tv[n]
        if v is None:
            v = self._tv[n] = memoryview(tx)[:1 + n]
        self._cs(0)
        self._spi.write(v)
        self._cs(1)

    def ready(self):
        self._cs(0)
        self._spi.write_readinto(self._st_out, self._st_in)
        self._cs(1)
        return self._wire(self._st_in[1]) & 1

    def recv(self, n):
        v = self._rv[n]
        if v is None:
            v = self._rv[n] = (memoryview(self._dr)[:1 + n], memoryview(self._rx)[:1 + n])
        self._cs(0)
        self._spi.write_readinto(v[0], v[1])
        self._cs(1)
        self._reverse(self._rx, n + 1)
        return 1


def _rev_table():
    t = bytearray(256)
    for b in range(256):
        r = 0
        for i in range(8):
            if b >> i & 1:
                r |= 0x80 >> i
        t[b] = r
    return bytes(t)


class PN532:
    def __init__(self, transport, irq=None, sleep_us=None):
        self._t = transport
        self._irq = _setter(irq) if irq is not None else None
        self._sleep = sleep_us or _sleep_us
        self._tx = bytearray(_TX)
        self._rx = bytearray(_RX)
        transport.bind(self._tx, self._rx)
        self._d = 0  # answer data: _rx[_d .. _d + _dn)
        self._dn = 0
        self.uid = bytearray(10)
        self.uid_len = 0
        self.sak = 0
        self.atqa = 0
        self.status = 0  # last InDataExchange status byte (PN532 user manual, table 4)
        self.firmware = None
        self.init()

    def init(self):
        r = ERR_CHIP
        for _ in range(2):  # the first frame can be lost while the chip wakes up
            r = self._call(_GET_FIRMWARE_VERSION, 0, 4, _CMD_MS)
            if r == OK:
                break
        if r != OK or self._dn != 4:
            raise OSError("PN532 not answering (result %d)" % r)
        rx = self._rx
        d = self._d
        self.firmware = (rx[d], rx[d + 1], rx[d + 2], rx[d + 3])
        tx = self._tx
        tx[_P] = 0x01  # SAM normal mode: no secure module in the way
        tx[_P + 1] = 0x14  # virtual card timeout 20 x 50 ms (unused in normal mode)
        tx[_P + 2] = 0x01  # drive the IRQ pin
        r = self._call(_SAM_CONFIGURATION, 3, 0, _CMD_MS)
        if r == OK:
            tx[_P] = 0x05  # MaxRetries: ATR, PSL, passive activation (0xFF: forever)
            tx[_P + 1] = 0xFF
            tx[_P + 2] = 0x01
            tx[_P + 3] = 0x01
            r = self._call(_RF_CONFIGURATION, 4, 0, _CMD_MS)
        if r != OK:
            raise OSError("PN532 configuration failed (result %d)" % r)
        return self.firmware

    # -- frames --------------------------------------------------------------------------
    def _wait(self, ms):
        for _ in range(ms * 1000 // _STEP_US + 1):
            if self._irq is not None:
                if not self._irq():
                    return True
            elif self._t.ready():
                return True
            self._sleep(_STEP_US)
        return False

    def _send(self, cmd, n):
        # frame of cmd with the n parameters at _tx[_P..] into _tx[1..]
        tx = self._tx
        tx[1] = 0x00
        tx[2] = 0x00
        tx[3] = 0xFF
        ln = n + 2
        tx[4] = ln
        tx[5] = -ln & 0xFF
        tx[6] = _HOST
        tx[7] = cmd
        s = _HOST + cmd
        for i in range(_P, _P + n):
            s += tx[i]
        tx[_P + n] = -s & 0xFF
        tx[_P + n + 1] = 0x00
        self._t.send(n + 9)

    def _abort(self):
        # a host ACK makes the chip drop the running command
        tx = self._tx
        tx[1] = tx[2] = 0x00
        tx[3] = 0xFF
        tx[4] = 0x00
        tx[5] = 0xFF
        tx[6] = 0x00
        self._t.send(6)

    def _call(self, cmd, n, rsp_max, ms):
        # OK leaves the answer's data (after the command byte) at _rx[_d .. _d + _dn)
        try:
            self._send(cmd, n)
            if not self._wait(_ACK_MS):
                return ERR_CHIP
            self._t.recv(6)
            rx = self._rx
            if rx[1] or rx[2] or rx[3] != 0xFF or rx[4] or rx[5] != 0xFF or rx[6]:
                self._abort()
                return ERR_FRAME
            if not self._wait(ms):
                self._abort()
                return _TIMEOUT
            if not self._t.recv(rsp_max + 9):
                return ERR_CHIP
        except OSError:  # I2C NACK or bus fault: an answer, not a crash
            return ERR_CHIP
        return self._parse(cmd, rsp_max + 10)

    def _parse(self, cmd, end):
        rx = self._rx
        i = 1
        while i < 4 and rx[i] == 0x00 and rx[i + 1] != 0xFF:  # optional extra preamble
            i += 1
        if rx[i] != 0x00 or rx[i + 1] != 0xFF:
            return ERR_FRAME
        ln = rx[i + 2]
        if (ln + rx[i + 3]) & 0xFF:
            return ERR_FRAME
        b = i + 4
        if ln == 1 and rx[b] == 0x7F:
            return ERR_PROTOCOL  # application error frame: the chip refused the command
        if ln < 2 or b + ln >= end or rx[b] != _CHIP or rx[b + 1] != cmd + 1:
            return ERR_FRAME
        s = 0
        for k in range(b, b + ln + 1):
            s += rx[k]
        if s & 0xFF:
            return ERR_FRAME
        self._d = b + 2
        self._dn = ln - 2
        return OK

    # -- tags ----------------------------------------------------------------------------
    def poll(self):
        # InListPassiveTarget at 106 kbit/s type A for up to two targets: two means two tiles
        tx = self._tx
        tx[_P] = 2
        tx[_P + 1] = 0x00
        self.uid_len = 0
        r = self._call(_IN_LIST_PASSIVE_TARGET, 2, 31, _LIST_MS)
        if r == _TIMEOUT:
            return NO_TAG  # aborted: the chip was still looking
        if r != OK:
            return r
        rx = self._rx
        d = self._d
        nb = rx[d]
        if nb == 0:
            return NO_TAG
        if nb > 1:
            return MULTIPLE
        ln = rx[d + 5]
        if self._dn < 6 + ln or ln not in (4, 7, 10):
            return ERR_PROTOCOL
        self.atqa = rx[d + 2] << 8 | rx[d + 3]
        self.sak = rx[d + 4]
        for i in range(ln):
            self.uid[i] = rx[d + 6 + i]
        self.uid_len = ln
        return OK

    def _exchange(self, n, rsp_max, ms):
        # InDataExchange with target 1; data already at _tx[_P + 1..]
        self._tx[_P] = 1
        r = self._call(_IN_DATA_EXCHANGE, n + 1, rsp_max + 1, ms)
        if r == _TIMEOUT:
            return LOST
        if r != OK:
            return r
        if self._dn < 1:
            return ERR_FRAME
        st = self._rx[self._d] & 0x3F  # bits 6, 7: NAD / more-information flags
        self.status = st
        if st == 0:
            return OK
        if st in (0x01, 0x29, 0x2B):  # timeout, target released, card disappeared
            return LOST
        if st == 0x02:
            return ERR_CRC
        return ERR_PROTOCOL

    def read(self, page, dest):
        tx = self._tx
        tx[_P + 1] = 0x30
        tx[_P + 2] = page
        r = self._exchange(2, 16, _CMD_MS)
        if r != OK:
            return r
        if self._dn == 2:
            return ERR_NAK  # a 4-bit NAK passed through as data
        if self._dn != 17:
            return ERR_PROTOCOL
        rx = self._rx
        d = self._d + 1
        for i in range(16):
            dest[i] = rx[d + i]
        return OK

    def write(self, page, data):
        tx = self._tx
        tx[_P + 1] = 0xA2
        tx[_P + 2] = page
        for i in range(4):
            tx[_P + 3 + i] = data[i]
        r = self._exchange(6, 1, _WRITE_MS)
        if r != OK:
            return r
        if self._dn == 1 or self._dn == 2 and self._rx[self._d + 1] & 0x0F == 0x0A:
            return OK
        return ERR_NAK

    def halt(self):
        # HLTA has no answer, so the chip reports a timeout: that is the success
        tx = self._tx
        tx[_P + 1] = 0x50
        tx[_P + 2] = 0x00
        r = self._exchange(2, 0, _CMD_MS)
        return OK if r == LOST else (ERR_PROTOCOL if r == OK else r)

    def firmware_version(self):
        r = self._call(_GET_FIRMWARE_VERSION, 0, 4, _CMD_MS)
        if r != OK or self._dn != 4:
            return None
        rx = self._rx
        d = self._d
        return (rx[d], rx[d + 1], rx[d + 2], rx[d + 3])
