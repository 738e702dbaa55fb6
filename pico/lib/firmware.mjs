// Where the Pico's firmware files are: the stock MicroPython build and the boot ROM as a user
// downloads them (default ../shared/pico beside the repository; PICO_FIRMWARE_DIR overrides),
// or a UF2 + ELF pair given by path (a frozen build in build/).
import { existsSync, readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { fileURLToPath } from 'url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const STOCK_UF2 = 'micropython-v1.28.0-RPI_PICO.uf2';
export const STOCK_ELF = 'micropython-v1.28.0-RPI_PICO.elf';
export const BOOTROM = 'rp2040-bootrom-b1.bin';

export function firmwareDir() {
  return resolve(process.env.PICO_FIRMWARE_DIR || join(REPO, '..', 'shared', 'pico'));
}

/** {bootrom: Uint32Array, uf2, elf} from paths (uf2 / elf default to the stock build). */
export function loadFirmware({ uf2 = null, elf = null, bootrom = null } = {}) {
  const dir = firmwareDir();
  uf2 = uf2 || join(dir, STOCK_UF2);
  elf = elf || (uf2.endsWith('.uf2') ? uf2.slice(0, -4) + '.elf' : null);
  if (elf && !existsSync(elf) && uf2 === join(dir, STOCK_UF2)) elf = join(dir, STOCK_ELF);
  bootrom = bootrom || join(dir, BOOTROM);
  for (const p of [uf2, elf, bootrom]) {
    if (!p || !existsSync(p)) throw new Error(`missing Pico firmware file: ${p} (set PICO_FIRMWARE_DIR)`);
  }
  const br = readFileSync(bootrom);
  return {
    bootrom: new Uint32Array(br.buffer.slice(br.byteOffset, br.byteOffset + br.length)),
    uf2: readFileSync(uf2), elf: readFileSync(elf), paths: { uf2, elf, bootrom },
  };
}
