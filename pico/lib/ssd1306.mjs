// An SSD1306 (128 x 64) on the chip's I2C: control bytes (Co, D/C), the command set with its
// argument counts, display RAM in page / horizontal / vertical addressing. The harness reads the
// RAM and the state that decides what the glass shows (on, charge pump, remap, COM direction,
// inversion); the host turns it into a PNG. An address nobody answers NAKs, as on a board.
const W = 128;
const H = 64;
const ARGS = {
  0x81: 1, 0x8d: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xa8: 1, 0xd3: 1, 0xda: 1, 0xd5: 1, 0xd9: 1,
  0xdb: 1, 0xad: 1, 0xa3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5,
};
const SINGLE = new Set([0xae, 0xaf, 0xa0, 0xa1, 0xc0, 0xc8, 0xa4, 0xa5, 0xa6, 0xa7, 0x2e, 0x2f, 0xe3]);

export class SSD1306 {
  constructor(i2c, addr = 0x3c) {
    this.addr = addr;
    this.ram = new Uint8Array(W * H / 8);
    this.on = false; this.chargePump = false; this.inverted = false; this.entireOn = false;
    this.segRemap = false; this.comReversed = false; this.contrast = 0x7f;
    this.mode = 2; this.page = 0; this.col = 0; this.colStart = 0;
    this.colRange = [0, W - 1]; this.pageRange = [0, H / 8 - 1];
    this.cmd = -1; this.args = []; this.need = 0; this.ctl = -1;
    this.writes = 0; // data bytes
    this.frames = 0; // transactions that wrote the last page's data: one show() each
    this.errors = [];
    this.selected = false;
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (address) => {
      this.selected = address === this.addr;
      this.ctl = -1;
      i2c.completeConnect(this.selected);
    };
    i2c.onWriteByte = (v) => {
      if (this.selected) this._byte(v);
      i2c.completeWrite(this.selected);
    };
    i2c.onReadByte = () => i2c.completeRead(this.selected ? 0x43 : 0xff); // status: display on
    i2c.onStop = () => { this.selected = false; i2c.completeStop(); };
  }

  _byte(b) {
    if (this.ctl < 0) {
      if (b & 0x3f) this.errors.push(`bad control byte 0x${b.toString(16)}`);
      this.ctl = b;
      return;
    }
    const ctl = this.ctl;
    if (ctl & 0x40) this._data(b); else this._command(b);
    if (ctl & 0x80) this.ctl = -1;
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

  /** What the glass shows: 1024 bytes in MONO_VLSB, upright (remap and COM direction applied). */
  glass() {
    const out = new Uint8Array(W * H / 8);
    if (!(this.on && this.chargePump)) return out;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const col = this.segRemap ? x : W - 1 - x;
        const row = this.comReversed ? y : H - 1 - y;
        let v = this.entireOn ? 1 : (this.ram[(row >> 3) * W + col] >> (row & 7)) & 1;
        if (this.inverted && !this.entireOn) v ^= 1;
        if (v) out[(y >> 3) * W + x] |= 1 << (y & 7);
      }
    }
    return out;
  }
}
