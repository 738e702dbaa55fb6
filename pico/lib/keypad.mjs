// A 4x4 membrane keypad without diodes on the chip's GPIOs: row pins driven by the scanner (low,
// or released: open-drain high-impedance), column pins inputs with pull-ups. A column reads low
// when a chain of pressed keys connects it to a low row (so ghost keys appear as on the real
// matrix). Levels follow the row pins at once: the pin listener runs inside the GPIO write.
import { GPIOPinState } from 'rp2040js';

export class Keypad {
  constructor(mcu, rows, cols, keymap) {
    this.mcu = mcu;
    this.rows = rows;
    this.cols = cols;
    this.keymap = keymap;
    this.down = new Set(); // indices row * ncols + col
    for (const r of rows) mcu.gpio[r].addListener(() => this.update());
    this.update();
  }

  index(name) {
    const i = this.keymap.indexOf(name);
    if (i < 0) throw new Error(`no key ${name} on the keypad`);
    return i;
  }

  press(name) { this.down.add(this.index(name)); this.update(); }
  release(name) { this.down.delete(this.index(name)); this.update(); }
  releaseAll() { this.down.clear(); this.update(); }

  _rowLow(r) {
    const s = this.mcu.gpio[this.rows[r]].value;
    return s === GPIOPinState.Low;
  }

  update() {
    const nr = this.rows.length;
    const nc = this.cols.length;
    // rows and columns connected through pressed keys: union the nodes
    const parent = [];
    for (let i = 0; i < nr + nc; i++) parent.push(i);
    const find = (x) => { while (parent[x] !== x) x = parent[x] = parent[parent[x]]; return x; };
    for (const k of this.down) {
      const r = Math.floor(k / nc);
      const c = k % nc;
      parent[find(r)] = find(nr + c);
    }
    const low = new Set();
    for (let r = 0; r < nr; r++) if (this._rowLow(r)) low.add(find(r));
    for (let c = 0; c < nc; c++) {
      this.mcu.gpio[this.cols[c]].setInputValue(!low.has(find(nr + c)));
    }
  }
}
