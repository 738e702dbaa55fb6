// A 4x4 membrane keypad without diodes on the chip's GPIOs, modelled as the wires it is: every
// row and column line is a node, a closed key joins its row and its column, and each line's
// level comes from what the RP2040 does to the pins on its group of joined lines. So a scan may
// drive the rows and read the columns or the other way round (a diode-free matrix reads the same
// from either side), chains of closed keys ghost the fourth corner of a rectangle, and:
//
// * An input with neither pull floats (RP2040 datasheet §2.19.4, pads: PUE / PDE; MicroPython's
//   Pin(n, Pin.IN) and Pin.OPEN_DRAIN set no pull): a floating line reads an arbitrary level. The
//   model draws it from a fixed-seed generator at every change, so a board config that forgets a
//   pull-up reads phantom keys, the same ones on every run. A pull-up against a pull-down
//   (50-80 kOhm each, §5.5.3) sits mid-rail: undefined too.
// * A line that a pin drove low and that only a pull-up brings back rises through the pull-up
//   and the line's capacitance: R_PU up to 80 kOhm (RP2040 datasheet §5.5.3, IO electrical
//   characteristics), C ~ 50 pF (the pad, the ribbon, ~20 pF a membrane switch's traces), so it
//   crosses V_IH (2.0 V at IOVDD 3.3 V) 0.93 RC = RISE_NS after the release. A scan that reads the
//   columns sooner after releasing the last row sees that row's keys again on the next row.
// * Contacts bounce: a membrane switch closes and opens a few times within BOUNCE_NS (flat
//   membrane keypads: contact bounce <= 5 ms in the makers' specifications), at press and at
//   release, in a pattern drawn from the same generator. `contactNs` is the chip time of a key's
//   first closure: where the latency figures start.
//
// Levels follow the pins at once: the pin listener runs inside the GPIO write (or the pad write
// that sets a pull); a rising line and a bouncing contact change on the chip's clock (alarms).
import { GPIOPinState } from 'rp2040js';

export const R_PU_MAX = 80e3;
export const C_LINE = 50e-12;
export const RISE_NS = Math.round(0.93 * R_PU_MAX * C_LINE * 1e9); // 3.7 us
export const BOUNCE_NS = 5e6;

const DRIVE = 1; const PULL = 2; const FLOAT = 3;

export class Keypad {
  constructor(mcu, rows, cols, keymap, { bounceNs = BOUNCE_NS, riseNs = RISE_NS, seed = 0x2545f491 } = {}) {
    this.mcu = mcu;
    this.rows = rows;
    this.cols = cols;
    this.pins = [...rows, ...cols]; // node i: rows first, then columns
    this.keymap = keymap;
    this.bounceNs = bounceNs;
    this.riseNs = riseNs;
    this.seed = seed >>> 0;
    this.closed = new Set(); // contacts closed now: index row * ncols + col
    this.held = new Set(); // keys the finger holds (the contact may still bounce)
    this.level = this.pins.map(() => true); // what each pin reads
    this.kind = this.pins.map(() => FLOAT);
    this.riseAt = this.pins.map(() => 0); // a line rising through its pull-up reads low until then
    this.contactNs = new Map(); // key index -> chip ns of its first closure
    this.shorts = 0; // a line driven high and low at once (push-pull rows through a key)
    this.bounces = new Map(); // key index -> [alarm, remaining toggles]
    this.riseAlarm = mcu.clock.createAlarm(() => this.update());
    for (const p of this.pins) mcu.gpio[p].addListener(() => this.update());
    this.update();
  }

  index(name) {
    const i = this.keymap.indexOf(name);
    if (i < 0) throw new Error(`no key ${name} on the keypad`);
    return i;
  }

  _rand() {
    // xorshift32: fixed seed, so a run repeats
    let x = this.seed;
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    this.seed = x;
    return x / 4294967296;
  }

  now() { return this.mcu.clock.nanos; }

  press(name) {
    const k = this.index(name);
    this.held.add(k);
    this.contactNs.set(k, this.now());
    this._bounce(k, true);
  }

  release(name) {
    const k = this.index(name);
    this.held.delete(k);
    this._bounce(k, false);
  }

  releaseAll() { for (const k of [...this.held]) this.release(this.keymap[k]); }

  // The contact of key k moves to `closed`: at once, then (bounce on) it opens and closes again a
  // few times, 0.1-1.2 ms apart, within bounceNs, and ends as the finger left it.
  _bounce(k, closed) {
    const old = this.bounces.get(k);
    if (old) old[0].cancel();
    this.bounces.delete(k);
    this._set(k, closed);
    if (!this.bounceNs) { this.update(); return; }
    const times = [];
    let t = 0;
    for (;;) {
      t += 1e5 + this._rand() * 1.1e6;
      if (t >= this.bounceNs) break;
      times.push(t);
    }
    if (times.length % 2) times.pop(); // an even number of toggles: it ends as the finger left it
    const start = this.now();
    const alarm = this.mcu.clock.createAlarm(() => {
      const b = this.bounces.get(k);
      if (!b) return;
      this._set(k, !this.closed.has(k));
      this.update();
      if (b[1].length) alarm.schedule(start + b[1].shift() - this.now());
      else this.bounces.delete(k);
    });
    if (times.length) {
      this.bounces.set(k, [alarm, times.slice(1)]);
      alarm.schedule(times[0]);
    }
    this.update();
  }

  _set(k, closed) { if (closed) this.closed.add(k); else this.closed.delete(k); }

  update() {
    const nr = this.rows.length;
    const nc = this.cols.length;
    const n = nr + nc;
    const parent = [];
    for (let i = 0; i < n; i++) parent.push(i);
    const find = (x) => { while (parent[x] !== x) x = parent[x] = parent[parent[x]]; return x; };
    for (const k of this.closed) parent[find(Math.floor(k / nc))] = find(nr + (k % nc));
    // what acts on each group of joined lines
    const lo = new Set(); const hi = new Set(); const up = new Set(); const down = new Set(); const keep = new Set();
    const gpio = this.mcu.gpio;
    for (let i = 0; i < n; i++) {
      const g = find(i);
      const s = gpio[this.pins[i]].value;
      if (s === GPIOPinState.Low) lo.add(g);
      else if (s === GPIOPinState.High) hi.add(g);
      else if (s === GPIOPinState.InputPullUp) up.add(g);
      else if (s === GPIOPinState.InputPullDown) down.add(g);
      else if (s === GPIOPinState.InputBusKeeper) keep.add(g);
    }
    const now = this.now();
    let nextRise = Infinity;
    for (let i = 0; i < n; i++) {
      const g = find(i);
      const was = this.level[i];
      let v; let kind;
      if (lo.has(g) || hi.has(g)) {
        kind = DRIVE;
        if (lo.has(g) && hi.has(g)) this.shorts++;
        v = !lo.has(g);
      } else if (up.has(g) && !down.has(g)) {
        kind = PULL; v = true;
      } else if (down.has(g) && !up.has(g)) {
        kind = PULL; v = false;
      } else if (keep.has(g) && !up.has(g) && !down.has(g)) {
        kind = PULL; v = was;
      } else {
        kind = FLOAT; v = this._rand() < 0.5;
      }
      if (kind === PULL && v && !was) {
        // rising through the pull-up from a low the line held: low until RISE_NS after it began
        if (!this.riseAt[i]) this.riseAt[i] = now + this.riseNs;
        if (now < this.riseAt[i]) { v = false; nextRise = Math.min(nextRise, this.riseAt[i]); } else this.riseAt[i] = 0;
      } else this.riseAt[i] = 0;
      this.kind[i] = kind;
      this.level[i] = v;
      gpio[this.pins[i]].setInputValue(v);
    }
    if (nextRise < Infinity) this.riseAlarm.schedule(nextRise - now);
  }
}
