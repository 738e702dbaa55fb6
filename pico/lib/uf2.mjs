// UF2 files (https://github.com/microsoft/uf2): 512-byte blocks, each with a target address and
// up to 476 bytes of payload. Written into the emulated flash as the boot ROM's UF2 drive would.
const MAGIC0 = 0x0a324655;
const MAGIC1 = 0x9e5d5157;
const MAGIC_END = 0x0ab16f30;
export const FLASH_BASE = 0x10000000;

export function* uf2Blocks(data) {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let o = 0; o + 512 <= data.length; o += 512) {
    if (dv.getUint32(o, true) !== MAGIC0 || dv.getUint32(o + 4, true) !== MAGIC1 ||
        dv.getUint32(o + 508, true) !== MAGIC_END) {
      throw new Error(`UF2 block at ${o}: bad magic`);
    }
    const flags = dv.getUint32(o + 8, true);
    if (flags & 1) continue; // not for the main flash
    const addr = dv.getUint32(o + 12, true);
    const size = dv.getUint32(o + 16, true);
    yield { addr, payload: data.subarray(o + 32, o + 32 + size) };
  }
}

export function loadUf2(data, flash) {
  let top = 0;
  for (const { addr, payload } of uf2Blocks(data)) {
    const off = addr - FLASH_BASE;
    if (off < 0 || off + payload.length > flash.length) throw new Error(`UF2 block outside flash: 0x${addr.toString(16)}`);
    flash.set(payload, off);
    top = Math.max(top, off + payload.length);
  }
  return top;
}

/**
 * What the boot ROM's RPI-RP2 drive does with a UF2 copied to it: each 4 KiB sector a block
 * falls in is erased once, then the blocks are programmed; the rest of the flash (the
 * filesystem with the journal, beyond the firmware) stays as it was. Returns the top offset.
 */
export function flashUf2(data, flash) {
  const erased = new Set();
  let top = 0;
  for (const { addr, payload } of uf2Blocks(data)) {
    const off = addr - FLASH_BASE;
    if (off < 0 || off + payload.length > flash.length) throw new Error(`UF2 block outside flash: 0x${addr.toString(16)}`);
    for (let s = off >> 12; s <= (off + payload.length - 1) >> 12; s++) {
      if (!erased.has(s)) { erased.add(s); flash.fill(0xff, s << 12, (s + 1) << 12); }
    }
    flash.set(payload, off);
    top = Math.max(top, off + payload.length);
  }
  return top;
}
