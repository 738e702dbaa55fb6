// Running code on the emulated board through MicroPython's raw REPL, as mpremote does:
// Ctrl-C (stop what runs), Ctrl-A (raw REPL: "raw REPL; CTRL-B to exit\r\n>"), the code, Ctrl-D;
// the board answers "OK", the output, 0x04, the exception text (empty when none), 0x04, ">".
const dec = new TextDecoder('latin1');

export class Repl {
  constructor(chip) {
    this.chip = chip;
    this.buf = '';
    this.onData = null; // streaming: each chunk of the script's stdout as it comes
    chip.onOutput = (b) => {
      const s = dec.decode(b);
      this.buf += s;
      if (this.onData) this.onData(s);
    };
  }

  /** Run the chip until `text` appears after `from` in the output (or the limits pass). */
  waitFor(text, { from = 0, maxMs = 60000, deadline = Infinity } = {}) {
    const chip = this.chip;
    const end = chip.ms + maxMs;
    for (;;) {
      const i = this.buf.indexOf(text, from);
      if (i >= 0) return i;
      if (chip.ms >= end || Date.now() > deadline) return -1;
      if (!chip.runUntil(chip.nanos + 2e6)) return -1;
    }
  }

  /** Boot to the REPL prompt. Returns the emulated ms it took, or -1. */
  boot({ maxMs = 30000, deadline = Infinity } = {}) {
    const chip = this.chip;
    if (chip.runWhile(() => !chip.connected, maxMs, 1) === false) return -1;
    chip.write(new Uint8Array([13, 10]));
    return this.waitFor('>>> ', { maxMs, deadline }) < 0 ? -1 : chip.ms;
  }

  /** Exec `code` (a str); returns {out, err, ok} or {timeout: true, out}. */
  exec(code, { maxMs = 600000, deadline = Infinity } = {}) {
    const chip = this.chip;
    const start = this.buf.length;
    chip.write(new Uint8Array([3, 3, 1]));
    const r = this.waitFor('raw REPL; CTRL-B to exit\r\n>', { from: start, maxMs: 5000, deadline });
    if (r < 0) return { timeout: true, out: this.buf.slice(start) };
    const from = this.buf.length;
    chip.write(new TextEncoder().encode(code));
    chip.write(new Uint8Array([4]));
    if (this.waitFor('OK', { from, maxMs: 10000, deadline }) < 0) return { timeout: true, out: this.buf.slice(from) };
    const o = this.buf.indexOf('OK', from) + 2;
    const e1 = this.waitFor('\x04', { from: o, maxMs, deadline });
    if (e1 < 0) return { timeout: true, out: this.buf.slice(o) };
    const e2 = this.waitFor('\x04', { from: e1 + 1, maxMs: 10000, deadline });
    if (e2 < 0) return { timeout: true, out: this.buf.slice(o, e1) };
    const err = this.buf.slice(e1 + 1, e2);
    return { out: this.buf.slice(o, e1), err, ok: err === '' };
  }
}
