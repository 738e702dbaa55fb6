// The symbol table and loadable segments of an ELF32 little-endian file (the firmware's ELF):
// enough to find the RAM addresses of the SDK's flash functions and where their code is stored.
export function readElf(buf) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (dv.getUint32(0, false) !== 0x7f454c46 || buf[4] !== 1 || buf[5] !== 1) {
    throw new Error('not an ELF32 little-endian file');
  }
  const shoff = dv.getUint32(32, true);
  const shentsize = dv.getUint16(46, true);
  const shnum = dv.getUint16(48, true);
  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * shentsize;
    sections.push({
      type: dv.getUint32(o + 4, true), addr: dv.getUint32(o + 12, true),
      offset: dv.getUint32(o + 16, true), size: dv.getUint32(o + 20, true),
      link: dv.getUint32(o + 24, true), entsize: dv.getUint32(o + 36, true),
    });
  }
  const symbols = new Map();
  for (const s of sections) {
    if (s.type !== 2) continue; // SHT_SYMTAB
    const strtab = sections[s.link];
    for (let o = s.offset; o < s.offset + s.size; o += s.entsize) {
      const nameOff = dv.getUint32(o, true);
      let end = strtab.offset + nameOff;
      while (buf[end] !== 0) end++;
      const name = new TextDecoder().decode(buf.subarray(strtab.offset + nameOff, end));
      if (name) symbols.set(name, { value: dv.getUint32(o + 4, true), size: dv.getUint32(o + 8, true) });
    }
  }
  return { symbols };
}
