// The native helper (src/native/malloc-trim, loaded by src/daemon/malloc-trim.ts) in a real Node process: small
// ArrayBuffers (as xterm keeps each line's cells) freed among a few kept ones stay resident after V8 collects them,
// until trim() gives the free pages back. Run in a child process (the build's copy) so its heap is only this test's.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mallocTrim } from '../../src/daemon/malloc-trim.js';

const glibc = process.platform === 'linux' && Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })?.header?.glibcVersionRuntime);

const CHILD = `
const { mallocTrim } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../dist/daemon/malloc-trim.js')).href)});
const m = mallocTrim((why) => { throw new Error(why); });
const rss = () => process.memoryUsage().rss;
const keep = [];
let lines = [];
for (let i = 0; i < 60000; i++) { lines.push(new Uint32Array(240)); if (i % 50 === 0) keep.push(new Uint32Array(240)); }
lines = null; gc(); await new Promise((r) => setTimeout(r, 100)); gc();
const free = m.freeBytes(), collected = rss();
m.trim();
process.stdout.write(JSON.stringify({ free, collected, trimmed: rss(), kept: keep.length }));
`;

describe.runIf(glibc)('malloc trim (glibc)', () => {
  it('is built and loads', () => {
    const m = mallocTrim();
    expect(m).not.toBeNull();
    expect(m!.freeBytes()).toBeGreaterThanOrEqual(0);
    expect(typeof m!.trim()).toBe('boolean');
  });

  it('gives back what V8 freed and malloc kept: 56 MB of line cells freed among kept ones', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD], { encoding: 'utf8' });
    const r = JSON.parse(out) as { free: number; collected: number; trimmed: number };
    const MB = 1 << 20;
    // malloc holds the freed cells (60,000 × 960 bytes), resident until the trim
    expect(r.free).toBeGreaterThan(40 * MB);
    expect(r.collected - r.trimmed).toBeGreaterThan(30 * MB);
  });
});
