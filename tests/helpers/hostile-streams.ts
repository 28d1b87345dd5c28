// Hostile pane output, generated from a seeded PRNG so every failure reproduces: random bytes and UTF-16 code
// units, broken UTF-8 cut at awkward places, and a splitter that chops any stream into pty-sized reads.
import { Prng } from '../../src/bench/prng.js';

export { Prng };

/** Largest single read a pty hands over (and the largest chunk these generators cut). */
export const MAX_READ = 64 << 10;

export function randomBytes(r: Prng, total: number): Uint8Array[] {
  return splitBytes(r, r.bytes(total));
}

/** Any UTF-16 code unit: controls, C1, lone surrogate halves, private use, noncharacters. */
export function randomStrings(r: Prng, total: number): string[] {
  const units = new Uint16Array(total);
  for (let i = 0; i < total; i++) units[i] = r.chance(0.3) ? r.int(0, 0x7f) : r.int(0, 0xffff);
  return splitString(r, decodeUnits(units));
}

/** UTF-8 that lies: stray continuation bytes, sequences cut short, overlongs, encoded surrogates, bytes past
 * U+10FFFF, 0xFE/0xFF, and valid sequences whose bytes land in different reads. */
export function brokenUtf8(r: Prng, total: number): Uint8Array[] {
  const pieces: number[][] = [
    [0x80],
    [0xbf, 0xbf],
    [0xe2, 0x94], // "─" without its last byte
    [0xf0, 0x9f, 0x98], // an emoji cut short
    [0xc0, 0xaf], // overlong "/"
    [0xe0, 0x80, 0xaf], // overlong, three bytes
    [0xed, 0xa0, 0x80], // a UTF-16 surrogate encoded in UTF-8
    [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
    [0xfe],
    [0xff, 0xfe],
    [0xe2, 0x94, 0x80], // valid "─" (the splitter may cut it)
    [0xf0, 0x9f, 0x98, 0x80], // valid emoji
    [0x41, 0x0a],
  ];
  const out = new Uint8Array(total);
  for (let i = 0; i < total; ) {
    for (const b of r.pick(pieces)) if (i < total) out[i++] = b;
  }
  return splitBytes(r, out);
}

/** Cut into reads of 1 byte to MAX_READ, small reads more likely (so sequences straddle many boundaries). */
export function splitBytes(r: Prng, bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = readSize(r);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

export function splitString(r: Prng, s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    const n = readSize(r);
    out.push(s.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Printable ASCII garbage (no ESC, BEL or other controls): payload filler that never ends a sequence. */
export function printable(r: Prng, n: number): string {
  const units = new Uint8Array(n);
  for (let i = 0; i < n; i++) units[i] = r.int(0x20, 0x7e);
  return Buffer.from(units).toString('latin1');
}

function readSize(r: Prng): number {
  return r.chance(0.5) ? r.int(1, 16) : r.int(1, MAX_READ);
}

function decodeUnits(units: Uint16Array): string {
  // In slices: spreading megabytes of arguments into one call overflows the stack.
  let s = '';
  for (let i = 0; i < units.length; i += 8192) s += String.fromCharCode(...units.subarray(i, i + 8192));
  return s;
}
