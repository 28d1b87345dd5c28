// `classify` is bounded offline too (issue 27, item 6: it had not finished on a scroll storm in 215 s): a row is read
// up to a bound of characters, escapes included, its last ones kept; an ordinary coloured screen is read whole.
import { describe, expect, it } from 'vitest';
import { classifyText } from '../../src/cli/classify.js';
import { loadConfig } from '../../src/config/config.js';

const cfg = loadConfig();
/** Far above what the bounded row takes (well under a second), far below the unbounded parse (tens of seconds). */
const MAX_MS = 5000;

describe('classify is bounded', () => {
  it('a row of 4 MB of scroll pairs: read in bounded time, to the verdict a short storm gives', async () => {
    const screen = (pairs: number) => `make\n${'\x1b[9999S\x1b[9999T'.repeat(pairs)}\x1b[1;31merror: build failed\x1b[0m\n$ `;
    const t0 = performance.now();
    const c = await classifyText(screen((4 << 20) / 14), cfg, 'shell');
    expect(performance.now() - t0).toBeLessThan(MAX_MS);
    expect(c).toEqual(await classifyText(screen(100), cfg, 'shell'));
  });

  it('a coloured screen of full rows is read whole', async () => {
    const row = (i: number) => Array.from({ length: 120 }, (_, k) => `\x1b[38;5;${(i + k) % 256}m${String.fromCharCode(97 + ((i + k) % 26))}`).join('') + '\x1b[0m';
    const screen = [...Array.from({ length: 30 }, (_, i) => row(i)), 'Do you want to continue? [y/N] '].join('\n');
    const c = await classifyText(screen, cfg, 'shell');
    expect(c.verdict).toBe('waiting');
  });
});
