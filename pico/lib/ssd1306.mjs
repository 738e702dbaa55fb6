// An SSD1306 (128 x 64) on the chip's I2C: control bytes (Co, D/C), the command set with its
// argument counts, display RAM in page / horizontal / vertical addressing. The harness reads the
// RAM and the state that decides what the glass shows (on, charge pump, remap, COM direction,
// inversion, multiplex ratio, display offset, start line); the host turns it into a PNG. An
// address nobody answers NAKs, as on a board.
//
// Citations: SSD1306 datasheet (Solomon Systech, rev. 1.1) §8.1.5 (I2C: control byte Co, D/C#),
// §10.1.6 Set Display Start Line (40h-7Fh): RAM row S is shown on the first COM line scanned;
// §10.1.15 Set Display Offset (D3h): "to move COM16 towards COM0 by 16 lines" the argument is 16,
// so COM line c shows display row (c + offset) mod 64, Table 10-1; §10.1.11 Set Multiplex Ratio
// (A8h): display rows 0..mux are scanned, the other COM lines stay dark; §10.1.8 segment remap
// (A0/A1) and §10.1.14 COM scan direction (C0/C8).
//
// Bus time: rp2040js completes I2C bytes at once; here each byte (8 bits and the ACK) takes nine
// SCL periods of the chip's own I2C clock (IC_FS_SCL_HCNT + IC_FS_SCL_LCNT cycles of clk_sys:
// 2.5 us at the 400 kHz the board config sets, the SSD1306's fast-mode maximum, datasheet Table
// 13-5), START and STOP one period each, so a full frame takes the ~24 ms it takes on a board.
// `lastDataNs` is the chip time the last display-RAM byte finished on the bus: "the last byte of
// the new screen on the display's bus" of the latency figures.
const W = 128;
const H = 64;
const ARGS = {
  0x81: 1, 0x8d: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xa8: 1, 0xd3: 1, 0xda: 1, 0xd5: 1, 0xd9: 1,
  0xdb: 1, 0xad: 1, 0xa3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5,
};
const SINGLE = new Set([0xae, 0xaf, 0xa0, 0xa1, 0xc0, 0xc8, 0xa4, 0xa5, 0xa6, 0xa7, 0x2e, 0x2f, 0xe3]);

export class SSD1306 {
  /** clock: the chip's SimulationClock for bus timing (null: bytes complete at once). */
  constructor(i2c, addr = 0x3c, clock = null, sysHz = 125e6) {
    this.addr = addr;
    this.clock = clock;
    this.i2c = i2c;
    this.sysHz = sysHz;
    this.lastDataNs = -1;
    this.dataWrites = []; // [chip ns the byte finished, ...] of display-RAM bytes, when `logData`
    this.logData = false;
    this.mux = H - 1; this.offset = 0; this.startLine = 0;
    this.ram = new Uint8Array(W * H / 8);
    this.on = false; this.chargePump = false; this.inverted = false; this.entireOn = false;
    this.segRemap = false; this.comReversed = false; this.contrast = 0x7f;
    this.mode = 2; this.page = 0; this.col = 0; this.colStart = 0;
    this.colRange = [0, W - 1]; this.pageRange = [0, H / 8 - 1];
    this.cmd = -1; this.args = []; this.need = 0; this.ctl = -1;
    this.writes = 0; // data bytes
    this.frames = 0; // transactions that wrote the last page's data: one full show() each
    this.updates = 0; // transactions that wrote display RAM (a partial show() too)
    this.txData = false;
    this.errors = [];
    this.selected = false;
    this.pending = null;
    if (clock) this.alarm = clock.createAlarm(() => { const f = this.pending; this.pending = null; f(); });
    i2c.onStart = () => this._after(1, () => i2c.completeStart());
    i2c.onConnect = (address) => {
      this.selected = address === this.addr;
      this.ctl = -1;
      this.txData = false;
      this._after(9, () => i2c.completeConnect(this.selected));
    };
    i2c.onWriteByte = (v) => {
      const data = this.selected && this._byte(v);
      this._after(9, () => {
        if (data) {
          this.txData = true;
          this.lastDataNs = clock ? clock.nanos : 0;
          if (this.logData) this.dataWrites.push(this.lastDataNs);
        }
        i2c.completeWrite(this.selected);
      });
    };
    i2c.onReadByte = () => this._after(9, () => i2c.completeRead(this.selected ? 0x43 : 0xff)); // status: display on
    i2c.onStop = () => {
      if (this.selected && this.txData) this.updates++;
      this.selected = false;
      this._after(1, () => i2c.completeStop());
    };
  }

  /** ns of one SCL period, from the I2C block's own clock settings. */
  bitNs() {
    const i2c = this.i2c;
    const cycles = i2c.sclHighPeriod + i2c.sclLowPeriod;
    return cycles > 0 ? cycles * 1e9 / this.sysHz : 2500;
  }

  _after(bits, fn) {
    if (!this.clock) { fn(); return; }
    this.pending = fn;
    this.alarm.schedule(Math.round(bits * this.bitNs()));
  }

  /** One byte of a transaction; true when it went to display RAM. */
  _byte(b) {
    if (this.ctl < 0) {
      if (b & 0x3f) this.errors.push(`bad control byte 0x${b.toString(16)}`);
      this.ctl = b;
      return false;
    }
    const ctl = this.ctl;
    const data = (ctl & 0x40) !== 0;
    if (data) this._data(b); else this._command(b);
    if (ctl & 0x80) this.ctl = -1;
    return data;
  }

  _command(b) {
    if (this.cmd >= 0) {
      this.args.push(b);
      if (this.args.length === this.need) { this._exec(this.cmd); this.cmd = -1; }
      return;
    }
    const need = ARGS[b] || 0;
    if (need) { this.cmd = b; this.args = []; this.need = need; return; }
    if (SINGLE.has(b)) this._exec(b);
    else if (b >= 0x40 && b <= 0x7f) this.startLine = b & 0x3f;
    else if (b >= 0xb0 && b <= 0xb7) this.page = b & 7;
    else if (b <= 0x0f) { this.colStart = (this.colStart & 0xf0) | b; this.col = this.colStart; }
    else if (b <= 0x1f) { this.colStart = (this.colStart & 0x0f) | ((b & 0x0f) << 4); this.col = this.colStart; }
    else this.errors.push(`unknown command 0x${b.toString(16)}`);
  }

  _exec(c) {
    const a = this.args;
    if (c === 0xae || c === 0xaf) this.on = c === 0xaf;
    else if (c === 0xa0 || c === 0xa1) this.segRemap = c === 0xa1;
    else if (c === 0xc0 || c === 0xc8) this.comReversed = c === 0xc8;
    else if (c === 0xa4 || c === 0xa5) this.entireOn = c === 0xa5;
    else if (c === 0xa6 || c === 0xa7) this.inverted = c === 0xa7;
    else if (c === 0x81) this.contrast = a[0];
    else if (c === 0x8d) this.chargePump = (a[0] & 0x04) !== 0;
    else if (c === 0x20) this.mode = a[0] & 3;
    else if (c === 0x21) { this.colRange = [a[0] & 0x7f, a[1] & 0x7f]; this.col = this.colRange[0]; }
    else if (c === 0x22) { this.pageRange = [a[0] & 7, a[1] & 7]; this.page = this.pageRange[0]; }
    else if (c === 0xa8) {
      if ((a[0] & 0x3f) < 15) this.errors.push(`multiplex ratio ${a[0] & 0x3f} below 15 (invalid, §10.1.11)`);
      else this.mux = a[0] & 0x3f;
    } else if (c === 0xd3) this.offset = a[0] & 0x3f;
  }

  _data(b) {
    this.writes++;
    this.ram[this.page * W + this.col] = b;
    if (this.page === 7 && this.col === W - 1) this.frames++;
    if (this.mode === 2) { this.col = this.col < W - 1 ? this.col + 1 : this.colStart; return; }
    const [c0, c1] = this.colRange;
    const [p0, p1] = this.pageRange;
    if (this.mode === 0) {
      if (this.col < c1) this.col++;
      else { this.col = c0; this.page = this.page < p1 ? this.page + 1 : p0; }
    } else if (this.page < p1) this.page++;
    else { this.page = p0; this.col = this.col < c1 ? this.col + 1 : c0; }
  }

  /**
   * The RAM row that glass row y shows, or -1 for a dark line. The usual 128x64 module wires its
   * top glass row to COM63, so the COM line scanned for glass row y is y with C8 (remapped scan,
   * the upright picture every driver sets) and 63 - y with C0; that COM line shows display row
   * (line + offset) mod 64 (D3h), dark past the multiplex ratio (A8h), and display row j is RAM row
   * (j + start line) mod 64 (40h-7Fh).
   */
  ramRow(y) {
    const line = this.comReversed ? y : H - 1 - y;
    const j = (line + this.offset) & 63;
    if (j > this.mux) return -1;
    return (j + this.startLine) & 63;
  }

  /** What the glass shows: 1024 bytes in MONO_VLSB, upright (remap, COM direction, multiplex
   * ratio, offset and start line applied). */
  glass() {
    const out = new Uint8Array(W * H / 8);
    if (!(this.on && this.chargePump)) return out;
    for (let y = 0; y < H; y++) {
      const row = this.ramRow(y);
      for (let x = 0; x < W; x++) {
        const col = this.segRemap ? x : W - 1 - x;
        let v;
        if (row < 0) v = 0; // a COM line past the multiplex ratio is not driven (dark, not inverted)
        else {
          v = this.entireOn ? 1 : (this.ram[(row >> 3) * W + col] >> (row & 7)) & 1;
          if (this.inverted && !this.entireOn) v ^= 1;
        }
        if (v) out[(y >> 3) * W + x] |= 1 << (y & 7);
      }
    }
    return out;
  }
}
