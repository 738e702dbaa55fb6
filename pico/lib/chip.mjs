// One emulated Raspberry Pi Pico: rp2040js's RP2040 booted from the boot ROM and a UF2, with the
// flash writes that rp2040js does not emulate applied to its flash array, the USB CDC port, and a
// clock the harness steps.
//
// Flash writes. MicroPython's littlefs (rp2.Flash) erases and programs through the SDK's
// flash_range_erase(offs, count) and flash_range_program(offs, data, count), which run from RAM.
// Their addresses come from the firmware ELF's symbol table; when the core is about to execute
// the first instruction of either, the harness does the erase (0xFF) or program (NOR: bits only
// clear) on the flash array itself and returns to the caller (PC = LR), so littlefs formats,
// writes and survives a reboot. `onFlashOp(op)` sees each call first; returning false stops the
// chip right there with the flash as it was (a power cut).
//
// Time. rp2040js counts Cortex-M0+ cycles at 125 MHz; while the core sleeps (WFE/WFI) the clock
// jumps to the next alarm, so an idle chip runs fast. Two modes:
//   "cycles"   time follows the cycles executed (benchmarks: ticks_us is the chip's own figure);
//   "scripted" computing takes no time: the clock moves only while the core sleeps, so the
//              firmware's clock is exactly the scenario's (like the desktop simulator, whose
//              steps take no time). A loop that polls the timer without sleeping (a busy-wait,
//              e.g. mp_hal_delay_us) would then never end: after SPIN_READS timer reads without a
//              sleep, time follows the cycles again until the next sleep.
// Real flash timing is added in "cycles" mode unless flashTiming is false; the CPU waits for the
// flash as on a board. W25Q16JV datasheet (Winbond, rev. H) §9.6 AC electrical characteristics:
// 4 KiB sector erase tSE 45 ms typical, 400 ms maximum; 256 B page program tPP 0.4 ms typical,
// 3 ms maximum. flashTiming true / "typical" takes the typical times, "max" the maximum ones (a
// worn or hot part: the worst a box may meet).
// idleUntil() lets time pass fast: while the core sleeps, the clock jumps ahead by up to a given
// step at once (a sleep_ms that oversleeps), so the device loop runs one step per jump.
//
// Resets. A watchdog reset (machine.reset(), or the boot ROM's reset_usb_boot behind
// machine.bootloader()) stops the chip and sets `reset`: "bootsel" when the watchdog scratch
// registers ask the ROM for USB boot (scratch4 = 0xb007c0d3, scratch7 its entry in the ROM: the
// board then shows its RPI-RP2 drive), else "reboot" (the caller boots again from the flash).
import { RP2040, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { readElf } from './elf.mjs';
import { flashUf2, loadUf2 } from './uf2.mjs';

export const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16JV
export const FS_OFFSET = 0xa0000; // MicroPython rp2: littlefs from here to the end of flash
const CYCLE_NS = 1e9 / 125e6;
const SPIN_READS = 200;
const PIO_CLOCKED_DIV = 256; // a divided PIO clock under ~490 kHz steps with the emulated clock
const PIO_CTRL = 0x000; // the block's CTRL register: machines enabled
const SYS_NS = 8; // the system clock, 125 MHz
const PIO_BURST = 1000; // PIO steps per access to the block (see the constructor)
export const FLASH_TIMES = { // [sector erase ns, page program ns]
  typical: [45e6, 0.4e6],
  max: [400e6, 3e6],
};
const BKPT_ERASE = 0xf1;
const BKPT_PROGRAM = 0xf2;
const TIMER_BASE = 0x40054;
const TIMER_READS = new Set([0x0c, 0x24, 0x28]); // TIMELR, TIMERAWH, TIMERAWL
const WATCHDOG_BASE = 0x40058;
const USB_BOOT_MAGIC = 0xb007c0d3;

export class PowerCut extends Error {}

export class Chip {
  /**
   * bootrom: Uint32Array (16 KiB); uf2: bytes, or flash: a whole flash image to boot from
   * (a reboot after a power cut); update: a UF2 flashed over that image as the boot ROM's
   * drive does (a firmware update that keeps the filesystem); fsImage: bytes written at
   * FS_OFFSET (fsOffset: where this firmware's filesystem starts, 0x12C000 on the Pico W);
   * elf: firmware ELF bytes (of the firmware that runs).
   */
  constructor({ bootrom, uf2, flash, update, fsImage, elf, mode = 'cycles', flashTiming = true, log = null,
    fsOffset = FS_OFFSET }) {
    this.fsOffset = fsOffset;
    const hex = '0x' + fsOffset.toString(16).toUpperCase();
    const mcu = new RP2040();
    this.mcu = mcu;
    mcu.logger = new ConsoleLogger(log ? LogLevel.Debug : LogLevel.Error);
    mcu.loadBootrom(bootrom);
    if (flash) {
      mcu.flash.set(flash.subarray(0, FLASH_SIZE));
      if (update && flashUf2(update, mcu.flash) > fsOffset) throw new Error(`firmware overlaps the filesystem at ${hex}`);
    } else {
      const top = loadUf2(uf2, mcu.flash);
      if (top > fsOffset) throw new Error(`firmware overlaps the filesystem at ${hex}`);
    }
    if (fsImage) {
      if (fsImage.length > FLASH_SIZE - fsOffset) throw new Error('filesystem image too large');
      mcu.flash.set(fsImage, fsOffset);
    }
    mcu.core.PC = 0x10000000;
    this.core = mcu.core;
    this.clock = mcu.clock;
    this.mode = mode;
    this.flashTiming = flashTiming && mode === 'cycles';
    const times = FLASH_TIMES[flashTiming === 'max' ? 'max' : 'typical'];
    this.eraseNs = times[0];
    this.programNs = times[1];
    const syms = readElf(elf).symbols;
    this.symbols = syms;
    const addr = (n) => {
      const s = syms.get(n);
      if (!s) throw new Error(`${n} not in the firmware ELF`);
      return s.value & ~1;
    };
    this.eraseAt = addr('flash_range_erase');
    this.programAt = addr('flash_range_program');
    this.mainAt = addr('main');
    this.patched = false;
    this.saved = [];
    this.fault = null;
    mcu.onBreak = (code) => this._onBreak(code);
    this.flashOps = 0;
    this.onFlashOp = null;
    this.opLog = null; // an array: every erase/program applied is kept there, data and all
    this.flashWaits = null; // an array: [kind, start ms, end ms] of each erase/program
    this.stopped = false;
    this.cut = null;
    this.spinReads = 0;
    this.spinning = false;
    this.cycles = 0;
    this.busyNs = 0; // time the core was not sleeping (computing, or waiting for the flash)
    this.burstNs = 0; // the longest stretch without a sleep since takeBurst()
    this.awakeSince = -1;
    this.reset = null;
    this._watchTimer();
    // Core 1 never runs here and rp2040js has no inter-core FIFO: FIFO_ST and FIFO_RD read as
    // rp2040js reads any unknown SIO register (all ones), which lets MicroPython's soft reset
    // through its core 1 handshake, without a console warning for each read.
    const sio = mcu.sio;
    const sioRead = sio.readUint32.bind(sio);
    sio.readUint32 = (offset) => (offset === 0x50 || offset === 0x58 ? 0xffffffff : sioRead(offset));
    // The PIO in rp2040js 1.4.1 runs 1000 steps when a state machine is enabled, then more on
    // wall-clock timers (setTimeout) whenever node is idle: never while the core runs, not in step
    // with the emulated clock, and for ever (node cannot exit). Here it runs those 1000 steps
    // (a burst, in no emulated time) after each access to the block while a machine is enabled
    // instead: a FIFO written or read (by the core or the DMA, whose transfers follow the emulated
    // clock), an instruction executed, a machine enabled; so it advances when its inputs do, and
    // the chip stays deterministic. What uses the PIO here is the Pico W's radio bus (CYW43439
    // gSPI on GPIO 23/24/25/29) with no radio on it: a transfer of a few words per burst. A PIO
    // program that counts time by itself (a delay loop, a pin it waits on) would need stepping
    // with the clock, which this does not do.
    // (rp2040js's own step also steps the disabled machines of a block, which a burst skips.)
    // A machine on a slow clock (a divisor of at least PIO_CLOCKED_DIV: the keypad scanner,
    // firmware/drivers/keypad_pio.py, at 10 kHz) runs on the emulated clock instead: one
    // instruction and its delay cycles per divided clock period, from an alarm, so it keeps
    // scanning while the core waits for a flash erase, as on the chip (the PIO needs no flash).
    for (const pio of mcu.pio) {
      const clocked = (m) => m.clockDivInt >= PIO_CLOCKED_DIV;
      const tick = mcu.clock.createAlarm(() => {
        let next = Infinity;
        const now = mcu.clock.nanos;
        for (const m of pio.machines) {
          if (!m.enabled || !clocked(m)) { m.dueNs = undefined; continue; }
          if (m.dueNs === undefined) m.dueNs = now;
          while (m.dueNs <= now) {
            const c = m.cycles;
            m.step();
            pio.checkChangedPins();
            m.dueNs += Math.max(1, m.cycles - c) * (m.clockDivInt + m.clockDivFrac / 256) * SYS_NS;
          }
          next = Math.min(next, m.dueNs);
        }
        if (next < Infinity) tick.schedule(next - now);
      });
      const startTick = () => {
        if (!pio.machines.some((m) => m.enabled && clocked(m))) return;
        tick.cancel();
        tick.schedule(0);
      };
      const burst = () => {
        const on = pio.machines.filter((m) => m.enabled && !clocked(m));
        for (let i = 0; i < PIO_BURST && on.length; i++) {
          for (const m of on) m.step();
          pio.checkChangedPins();
        }
      };
      pio.run = burst;
      const write = pio.writeUint32.bind(pio);
      const read = pio.readUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        const was = pio.stopped;
        write(offset, value);
        if (!pio.stopped && !was) burst(); // (enabling a stopped one ran its burst already)
        if (offset === PIO_CTRL) startTick();
      };
      pio.readUint32 = (offset) => {
        const v = read(offset);
        if (!pio.stopped) burst();
        return v;
      };
    }
    const wd = mcu.peripherals[WATCHDOG_BASE];
    wd.onWatchdogTrigger = () => {
      const sc = wd.scratchData;
      this.reset = sc[4] === USB_BOOT_MAGIC && sc[7] < 0x4000 ? 'bootsel' : 'reboot';
      this.stopped = true;
      // the chip is reset here: its watchdog stops too (else an alarm that rp2040js keeps
      // re-arming at the same instant would spin inside the clock)
      wd.alarm.enable = false;
      wd.timer.enable = false;
    };

    this.output = [];
    this.onOutput = null;
    this.inQueue = [];
    this.connected = false;
    const cdc = new USBCDC(mcu.usbCtrl);
    this.cdc = cdc;
    cdc.onDeviceConnected = () => { this.connected = true; };
    // A real host sends on a bulk OUT endpoint only when it has data (else it NAKs). rp2040js's
    // USBCDC answers every read at once, empty when it has nothing, so the device would take a
    // USB interrupt every 10 us and never sleep: hold an empty read until there is input.
    this.pendingRead = null;
    const usb = mcu.usbCtrl;
    const cdcRead = usb.onEndpointRead;
    // The FIFO is refilled from inQueue here too, not only between runs: with input queued but
    // the FIFO drained mid-run, an empty answer would make the device ask again at once, every
    // 10 us, and never sleep (a flood longer than the FIFO looked like a box falling behind).
    usb.onEndpointRead = (endpoint, size) => {
      this._fill();
      if (cdc.txFIFO.itemCount === 0) this.pendingRead = [endpoint, size];
      else cdcRead(endpoint, size);
    };
    this._cdcRead = cdcRead;
    cdc.onSerialData = (buf) => {
      const b = Uint8Array.from(buf);
      if (this.onOutput) this.onOutput(b);
      else this.output.push(b);
    };
  }

  _watchTimer() {
    const timer = this.mcu.peripherals[TIMER_BASE];
    const clock = this.clock;
    const read = timer.readUint32.bind(timer);
    timer.readUint32 = (offset) => {
      if (TIMER_READS.has(offset) && ++this.spinReads > SPIN_READS) this.spinning = true;
      return read(offset);
    };
    // rp2040js schedules an alarm (value - nanos / 1000) >>> 0 us ahead: with the clock between
    // two microseconds, an alarm for the current microsecond wraps to 71 minutes and the chip
    // sleeps for ever. The timer reads whole microseconds: the alarm fires at the start of the
    // microsecond it names (now, if that is the current one).
    const write = timer.writeUint32.bind(timer);
    timer.writeUint32 = (offset, value) => {
      if (offset < 0x10 || offset > 0x1c) return write(offset, value);
      const alarm = timer.alarms[(offset - 0x10) >> 2];
      const nowUs = Math.floor(clock.nanos / 1000);
      const delta = (value - nowUs) >>> 0;
      alarm.armed = true;
      alarm.targetMicros = value;
      alarm.clockAlarm.schedule(Math.max(0, nowUs * 1000 + delta * 1000 - clock.nanos));
      return undefined;
    };
  }

  get nanos() { return this.clock.nanos; }
  get ms() { return this.clock.nanos / 1e6; }

  /** Bytes for the device's USB CDC input; fed only as fast as the device reads them. */
  write(bytes) {
    for (const b of bytes) this.inQueue.push(b);
  }

  takeOutput() {
    const parts = this.output;
    this.output = [];
    let n = 0;
    for (const p of parts) n += p.length;
    const out = new Uint8Array(n);
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    return out;
  }

  _fill() {
    const fifo = this.cdc.txFIFO;
    while (this.inQueue.length && fifo.itemCount < fifo.size) fifo.push(this.inQueue.shift());
  }

  _feed() {
    this._fill();
    if (this.pendingRead && this.cdc.txFIFO.itemCount) {
      const [endpoint, size] = this.pendingRead;
      this.pendingRead = null;
      this._cdcRead(endpoint, size);
    }
  }

  _flashCall(kind) {
    const core = this.core;
    const r = core.registers;
    const offs = r[0];
    const count = kind === 'erase' ? r[1] : r[2];
    const op = { kind, offset: offs, count, index: this.flashOps, ms: this.ms };
    if (this.onFlashOp && this.onFlashOp(op) === false) {
      this.stopped = true;
      this.cut = op;
      return false;
    }
    this.flashOps++;
    const flash = this.mcu.flash;
    if (offs + count > FLASH_SIZE) throw new Error(`flash ${kind} past the end: ${offs}+${count}`);
    if (this.opLog) {
      const data = kind === 'erase' ? null : Uint8Array.from({ length: count }, (_, i) => this.mcu.readUint8(r[1] + i));
      this.opLog.push({ kind, offset: offs, count, data });
    }
    if (this.flashWaits) {
      const n = kind === 'erase' ? Math.ceil(count / 4096) * this.eraseNs : Math.ceil(count / 256) * this.programNs;
      this.flashWaits.push([kind, this.clock.nanos / 1e6, (this.clock.nanos + (this.flashTiming ? n : 0)) / 1e6]);
    }
    if (kind === 'erase') {
      flash.fill(0xff, offs, offs + count);
      if (this.flashTiming) this._wait(Math.ceil(count / 4096) * this.eraseNs);
    } else {
      const src = r[1];
      const mcu = this.mcu;
      for (let i = 0; i < count; i++) flash[offs + i] &= mcu.readUint8(src + i);
      if (this.flashTiming) this._wait(Math.ceil(count / 256) * this.programNs);
    }
    core.PC = core.LR & ~1; // return to the caller
    return true;
  }

  _endBurst() {
    const b = this.clock.nanos - this.awakeSince;
    if (b > this.burstNs) this.burstNs = b;
    this.awakeSince = -1;
  }

  /** The longest time the core went without sleeping since the last call (ms). */
  takeBurst() {
    if (this.awakeSince >= 0) this._endBurst();
    const b = this.burstNs;
    this.burstNs = 0;
    return b / 1e6;
  }

  _wait(ns) {
    this.busyNs += ns;
    this.clock.tick(ns);
  }

  /**
   * Run until the clock reaches `untilNs` (absolute), `stop()` is called, or a power cut.
   * In "scripted" mode a burst of computing does not move the clock: the call returns when the
   * core next sleeps past untilNs.
   */
  runUntil(untilNs) {
    const core = this.core;
    const clock = this.clock;
    const scripted = this.mode === 'scripted';
    this.stopped = false;
    if (!this.patched) this._bootToMain(untilNs);
    this._feed();
    while (clock.nanos < untilNs && !this.stopped) {
      if (core.waiting) {
        if (this.awakeSince >= 0) this._endBurst();
        this.spinReads = 0;
        this.spinning = false;
        const next = clock.nanosToNextAlarm;
        const left = untilNs - clock.nanos;
        clock.tick(next > 0 && next < left ? next : left);
        continue;
      }
      if (this.awakeSince < 0) this.awakeSince = clock.nanos;
      const cycles = core.executeInstruction();
      this.cycles += cycles;
      this.busyNs += cycles * CYCLE_NS;
      if (!scripted || this.spinning) clock.tick(cycles * CYCLE_NS);
    }
    this._feed();
    return !this.stopped;
  }

  /**
   * Run until `untilNs` as runUntil does, but whenever the core sleeps the clock jumps ahead by
   * up to `jumpNs` at once (firing the alarms it passes): for stretches where nothing happens
   * but the firmware's own timers.
   */
  idleUntil(untilNs, jumpNs) {
    const core = this.core;
    const clock = this.clock;
    this.stopped = false;
    if (!this.patched) this._bootToMain(untilNs);
    this._feed();
    while (clock.nanos < untilNs && !this.stopped) {
      if (core.waiting) {
        if (this.awakeSince >= 0) this._endBurst();
        this.spinReads = 0;
        this.spinning = false;
        clock.tick(Math.min(jumpNs, untilNs - clock.nanos));
        continue;
      }
      if (this.awakeSince < 0) this.awakeSince = clock.nanos;
      const cycles = core.executeInstruction();
      this.cycles += cycles;
      this.busyNs += cycles * CYCLE_NS;
      clock.tick(cycles * CYCLE_NS);
    }
    this._feed();
    return !this.stopped;
  }

  /** Run until the core sleeps (now, if it does) or `maxNs` pass; false if it stopped. */
  runUntilAsleep(maxNs) {
    const core = this.core;
    const clock = this.clock;
    const end = clock.nanos + maxNs;
    this.stopped = false;
    this._feed();
    while (!core.waiting && clock.nanos < end && !this.stopped) {
      if (this.awakeSince < 0) this.awakeSince = clock.nanos;
      const cycles = core.executeInstruction();
      this.cycles += cycles;
      this.busyNs += cycles * CYCLE_NS;
      clock.tick(cycles * CYCLE_NS);
    }
    return !this.stopped;
  }

  // The flash functions live in RAM, copied there by the C runtime before main(). Until main()
  // the loop watches the PC; at main() a BKPT goes at the entry of each (in RAM only: the flash
  // keeps the firmware as built) and the core reports it through onBreak.
  _bootToMain(untilNs) {
    const core = this.core;
    const clock = this.clock;
    while (clock.nanos < untilNs && !this.stopped) {
      if (core.registers[15] === this.mainAt) {
        for (const [at, code] of [[this.eraseAt, BKPT_ERASE], [this.programAt, BKPT_PROGRAM]]) {
          const o = at - 0x20000000;
          this.saved.push([o, this.mcu.sram[o], this.mcu.sram[o + 1]]);
          this.mcu.sram[o] = code;
          this.mcu.sram[o + 1] = 0xbe;
        }
        this.patched = true;
        return;
      }
      const cycles = core.executeInstruction();
      this.cycles += cycles;
      clock.tick(cycles * CYCLE_NS);
    }
  }

  _onBreak(code) {
    const core = this.core;
    if (code === BKPT_ERASE || code === BKPT_PROGRAM) {
      const entry = core.PC - 2;
      if (!this._flashCall(code === BKPT_ERASE ? 'erase' : 'program')) core.PC = entry;
      return;
    }
    this.stopped = true;
    this.fault = `breakpoint ${code} at 0x${(core.PC - 2).toString(16)}`;
  }

  /** Run in slices of `sliceMs` until pred() is true (checked between slices), or `maxMs` passes. */
  runWhile(pred, maxMs, sliceMs = 1) {
    const end = this.clock.nanos + maxMs * 1e6;
    while (this.clock.nanos < end) {
      if (!pred()) return true;
      if (!this.runUntil(Math.min(end, this.clock.nanos + sliceMs * 1e6))) return false;
    }
    return !pred();
  }

  stop() { this.stopped = true; }

  /** The function the core is in (for a stuck chip's report). */
  where(pc = this.core.PC) {
    let best = null;
    for (const [name, s] of this.symbols) {
      const a = s.value & ~1;
      if (s.size && pc >= a && pc < a + s.size) { best = name; break; }
    }
    return `${best || '?'} (0x${pc.toString(16)})`;
  }

  /** The whole flash (2 MiB): firmware and filesystem, as a board would keep it without power. */
  flashImage() { return this.mcu.flash.slice(0, FLASH_SIZE); }

  fsImage() { return this.mcu.flash.slice(this.fsOffset, FLASH_SIZE); }
}
