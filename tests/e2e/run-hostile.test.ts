// The `run` wrapper's pass-through never waits for analysis: a program prints output that takes the pane monitor
// seconds to parse (scrolls of a 1000x1000 pane), then a line; the line reaches the person's terminal at once, while
// the monitor is still busy, and the monitor still ends the turn correctly afterwards. The BUILT wrapper in a real
// pty. The measured bounds (the line's delay, the wrapper's exit) are safety properties with wide slack: before, they
// waited for the whole parse (seconds); the wrapper now parses on a thread of its own and exits without waiting.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { scratch, testEnv, Wrapped } from './harness.js';

/** Far above what the pass-through takes (a few ms), far below what the parse before the line takes (seconds). */
const MAX_LINE_DELAY_MS = 1000;
/** The wrapper returns to the person's shell within this of its program's exit, whatever analysis has left to read
 * (the bound: 0.5 s; before, it waited for the whole parse), with slack for a loaded machine and the
 * harness's own polling. */
const MAX_EXIT_DELAY_MS = 1500;
/** The program sleeps this long after its line, then exits. */
const PROGRAM_TAIL_MS = 200;
/** Scrolls of a whole 1000-row pane: about 20 ms each to parse. */
const SCROLLS = 150;

const open: Wrapped[] = [];
const cleanups: Array<() => void> = [];
beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => {
  for (const w of open.splice(0)) w.kill();
  for (const c of cleanups.splice(0)) c();
});

describe('run: hostile output', () => {
  it('a line printed after seconds-to-parse output reaches the terminal at once; the turn still ends DONE', { timeout: 60_000 }, async () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    const file = join(s.dir, 'scrolls.bin');
    writeFileSync(file, '\x1b[9999S'.repeat(SCROLLS));
    const script = `cat ${file}; printf 'printed-at=%s\\n' "$(date +%s%3N)"; sleep ${PROGRAM_TAIL_MS / 1000}`;
    const w = new Wrapped(s.log, ['--no-daemon', '--cols', '1000', '--rows', '1000', '--', 'sh', '-c', script], testEnv(s.dir));
    open.push(w);
    let arrived = 0;
    w.term.onData((d) => {
      if (!arrived && /printed-at=\d+/.test(w.output + d)) arrived = Date.now();
    });
    await w.waitOutput('the line after the scrolls', (out) => /printed-at=\d+\r?\n/.test(out));
    const printed = Number(/printed-at=(\d+)/.exec(w.output)![1]);
    expect(arrived - printed, w.diag()).toBeLessThan(MAX_LINE_DELAY_MS);

    expect((await w.exited()).exitCode).toBe(0);
    const gone = Date.now();
    const events = w.events();
    const exit = events.find((e) => e.kind === 'pane_exit')!;
    const start = events.find((e) => e.kind === 'pane_start')!;
    // The monitor was still busy when the program ended (its sleep over, PROGRAM_TAIL_MS after the line): the
    // wrapper did not wait for it, yet the one-shot's turn ends DONE, from its exit.
    expect(gone - printed - PROGRAM_TAIL_MS, w.diag()).toBeLessThan(MAX_EXIT_DELAY_MS);
    expect(Date.parse(String(exit.ts)) - printed, w.diag()).toBeLessThan(PROGRAM_TAIL_MS + MAX_EXIT_DELAY_MS);
    expect(Date.parse(String(start.ts))).toBeLessThan(printed);
    expect(w.transitions().at(-1), w.diag()).toMatchObject({ state: 'DONE', rule: 'run.command_finished' });
  });
});
