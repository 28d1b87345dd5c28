// WritePump hands a real @xterm/headless its writes a piece at a time, each parsed at once, and yields the thread
// with setImmediate between pieces once the parse slice is spent: nothing ever waits in xterm's timer-driven queue.
// Both ways of handing a piece over are held to it: straight to xterm's parser, and through term.write() (taken when
// the parser is not reachable).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import xtermHeadless from '@xterm/headless';
import type { Terminal as XTerminal } from '@xterm/headless';
import { MAX_WRITE_PIECE, WritePump, xtermParser } from '../../src/screen/write-pump.js';
import { ParseBudget } from '../../src/screen/parse-budget.js';

const terms: XTerminal[] = [];
afterEach(() => {
  for (const t of terms.splice(0)) t.dispose();
  vi.restoreAllMocks();
});

type Way = 'parser' | 'term.write';
let way: Way = 'parser';

/** The pump under test, and the lengths of the pieces it has handed to xterm so far. */
function pumpOf(budget = new ParseBudget()): { term: XTerminal; pump: WritePump; pieces: () => number[] } {
  const term = new xtermHeadless.Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  terms.push(term);
  const wb = (term as unknown as { _core: { _writeBuffer: { handleUserInput(): void } } })._core._writeBuffer;
  const parser = way === 'parser' ? xtermParser(term) : null;
  if (way === 'parser') expect(parser).not.toBeNull();
  // A paused parse is resumed by a second call with the handler's answer: only first calls are pieces.
  const spy = parser ? vi.spyOn(parser, 'parse') : vi.spyOn(term, 'write');
  const pieces = () => spy.mock.calls.filter((c) => c[1] === undefined || typeof c[1] === 'function').map((c) => (c[0] as string).length);
  return { term, pump: new WritePump(term, () => wb.handleUserInput(), budget, parser), pieces };
}
const row = (term: XTerminal, y: number) => term.buffer.active.getLine(term.buffer.active.viewportY + y)!.translateToString(true);
const turn = () => new Promise((r) => setImmediate(r));

describe.each(['parser', 'term.write'] as const)('WritePump, pieces handed over by %s', (w) => {
  beforeEach(() => {
    way = w;
  });

  it('parses a write at once, without a timer turn', () => {
    const { term, pump } = pumpOf();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    let parsed = false;
    pump.write('hello\r\nworld', () => (parsed = true));
    expect(parsed).toBe(true);
    expect(row(term, 1)).toBe('world');
    expect(timers).not.toHaveBeenCalled();
  });

  it('uses xterm\'s write queue only when its parser is not reachable', async () => {
    const { term, pump } = pumpOf();
    const queued = vi.spyOn(term, 'write');
    await new Promise<void>((r) => pump.write('a\x1b[2Jb'.repeat(3000), r));
    expect(queued.mock.calls.length > 0).toBe(way === 'term.write');
  });

  it('cuts a long write into pieces and runs its callback once, after the last', async () => {
    const { pump, pieces } = pumpOf();
    const done = vi.fn();
    pump.write('x'.repeat(MAX_WRITE_PIECE * 3 + 5), done);
    await new Promise<void>((r) => pump.write('', r));
    expect(pieces()).toEqual([MAX_WRITE_PIECE, MAX_WRITE_PIECE, MAX_WRITE_PIECE, 5, 0]);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('yields between queued pieces once the slice is spent, and the event loop runs before the rest is parsed', async () => {
    // A fake clock that moves 5 ms per look: the first piece goes at once, the next two fit a 10 ms slice.
    let t = 0;
    const budget = new ParseBudget({ sliceMs: 10, now: () => (t += 5) });
    const { term, pump, pieces } = pumpOf(budget);
    const order: string[] = [];
    setImmediate(() => order.push('io'));
    pump.write('x'.repeat(MAX_WRITE_PIECE * 5) + '\r\nend', () => order.push('parsed'));
    expect(pieces()).toHaveLength(3);
    expect(order).toEqual([]);
    for (let i = 0; i < 6; i++) await turn();
    expect(order).toEqual(['io', 'parsed']);
    expect(pieces()).toHaveLength(6);
    expect(row(term, term.buffer.active.cursorY)).toBe('end');
    expect(budget.yields).toBeGreaterThan(0);
  });

  it('parses a write that finds nothing queued at once, even once the slice is spent', () => {
    const budget = new ParseBudget({ sliceMs: 0 });
    budget.spent(); // a slice open, and spent
    expect(budget.spent()).toBe(true);
    const { term, pump } = pumpOf(budget);
    let parsed = false;
    pump.write('now', () => (parsed = true));
    expect(parsed).toBe(true);
    expect(row(term, 0)).toBe('now');
  });

  it('keeps write order when a callback writes again', async () => {
    // A slice of 0 ms: the long write's first piece goes at once, the second opens the turn's slice, the third
    // waits for the next turn, and 'a' and 'b' wait behind it.
    const budget = new ParseBudget({ sliceMs: 0 });
    const { term, pump } = pumpOf(budget);
    const order: string[] = [];
    pump.write('-'.repeat(MAX_WRITE_PIECE * 2 + 1) + '\r\n');
    pump.write('a', () => {
      order.push('a');
      pump.write('c', () => order.push('c'));
    });
    pump.write('b', () => order.push('b'));
    expect(order).toEqual([]);
    await new Promise<void>((r) => pump.write('', r));
    expect(order).toEqual(['a', 'b']); // 'c' came after this flush
    await new Promise<void>((r) => pump.write('', r));
    expect(order).toEqual(['a', 'b', 'c']);
    expect(row(term, term.buffer.active.cursorY)).toBe('abc');
  });

  it('goes on after a parse that paused on a costly sequence', async () => {
    const budget = new ParseBudget({ sliceMs: 0 });
    const { term, pump } = pumpOf(budget);
    // A handler that pauses xterm's parser as the screen's costly-sequence handlers do (the public typing leaves out
    // the Promise a handler may return; the parser honours it).
    term.parser.registerCsiHandler({ final: 'J' }, () => budget.check() as boolean);
    const order: string[] = [];
    pump.write('\x1b[2J'.repeat(5) + 'first', () => order.push('first'));
    pump.write('\r\nsecond', () => order.push('second'));
    await new Promise<void>((r) => pump.write('', r));
    expect(order).toEqual(['first', 'second']);
    expect(row(term, 1)).toBe('second');
    expect(budget.yields).toBeGreaterThan(2);
  });

  it('shares the slices fairly: a pane with a long queue does not keep the next slice from another that waits', async () => {
    // One piece per turn (a slice of 0 ms). A storming pane has 40 pieces queued; a second pane's write of three
    // pieces arrives behind it: its first goes at once, the other two get the next turns before the storm's rest.
    const budget = new ParseBudget({ sliceMs: 0 });
    const storm = pumpOf(budget);
    const other = pumpOf(budget);
    const order: string[] = [];
    storm.pump.write('s'.repeat(MAX_WRITE_PIECE * 40), () => order.push('storm'));
    await turn();
    other.pump.write('o'.repeat(MAX_WRITE_PIECE * 2 + 1), () => order.push('other'));
    await new Promise<void>((r) => storm.pump.write('', r));
    expect(order).toEqual(['other', 'storm']);
    // It waited for a few of the storm's pieces at most, not for all of them.
    expect(storm.pieces().length).toBe(41);
  });

  it('dispose runs the callbacks of pieces never parsed (a flush awaiting one does not hang)', async () => {
    const budget = new ParseBudget({ sliceMs: 0 });
    const { pump } = pumpOf(budget);
    const done = vi.fn();
    pump.write('a'.repeat(MAX_WRITE_PIECE * 2 + 1), () => {}); // its third piece waits for the next turn
    pump.write('b', done);
    pump.write('c', done);
    expect(done).not.toHaveBeenCalled();
    pump.dispose();
    expect(done).toHaveBeenCalledTimes(2);
    await turn();
    expect(done).toHaveBeenCalledTimes(2);
  });
});
