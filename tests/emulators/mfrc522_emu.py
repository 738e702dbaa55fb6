# Register-level MFRC522 emulator behind a fake SPI bus (the emulator object itself: write,
# write_readinto) and a chip-select pin. It models what a driver can observe on the bus:
#
#   SPI framing   first byte: bit7 read, bits 6..1 register, bit0 must be 0. Reads: every further
#                 MOSI byte is the next address (0x00 ends), MISO carries the previous one's value.
#                 Writes: every further byte goes to the same register (FIFO bursts).
#   FIFO          64 bytes, FIFOLevelReg with FlushBuffer, BufferOvfl on overflow
#   CommandReg    Idle, CalcCRC, Transceive, SoftReset (busy for t_d = 1024 clocks of 27.12 MHz =
#                 37.74 us, MFRC522 datasheet rev. 3.9 §8.8.2: PowerDown reads 1, a write raises;
#                 after the reset pin rises, t_startup of the crystal + t_d: xtal_startup_us)
#   BitFramingReg StartSend (write-only), TxLastBits, RxAlign; ControlReg RxLastBits
#   ComIrqReg     TxIRq, RxIRq, ErrIRq, TimerIRq with the Set1 write semantics; DivIrqReg CRCIRq
#   ErrorReg      CollErr, BufferOvfl; CollReg ValuesAfterColl / CollPos / CollPosNotValid
#   timer         TModeReg.TAuto starts it at the end of a transmission; it runs TReload ticks of
#                 (2 * TPrescaler + 1) carrier cycles and stops when an answer starts
#   RF            TxControlReg must switch the antenna on and TxASKReg force 100 % ASK, or no tag
#                 hears anything; switching the field off resets every tag
#
# Time is virtual, in carrier cycles (fc = 13.56 MHz): every bus transaction and every
# sleep_us() of the driver advance it, so the driver's waiting loop meets the timer as on a board.
#
# The path a driver takes for an empty poll allocates nothing here, so a test can measure the
# driver's own allocations on MicroPython with the emulator in the loop.
from emulators.fakepins import FakePin
from emulators.tags import FC_PER_US_X100

FC_TXN = 407  # ~30 us of interpreter and chip-select overhead per transaction
FC_BYTE = 108  # one byte at 1 MHz SCK
FC_BIT = 128  # one bit at 106 kbit/s
FC_RESET = 512  # t_d: 1024 clocks of 27.12 MHz = 37.74 us (datasheet §8.8.2), in carrier cycles

COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS1 = 0x07
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_H = 0x21
CRC_L = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

CMD_IDLE = 0x0
CMD_CALC_CRC = 0x3
CMD_TRANSCEIVE = 0xC
CMD_SOFT_RESET = 0xF

TX_IRQ = 0x40
RX_IRQ = 0x20
ERR_IRQ = 0x02
TIMER_IRQ = 0x01
COLL_ERR = 0x08
BUFFER_OVFL = 0x10

_RESET_VALUES = (
    (0x01, 0x20), (0x02, 0x80), (0x04, 0x14), (0x07, 0x21), (0x0B, 0x08), (0x0C, 0x10),
    (0x0E, 0xA0), (0x11, 0x3F), (0x14, 0x80), (0x16, 0x10), (0x17, 0x84), (0x18, 0x84),
    (0x19, 0x4D), (0x1C, 0x62), (0x1F, 0xEB), (0x21, 0xFF), (0x22, 0xFF), (0x24, 0x26),
    (0x26, 0x48), (0x27, 0x88), (0x28, 0x20), (0x29, 0x20),
)
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)


class MFRC522Emu:
    def __init__(self, tags=(), version=0x92, xtal_startup_us=0):
        self.tags = list(tags)
        self.version = version
        self.xtal_startup_fc = xtal_startup_us * FC_PER_US_X100 // 100
        self.regs = bytearray(64)
        self.fifo = bytearray(64)
        self.now = 0  # carrier cycles
        self.transactions = 0
        self.frames_sent = 0
        self.log = None  # set to a list to record (frame bytes, last bits) of every transmission
        self.cs = FakePin(1, self._cs_edge, "cs")
        self.rst = FakePin(1, self._rst_edge, "rst")
        self._mode = 0
        self._reg = 0
        self._busy_until = 0
        self._reset()

    # -- the driver's side --------------------------------------------------------------
    def sleep_us(self, us):
        self.now += us * FC_PER_US_X100 // 100

    def write(self, buf):
        self._xfer(buf, None)

    def write_readinto(self, out, inp):
        if len(out) != len(inp):
            raise ValueError("write_readinto: buffers differ in length")
        self._xfer(out, inp)

    # -- the test's side ----------------------------------------------------------------
    def reg(self, r):
        return self.regs[r]

    def add_tag(self, tag):
        self.tags.append(tag)

    def field_on(self):
        return self.regs[TX_CONTROL] & 0x03 != 0

    # -- chip ---------------------------------------------------------------------------
    def _reset(self):
        r = self.regs
        for i in range(64):
            r[i] = 0
        for a, v in _RESET_VALUES:
            r[a] = v
        r[VERSION] = self.version
        self._fifo_head = 0
        self._fifo_n = 0
        self._tx_pending = False
        self._rx_pending = False
        self._rx_data = None
        self._rx_bits = 0
        self._rx_coll = -1
        self._rx_align = 0
        self._rx_end = 0
        self._timer_on = False
        self._deadline = 0
        self._field_changed(False)

    def _cs_edge(self, v):
        if v == 0:
            self.transactions += 1
            self.now += FC_TXN
            self._mode = 0

    def _rst_edge(self, v):
        if v:
            self._reset()
            self._busy_until = self.now + self.xtal_startup_fc + FC_RESET

    def _xfer(self, out, inp):
        if self.cs._v:
            raise AssertionError("MFRC522: SPI transfer with chip select high")
        n = len(out)
        self.now += FC_BYTE * n
        if not self.rst._v:  # held in reset: the chip does not drive MISO
            if inp is not None:
                for i in range(n):
                    inp[i] = 0
            return
        self._advance()
        mode = self._mode
        reg = self._reg
        for i in range(n):
            b = out[i]
            miso = 0
            if mode == 2:
                self._write(reg, b)
            elif mode == 1:
                miso = self._read(reg)
                if b & 0x80:
                    reg = (b >> 1) & 0x3F
                else:
                    mode = 3  # 0x00 ends a read burst
            elif mode == 0:
                if b & 0x01:
                    raise AssertionError("MFRC522: address byte with bit 0 set: 0x%02x" % b)
                reg = (b >> 1) & 0x3F
                mode = 1 if b & 0x80 else 2
            if inp is not None:
                inp[i] = miso
        self._mode = mode
        self._reg = reg

    def _busy(self):
        return self.now < self._busy_until

    def _read(self, reg):
        r = self.regs
        if reg == FIFO_DATA:
            if not self._fifo_n:
                return 0
            v = self.fifo[self._fifo_head]
            self._fifo_head = (self._fifo_head + 1) & 63
            self._fifo_n -= 1
            return v
        if reg == FIFO_LEVEL:
            return self._fifo_n
        if reg == COMMAND:
            return r[COMMAND] | (0x10 if self._busy() else 0)
        if reg == BIT_FRAMING:
            return r[BIT_FRAMING] & 0x7F
        return r[reg]

    def _write(self, reg, v):
        if self._busy():
            raise AssertionError("MFRC522: register 0x%02x written during reset" % reg)
        r = self.regs
        if reg == COMMAND:
            self._command(v)
        elif reg == COM_IRQ:
            if v & 0x80:
                r[COM_IRQ] |= v & 0x7F
            else:
                r[COM_IRQ] &= 0x7F ^ (v & 0x7F)
        elif reg == DIV_IRQ:
            if v & 0x80:
                r[DIV_IRQ] |= v & 0x14
            else:
                r[DIV_IRQ] &= 0x7F ^ (v & 0x7F)
        elif reg == FIFO_DATA:
            if self._fifo_n == 64:
                r[ERROR] |= BUFFER_OVFL
            else:
                self.fifo[(self._fifo_head + self._fifo_n) & 63] = v
                self._fifo_n += 1
        elif reg == FIFO_LEVEL:
            if v & 0x80:
                self._fifo_head = 0
                self._fifo_n = 0
                r[ERROR] &= 0xFF ^ BUFFER_OVFL
        elif reg == BIT_FRAMING:
            r[BIT_FRAMING] = v & 0x7F
            if v & 0x80 and r[COMMAND] & 0x0F == CMD_TRANSCEIVE:
                self._start_send()
        elif reg == COLL:
            r[COLL] = (r[COLL] & 0x7F) | (v & 0x80)
        elif reg == TX_CONTROL:
            was = self.field_on()
            r[TX_CONTROL] = v
            self._field_changed(was)
        elif reg in (ERROR, STATUS1, CRC_H, CRC_L, VERSION):
            raise AssertionError("MFRC522: write to read-only register 0x%02x" % reg)
        else:
            r[reg] = v

    def _field_changed(self, was_on):
        if was_on and not self.field_on():
            for t in self.tags:  # unpowered tags forget their state
                t.state = 0
                t.halted = False

    def _command(self, v):
        r = self.regs
        cmd = v & 0x0F
        if cmd == CMD_SOFT_RESET:
            self._reset()
            self._busy_until = self.now + FC_RESET
            return
        if cmd == CMD_IDLE:
            self._tx_pending = False
            self._rx_pending = False
        elif cmd == CMD_CALC_CRC:
            crc = _CRC_PRESETS[r[MODE] & 0x03]
            while self._fifo_n:
                crc ^= self._read(FIFO_DATA)
                for _ in range(8):
                    crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
            r[CRC_H] = crc >> 8
            r[CRC_L] = crc & 0xFF
            r[DIV_IRQ] |= 0x04
            r[STATUS1] |= 0x20
        elif cmd != CMD_TRANSCEIVE:
            raise NotImplementedError("MFRC522 command 0x%x is not modelled" % cmd)
        r[COMMAND] = (v & 0x30) | cmd

    def _start_send(self):
        r = self.regs
        if r[TX_MODE] & 0x80 or r[RX_MODE] & 0x80:
            raise NotImplementedError("MFRC522: hardware TxCRCEn / RxCRCEn not modelled")
        n = self._fifo_n
        if not n:
            raise AssertionError("MFRC522: StartSend with an empty FIFO")
        last = r[BIT_FRAMING] & 0x07
        self._rx_align = r[BIT_FRAMING] >> 4 & 0x07
        self.frames_sent += 1
        r[ERROR] &= BUFFER_OVFL
        bits = n * 9 + 2 - ((8 - last) if last else 0)
        tx_end = self.now + bits * FC_BIT
        self._tx_pending = True
        self._tx_end = tx_end
        self._rx_pending = False
        if r[T_MODE] & 0x80:  # TAuto
            period = 2 * (((r[T_MODE] & 0x0F) << 8) | r[T_PRESCALER]) + 1
            self._deadline = tx_end + ((r[T_RELOAD_H] << 8) | r[T_RELOAD_L]) * period
            self._timer_on = True
        listening = self.field_on() and r[TX_ASK] & 0x40
        anyone = False
        for t in self.tags:
            if t.present:
                anyone = True
        if not anyone or not listening:
            self._fifo_n = 0  # transmitted; nobody heard it
            self._fifo_head = 0
            return
        frame = bytearray(n)
        for i in range(n):
            frame[i] = self._read(FIFO_DATA)
        frame = bytes(frame)
        if self.log is not None:
            self.log.append((frame, last))
        answers = []
        for t in self.tags:
            a = t.receive(frame, last)
            if a is not None:
                answers.append(a)
        if not answers:
            return
        data, rx_bits, coll = _combine(answers, not r[COLL] & 0x80)
        delay = min(a[2] for a in answers)
        nbits = len(data) * 8 - ((8 - rx_bits) if rx_bits else 0)
        start = tx_end + delay
        if self._timer_on and start + 5 * FC_BIT < self._deadline:
            self._timer_on = False  # the answer's first bits stop the timer
        self._rx_pending = True
        self._rx_end = start + (nbits + nbits // 8 + 2) * FC_BIT
        self._rx_data = data
        self._rx_bits = rx_bits
        self._rx_coll = coll

    def _advance(self):
        r = self.regs
        now = self.now
        if self._tx_pending and now >= self._tx_end:
            self._tx_pending = False
            r[COM_IRQ] |= TX_IRQ
        if self._rx_pending and now >= self._rx_end:
            self._rx_pending = False
            data = self._rx_data
            ra = self._rx_align
            if ra:
                # BitFramingReg.RxAlign: the first received bit goes to bit RxAlign of the
                # first FIFO byte (bitwise anticollision); RxLastBits and CollPos count from there
                nbits = len(data) * 8 - ((8 - self._rx_bits) if self._rx_bits else 0)
                out = bytearray((ra + nbits + 7) // 8)
                for i in range(nbits):
                    if data[i >> 3] >> (i & 7) & 1:
                        out[(ra + i) >> 3] |= 1 << ((ra + i) & 7)
                data = bytes(out)
                self._rx_bits = (ra + nbits) % 8
            for b in data:
                self._write(FIFO_DATA, b)
            r[CONTROL] = (r[CONTROL] & 0xF8) | self._rx_bits
            r[COM_IRQ] |= RX_IRQ
            if self._rx_coll >= 0:
                k = self._rx_coll + ra
                r[ERROR] |= COLL_ERR
                r[COM_IRQ] |= ERR_IRQ
                r[COLL] = (r[COLL] & 0x80) | (((k + 1) & 0x1F) if k < 32 else 0x20)
        if self._timer_on and now >= self._deadline:
            self._timer_on = False
            r[COM_IRQ] |= TIMER_IRQ


def _bit(data, k):
    return (data[k >> 3] >> (k & 7)) & 1  # ISO 14443 sends LSB first


def _nbits(a):
    return len(a[0]) * 8 - ((8 - a[1]) if a[1] else 0)


def _combine(answers, clear_after_coll):
    """What the reader demodulates from several PICCs answering at once: their common bits up to
    the first bit where they differ (or one stops), then zeros (ValuesAfterColl = 0) or the OR."""
    if len(answers) == 1:
        return answers[0][0], answers[0][1], -1
    longest = max(answers, key=_nbits)
    total = _nbits(longest)
    out = bytearray(len(longest[0]))
    coll = -1
    for k in range(total):
        ones = zeros = 0
        for a in answers:
            if k < _nbits(a):
                if _bit(a[0], k):
                    ones += 1
                else:
                    zeros += 1
            else:
                zeros += 1  # a PICC that stopped sending collides with one that goes on
        if coll < 0 and ones and zeros:
            coll = k
        if ones and not (coll >= 0 and clear_after_coll):
            out[k >> 3] |= 1 << (k & 7)
    return bytes(out), longest[1], coll
