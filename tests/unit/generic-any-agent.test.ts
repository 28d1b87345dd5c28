// Issue 24: the generic tier on an agent it was never built with, through a real PaneMonitor (real @xterm/headless) in
// virtual time. An Ink-style agent on the main screen that parks its cursor on an empty row below its footer, shows a
// placeholder in its empty box, redraws its spinner in place: its start-up is no turn, its turn ends when its frames
// stop, marks it wraps around messages end nothing, questions in other shapes ask, an answered question's text left in
// the transcript asks no more, an error on screen before the turn is not the turn's. Each test fails without its rule.
import { describe, expect, it } from 'vitest';
import { useDrivers, type PaneDriver } from '../helpers/driver.js';

const driver = useDrivers({ cols: 100, rows: 30 });
const moves = (d: PaneDriver) => d.transitions.filter((tr) => tr.from !== tr.to).map((tr) => tr.to);

const BOX_TOP = '╭' + '─'.repeat(60) + '╮';
const BOX_BOTTOM = '╰' + '─'.repeat(60) + '╯';
const FOOTER = '  ~/project   model-x   ? for shortcuts';
const SPIN = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴'];

/** One frame of an inline TUI: the transcript, an optional status row, the input box (placeholder or typed text) and
 * its footer, redrawn from the top of the screen; the cursor parked on the empty row under the footer. */
function frame(transcript: string[], opts: { status?: string; typed?: string; cursorInBox?: boolean } = {}): string {
  const input = opts.typed !== undefined ? `│ › ${opts.typed}` : '│ › Ask me anything...';
  const rows = [...transcript, ...(opts.status ? [opts.status] : []), BOX_TOP, input, BOX_BOTTOM, FOOTER];
  // (or the cursor in the box, after the prompt glyph: rows below it, the classic TUI shape)
  return '\x1b[H' + rows.map((r) => `${r}\x1b[K`).join('\r\n') + '\x1b[J\r\n' + (opts.cursorInBox ? '\x1b[3A\x1b[5G' : '');
}

/** Frames of work every 0.1 s from `t` to `end` (a spinner with the hint or without), returns the time after. */
async function spin(d: PaneDriver, t: number, end: number, transcript: string[], hint: string | null = 'esc to interrupt'): Promise<number> {
  for (let i = 0; t < end; i++, t += 0.1) await d.out(t, frame(transcript, { status: `${SPIN[i % SPIN.length]} Thinking… (${Math.floor(t)}s${hint ? ` · ${hint}` : ''})` }));
  return t;
}

/** The person types `text` into the box (each key's redraw right after it) and presses Enter. */
async function submit(d: PaneDriver, t: number, transcript: string[], text: string): Promise<number> {
  for (let i = 1; i <= text.length; i++, t += 0.05) {
    await d.input(t, text[i - 1]!);
    await d.out(t + 0.01, frame(transcript, { typed: text.slice(0, i) }));
  }
  await d.input(t, '\r');
  return t;
}

const LOGO = Array.from({ length: 40 }, (_, i) => `  ${'/\\_'.repeat(20)} ${i}`);

describe('start-up is no turn', () => {
  it('a warning line, a 40-row logo and the box drawn before any Enter: no RUNNING (auto and generic)', async () => {
    for (const agent of ['auto', 'generic'] as const) {
      const d = driver({ agent });
      await d.out(0.2, 'Warning: the update check failed: getaddrinfo ENOTFOUND registry.example.invalid\r\n');
      await d.out(0.5, LOGO.join('\r\n') + '\r\n');
      await d.out(0.9, frame(['Tips: ask anything.']));
      await d.out(1.5, frame(['Tips: ask anything.']));
      await d.until(10);
      expect(moves(d), `${agent}\n${d.describe()}`).toEqual([]);
    }
  });

  it('joined mid-turn: frames with an interrupt hint before any Enter are work', async () => {
    const d = driver({ agent: 'auto' });
    await d.out(0.1, frame(['> an earlier prompt']));
    await spin(d, 0.5, 4, ['> an earlier prompt']);
    await d.until(4.2);
    expect(moves(d), d.describe()).toEqual(['RUNNING']);
  });
});

describe('a turn on an inline TUI (cursor parked below the footer, a placeholder in the empty box)', () => {
  it('RUNNING on its frames, DONE once they stop; auto mode reads it as the generic tier does', async () => {
    for (const agent of ['auto', 'generic'] as const) {
      const d = driver({ agent });
      await d.out(0.2, frame(['Welcome.']));
      const t0 = await submit(d, 1, ['Welcome.'], 'say hello please');
      const T = ['Welcome.', '> say hello please'];
      const t1 = await spin(d, t0 + 0.05, t0 + 3, T);
      await d.out(t1, frame([...T, '⏺ Hello! Here is the answer.']));
      await d.until(t1 + 4);
      expect(moves(d), `${agent}\n${d.describe()}`).toEqual(['RUNNING', 'DONE']);
      expect(d.first('DONE')!.t - t1, d.describe()).toBeLessThan(2);
    }
  });

  it('an apology naming an API error as the last message: FAILED', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.2, frame(['Welcome.']));
    const t0 = await submit(d, 1, ['Welcome.'], 'say hello please');
    const T = ['Welcome.', '> say hello please'];
    const t1 = await spin(d, t0 + 0.05, t0 + 2, T);
    await d.out(t1, frame([...T, '⏺ Sorry, I encountered an error: API error: 500 Internal server error']));
    await d.until(t1 + 4);
    expect(moves(d), d.describe()).toEqual(['RUNNING', 'FAILED']);
  });

  it('an error already on screen when Enter was pressed (a failed update check) is not the turn’s failure', async () => {
    const d = driver({ agent: 'generic' });
    const top = ['Error: update check failed: network unreachable', 'Welcome.'];
    await d.out(0.2, frame(top));
    const t0 = await submit(d, 1, top, 'say hello please');
    const T = [...top, '> say hello please'];
    const t1 = await spin(d, t0 + 0.05, t0 + 2, T);
    await d.out(t1, frame([...T, 'Done.']));
    await d.until(t1 + 4);
    expect(moves(d), d.describe()).toEqual(['RUNNING', 'DONE']);
  });

  it('a silent agent: the prompt taken into the transcript is the turn’s evidence', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.2, frame(['Welcome.'], { cursorInBox: true }));
    const t0 = await submit(d, 1, ['Welcome.'], 'say hello please');
    // the box is cleared and the words stand as a message; nothing else is drawn for 2 s
    await d.out(t0 + 0.05, frame(['Welcome.', '│ say hello please'], { cursorInBox: true }));
    await d.until(t0 + 0.5);
    expect(moves(d), d.describe()).toEqual(['RUNNING']);
  });
});

describe('prompt marks from a program that is no shell', () => {
  it('OSC 133 A B C D;0 around each message block end no turn (DONE only when the frames stop)', async () => {
    const d = driver({ agent: 'auto' });
    const mark = (s: string) => `\x1b]133;${s}\x07`;
    await d.out(0.2, frame(['Welcome.']));
    const t0 = await submit(d, 1, ['Welcome.'], 'say hello please');
    const T = ['Welcome.', '> say hello please'];
    await d.out(t0 + 0.05, mark('A') + mark('B') + mark('C') + mark('D;0'));
    const t1 = await spin(d, t0 + 0.1, t0 + 2, T);
    await d.out(t1, mark('A') + mark('B') + mark('C') + frame([...T, '⏺ step one']) + mark('D;0'));
    const t2 = await spin(d, t1 + 0.1, t1 + 3, [...T, '⏺ step one']);
    expect(moves(d), d.describe()).toEqual(['RUNNING']);
    await d.out(t2, frame([...T, '⏺ step one', '⏺ all done']));
    await d.until(t2 + 4);
    expect(moves(d), d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.counted(/mark_in_agent/), d.describe()).toBeGreaterThan(0);
  });
});

describe('questions in other shapes', () => {
  for (const q of [['  Run `ls -la`?', '  [y] Approve   [n] Deny'], ['  Apply the edit?', '  Continue (tab)   Cancel (esc)'], ['  Allow the command?', '  ❯ ✓ Allow once', '    ✗ Deny']]) {
    it(`${q[q.length - 1]!.trim()} → WAITING within 0.5 s`, async () => {
      const d = driver({ agent: 'generic' });
      await d.out(0.2, frame(['Welcome.']));
      const t0 = await submit(d, 1, ['Welcome.'], 'list the files');
      const T = ['Welcome.', '> list the files'];
      const t1 = await spin(d, t0 + 0.05, t0 + 1.5, T);
      await d.out(t1, frame([...T, ...q]));
      await d.until(t1 + 2);
      expect(moves(d), d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL']);
      expect(d.first('WAITING_APPROVAL')!.t - t1, d.describe()).toBeLessThan(0.5);
    });
  }

  it('an answered y/n question whose text stays in the transcript asks no more: DONE after the refusal', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.2, frame(['Welcome.']));
    const t0 = await submit(d, 1, ['Welcome.'], 'clean the build');
    const T = ['Welcome.', '> clean the build'];
    const t1 = await spin(d, t0 + 0.05, t0 + 1.5, T);
    const Q = [...T, 'Run `rm -rf build`? (y/n)'];
    await d.out(t1, frame(Q));
    await d.input(t1 + 1, 'n');
    await d.out(t1 + 1.02, frame([...Q, '  ⎿ Denied. The command was not run.']));
    await d.until(t1 + 6);
    expect(moves(d), d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
  });
});

describe('work that looks quiet', () => {
  it('a back-off showing only a spinner glyph keeps the turn RUNNING until its answer', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.2, frame(['Welcome.']));
    const t0 = await submit(d, 1, ['Welcome.'], 'say hello please');
    const T = ['Welcome.', '> say hello please'];
    let t = await spin(d, t0 + 0.05, t0 + 1, T);
    // only the glyph redraws, in place, every 80 ms, for 8 s
    for (let i = 0; t < t0 + 9; i++, t += 0.08) await d.out(t, `\x1b7\x1b[${T.length + 1};1H${SPIN[i % SPIN.length]}\x1b[K\x1b8`);
    expect(moves(d), d.describe()).toEqual(['RUNNING']);
    await d.out(t, frame([...T, '⏺ Hello.']));
    await d.until(t + 4);
    expect(moves(d), d.describe()).toEqual(['RUNNING', 'DONE']);
  });
});
