#!/usr/bin/env node
// The emulated box: one Pico (pico/lib/chip.mjs) with the parts of a board config (SSD1306 on
// I2C, MFRC522 on SPI, the keypad matrix on GPIOs, USB CDC), driven by the host through JSON
// lines on stdin, one reply line per request on stdout. pico/harness.py is the client.
//
// Requests ({"op": ..., ...}); every reply has "ok" and the chip's "ms" (emulated):
//   boot     {fs | flash: path, uf2, elf, bootrom, mode, flash_timing, fs_offset, board: {display,
//             reader, keypad}}                  power on (again) from a filesystem image or a whole
//             flash image; "keep": true boots from the flash the chip has now (a reboot);
//             "update": true flashes the uf2 over that flash first, as the RPI-RP2 drive does
//   run      {ms}                              run the chip; reply "out" (hex, USB CDC output
//             since the last reply), "cut" (a power cut happened: the op), "reset"
//             ("reboot" / "bootsel": a watchdog reset, the chip stopped) or "fault"
//   idle     {ms, jump_ms}                     run, the clock jumping up to jump_ms at once
//             while the core sleeps (replies as run)
//   write    {hex}                             bytes for the device's USB CDC input
//   key      {key, down}                       a key of the keypad pressed / released
//   at       {at_ms, event}                    a key / tag / lift request at that chip time
//   tag      {id, uid, user}                   a tag placed on the reader (hex UID, user memory
//             from page 4); lift {id} / lift {} takes one / all off
//   display  {}                                "glass": 1024 bytes MONO_VLSB (hex), "frames"
//   cut_at   {index}                           stop at this flash erase/program (-1: never)
//   peek     {magic, n}                        n bytes after the first copy of magic in SRAM
//   oplog    {on: true} / {}                   keep every flash erase/program / hand them over
//   save     {path}                            write the 2 MiB flash image
//   settle   {max_ms}                          run until the core sleeps (the firmware is done
//             with what it was doing), at most max_ms; replies as run, and "asleep"
//   burst    {}                                "burst_ms": the longest the core went without
//             sleeping since the last burst request (how long the firmware took for an input)
//   stats    {}                                counters
import { readFileSync, writeFileSync } from 'fs';
import { createInterface } from 'readline';
import { Chip } from './lib/chip.mjs';
import { loadFirmware } from './lib/firmware.mjs';
import { Keypad } from './lib/keypad.mjs';
import { MFRC522, Type2Tag } from './lib/mfrc522.mjs';
import { SSD1306 } from './lib/ssd1306.mjs';

const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s || '', 'hex'));

class Box {
  constructor() {
    this.chip = null;
    this.tags = new Map();
    this.lifted = new Map(); // id -> [READs answered, chip ms of the first] of tags taken off
    this.cutAt = -1;
    this.out = [];
    this.fw = null;
  }

  boot(req) {
    let flash = null;
    if (req.keep) {
      if (!this.chip) throw new Error('no chip to reboot');
      flash = this.chip.flashImage();
    } else if (req.flash) flash = readFileSync(req.flash);
    if (!req.keep || !this.fw || req.update) this.fw = loadFirmware({ uf2: req.uf2, elf: req.elf, bootrom: req.bootrom });
    const fw = this.fw;
    this.board = req.board || this.board;
    this.bootReq = { mode: req.mode || (this.bootReq && this.bootReq.mode) || 'scripted',
      flashTiming: req.flash_timing !== undefined ? req.flash_timing : (this.bootReq ? this.bootReq.flashTiming : true),
      fsOffset: req.fs_offset !== undefined ? req.fs_offset : (this.bootReq && this.bootReq.fsOffset) };
    const chip = new Chip({
      bootrom: fw.bootrom, uf2: fw.uf2, elf: fw.elf, flash, update: req.update && flash ? fw.uf2 : null,
      fsImage: !flash && req.fs ? readFileSync(req.fs) : null,
      mode: this.bootReq.mode, flashTiming: this.bootReq.flashTiming, fsOffset: this.bootReq.fsOffset,
    });
    this.chip = chip;
    if (process.env.PICO_TRACE) traceTimer(chip);
    this.out = [];
    chip.onOutput = (b) => this.out.push(b);
    chip.onFlashOp = (op) => op.index !== this.cutAt;
    const b = this.board;
    const mcu = chip.mcu;
    // bus times, line rise times: on the chip's own clock ("cycles"); "scripted" time stands
    // still while the core computes, so there they would never pass
    const timed = this.bootReq.mode === 'cycles';
    this.display = b.display ? new SSD1306(mcu.i2c[b.display.i2c_id], b.display.addr, timed ? chip.clock : null) : null;
    this.reader = b.reader ? new MFRC522(mcu, mcu.spi[b.reader.spi_id], b.reader.cs, b.reader.rst, { timed }) : null;
    const kp = b.keypad;
    this.keypad = kp ? new Keypad(mcu, kp.rows, kp.cols, kp.keymap, {
      bounceNs: kp.bounce_ms !== undefined ? kp.bounce_ms * 1e6 : undefined,
      riseNs: timed ? undefined : 0,
    }) : null;
    // tags on the reader stay there across a reboot (they are not part of the box)
    if (this.reader) for (const t of this.tags.values()) this.reader.place(t);
    return {};
  }

  run(req) {
    const chip = this.chip;
    const end = chip.nanos + req.ms * 1e6;
    const alive = req.jump_ms ? chip.idleUntil(end, req.jump_ms * 1e6) : chip.runUntil(end);
    const r = { out: this._takeOut(), busy_ms: chip.busyNs / 1e6 };
    if (!alive && chip.cut) r.cut = chip.cut;
    if (!alive && chip.fault) r.fault = chip.fault;
    if (!alive && chip.reset) r.reset = chip.reset;
    return r;
  }

  _takeOut() {
    const parts = this.out;
    this.out = [];
    return parts.map(hex).join('');
  }

  handle(req) {
    const chip = this.chip;
    switch (req.op) {
      case 'boot': return this.boot(req);
      case 'run': case 'idle': return this.run(req);
      case 'write': chip.write(unhex(req.hex)); return {};
      case 'key':
        if (req.down) this.keypad.press(req.key); else this.keypad.release(req.key);
        return {};
      case 'keys_up': this.keypad.releaseAll(); return {};
      case 'at': {
        // {at_ms, event: a key / tag / lift request}: that request at chip time at_ms, while the
        // chip runs (a player's finger or a hand sweeping tiles, on the chip's clock)
        const ev = req.event;
        if (!['key', 'tag', 'lift'].includes(ev.op)) throw new Error(`at: ${ev.op} cannot be scheduled`);
        const alarm = chip.clock.createAlarm(() => this.handle(ev));
        alarm.schedule(Math.max(0, req.at_ms * 1e6 - chip.clock.nanos));
        return {};
      }
      case 'tag': {
        const t = new Type2Tag(unhex(req.uid), unhex(req.user), { name: req.id });
        this.tags.set(req.id, t);
        this.reader.place(t);
        return {};
      }
      case 'lift': {
        const ids = req.id ? [req.id] : [...this.tags.keys()];
        let reads = 0;
        const first = {};
        for (const id of ids) {
          const t = this.tags.get(id);
          if (!t) continue;
          reads += t.reads;
          first[id] = [t.reads, t.firstReadMs !== undefined ? t.firstReadMs : null];
          this.lifted.set(id, first[id]);
          this.reader.lift(t);
          this.tags.delete(id);
        }
        return { reads, tags: first };
      }
      case 'tag_reads': {
        const t = this.tags.get(req.id);
        if (!t && this.lifted.has(req.id)) {
          const [reads, first] = this.lifted.get(req.id);
          return { reads, state: -1, first_read_ms: first, lifted: true };
        }
        return { reads: t ? t.reads : -1, state: t ? t.state : -1, first_read_ms: t && t.firstReadMs !== undefined ? t.firstReadMs : null };
      }
      case 'display': {
        const d = this.display;
        if (req.log !== undefined) { d.logData = !!req.log; d.dataWrites = []; }
        const r = { glass: hex(d.glass()), frames: d.frames, updates: d.updates, on: d.on, errors: d.errors.slice(0, 5),
          contrast: d.contrast, start_line: d.startLine, offset: d.offset, mux: d.mux, last_data_ms: d.lastDataNs / 1e6 };
        if (req.take) { r.data_ms = d.dataWrites.map((ns) => ns / 1e6); d.dataWrites = []; }
        return r;
      }
      case 'keypad': {
        // {key}: chip ms of that key's first contact; lines and shorts
        const k = this.keypad;
        const i = req.key ? k.index(req.key) : -1;
        return { contact_ms: i >= 0 && k.contactNs.has(i) ? k.contactNs.get(i) / 1e6 : null, shorts: k.shorts,
          levels: k.level.map((v) => (v ? 1 : 0)), kinds: k.kind };
      }
      case 'peek': {
        // {magic: hex, n}: the n bytes after the first copy of magic in SRAM (-1: not there),
        // for probes that leave figures in a bytearray of their own (bench/pico_heap.py)
        const sram = chip.mcu.sram;
        const m = unhex(req.magic);
        const i = Buffer.from(sram.buffer, sram.byteOffset, sram.length).indexOf(Buffer.from(m));
        return i < 0 ? { at: -1 } : { at: i, hex: hex(sram.slice(i + m.length, i + m.length + (req.n || 32))) };
      }
      case 'cut_at': this.cutAt = req.index; return {};
      case 'oplog': {
        // {on: true} starts keeping every flash erase/program from now on; {} hands over
        // those kept since the last call: [kind, offset, count, data hex | null]
        if (req.on) { chip.opLog = []; return { ops: [] }; }
        const ops = (chip.opLog || []).map((o) => [o.kind, o.offset, o.count, o.data ? hex(o.data) : null]);
        if (chip.opLog) chip.opLog = [];
        return { ops };
      }
      case 'flashlog': {
        // {on: true} starts keeping [kind, start ms, end ms] of each flash erase/program (the
        // core waits for the flash meanwhile); {} hands them over
        if (req.on) { chip.flashWaits = []; return { ops: [] }; }
        const ops = chip.flashWaits || [];
        if (chip.flashWaits) chip.flashWaits = [];
        return { ops };
      }
      case 'save': writeFileSync(req.path, chip.flashImage()); return {};
      case 'settle': {
        const alive = chip.runUntilAsleep(req.max_ms * 1e6);
        const r = { out: this._takeOut(), asleep: chip.core.waiting };
        if (!alive && chip.cut) r.cut = chip.cut;
        if (!alive && chip.reset) r.reset = chip.reset;
        return r;
      }
      case 'burst': return { burst_ms: chip.takeBurst() };
      case 'stats':
        return {
          timer: chip.mcu.peripherals[0x40054].alarms.map((a) => [a.armed, a.targetMicros]),
          alarms: (() => { const l = []; let a = chip.clock.nextAlarm; while (a) { l.push(a.nanos); a = a.next; } return l; })(),
          now: chip.clock.nanos, waiting: chip.core.waiting, primask: chip.core.PM,
          trace: chip.traceLog ? chip.traceLog.slice(-30) : null,
          flash_ops: chip.flashOps, cycles: chip.cycles, busy_ms: chip.busyNs / 1e6, connected: chip.connected, pc: chip.where(),
          reader_frames: this.reader ? this.reader.frames : 0,
          reader_errors: this.reader ? this.reader.errors.slice(0, 5) : [],
          reader_writes_lost: this.reader ? this.reader.writesLost : 0,
          keypad_shorts: this.keypad ? this.keypad.shorts : 0,
        };
      default: throw new Error(`unknown op ${req.op}`);
    }
  }
}

function traceTimer(chip) {
  const timer = chip.mcu.peripherals[0x40054];
  const w = timer.writeUint32;
  const log = [];
  chip.traceLog = log;
  timer.writeUint32 = (o, v) => {
    if (o >= 0x10 && o <= 0x1c) log.push(`${(chip.clock.nanos / 1000).toFixed(3)} arm${(o - 0x10) / 4} ${v} ${chip.where()}`);
    return w(o, v);
  };
  const f = timer.fireAlarm.bind(timer);
  timer.fireAlarm = (i) => {
    f(i);
    const c = chip.core;
    log.push(`${(chip.clock.nanos / 1000).toFixed(3)} fire${i} waiting=${c.waiting} pend=${c.pendingInterrupts.toString(16)} en=${c.enabledInterrupts.toString(16)} PM=${c.PM} IPSR=${c.IPSR} ${chip.where()}`);
    if (log.length > 200) log.splice(0, 100);
  };
}

const box = new Box();
const rl = createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let reply;
  try {
    const req = JSON.parse(line);
    reply = { ok: true, ...box.handle(req) };
  } catch (e) {
    reply = { ok: false, error: String(e && e.stack || e) };
  }
  reply.ms = box.chip ? box.chip.ms : 0;
  process.stdout.write(JSON.stringify(reply) + '\n');
});
