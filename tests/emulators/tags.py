# Virtual ISO 14443A tags for the reader emulators: the layer-3 states (IDLE, READY, ACTIVE, HALT)
# and the NFC Forum type 2 memory commands READ / WRITE / HLTA, as NTAG21x and MIFARE Ultralight
# answer them, and NTAG213's GET_VERSION and COMPATIBILITY_WRITE (NTAG213/215/216 datasheet, NXP
# rev. 3.2, §10.1 and §10.5). The MFRC522 emulator feeds them raw frames; the PN532 emulator uses the same model.
#
# Timing is in carrier cycles (1/fc, fc = 13.56 MHz), the unit of ISO 14443.

IDLE = 0
READY1 = 1
READY2 = 2
ACTIVE = 3
HALT = 4

FC_PER_US_X100 = 1356  # 13.56 cycles per microsecond
FDT = 1236  # frame delay time of a PICC answer at 106 kbit/s (ISO 14443-3, last bit 1)
NTAG_WRITE_FC = 4100 * FC_PER_US_X100 // 100  # NTAG21x EEPROM programming time before the ACK

# GET_VERSION's answer (datasheet §10.1, Table 28): header, vendor NXP, product NTAG, subtype
# 50 pF, major and minor product version, storage size 0x0F (NTAG213), protocol ISO 14443-3
NTAG213_VERSION = b"\x00\x04\x04\x02\x01\x00\x0f\x03"

ACK = 0x0A
NAK_ARG = 0x0
NAK_CRC = 0x1


def crc_a(data):
    # Bitwise ISO/IEC 14443-3 annex B form (reflected 0x1021 = 0x8408, preset 0x6363): written
    # differently from the driver's byte-wise form on purpose, so each checks the other.
    crc = 0x6363
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def with_crc(data):
    c = crc_a(data)
    return bytes(data) + bytes((c & 0xFF, c >> 8))


def bits_from(data, start, end):
    """Bits start..end-1 of data (LSB first, as ISO 14443 sends them), packed from bit 0."""
    out = bytearray((end - start + 7) // 8)
    for i in range(end - start):
        k = start + i
        if data[k >> 3] >> (k & 7) & 1:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def bcc(data):
    x = 0
    for b in data:
        x ^= b
    return x


class Type2Tag:
    """One tag in the field. Frames in, (answer bytes, valid bits of the last byte, delay) out."""

    def __init__(self, uid, pages, atqa, sak=0x00, cc=b"\xe1\x10\x12\x00", name="tag", version=None):
        assert len(uid) in (4, 7)
        self.uid = bytes(uid)
        self.name = name
        self.pages = pages
        self.atqa = bytes(atqa)  # as sent: LSB first
        self.sak = sak
        self.mem = bytearray(pages * 4)
        if len(uid) == 7:
            u = self.uid
            self.mem[0:4] = bytes((u[0], u[1], u[2], 0x88 ^ u[0] ^ u[1] ^ u[2]))
            self.mem[4:8] = u[3:7]
            self.mem[8:12] = bytes((bcc(u[3:7]), 0x48, 0, 0))
        else:
            self.mem[0:4] = self.uid
            self.mem[4:8] = bytes((bcc(self.uid), 0, 0, 0))
        self.mem[12:16] = cc
        self.state = IDLE
        self.halted = False
        self.read_only = False
        self.present = True
        self.corrupt_crc = False  # flip a bit of the CRC of every READ answer
        self.leave_after = -1  # answer this many more frames, then leave the field (-1: stay)
        self.frames_seen = 0
        self.version = version  # GET_VERSION's 8 bytes, None: the tag does not know the command
        self.compat_page = -1  # COMPATIBILITY_WRITE: the page its first half ACKed

    # -- test helpers -------------------------------------------------------------------
    def page(self, n):
        return bytes(self.mem[n * 4:n * 4 + 4])

    def write_page(self, n, data):
        self.mem[n * 4:n * 4 + 4] = data

    def enter_field(self):
        self.present = True
        self.state = IDLE
        self.halted = False
        self.compat_page = -1

    def remove(self):
        self.present = False

    def cascade(self, level):
        # (4 bytes of this cascade level, SAK at this level) or None
        u = self.uid
        if len(u) == 4:
            return (u, self.sak) if level == 1 else None
        if level == 1:
            return bytes((0x88, u[0], u[1], u[2])), 0x04  # cascade tag, "UID not complete"
        if level == 2:
            return u[3:7], self.sak
        return None

    # -- memory commands, shared with the PN532 emulator ---------------------------------
    def read16(self, page):
        if page >= self.pages:
            return None
        out = bytearray(16)
        for i in range(16):
            out[i] = self.mem[((page + i // 4) % self.pages) * 4 + i % 4]  # NTAG roll-over
        return bytes(out)

    def write4(self, page, data):
        if self.read_only or page < 3 or page >= self.pages:
            return False
        if page == 3:  # capability container: one-time programmable, bits only set
            for i in range(4):
                self.mem[12 + i] |= data[i]
        else:
            self.mem[page * 4:page * 4 + 4] = data
        return True

    # -- ISO 14443-3 A -------------------------------------------------------------------
    def _after_error(self):
        self.state = HALT if self.halted else IDLE
        self.compat_page = -1

    def receive(self, frame, last_bits):
        """frame: bytes as sent; last_bits: valid bits in the last byte (0 = 8).

        Returns None (silence) or (answer bytes, valid bits of its last byte, delay in fc)."""
        if not self.present:
            return None
        self.frames_seen += 1
        if self.leave_after == 0:
            self.present = False
            return None
        ans = self._answer(frame, last_bits)
        if ans is not None and self.leave_after > 0:
            self.leave_after -= 1
        return ans

    def _answer(self, f, last_bits):
        n = len(f)
        if n == 1 and last_bits == 7:  # short frame
            if f[0] == 0x26 and self.state == IDLE or f[0] == 0x52 and self.state in (IDLE, HALT):
                self.halted = self.state == HALT
                self.state = READY1
                return self.atqa, 0, FDT
            if self.state != HALT:
                self.state = IDLE
            return None
        st = self.state
        if st in (READY1, READY2) and n >= 2 and f[0] in (0x93, 0x95) and f[1] != 0x70:
            # ANTICOLLISION (ISO 14443-3 §6.5.3): NVB says how many bytes (high nibble, SEL and
            # NVB included) and bits of the UID CLn follow; a tag whose UID starts with those
            # bits answers with the rest of UID CLn + BCC, the others stay silent, READY
            level = 1 if f[0] == 0x93 else 2
            part = self.cascade(level)
            nb, nbits = f[1] >> 4, f[1] & 0x0F
            if part is None or (level == 1) != (st == READY1) or not 2 <= nb <= 6 or nbits > 7 \
                    or n != nb + (1 if nbits else 0) or last_bits != nbits:
                self._after_error()
                return None
            full = part[0] + bytes((bcc(part[0]),))
            known = (nb - 2) * 8 + nbits
            for k in range(known):
                if (f[2 + (k >> 3)] >> (k & 7) ^ full[k >> 3] >> (k & 7)) & 1:
                    return None
            return bits_from(full, known, 40), (40 - known) % 8, FDT
        if last_bits:
            self._after_error()
            return None
        if st in (READY1, READY2) and n >= 2 and f[0] in (0x93, 0x95):
            level = 1 if f[0] == 0x93 else 2
            part = self.cascade(level)
            if part is None or (level == 1) != (st == READY1):
                self._after_error()
                return None
            cl, sak = part
            if n == 9 and f[1] == 0x70:
                if crc_a(f[:7]) != f[7] | f[8] << 8 or f[2:6] != cl or f[6] != bcc(cl):
                    self._after_error()
                    return None
                self.state = ACTIVE if not sak & 0x04 else READY2
                return with_crc(bytes((sak,))), 0, FDT
            self._after_error()
            return None
        if st != ACTIVE:
            self._after_error()
            return None
        if n >= 3 and crc_a(f[:-2]) != f[-2] | f[-1] << 8:
            self._after_error()
            return bytes((NAK_CRC,)), 4, FDT
        if self.compat_page >= 0:
            # COMPATIBILITY_WRITE, second half (§10.5): 16 bytes + CRC, the first 4 written
            page = self.compat_page
            self.compat_page = -1
            if n != 18 or not self.write4(page, f[0:4]):
                self._after_error()
                return bytes((NAK_ARG,)), 4, FDT
            return bytes((ACK,)), 4, NTAG_WRITE_FC
        if n == 3 and f[0] == 0x60 and self.version is not None:  # GET_VERSION
            return with_crc(self.version), 0, FDT
        if n == 4 and f[0] == 0xA0:  # COMPATIBILITY_WRITE, first half: the address
            if self.read_only or f[1] < 3 or f[1] >= self.pages:
                self._after_error()
                return bytes((NAK_ARG,)), 4, FDT
            self.compat_page = f[1]
            return bytes((ACK,)), 4, FDT
        if n == 4 and f[0] == 0x50 and f[1] == 0x00:  # HLTA
            self.state = HALT
            self.halted = True
            return None
        if n == 4 and f[0] == 0x30:  # READ
            data = self.read16(f[1])
            if data is None:
                self._after_error()
                return bytes((NAK_ARG,)), 4, FDT
            out = bytearray(with_crc(data))
            if self.corrupt_crc:
                out[17] ^= 0x01
            return bytes(out), 0, FDT
        if n == 8 and f[0] == 0xA2:  # WRITE
            if not self.write4(f[1], f[2:6]):
                self._after_error()
                return bytes((NAK_ARG,)), 4, FDT
            return bytes((ACK,)), 4, NTAG_WRITE_FC
        self._after_error()
        return None


def ntag213(uid=b"\x04\x11\x22\x33\x44\x55\x66", name="ntag213"):
    # 45 pages: 0..3 UID / lock / CC, 4..39 user memory, 40..44 configuration
    return Type2Tag(uid, 45, atqa=b"\x44\x00", sak=0x00, name=name, version=NTAG213_VERSION)


def ultralight4(uid=b"\x3a\x9c\x51\xd2", name="ul4"):
    # An Ultralight-like tag with a single-size (4-byte) UID: 16 pages, user memory 4..15.
    return Type2Tag(uid, 16, atqa=b"\x04\x00", sak=0x00, cc=b"\xe1\x10\x06\x00", name=name)
