// ISO 14443A type 2 tags (NTAG213) for the MFRC522 model: the layer-3 states (IDLE, READY,
// ACTIVE, HALT) and READ / WRITE / HLTA / GET_VERSION / COMPATIBILITY_WRITE, as
// tests/emulators/tags.py models them for the Python driver tests. Memory comes from the host
// in the project's tile-tag format (firmware/tags/tile_tag.py writes the record, the host
// encodes it). Timing in carrier cycles (fc = 13.56 MHz).
export const IDLE = 0;
export const READY1 = 1;
export const READY2 = 2;
export const ACTIVE = 3;
export const HALT = 4;
export const FDT = 1236; // frame delay of an answer at 106 kbit/s
const NTAG_WRITE_FC = Math.floor(4100 * 13.56);
// NTAG213/215/216 datasheet (NXP, rev. 3.2) §10.1 GET_VERSION, Table 28: fixed header, vendor NXP,
// product NTAG, subtype 50 pF, major/minor version, storage size (0x0F: 144 bytes of user memory,
// NTAG213), protocol ISO 14443-3.
export const NTAG213_VERSION = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0f, 0x03];
const ACK = 0x0a;
const NAK_ARG = 0x0;
const NAK_CRC = 0x1;

export function crcA(data, n = data.length) {
  let crc = 0x6363;
  for (let i = 0; i < n; i++) {
    crc ^= data[i];
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >> 1) ^ 0x8408 : crc >> 1;
  }
  return crc;
}

function withCrc(data) {
  const c = crcA(data);
  return Uint8Array.from([...data, c & 0xff, c >> 8]);
}

/** Bits start..end-1 of data (LSB first, as ISO 14443 sends them), packed from bit 0. */
function bitsFrom(data, start, end) {
  const out = new Uint8Array((end - start + 7) >> 3);
  for (let i = 0; i < end - start; i++) {
    const k = start + i;
    if ((data[k >> 3] >> (k & 7)) & 1) out[i >> 3] |= 1 << (i & 7);
  }
  return out;
}

function bcc(d) { let x = 0; for (const b of d) x ^= b; return x; }

function eq(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class Type2Tag {
  /** uid: 4 or 7 bytes; user: bytes written from page 4 on; pages: 45 (NTAG213). */
  constructor(uid, user = new Uint8Array(0), { pages = 45, name = 'tag' } = {}) {
    if (uid.length !== 4 && uid.length !== 7) throw new Error('a UID is 4 or 7 bytes');
    this.uid = Uint8Array.from(uid);
    this.name = name;
    this.pages = pages;
    this.atqa = uid.length === 7 ? [0x44, 0x00] : [0x04, 0x00];
    this.sak = 0;
    this.mem = new Uint8Array(pages * 4);
    const u = this.uid;
    if (u.length === 7) {
      this.mem.set([u[0], u[1], u[2], 0x88 ^ u[0] ^ u[1] ^ u[2]], 0);
      this.mem.set(u.subarray(3, 7), 4);
      this.mem.set([bcc(u.subarray(3, 7)), 0x48, 0, 0], 8);
    } else {
      this.mem.set(u, 0);
      this.mem.set([bcc(u), 0, 0, 0], 4);
    }
    this.mem.set([0xe1, 0x10, 0x12, 0x00], 12);
    this.mem.set(user.subarray(0, (pages - 4) * 4), 16);
    this.state = IDLE;
    this.halted = false;
    this.present = true;
    this.readOnly = false;
    this.reads = 0; // READ commands answered
    this.compatPage = -1; // COMPATIBILITY_WRITE: the page its first half ACKed, waiting for data
  }

  cascade(level) {
    const u = this.uid;
    if (u.length === 4) return level === 1 ? [u, this.sak] : null;
    if (level === 1) return [Uint8Array.from([0x88, u[0], u[1], u[2]]), 0x04];
    if (level === 2) return [u.subarray(3, 7), this.sak];
    return null;
  }

  read16(page) {
    if (page >= this.pages) return null;
    const out = new Uint8Array(16);
    for (let i = 0; i < 16; i++) out[i] = this.mem[((page + (i >> 2)) % this.pages) * 4 + (i & 3)];
    return out;
  }

  write4(page, data) {
    if (this.readOnly || page < 3 || page >= this.pages) return false;
    if (page === 3) for (let i = 0; i < 4; i++) this.mem[12 + i] |= data[i];
    else this.mem.set(data, page * 4);
    return true;
  }

  _afterError() { this.state = this.halted ? HALT : IDLE; this.compatPage = -1; }

  /** A frame from the reader -> null (silence) or [answer bytes, valid bits of last byte, delay fc]. */
  receive(f, lastBits) {
    if (!this.present) return null;
    const n = f.length;
    if (n === 1 && lastBits === 7) {
      if ((f[0] === 0x26 && this.state === IDLE) || (f[0] === 0x52 && (this.state === IDLE || this.state === HALT))) {
        this.halted = this.state === HALT;
        this.state = READY1;
        return [Uint8Array.from(this.atqa), 0, FDT];
      }
      if (this.state !== HALT) this.state = IDLE;
      return null;
    }
    const st = this.state;
    if ((st === READY1 || st === READY2) && n >= 2 && (f[0] === 0x93 || f[0] === 0x95) && f[1] !== 0x70) {
      // ANTICOLLISION (ISO 14443-3 §6.5.3): NVB gives the bytes (SEL and NVB included) and bits
      // of UID CLn that follow; a tag whose UID starts so answers the rest of UID CLn + BCC, the
      // others stay silent and READY
      const level = f[0] === 0x93 ? 1 : 2;
      const part = this.cascade(level);
      const nb = f[1] >> 4; const nbits = f[1] & 0x0f;
      if (!part || (level === 1) !== (st === READY1) || nb < 2 || nb > 6 || nbits > 7 ||
          n !== nb + (nbits ? 1 : 0) || lastBits !== nbits) { this._afterError(); return null; }
      const full = Uint8Array.from([...part[0], bcc(part[0])]);
      const known = (nb - 2) * 8 + nbits;
      for (let k = 0; k < known; k++) if (((f[2 + (k >> 3)] ^ full[k >> 3]) >> (k & 7)) & 1) return null;
      return [bitsFrom(full, known, 40), (40 - known) % 8, FDT];
    }
    if (lastBits) { this._afterError(); return null; }
    if ((st === READY1 || st === READY2) && n >= 2 && (f[0] === 0x93 || f[0] === 0x95)) {
      const level = f[0] === 0x93 ? 1 : 2;
      const part = this.cascade(level);
      if (!part || (level === 1) !== (st === READY1)) { this._afterError(); return null; }
      const [cl, sak] = part;
      if (n === 9 && f[1] === 0x70) {
        if (crcA(f, 7) !== (f[7] | (f[8] << 8)) || !eq(f.subarray(2, 6), cl) || f[6] !== bcc(cl)) {
          this._afterError();
          return null;
        }
        this.state = sak & 0x04 ? READY2 : ACTIVE;
        return [withCrc([sak]), 0, FDT];
      }
      this._afterError();
      return null;
    }
    if (st !== ACTIVE) { this._afterError(); return null; }
    if (n >= 3 && crcA(f, n - 2) !== (f[n - 2] | (f[n - 1] << 8))) {
      this._afterError();
      return [Uint8Array.from([NAK_CRC]), 4, FDT];
    }
    if (this.compatPage >= 0) {
      // COMPATIBILITY_WRITE, second half (datasheet §10.5): 16 data bytes + CRC; the first 4 go
      // to the page, the rest are ignored; ACK once the EEPROM is programmed
      const page = this.compatPage;
      this.compatPage = -1;
      if (n !== 18) { this._afterError(); return [Uint8Array.from([NAK_ARG]), 4, FDT]; }
      if (!this.write4(page, f.subarray(0, 4))) { this._afterError(); return [Uint8Array.from([NAK_ARG]), 4, FDT]; }
      return [Uint8Array.from([ACK]), 4, NTAG_WRITE_FC];
    }
    if (n === 4 && f[0] === 0x50 && f[1] === 0x00) { this.state = HALT; this.halted = true; return null; }
    if (n === 4 && f[0] === 0x30) {
      const data = this.read16(f[1]);
      if (!data) { this._afterError(); return [Uint8Array.from([NAK_ARG]), 4, FDT]; }
      this.reads++;
      return [withCrc(data), 0, FDT];
    }
    if (n === 3 && f[0] === 0x60) return [withCrc(NTAG213_VERSION), 0, FDT]; // GET_VERSION (§10.1)
    if (n === 4 && f[0] === 0xa0) {
      // COMPATIBILITY_WRITE, first half (§10.5): the address, ACKed when the page is writable
      if (this.readOnly || f[1] < 3 || f[1] >= this.pages) { this._afterError(); return [Uint8Array.from([NAK_ARG]), 4, FDT]; }
      this.compatPage = f[1];
      return [Uint8Array.from([ACK]), 4, FDT];
    }
    if (n === 8 && f[0] === 0xa2) {
      if (!this.write4(f[1], f.subarray(2, 6))) { this._afterError(); return [Uint8Array.from([NAK_ARG]), 4, FDT]; }
      return [Uint8Array.from([ACK]), 4, NTAG_WRITE_FC];
    }
    this._afterError();
    return null;
  }
}
