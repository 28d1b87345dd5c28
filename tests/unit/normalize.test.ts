// Change detection: the parts of a screen that move without meaning progress fold to the same hash; real text
// changes never do. Plus the change queue built on it (meaningful flag, cursor row, echo of typed keys).
import { describe, expect, it } from 'vitest';
import { foldLine, hashLines, hashRow, normalizeLine } from '../../src/queue/normalize.js';
import { PaneChangeQueue } from '../../src/queue/pane-change-queue.js';
import { loadConfig } from '../../src/config/config.js';
import type { ScreenSnapshot } from '../../src/screen/types.js';
import { screenAt } from '../helpers/screen.js';

const same = (a: string[], b: string[]) => expect(hashLines(a, true), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(hashLines(b, true));
const differ = (a: string[], b: string[]) => expect(hashLines(a, true), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).not.toBe(hashLines(b, true));

describe('normalizeLine', () => {
  it('folds exactly as the full fold does, whatever the row holds (its shortcut skips only rows with nothing to fold)', () => {
    const parts = ['', ' ', '\t', '\u00a0', '\u3000', '\ufeff', 'a', 'Done', '·', '✢', '✳', '✶', '✻', '✽', '*', '◐', '◓', '●', '|', '/', '\\', '-', '⠋', '⣿', '⠀',
      '7', '12s', '1m 5s', '12:07', '250ms', '2h', 'x9', '→', '漢', '🚀', '(', ')', '…'];
    // Every row of up to three parts, and a seeded sample of longer ones.
    const rows: string[] = [];
    for (const a of parts) for (const b of parts) for (const c of parts) rows.push(a + b + c);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length;
    for (let i = 0; i < 5000; i++) rows.push(Array.from({ length: 4 + (i % 9) }, () => parts[next()]).join(''));
    for (const row of rows) expect(normalizeLine(row), JSON.stringify(row)).toBe(foldLine(row));
    // A row's folded hash (one pass from the first non-blank character when there is nothing to fold) is the hash
    // of its full fold, and every kind of blank trimStart removes counts as leading blank there too.
    const blanks = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
    for (const b of blanks) rows.push(`${b}${b}plain row`, `${b}7 files`, `${b}⠋ Working`);
    rows.push('\u200bzero-width is not blank', '\u0085next line is not blank either');
    for (const row of rows) expect(hashRow(row, true), JSON.stringify(row)).toBe(hashRow(foldLine(row), false));
  });
});

describe('folded: spinners, timers, clocks', () => {
  it('braille spinner frames', () => {
    const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'.split('');
    for (const f of frames) same([`${f} Resolving dependencies…`], ['⠋ Resolving dependencies…']);
    same(['Thinking ⠼'], ['Thinking ⠧']);
  });

  it("Claude's star frames", () => {
    for (const g of ['·', '✢', '✳', '✶', '✻', '✽', '*']) same([`${g} Pondering… (3s · ↓ 12 tokens)`], ['· Pondering… (4s · ↓ 12 tokens)']);
  });

  it('ASCII spinners at the start of a row', () => {
    for (const g of ['|', '/', '-', '\\']) same([`${g} working`], ['| working']);
  });

  it('timers: (12s), 6s, 1m 5s, 2h 3m, 12.3s, 250ms', () => {
    same(['Working (12s • esc to interrupt)'], ['Working (13s • esc to interrupt)']);
    same(['elapsed 6s'], ['elapsed 7s']);
    same(['⠼ Thinking... (esc to cancel, 1m 5s)'], ['⠧ Thinking... (esc to cancel, 1m 6s)']);
    same(['✶ Pondering… (2m 59s · ↓ 1.2k tokens)'], ['✻ Pondering… (3m 0s · ↓ 1.2k tokens)']);
    same(['uptime 2h 3m'], ['uptime 2h 4m']);
    same(['took 12.3s'], ['took 12.4s']);
    same(['latency 250ms'], ['latency 251ms']);
  });

  it('a timer crossing into minutes (59s → 1m 0s) is still only a timer', () => {
    // Gemini and Claude switch to "1m 5s" after a minute; the roll-over is no progress either.
    same(['⠼ Thinking... (esc to cancel, 59s)'], ['⠧ Thinking... (esc to cancel, 1m 0s)']);
  });

  it('clocks: 12:07, 00:07, 12:07:33', () => {
    same(['✻ Cooked for 3s · done 12:07 AM'], ['✻ Cooked for 3s · done 12:08 AM']);
    same(['Worked for 12s • 00:07'], ['Worked for 13s • 00:08']);
    same(['[12:07:33] tick'], ['[12:07:34] tick']);
  });

  it('a whole ticking agent status block folds', () => {
    same(
      ['❯ Think hard', '', '✶ Pondering… (16s · ↓ 120 tokens · thinking)', '', '⏸ manual mode on · esc to interrupt'],
      ['❯ Think hard', '', '✻ Pondering… (17s · ↓ 120 tokens · thinking)', '', '⏸ manual mode on · esc to interrupt'],
    );
  });

  it('normalizeLine keeps the text around what it folds', () => {
    expect(normalizeLine('⠙ Resolving… (3s)')).toBe('Resolving… (#)');
    expect(normalizeLine('  ✻ Baking…')).toBe('Baking…'); // indentation around a folded glyph is folded too
  });

  it("Claude's blinking ● at an approval menu (real screens, claude-approval 6.0 s vs 6.5 s) folds to one hash", async () => {
    // markers.md: "A ● blinks every 0.6 s … so 'output changing' does not mean running"; the blink redraws the
    // cell as ● then as a space.
    const a = await screenAt('claude-approval', 6.0);
    const b = await screenAt('claude-approval', 6.5);
    expect(a.snap.lines).not.toEqual(b.snap.lines); // the blink is really there
    expect(hashLines(a.snap.lines, true)).toBe(hashLines(b.snap.lines, true));
  });
});

describe('not folded: real changes', () => {
  it('different words', () => {
    differ(['hello world'], ['hello there']);
    differ(['file1.txt'], ['file2.txt']);
  });

  it('numbers that are not timers', () => {
    differ(['x = 12'], ['x = 13']);
    differ(['HTTP 500'], ['HTTP 429']);
    differ(['3 files changed'], ['4 files changed']);
    differ(['attempt 1/10'], ['attempt 2/10']);
  });

  it('progress bars advancing are progress', () => {
    differ(['[##        ] 20%'], ['[#####     ] 50%']);
  });

  it('a new line of output, or the same lines in another order', () => {
    differ(['a', 'b'], ['a', 'b', 'c']);
    differ(['a', 'b'], ['b', 'a']);
    differ(['a', ''], ['', 'a']);
  });

  it('a spinner beside changing text still shows the text change', () => {
    differ(['⠋ Resolving dependencies…'], ['⠙ Linking packages…']);
  });

  it('without normalisation timers and spinners count', () => {
    expect(hashLines(['Working (12s)'], false)).not.toBe(hashLines(['Working (13s)'], false));
    expect(hashLines(['⠋ x'], false)).not.toBe(hashLines(['⠙ x'], false));
  });
});

describe('PaneChangeQueue', () => {
  const cfg = loadConfig();
  const snap = (lines: string[], cursorY = lines.length - 1): ScreenSnapshot => ({
    cols: 80,
    rows: lines.length,
    lines,
    cursorX: 0,
    cursorY,
    baseY: 0,
    altScreen: false,
    bracketedPaste: false,
    title: '',
  });

  it('a timer tick is a change but not a meaningful one; new text is', () => {
    const q = new PaneChangeQueue(cfg.thresholds);
    q.noteOutput(1, 'x\n');
    expect(q.take(1, snap(['⠋ Working (1s)', ''])).meaningful).toBe(true);
    q.noteOutput(2, '\r⠙ Working (2s)');
    const tick = q.take(2, snap(['⠙ Working (2s)', '']));
    expect(tick.meaningful).toBe(false);
    expect(tick.lastMeaningfulAt).toBe(1);
    q.noteOutput(3, 'done\n');
    const real = q.take(3, snap(['⠹ Working (3s)', 'step 2 done', '']));
    expect(real.meaningful).toBe(true);
    expect(real.lastMeaningfulAt).toBe(3);
  });

  it('the cursor moving to a fresh row is a change the rows alone hide', () => {
    const q = new PaneChangeQueue(cfg.thresholds);
    q.noteOutput(1, '$ ls');
    const a = q.take(1, snap(['$ ls', ''], 0));
    q.noteOutput(2, '\r\n');
    const b = q.take(2, snap(['$ ls', ''], 1));
    expect(b.hash).not.toBe(a.hash);
    expect(b.meaningful).toBe(true);
    expect(b.newlines).toBe(1);
  });

  it('output right after typed keys with no newline is an echo, not work', () => {
    const q = new PaneChangeQueue(cfg.thresholds);
    q.noteInput(1.0);
    q.noteOutput(1.01, 'l');
    const echo = q.take(1.02, snap(['$ l']));
    expect(echo.echoOnly).toBe(true);
    expect(echo.meaningful).toBe(false);
    q.noteOutput(3, 'output from a program');
    const work = q.take(3, snap(['$ l', 'output from a program']));
    expect(work.echoOnly).toBe(false);
    expect(work.meaningful).toBe(true);
  });

  it('a line typed whole with its Enter (a paste, scripted input): its echo after the Enter is not work; more is', () => {
    const q = new PaneChangeQueue(cfg.thresholds);
    q.noteInput(1.0, true, true, 'sleep 1; echo ok\n');
    q.noteOutput(1.01, '\x1b[1msleep 1; echo ok\x1b[0m'); // the echo, as a line editor draws it
    const echo = q.take(1.02, snap(['$ sleep 1; echo ok']));
    expect(echo.echoOnly).toBe(true);
    expect(echo.meaningful).toBe(false);
    q.noteOutput(1.03, '\r\n');
    expect(q.take(1.04, snap(['$ sleep 1; echo ok', ''], 1)).echoOnly).toBe(true);
    q.noteOutput(1.05, 'ok\r\n');
    expect(q.take(1.06, snap(['$ sleep 1; echo ok', 'ok', ''], 2)).echoOnly).toBe(false);
    // Only the submitted line is echo: typed one key at a time, the Enter's write holds no line.
    q.noteInput(2.0, true, true, '\r');
    q.noteOutput(2.01, 'ok');
    expect(q.take(2.02, snap(['ok'])).echoOnly).toBe(false);
  });

  it('output within key_response_s of a key answers it; later output the program made by itself', () => {
    const q = new PaneChangeQueue(cfg.thresholds);
    q.noteInput(1.0);
    q.noteOutput(1.2, 'a page redrawn for the key\r\n');
    expect(q.take(1.25, snap(['a page redrawn for the key'])).selfDriven).toBe(false);
    q.noteOutput(1.0 + cfg.thresholds.key_response_s + 0.1, 'a frame of its own');
    expect(q.take(2, snap(['a frame of its own'])).selfDriven).toBe(true);
    // Nothing written since: the next read holds nothing of its own.
    expect(q.take(3, snap(['a frame of its own'])).selfDriven).toBe(false);
  });

  it('coalesces: one snapshot per window, counts newlines and bytes in between', () => {
    const q = new PaneChangeQueue(cfg.thresholds);
    expect(q.due(0)).toBe(false);
    q.noteInput(0); // a key was typed: the short window applies
    q.noteOutput(0, 'a\nb\n');
    expect(q.due(0)).toBe(true);
    const c = q.take(0, snap(['a', 'b', '']));
    expect([c.newlines, c.burst]).toEqual([2, 4]);
    q.noteOutput(0.01, 'c\n');
    expect(q.due(0.01)).toBe(false);
    expect(q.due(cfg.thresholds.coalesce_s)).toBe(true);
    expect(q.history.size).toBe(1);
  });

  it('steady output (no keys, no signals) is read when a frame settles or at the steady window', () => {
    const th = cfg.thresholds;
    const q = new PaneChangeQueue(th);
    q.noteOutput(0, 'x');
    q.take(0, snap(['x']));
    // continuous output every 0.1 s never settles: read at the steady window only
    for (let i = 1; i / 10 + 0.05 < th.steady_coalesce_s; i++) {
      const t = i / 10;
      q.noteOutput(t, 'y');
      expect(q.due(t + 0.05), `at ${t}`).toBe(false);
    }
    // the stream began to change at 0.1: it is read steady_coalesce_s after that
    expect(q.due(0.1 + th.steady_coalesce_s - 0.01)).toBe(false);
    expect(q.due(0.1 + th.steady_coalesce_s)).toBe(true);
    q.take(0.1 + th.steady_coalesce_s, snap(['y']));
    // one write, then a pause: read settle_s after it
    const w = th.steady_coalesce_s + 0.4;
    q.noteOutput(w, 'z');
    expect(q.due(w + th.settle_s / 2)).toBe(false);
    expect(q.due(w + th.settle_s)).toBe(true);
  });
});

describe('PaneHistory', () => {
  it('keeps a bounded window of figures, newest last, and answers "since t"', async () => {
    const { PaneHistory } = await import('../../src/queue/pane-history.js');
    const h = new PaneHistory(3);
    const snapshot: ScreenSnapshot = { cols: 80, rows: 1, lines: ['x'], cursorX: 0, cursorY: 0, baseY: 0, altScreen: false, bracketedPaste: false, title: '' };
    const change = (t: number) => ({ t, snapshot, hash: String(t), meaningful: true, newlines: 0, burst: 1, lineRate: 0, lastMeaningfulAt: t, lastOutputAt: t, echoOnly: false, selfDriven: true, keystrokeTail: false });
    for (let t = 1; t <= 10; t++) h.push(change(t));
    expect(h.size).toBe(3);
    expect(h.latest?.t).toBe(10);
    expect(h.since(0).map((c) => c.t)).toEqual([8, 9, 10]);
    expect(h.since(9.5).map((c) => c.t)).toEqual([10]);
    expect(h.latest).not.toHaveProperty('snapshot');
  });
});
