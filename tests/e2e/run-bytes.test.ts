// `run` passes its program's output through byte for byte (issue 27): what reaches the person's terminal is exactly
// what the program wrote, valid UTF-8 or not (Latin-1 text, binary, a UTF-8 character cut by a read), while the
// analysis reads its own decoded copy. The BUILT wrapper in a real pty whose reads are kept as bytes (node-pty
// `encoding: null`), compared with the bytes the program was given to write.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT, scratch, testEnv, waitFor } from './harness.js';
import { HeldPty } from './held-pty.js';

/** The invalid-UTF-8 blob's size: big enough that the wrapper reads it in many pieces, cutting sequences. */
const BLOB_BYTES = 1 << 20;
const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');

const cleanups: Array<() => void> = [];
beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Runs `run --no-daemon -- argv` in a pty and returns every byte its terminal received; `typed` is typed into that
 * terminal once the program's `ready` text shows. */
async function terminalBytes(argv: string[], typed?: { ready: string; bytes: Buffer }): Promise<{ out: Buffer; code: number }> {
  const s = scratch();
  cleanups.push(s.cleanup);
  const term = new HeldPty(process.execPath, [BIN, 'run', '--log', s.log, '--no-daemon', '--', ...argv], { cols: 100, rows: 30, cwd: ROOT, env: testEnv(s.dir) });
  cleanups.push(() => term.kill());
  if (typed) {
    await waitFor('the program ready for input', () => term.bytes.includes(typed.ready), () => term.bytes.toString('latin1'));
    term.term.write(typed.bytes);
  }
  return term.ended();
}

describe('run: byte-transparent pass-through', () => {
  it("printf 'caf\\xe9\\n' reaches the terminal as those bytes, not as U+FFFD", { timeout: 60_000 }, async () => {
    const { out, code } = await terminalBytes(['printf', 'caf\\351\\n']);
    expect(code).toBe(0);
    const at = out.indexOf(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(at, out.toString('latin1')).toBeGreaterThanOrEqual(0);
    // The line ends as a terminal ends it (the pty's own \n → \r\n), nothing between.
    expect(out[at + 4]).toBe(0x0d);
    expect(out.includes(REPLACEMENT)).toBe(false);
  });

  it('bytes typed at the terminal reach the program as typed (Latin-1 é is not made U+FFFD)', { timeout: 60_000 }, async () => {
    // The program reads 4 bytes of a line and prints them in hex.
    const { out, code } = await terminalBytes(['sh', '-c', 'echo ready-for-input; head -c 4 | od -An -tx1'], { ready: 'ready-for-input', bytes: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    expect(code).toBe(0);
    expect(out.toString('latin1')).toMatch(/63 61 66 e9/);
  });

  it('1 MB of invalid UTF-8 comes out as the same 1 MB', { timeout: 120_000 }, async () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    // High bytes (lone continuation bytes, cut lead bytes, 0xff) with printable ASCII between; no \n, so neither pty
    // rewrites a byte (ONLCR is the only output processing) and no ESC, so the blob is not read as sequences.
    const blob = Buffer.from(randomBytes(BLOB_BYTES).map((b) => (b < 0x80 ? 0x20 + (b % 0x5f) : b)));
    expect(blob.includes(0x0a)).toBe(false);
    const file = join(s.dir, 'blob.bin');
    writeFileSync(file, blob);
    // `cat` exits the instant it wrote the last byte: straight under node-pty its last 4-6 KiB are lost (the pty hangs
    // up before the last read); the wrapper holds the pty until it has read everything (pty-bytes.ts).
    const { out, code } = await terminalBytes(['cat', file]);
    expect(code).toBe(0);
    const at = out.indexOf(blob.subarray(0, 64));
    expect(at).toBeGreaterThanOrEqual(0);
    const got = out.subarray(at, at + blob.length);
    expect(got.length).toBe(blob.length);
    // Compared whole (a mismatch says where, not a megabyte of diff).
    const first = got.findIndex((b, i) => b !== blob[i]);
    expect(first).toBe(-1);
    // Nor anywhere around it (the blob itself may hold EF BF BD by chance: about one run in sixteen).
    expect(Buffer.concat([out.subarray(0, at), out.subarray(at + blob.length)]).includes(REPLACEMENT)).toBe(false);
  });
});
