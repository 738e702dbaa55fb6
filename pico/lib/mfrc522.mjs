// An MFRC522 on the chip's SPI with its chip-select and reset GPIOs: the register-level model of
// tests/emulators/mfrc522_emu.py (SPI framing, 64-byte FIFO, Idle / CalcCRC / Transceive /
// SoftReset, bit framing, IRQ registers with Set1 semantics, the TAuto timer, collisions between
// several tags, the antenna and 100 % ASK), timed by the chip's own clock in carrier cycles.
//
// Reset (MFRC522 datasheet, NXP rev. 3.9, §8.8.1 Reset timing requirements, §8.8.2 Oscillator
// start-up time): after a SoftReset command the oscillator keeps running and the chip cannot be
// addressed for t_d = 1024 clocks of 27.12 MHz = 37.74 us (512 carrier cycles); PowerDown in
// CommandReg reads 1 meanwhile, writes are lost. Leaving hard power-down (NRSTPD rising, after
// >= 100 ns low) restarts the oscillator: t_osc = t_startup + t_d, t_startup being the crystal
// maker's figure, not the MFRC522's (XTAL_STARTUP_FC; community drivers that run on real boards
// write their first registers within ~100 us of NRSTPD rising, so the model takes it as 0 unless
// a board says otherwise).
//
// Bus time: rp2040js completes SPI bytes at once; here each byte takes 8 SCK periods of the SPI
// block's own clock (the board's 4 MHz: 2 us; the MFRC522 takes up to 10 Mbit/s, §8.1.2).
import { Type2Tag } from './tags.mjs';

const FC_PER_NS = 13.56e-3;
const FC_BIT = 128;
export const FC_RESET = 512; // t_d: 1024 clocks of 27.12 MHz = 37.74 us (§8.8.2)

const COMMAND = 0x01; const COM_IRQ = 0x04; const DIV_IRQ = 0x05; const ERROR = 0x06;
const STATUS1 = 0x07; const FIFO_DATA = 0x09; const FIFO_LEVEL = 0x0a; const CONTROL = 0x0c;
const BIT_FRAMING = 0x0d; const COLL = 0x0e; const MODE = 0x11; const TX_MODE = 0x12;
const RX_MODE = 0x13; const TX_CONTROL = 0x14; const TX_ASK = 0x15; const CRC_H = 0x21;
const CRC_L = 0x22; const T_MODE = 0x2a; const T_PRESCALER = 0x2b; const T_RELOAD_H = 0x2c;
const T_RELOAD_L = 0x2d; const VERSION = 0x37;
const CMD_IDLE = 0x0; const CMD_CALC_CRC = 0x3; const CMD_TRANSCEIVE = 0xc; const CMD_SOFT_RESET = 0xf;
const TX_IRQ = 0x40; const RX_IRQ = 0x20; const ERR_IRQ = 0x02; const TIMER_IRQ = 0x01;
const COLL_ERR = 0x08; const BUFFER_OVFL = 0x10;
const RESET_VALUES = [
  [0x01, 0x20], [0x02, 0x80], [0x04, 0x14], [0x07, 0x21], [0x0b, 0x08], [0x0c, 0x10],
  [0x0e, 0xa0], [0x11, 0x3f], [0x14, 0x80], [0x16, 0x10], [0x17, 0x84], [0x18, 0x84],
  [0x19, 0x4d], [0x1c, 0x62], [0x1f, 0xeb], [0x21, 0xff], [0x22, 0xff], [0x24, 0x26],
  [0x26, 0x48], [0x27, 0x88], [0x28, 0x20], [0x29, 0x20],
];
const CRC_PRESETS = [0x0000, 0x6363, 0xa671, 0xffff];

export class MFRC522 {
  /** timed: SPI bytes take their bus time (the chip's "cycles" mode); xtalStartupFc: t_startup. */
  constructor(mcu, spi, csPin, rstPin, { version = 0x92, timed = true, xtalStartupFc = 0 } = {}) {
    this.mcu = mcu;
    this.version = version;
    this.xtalStartupFc = xtalStartupFc;
    this.writesLost = 0; // register writes while the chip could not be addressed
    this.tags = [];
    this.regs = new Uint8Array(64);
    this.fifo = new Uint8Array(64);
    this.frames = 0;
    this.errors = [];
    this.mode = 0;
    this.reg = 0;
    this.busyUntil = 0;
    this.cs = true;
    this.rst = true;
    this._reset();
    const cs = mcu.gpio[csPin];
    cs.addListener(() => {
      const low = cs.value === 0; // GPIOPinState.Low
      if (low && this.cs) this.mode = 0;
      this.cs = !low;
    });
    if (rstPin != null) {
      const rst = mcu.gpio[rstPin];
      rst.addListener(() => {
        const high = rst.value !== 0;
        if (high && !this.rst) { this._reset(); this.busyUntil = this.now() + this.xtalStartupFc + FC_RESET; }
        this.rst = high;
      });
    }
    if (timed) {
      let miso = 0;
      const alarm = mcu.clock.createAlarm(() => spi.completeTransmit(miso));
      spi.onTransmit = (v) => {
        miso = this._byte(v);
        const hz = spi.clockFrequency;
        if (hz > 0) alarm.schedule(8e9 / hz); else spi.completeTransmit(miso);
      };
    } else spi.onTransmit = (v) => spi.completeTransmit(this._byte(v));
  }

  now() { return this.mcu.clock.nanos * FC_PER_NS; }

  place(tag) { tag.present = true; tag.state = 0; tag.halted = false; tag.compatPage = -1; if (!this.tags.includes(tag)) this.tags.push(tag); }
  lift(tag) { tag.present = false; this.tags = this.tags.filter((t) => t !== tag); }
  liftAll() { for (const t of this.tags) t.present = false; this.tags = []; }
  fieldOn() { return (this.regs[TX_CONTROL] & 0x03) !== 0; }

  _reset() {
    const r = this.regs;
    r.fill(0);
    for (const [a, v] of RESET_VALUES) r[a] = v;
    r[VERSION] = this.version;
    this.fifoHead = 0; this.fifoN = 0;
    this.txPending = false; this.rxPending = false; this.rxData = null;
    this.rxBits = 0; this.rxColl = -1; this.rxEnd = 0; this.txEnd = 0; this.rxAlign = 0;
    this.timerOn = false; this.deadline = 0;
    for (const t of this.tags) { t.state = 0; t.halted = false; }
  }

  _byte(b) {
    if (this.cs || !this.rst) return 0; // not selected, or held in reset: MISO not driven
    this._advance();
    let miso = 0;
    if (this.mode === 2) this._write(this.reg, b);
    else if (this.mode === 1) {
      miso = this._read(this.reg);
      if (b & 0x80) this.reg = (b >> 1) & 0x3f; else this.mode = 3;
    } else if (this.mode === 0) {
      if (b & 1) this.errors.push(`address byte with bit 0 set: 0x${b.toString(16)}`);
      this.reg = (b >> 1) & 0x3f;
      this.mode = b & 0x80 ? 1 : 2;
    }
    return miso;
  }

  _busy() { return this.now() < this.busyUntil; }

  _fifoPop() {
    if (!this.fifoN) return 0;
    const v = this.fifo[this.fifoHead];
    this.fifoHead = (this.fifoHead + 1) & 63;
    this.fifoN--;
    return v;
  }

  _fifoPush(v) {
    if (this.fifoN === 64) { this.regs[ERROR] |= BUFFER_OVFL; return; }
    this.fifo[(this.fifoHead + this.fifoN) & 63] = v;
    this.fifoN++;
  }

  _read(reg) {
    const r = this.regs;
    if (reg === FIFO_DATA) return this._fifoPop();
    if (reg === FIFO_LEVEL) return this.fifoN;
    if (reg === COMMAND) return r[COMMAND] | (this._busy() ? 0x10 : 0);
    if (reg === BIT_FRAMING) return r[BIT_FRAMING] & 0x7f;
    return r[reg];
  }

  _write(reg, v) {
    if (this._busy()) { this.writesLost++; return; } // cannot be addressed yet (§8.8.2): lost
    const r = this.regs;
    if (reg === COMMAND) this._command(v);
    else if (reg === COM_IRQ) { if (v & 0x80) r[COM_IRQ] |= v & 0x7f; else r[COM_IRQ] &= 0x7f ^ (v & 0x7f); }
    else if (reg === DIV_IRQ) { if (v & 0x80) r[DIV_IRQ] |= v & 0x14; else r[DIV_IRQ] &= 0x7f ^ (v & 0x7f); }
    else if (reg === FIFO_DATA) this._fifoPush(v);
    else if (reg === FIFO_LEVEL) { if (v & 0x80) { this.fifoHead = 0; this.fifoN = 0; r[ERROR] &= 0xff ^ BUFFER_OVFL; } }
    else if (reg === BIT_FRAMING) {
      r[BIT_FRAMING] = v & 0x7f;
      if (v & 0x80 && (r[COMMAND] & 0x0f) === CMD_TRANSCEIVE) this._startSend();
    } else if (reg === COLL) r[COLL] = (r[COLL] & 0x7f) | (v & 0x80);
    else if (reg === TX_CONTROL) {
      const was = this.fieldOn();
      r[TX_CONTROL] = v;
      if (was && !this.fieldOn()) for (const t of this.tags) { t.state = 0; t.halted = false; }
    } else if ([ERROR, STATUS1, CRC_H, CRC_L, VERSION].includes(reg)) {
      this.errors.push(`write to read-only register 0x${reg.toString(16)}`);
    } else r[reg] = v;
  }

  _command(v) {
    const r = this.regs;
    const cmd = v & 0x0f;
    if (cmd === CMD_SOFT_RESET) { this._reset(); this.busyUntil = this.now() + FC_RESET; return; } // t_d
    if (cmd === CMD_IDLE) { this.txPending = false; this.rxPending = false; }
    else if (cmd === CMD_CALC_CRC) {
      let crc = CRC_PRESETS[r[MODE] & 3];
      while (this.fifoN) {
        crc ^= this._fifoPop();
        for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >> 1) ^ 0x8408 : crc >> 1;
      }
      r[CRC_H] = crc >> 8; r[CRC_L] = crc & 0xff;
      r[DIV_IRQ] |= 0x04; r[STATUS1] |= 0x20;
    } else if (cmd !== CMD_TRANSCEIVE) this.errors.push(`command 0x${cmd.toString(16)} not modelled`);
    r[COMMAND] = (v & 0x30) | cmd;
  }

  _startSend() {
    const r = this.regs;
    if (r[TX_MODE] & 0x80 || r[RX_MODE] & 0x80) this.errors.push('hardware CRC not modelled');
    const n = this.fifoN;
    if (!n) { this.errors.push('StartSend with an empty FIFO'); return; }
    const last = r[BIT_FRAMING] & 7;
    this.rxAlign = (r[BIT_FRAMING] >> 4) & 7;
    this.frames++;
    r[ERROR] &= BUFFER_OVFL;
    const now = this.now();
    const bits = n * 9 + 2 - (last ? 8 - last : 0);
    const txEnd = now + bits * FC_BIT;
    this.txPending = true; this.txEnd = txEnd; this.rxPending = false;
    if (r[T_MODE] & 0x80) {
      const period = 2 * (((r[T_MODE] & 0x0f) << 8) | r[T_PRESCALER]) + 1;
      this.deadline = txEnd + ((r[T_RELOAD_H] << 8) | r[T_RELOAD_L]) * period;
      this.timerOn = true;
    }
    const listening = this.fieldOn() && (r[TX_ASK] & 0x40);
    const frame = new Uint8Array(n);
    for (let i = 0; i < n; i++) frame[i] = this._fifoPop();
    if (!listening) return;
    const answers = [];
    for (const t of this.tags) {
      const reads = t.reads;
      const a = t.receive(frame, last);
      if (a) answers.push(a);
      if (t.reads > reads && t.firstReadMs === undefined) t.firstReadMs = this.mcu.clock.nanos / 1e6;
    }
    if (!answers.length) return;
    const [data, rxBits, coll] = combine(answers, !(r[COLL] & 0x80));
    const delay = Math.min(...answers.map((a) => a[2]));
    const nbits = data.length * 8 - (rxBits ? 8 - rxBits : 0);
    const start = txEnd + delay;
    if (this.timerOn && start + 5 * FC_BIT < this.deadline) this.timerOn = false;
    this.rxPending = true;
    this.rxEnd = start + (nbits + Math.floor(nbits / 8) + 2) * FC_BIT;
    this.rxData = data; this.rxBits = rxBits; this.rxColl = coll;
  }

  _advance() {
    const r = this.regs;
    const now = this.now();
    if (this.txPending && now >= this.txEnd) { this.txPending = false; r[COM_IRQ] |= TX_IRQ; }
    if (this.rxPending && now >= this.rxEnd) {
      this.rxPending = false;
      let data = this.rxData;
      const ra = this.rxAlign;
      if (ra) {
        // BitFramingReg.RxAlign (datasheet §9.3.1.14): the first received bit goes to bit ra of
        // the first FIFO byte (bitwise anticollision); RxLastBits and CollPos count from there
        const nbits = data.length * 8 - (this.rxBits ? 8 - this.rxBits : 0);
        const out = new Uint8Array((ra + nbits + 7) >> 3);
        for (let i = 0; i < nbits; i++) if ((data[i >> 3] >> (i & 7)) & 1) out[(ra + i) >> 3] |= 1 << ((ra + i) & 7);
        data = out;
        this.rxBits = (ra + nbits) % 8;
      }
      for (const b of data) this._fifoPush(b);
      r[CONTROL] = (r[CONTROL] & 0xf8) | this.rxBits;
      r[COM_IRQ] |= RX_IRQ;
      if (this.rxColl >= 0) {
        const k = this.rxColl + ra;
        r[ERROR] |= COLL_ERR; r[COM_IRQ] |= ERR_IRQ;
        r[COLL] = (r[COLL] & 0x80) | (k < 32 ? (k + 1) & 0x1f : 0x20);
      }
    }
    if (this.timerOn && now >= this.deadline) { this.timerOn = false; r[COM_IRQ] |= TIMER_IRQ; }
  }
}

const nbitsOf = (a) => a[0].length * 8 - (a[1] ? 8 - a[1] : 0);
const bitOf = (d, k) => (d[k >> 3] >> (k & 7)) & 1;

/** What the reader demodulates from several tags answering at once (see mfrc522_emu._combine). */
function combine(answers, clearAfterColl) {
  if (answers.length === 1) return [answers[0][0], answers[0][1], -1];
  let longest = answers[0];
  for (const a of answers) if (nbitsOf(a) > nbitsOf(longest)) longest = a;
  const total = nbitsOf(longest);
  const out = new Uint8Array(longest[0].length);
  let coll = -1;
  for (let k = 0; k < total; k++) {
    let ones = 0; let zeros = 0;
    for (const a of answers) {
      if (k < nbitsOf(a)) { if (bitOf(a[0], k)) ones++; else zeros++; } else zeros++;
    }
    if (coll < 0 && ones && zeros) coll = k;
    if (ones && !(coll >= 0 && clearAfterColl)) out[k >> 3] |= 1 << (k & 7);
  }
  return [out, longest[1], coll];
}

export { Type2Tag };
