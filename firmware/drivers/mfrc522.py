# MFRC522 (NXP) 13.56 MHz reader over SPI, for the ISO 14443A tags in the tiles: NTAG21x and
# MIFARE Ultralight (4- or 7-byte UIDs, 4-byte pages).
#
#   rdr = MFRC522(spi, cs, rst=None)   # machine.SPI: mode 0, MSB first, up to 10 MHz
#   r = rdr.poll()                      # OK, NO_TAG, MULTIPLE, LOST or ERR_*
#   if r == OK:                         # UID in rdr.uid[:rdr.uid_len]
#       r = rdr.read(4, buf16)          # pages 4..7; rdr.write(4, four_bytes); rdr.halt()
#
# The box polls several times a second for hours, so results are small ints and every buffer is
# the reader's own, made once: an empty poll allocates nothing. The byte views for each frame
# length are made on first use of that length, not per call.
#
# Waiting for an answer: every frame arms the chip's timer (TModeReg.TAuto: it starts when the
# frame has been sent, stops when an answer begins, and raises ComIrqReg.TimerIRq otherwise). A
# tag answers within the frame delay time, ~91 us after the reader's last bit (ISO 14443-3
# §6.2.1.1: (n * 128 + 84) / fc, n = 9), so the timer is 150 us (10 ms for a WRITE, whose EEPROM
# cycle takes ~4.1 ms, NTAG213 datasheet §10.4). The driver sleeps for the time the expected
# answer needs, then reads ComIrqReg at most _MAX_POLLS times, a quarter of the timeout (at least
# 100 us) apart. Reading ComIrqReg in a tight loop against a 25 ms timer, as the widespread
# community driver does, costs ~2,000 bus transactions a poll.
#
# Bus transactions per frame (each costs the Pico ~50 us of Python, more than its bytes): the
# status registers an answer needs (ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg, CollReg) are
# read in one SPI burst, as the datasheet's read sequence allows (§8.1.2.1: each MOSI byte after
# the first is the next address to read); and after an answer received whole, its FIFO read to
# the end, the chip is still in Transceive, waiting for the next StartSend (§10.3.1.8: Transceive
# "continuously repeats the transmission ... and the reception"; each transmission is started by
# BitFramingReg.StartSend), so the next frame needs neither Idle, nor the FIFO flush, nor the
# Transceive command again: 3 writes instead of 6. After a timeout, an error or a collision (the
# receiver may still be waiting, the FIFO may hold bytes) the frame starts from Idle as before.
# A halt (HLTA: success is no answer) is sent and not waited for; the next frame first lets its
# ~0.36 ms on the air end (tests/drivers/test_mfrc522.py counts the transactions).
#
# Several tags in the field (a hand swept over the reader, two tiles side by side): the select
# runs the bitwise anticollision of ISO 14443-3 §6.5.3 (the UID bits up to the first collision
# plus a 1 go back to the tags in NVB, and only the tags that match go on answering), so poll()
# selects one of them; once it is read and halted the next poll finds the next one. MULTIPLE is
# left for what cannot be told apart (a collision position the chip does not give).
#
# Start-up (MFRC522 datasheet rev. 3.9, §8.8.1-8.8.2): the reset pin low >= 100 ns, then the
# chip answers once its oscillator runs: t_d = 1024 / 27.12 MHz = 37.74 us after a soft reset,
# plus the crystal's own start-up after the reset pin. The driver polls CommandReg.PowerDown and
# VersionReg from 40 us on instead of sleeping a fixed 50 ms, as community drivers do.
#
# CRC_A (ISO 14443-3) is computed in software by default; hw_crc=True uses the chip's CRC
# coprocessor instead (7 more transactions per frame, for boards that want the CPU time back).
from firmware.compat import const, sleep_us as _sleep_us

try:  # MicroPython: a halt's frame is left to go out while the caller gets on with the tag
    from time import ticks_diff as _ticks_diff, ticks_us as _ticks_us
except ImportError:  # CPython: the next frame waits the halt's whole transmit time
    _ticks_us = None

# results
OK = const(0)
NO_TAG = const(1)  # nothing answered the request
MULTIPLE = const(2)  # answers collided: more than one tag in the field ("one tile at a time")
LOST = const(3)  # a tag answered, then went silent (lifted mid-read)
ERR_CRC = const(4)
ERR_PROTOCOL = const(5)  # wrong length, bad BCC, parity or framing error
ERR_NAK = const(6)  # the tag refused: page out of range or locked
ERR_CHIP = const(7)  # the reader itself misbehaves (no chip, bus fault)

_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CRC_H = const(0x21)
_CRC_L = const(0x22)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

_CMD_IDLE = const(0x00)
_CMD_CALC_CRC = const(0x03)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)

_RX_IRQ = const(0x20)
_ERR_IRQ = const(0x02)
_TIMER_IRQ = const(0x01)
_CHIP_ERRS = const(0xC0)  # WrErr, TempErr
_COLL_ERR = const(0x08)
_FRAME_ERRS = const(0x13)  # BufferOvfl, ParityErr, ProtocolErr

_T_PRESCALE = const(0xA9)  # 13.56 MHz / (2 * 169 + 1) = 40 kHz: 25 us per tick
_TICK_US = const(25)
_T_SHORT = const(6)  # 150 us: an answer starts ~91 us after the frame (FDT)
_T_WRITE = const(400)  # 10 ms
_MAX_POLLS = const(8)
_MIN_STEP_US = const(100)
_READY_POLLS = const(250)  # start-up: PowerDown and VersionReg read every 400 us, 100 ms at most
_READY_STEP_US = const(400)
_US_PER_BYTE = const(85)  # 9 bits (8 + parity) at 106 kbit/s
_BUF = const(20)  # address byte + 18 (READ answer with CRC) + end byte
_HLTA_US = const(400)  # HLTA with CRC on the air: 4 bytes, 38 bits of 9.44 us, and a margin
# the status burst: ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg, CollReg, end byte
_STATUS = b"\x88\x8c\x94\x98\x9c\x00"


def _setter(pin):
    # machine.Pin or any callable taking 0/1; the bound method is made once, here
    return pin.value if hasattr(pin, "value") else pin


def crc_a(buf, start, n):
    # ISO/IEC 14443-3 annex B, byte-wise; sent low byte first
    crc = 0x6363
    for i in range(start, start + n):
        b = (buf[i] ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return crc


class MFRC522:
    def __init__(self, spi, cs, rst=None, hw_crc=False, sleep_us=None):
        self._spi = spi
        self._cs = _setter(cs)
        self._rst = _setter(rst) if rst is not None else None
        self._sleep = sleep_us or _sleep_us
        # a stand-in sleep (an emulator's clock) gets no real clock: a halt is then waited out
        self._ticks = _ticks_us if sleep_us is None else None
        self._st = bytearray(len(_STATUS))
        self._armed = False  # in Transceive, the last answer received whole: StartSend is enough
        self._tx_end = None  # a halt on the air: ticks_us when it is out (True: no clock)
        self._hw_crc = hw_crc
        self._ro = bytearray(2)
        self._ri = bytearray(2)
        self._out = bytearray(_BUF)
        self._in = bytearray(_BUF)
        self._views = [None] * (_BUF + 1)
        self._rx_n = 0
        self._rx_bits = 0
        self._coll = 0  # CollReg after a collision: CollPos, or 0x20 (CollPosNotValid)
        self._cl = bytearray(5)  # UID CLn + BCC being resolved by the anticollision loop
        self._reload = -1
        self.uid = bytearray(10)
        self.uid_len = 0
        self.sak = 0
        self.atqa = 0
        self.version = 0
        self._cs(1)
        self.init()

    # -- bus -----------------------------------------------------------------------------
    def _rd(self, reg):
        o = self._ro
        o[0] = 0x80 | (reg << 1)
        o[1] = 0
        self._cs(0)
        self._spi.write_readinto(o, self._ri)
        self._cs(1)
        return self._ri[1]

    def _wr(self, reg, val):
        o = self._ro
        o[0] = reg << 1
        o[1] = val
        self._cs(0)
        self._spi.write(o)
        self._cs(1)

    def _xfer(self, n, read):
        # n bytes of _out; with read, the answer bytes land in _in
        v = self._views[n]
        if v is None:
            v = self._views[n] = (memoryview(self._out)[:n], memoryview(self._in)[:n])
        self._cs(0)
        if read:
            self._spi.write_readinto(v[0], v[1])
        else:
            self._spi.write(v[0])
        self._cs(1)

    def _fifo_write(self, n):
        # _out[1..n] into the FIFO in one burst
        self._out[0] = _FIFO_DATA << 1
        self._xfer(n + 1, False)

    def _fifo_read(self, n):
        # n FIFO bytes into _in[1..n] in one burst: the address repeated, 0x00 ends the read
        out = self._out
        for i in range(n):
            out[i] = 0x80 | (_FIFO_DATA << 1)
        out[n] = 0
        self._xfer(n + 1, True)

    # -- chip ----------------------------------------------------------------------------
    def init(self):
        if self._rst is not None:
            self._rst(0)
            self._sleep(1)  # >= 100 ns (§8.8.1)
            self._rst(1)
        else:
            self._wr(_COMMAND, _CMD_SOFT_RESET)
        self._sleep(40)  # t_d, 37.74 us (§8.8.2)
        v = 0
        for _ in range(_READY_POLLS):
            # PowerDown clears when the oscillator runs; a chip still starting (or none) may
            # not drive MISO, so VersionReg must read a version too
            if not self._rd(_COMMAND) & 0x10:
                v = self._rd(_VERSION)
                if v not in (0x00, 0xFF):
                    break
            self._sleep(_READY_STEP_US)
        if v in (0x00, 0xFF):
            raise OSError("MFRC522 not responding (VersionReg 0x%02x)" % v)
        self.version = v
        self._reload = -1
        self._armed = False
        self._tx_end = None
        self._wr(_T_MODE, 0x80)  # TAuto, prescaler high bits 0
        self._wr(_T_PRESCALER, _T_PRESCALE)
        self._wr(_TX_ASK, 0x40)  # 100 % ASK, as ISO 14443A needs
        self._wr(_MODE, 0x3D)  # CRC preset 0x6363
        self._wr(_COLL, 0x00)  # bits after a collision read as 0
        self.antenna(True)
        return v

    def antenna(self, on):
        # the field off resets every tag in it (halted ones too)
        if self._tx_end is not None:
            self._wait_tx()
        self._wr(_TX_CONTROL, 0x83 if on else 0x80)

    def _wait_tx(self):
        # a halt still on the air: Idle now would cut it off
        end = self._tx_end
        self._tx_end = None
        if end is True:
            self._sleep(_HLTA_US)
        else:
            d = _ticks_diff(end, self._ticks())
            if d > 0:
                self._sleep(d)

    def _send(self, n, last_bits, ticks, rx_align=0):
        # _out[1..n] on the air: from Idle, or with StartSend alone when the chip waits for it
        if self._tx_end is not None:
            self._wait_tx()
        if ticks != self._reload:
            self._wr(_T_RELOAD_H, ticks >> 8)
            self._wr(_T_RELOAD_L, ticks & 0xFF)
            self._reload = ticks
        armed = self._armed
        self._armed = False
        if not armed:
            self._wr(_COMMAND, _CMD_IDLE)
        self._wr(_COM_IRQ, 0x7F)  # Set1 = 0: clears every request bit
        if not armed:
            self._wr(_FIFO_LEVEL, 0x80)  # armed: the last answer was read to the end
        self._fifo_write(n)
        if not armed:
            self._wr(_COMMAND, _CMD_TRANSCEIVE)
        self._wr(_BIT_FRAMING, 0x80 | rx_align << 4 | last_bits)  # StartSend

    def _status(self):
        # ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg, CollReg into _st[1..5], one burst
        self._cs(0)
        self._spi.write_readinto(_STATUS, self._st)
        self._cs(1)
        return self._st[1]

    def _transceive(self, n, last_bits, ticks, rx_bytes, rx_align=0):
        # sends _out[1..n]; OK leaves the answer in _in[1.._rx_n]; MULTIPLE (a collision) too,
        # with CollReg in _coll
        self._send(n, last_bits, ticks, rx_align)
        self._sleep((n + rx_bytes) * _US_PER_BYTE + 100)
        step = ticks * _TICK_US >> 2
        if step < _MIN_STEP_US:
            step = _MIN_STEP_US
        irq = 0
        for _ in range(_MAX_POLLS):
            irq = self._status()
            if irq & (_RX_IRQ | _ERR_IRQ | _TIMER_IRQ):
                break
            self._sleep(step)
        if not irq & (_RX_IRQ | _ERR_IRQ):
            return NO_TAG  # TimerIRq, or polls exhausted
        st = self._st
        err = st[2]
        if err & _CHIP_ERRS:
            return ERR_CHIP
        coll = err & _COLL_ERR
        if coll:
            self._coll = st[5] & 0x3F
        if err & _FRAME_ERRS or not irq & _RX_IRQ:
            return ERR_PROTOCOL
        k = st[3] & 0x7F
        if k == 0 or k >= _BUF:
            return ERR_PROTOCOL
        # valid bits of the last byte: a 4-bit ACK / NAK, or a bitwise anticollision answer
        self._rx_bits = st[4] & 0x07 if k == 1 or rx_align else 0
        self._fifo_read(k)
        self._rx_n = k
        if coll:
            return MULTIPLE
        self._armed = True  # received whole, the FIFO read empty: Transceive waits for StartSend
        return OK

    def _crc_hw(self, n):
        # CRC_A of _out[1..n] by the coprocessor, or -1 if it does not finish
        if self._tx_end is not None:
            self._wait_tx()
        self._armed = False
        self._wr(_COMMAND, _CMD_IDLE)
        self._wr(_DIV_IRQ, 0x04)
        self._wr(_FIFO_LEVEL, 0x80)
        self._fifo_write(n)
        self._wr(_COMMAND, _CMD_CALC_CRC)
        crc = -1
        for _ in range(4):
            if self._rd(_DIV_IRQ) & 0x04:
                crc = self._rd(_CRC_L) | self._rd(_CRC_H) << 8
                break
            self._sleep(50)
        self._wr(_COMMAND, _CMD_IDLE)
        return crc

    def _crc(self, n):
        return self._crc_hw(n) if self._hw_crc else crc_a(self._out, 1, n)

    def _send_crc(self, n, ticks, rx_bytes):
        crc = self._crc(n)
        if crc < 0:
            return ERR_CHIP
        self._out[n + 1] = crc & 0xFF
        self._out[n + 2] = crc >> 8
        r = self._transceive(n + 2, 0, ticks, rx_bytes)
        return LOST if r == NO_TAG else r

    def _rx_crc_ok(self):
        k = self._rx_n - 2
        inp = self._in
        if not self._hw_crc:
            return crc_a(inp, 1, k) == inp[k + 1] | inp[k + 2] << 8
        out = self._out
        for i in range(1, k + 1):
            out[i] = inp[i]
        return self._crc_hw(k) == inp[k + 1] | inp[k + 2] << 8

    # -- ISO 14443-3 A ---------------------------------------------------------------------
    def request(self, wakeup=False):
        # REQA wakes IDLE tags; WUPA also HALTed ones. Tags of different UID sizes answer
        # different ATQAs at once: a collision there still means tags to select (ISO 14443-3
        # §6.4.2), so it is OK with the ATQA's bits as they came.
        self._out[1] = 0x52 if wakeup else 0x26
        r = self._transceive(1, 7, _T_SHORT, 2)
        if r != OK and r != MULTIPLE:
            return r
        if self._rx_n != 2:
            return ERR_PROTOCOL
        self.atqa = self._in[1] | self._in[2] << 8
        return OK

    def _anticollision(self, sel):
        # UID CLn + BCC of one tag into _cl (ISO 14443-3 §6.5.3): send the bits known so far,
        # the tags that match answer the rest; at a collision take the bits before it and a 1
        # there, and ask again. CollPos counts from bit 0 of the first FIFO byte, which RxAlign
        # puts at the known bits' place in their byte (MFRC522 datasheet §9.3.1.15, §9.3.1.14).
        out = self._out
        inp = self._in
        cl = self._cl
        for i in range(5):
            cl[i] = 0
        known = 0
        for _ in range(33):
            nb = known >> 3
            nbits = known & 7
            nsend = nb + (1 if nbits else 0)
            out[1] = sel
            out[2] = (2 + nb) << 4 | nbits
            for i in range(nsend):
                out[3 + i] = cl[i]
            r = self._transceive(2 + nsend, nbits, _T_SHORT, 5 - nb, nbits)
            if r != OK and r != MULTIPLE:
                return LOST if r == NO_TAG else r
            k = self._rx_n
            if nb + k > 5:
                return ERR_PROTOCOL
            keep = (1 << nbits) - 1  # the first byte: known bits, then the answer's
            cl[nb] = cl[nb] & keep | inp[1] & (0xFF ^ keep)
            for i in range(1, k):
                cl[nb + i] = inp[1 + i]
            if r == OK:
                if nb + k != 5 or self._rx_bits:
                    return ERR_PROTOCOL
                if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                    return ERR_PROTOCOL  # BCC
                return OK
            pos = self._coll
            if pos & 0x20:
                return MULTIPLE  # CollPosNotValid: nothing to choose by
            pos = nb * 8 + ((pos & 0x1F) or 32) - 1  # 0-based bit of UID CLn
            if pos < known or pos >= 32:
                return MULTIPLE
            cl[pos >> 3] |= 1 << (pos & 7)
            for b in range(pos + 1, 40):  # bits after a collision read as 0: not known yet
                cl[b >> 3] &= 0xFF ^ (1 << (b & 7))
            known = pos + 1
        return MULTIPLE

    def select(self):
        # anticollision + select, cascade levels 1 and 2; the UID goes to self.uid
        out = self._out
        uid = self.uid
        cl = self._cl
        self.uid_len = 0
        n = 0
        for level in range(2):
            sel = 0x93 + 2 * level
            r = self._anticollision(sel)
            if r != OK:
                return r
            inp = self._in
            out[1] = sel
            out[2] = 0x70
            for i in range(5):
                out[3 + i] = cl[i]
            for i in range(4):  # kept here: reading the answer reuses _out
                uid[n + i] = cl[i]
            r = self._send_crc(7, _T_SHORT, 3)
            if r != OK:
                return r
            if self._rx_n != 3:
                return ERR_PROTOCOL
            if not self._rx_crc_ok():
                return ERR_CRC
            sak = inp[1]
            if not sak & 0x04:
                self.uid_len = n + 4
                self.sak = sak
                return OK
            if uid[n] != 0x88:  # "UID not complete" must come with the cascade tag
                return ERR_PROTOCOL
            for i in range(3):
                uid[n + i] = uid[n + 1 + i]
            n += 3
        return ERR_PROTOCOL  # triple-size (10-byte) UIDs: not on tile tags

    def poll(self, wakeup=False):
        # request + select. A tag left READY by a failed select would take the next REQA as an
        # error and stay silent, so a failing poll ends with a REQA that sends READY and ACTIVE
        # tags back to IDLE: two tiles on the reader read MULTIPLE on every poll, not every other.
        r = self.request(wakeup)
        if r == OK:
            r = self.select()
        if r != OK and r != NO_TAG:
            self._out[1] = 0x26
            self._transceive(1, 7, _T_SHORT, 2)
        return r

    def halt(self):
        # HLTA: the tag stays silent to REQA until it leaves the field. Success is no answer, so
        # nothing is waited for: the frame goes out while the caller gets on with the tag, and
        # the next frame (or the coprocessor) lets it end first (_wait_tx).
        out = self._out
        out[1] = 0x50
        out[2] = 0x00
        crc = self._crc(2)
        if crc < 0:
            return ERR_CHIP
        out[3] = crc & 0xFF
        out[4] = crc >> 8
        self._send(4, 0, _T_SHORT)
        t = self._ticks
        self._tx_end = True if t is None else t() + _HLTA_US
        return OK

    # -- NFC Forum type 2 ------------------------------------------------------------------
    def read(self, page, dest):
        # READ: 16 bytes (4 pages from page, rolling over at the end) into dest[0..15]
        out = self._out
        out[1] = 0x30
        out[2] = page
        r = self._send_crc(2, _T_SHORT, 18)
        if r != OK:
            return r
        if self._rx_n == 1 and self._rx_bits == 4:
            return ERR_NAK
        if self._rx_n != 18:
            return ERR_PROTOCOL
        if not self._rx_crc_ok():
            return ERR_CRC
        inp = self._in
        for i in range(16):
            dest[i] = inp[1 + i]
        return OK

    def write(self, page, data):
        # WRITE: one 4-byte page; the tag ACKs once its EEPROM cycle is done
        out = self._out
        out[1] = 0xA2
        out[2] = page
        for i in range(4):
            out[3 + i] = data[i]
        r = self._send_crc(6, _T_WRITE, 1)
        if r != OK:
            return r
        if self._rx_n != 1 or self._rx_bits != 4:
            return ERR_PROTOCOL
        return OK if self._in[1] & 0x0F == 0x0A else ERR_NAK
