#!/usr/bin/env node
// Boot MicroPython on an emulated Pico, run one script, print its USB CDC output.
//
//   node pico/run.mjs --fs build/x.img --run /run.py [--timeout 300] [--uf2 F.uf2 --elf F.elf]
//   node pico/run.mjs --fs build/x.img --exec "import gc; print(gc.mem_free())"
//   node pico/run.mjs --fs build/x.img --main        # main.py's output, until the REPL prompt
//
// The script's stdout goes to stdout as it comes; its exception (if any) to stderr, exit 1.
// --timeout is wall-clock seconds (exit 124), --max-ms the emulated ms it may take.
// --save-flash FILE keeps the 2 MiB flash (firmware + littlefs) as it is at the end.
// --mode cycles (default: ticks_us is the chip's time) | scripted (computing takes no time).
// --fs-offset N: where the --fs image goes (default 0xA0000, the Pico's; the Pico W's 0x12C000).
// Firmware files: --uf2/--elf/--bootrom, default the stock v1.28.0 build in $PICO_FIRMWARE_DIR
// or ../shared/pico. Python side: `python -m pico.run SCRIPT --files DIR` builds the image.
import { readFileSync, writeFileSync } from 'fs';
import { Chip } from './lib/chip.mjs';
import { loadFirmware } from './lib/firmware.mjs';
import { Repl } from './lib/repl.mjs';

function parseArgs(argv) {
  const a = { timeout: 600, maxMs: 3600e3, mode: 'cycles' };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--fs') a.fs = v();
    else if (k === '--flash') a.flash = v();
    else if (k === '--run') a.run = v();
    else if (k === '--exec') a.exec = v();
    else if (k === '--main') a.main = true;
    else if (k === '--timeout') a.timeout = Number(v());
    else if (k === '--max-ms') a.maxMs = Number(v());
    else if (k === '--uf2') a.uf2 = v();
    else if (k === '--elf') a.elf = v();
    else if (k === '--bootrom') a.bootrom = v();
    else if (k === '--save-flash') a.saveFlash = v();
    else if (k === '--mode') a.mode = v();
    else if (k === '--no-flash-timing') a.flashTiming = false;
    else if (k === '--flash-timing') a.flashTiming = v(); // typical | max (W25Q16JV, chip.mjs)
    else if (k === '--quiet-boot') a.quietBoot = true;
    else if (k === '--fs-offset') a.fsOffset = Number(v());
    else throw new Error(`unknown option ${k}`);
  }
  return a;
}

function main() {
  const a = parseArgs(process.argv.slice(2));
  const fw = loadFirmware({ uf2: a.uf2, elf: a.elf, bootrom: a.bootrom });
  const chip = new Chip({
    bootrom: fw.bootrom, uf2: fw.uf2, elf: fw.elf, mode: a.mode,
    flashTiming: a.flashTiming === undefined ? true : a.flashTiming,
    fsImage: a.fs ? readFileSync(a.fs) : null, flash: a.flash ? readFileSync(a.flash) : null,
    ...(a.fsOffset !== undefined ? { fsOffset: a.fsOffset } : {}),
  });
  const deadline = Date.now() + a.timeout * 1000;
  const repl = new Repl(chip);
  const finish = (code) => {
    if (a.saveFlash) writeFileSync(a.saveFlash, chip.flashImage());
    process.stderr.write(`[pico] emulated ${chip.ms.toFixed(1)} ms, ${chip.flashOps} flash writes, ` +
      `wall ${((Date.now() - deadline) / 1000 + a.timeout).toFixed(1)} s\n`);
    process.exitCode = code;
  };
  if (a.main) {
    // main.py runs at boot; its output before the host connects waits in the device's FIFO.
    repl.onData = (s) => process.stdout.write(Buffer.from(s.replace(/\r\n/g, '\n'), 'latin1'));
    const i = repl.waitFor('\r\n>>> ', { maxMs: a.maxMs, deadline });
    return finish(i < 0 ? 124 : 0);
  }
  const t = repl.boot({ deadline });
  if (t < 0) {
    process.stderr.write('[pico] no REPL prompt: ' + JSON.stringify(repl.buf.slice(-300)) + '\n');
    return finish(124);
  }
  const code = a.exec != null ? a.exec
    : `exec(open(${JSON.stringify(a.run || '/run.py')}).read(), {'__name__': '__main__'})`;
  let shown = 0;
  const start = repl.buf.length;
  repl.onData = () => {
    // stream the script's output: what lies between "OK" and the first 0x04
    const s = repl.buf.slice(start);
    const ok = s.indexOf('OK');
    if (ok < 0) return;
    let body = s.slice(ok + 2);
    const end = body.indexOf('\x04');
    if (end >= 0) body = body.slice(0, end);
    if (body.length > shown) {
      process.stdout.write(Buffer.from(body.slice(shown).replace(/\r\n/g, '\n'), 'latin1'));
      shown = body.length;
    }
  };
  const r = repl.exec(code, { maxMs: a.maxMs, deadline });
  repl.onData = null;
  if (r.timeout) {
    process.stderr.write('[pico] timed out\n');
    return finish(124);
  }
  if (!r.ok) process.stderr.write(Buffer.from(r.err.replace(/\r\n/g, '\n'), 'latin1'));
  return finish(r.ok ? 0 : 1);
}

main();
