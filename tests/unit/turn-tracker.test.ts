// Turns from transitions, and the prompt that began each one, reconstructed from the keys the person typed.
import { describe, expect, it } from 'vitest';
import { TurnTracker } from '../../src/state/turn-tracker.js';
import type { Transition } from '../../src/state/pane-machine.js';
import type { MachineState } from '../../src/analysis/types.js';

function tr(t: number, from: MachineState, to: MachineState, startedAtKept: boolean, startedAt = t, over: Partial<Transition> = {}): Transition {
  return { t, from, to, tier: 1, rule: 'test', line: '', startedAt, startedAtKept, stalled: false, ...over };
}

/** The prompt a turn opened right after these keys gets. */
function promptOf(...chunks: string[]): string | null {
  const tt = new TurnTracker();
  for (const c of chunks) tt.input(c);
  return tt.transition(tr(1, 'IDLE', 'RUNNING', false))[0]!.prompt;
}

const hasLoneSurrogate = (s: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('prompt reconstruction', () => {
  it.each<[string, string[], string | null]>([
    ['plain line', ['ls -la\r'], 'ls -la'],
    ['typed key by key', ['l', 's', ' ', '-', 'l', '\r'], 'ls -l'],
    ['newline instead of CR', ['make test\n'], 'make test'],
    ['backspace (DEL)', ['lx\x7fs -lq\x7fa\r'], 'ls -la'],
    ['backspace (BS)', ['lx\bs\r'], 'ls'],
    ['backspace past the start', ['a\x7f\x7f\x7fb\r'], 'b'],
    ['Ctrl-U kills the line', ['rm -rf /\x15echo safe\r'], 'echo safe'],
    ['Ctrl-C drops the line', ['half typed\x03git status\r'], 'git status'],
    ['arrow keys are not text', ['ls\x1b[D\x1b[C -l\x1b[A\x1b[B\r'], 'ls -l'],
    ['application-mode arrows and function keys are not text', ['\x1bOAgit\x1bOD log\x1b[15~\x1b[1;5C\r'], 'git log'],
    ['Alt-key is not text', ['\x1bbfix\r'], 'fix'],
    ['bracketed paste markers are not text', ['\x1b[200~fix the failing test\x1b[201~\r'], 'fix the failing test'],
    ['typed text around a paste', ['please \x1b[200~refactor\x1b[201~ it\r'], 'please refactor it'],
    ['a multi-line paste gives its first line', ['explain: \x1b[200~first line\rsecond line\nthird\x1b[201~\r'], 'explain: first line'],
    ['a multi-line paste in chunks', ['\x1b[200~one\r', 'two\x1b[201~', ' more\r'], 'one'],
    ['a paste marker split across reads', ['\x1b[200~a\rb\x1b[2', '01~ c\r'], 'a'],
    ['an arrow key split across reads', ['ls\x1b[', 'D -a\r'], 'ls -a'],
    ['Ctrl-U after a multi-line paste starts a new line', ['\x1b[200~a\rb\x1b[201~\x15c\r'], 'c'],
    ['Enter after a paste submits', ['\x1b[200~x\x1b[201~\r', '\x1b[200~y\x1b[201~\r'], 'y'],
    ['surrounding spaces trimmed', ['   hello world   \r'], 'hello world'],
    ['an empty Enter keeps the last line', ['ls\r', '\r', '   \r'], 'ls'],
    ['the last submitted line wins', ['first\r', 'second\r'], 'second'],
    ['other control characters are not text', ['a\x01\x02\x07\tb\r'], 'ab'],
    ['nothing submitted', ['typed but not sent'], null],
    ['backspace over an emoji removes it whole', ['ab😀\x7f\r'], 'ab'],
    ['unicode kept', ['héllo wörld ✓\r'], 'héllo wörld ✓'],
  ])('%s', (_name, chunks, want) => {
    expect(promptOf(...chunks)).toBe(want);
  });

  it('cuts a long prompt to 200 characters ending in …', () => {
    const p = promptOf('y'.repeat(300) + '\r')!;
    expect(p).toHaveLength(200);
    expect(p.endsWith('…')).toBe(true);
    expect(p.startsWith('yyy')).toBe(true);
    expect(promptOf('z'.repeat(200) + '\r')).toBe('z'.repeat(200));
  });

  it('cuts a long prompt of emoji between characters, never inside one', () => {
    const p = promptOf('😀'.repeat(300) + '\r')!;
    expect(hasLoneSurrogate(p)).toBe(false);
    expect(p.endsWith('…')).toBe(true);
  });

  it('a line typed without Enter stops growing (a pasted file is not a prompt line)', () => {
    const tt = new TurnTracker();
    tt.input('x'.repeat(100_000));
    tt.input('\r');
    const p = tt.transition(tr(1, 'IDLE', 'RUNNING', false))[0]!.prompt!;
    expect(p).toHaveLength(200);
  });

  it('a prompt goes to one turn only', () => {
    const tt = new TurnTracker();
    tt.input('build it\r');
    expect(tt.transition(tr(1, 'IDLE', 'RUNNING', false))[0]!.prompt).toBe('build it');
    tt.transition(tr(2, 'RUNNING', 'DONE', true, 1));
    expect(tt.transition(tr(3, 'DONE', 'RUNNING', false))[0]!.prompt).toBeNull();
  });
});

describe('turns', () => {
  it('opens when work starts afresh and closes as done', () => {
    const tt = new TurnTracker();
    tt.input('run tests\r');
    expect(tt.transition(tr(10, 'IDLE', 'RUNNING', false))).toEqual([{ start: 10, end: null, result: null, prompt: 'run tests' }]);
    expect(tt.current).toEqual({ start: 10, end: null, result: null, prompt: 'run tests' });
    expect(tt.transition(tr(12, 'RUNNING', 'LONG_RUNNING', true, 10))).toEqual([]);
    expect(tt.transition(tr(13, 'LONG_RUNNING', 'WAITING_APPROVAL', true, 10))).toEqual([]);
    expect(tt.transition(tr(14, 'WAITING_APPROVAL', 'RUNNING', true, 10))).toEqual([]);
    expect(tt.transition(tr(15, 'RUNNING', 'RUNNING', true, 10, { stalled: true }))).toEqual([]);
    expect(tt.transition(tr(20, 'RUNNING', 'DONE', true, 10))).toEqual([{ start: 10, end: 20, result: 'done', prompt: 'run tests' }]);
    expect(tt.current).toBeNull();
    // The person acks: nothing was open, nothing to save.
    expect(tt.transition(tr(25, 'DONE', 'IDLE', false))).toEqual([]);
  });

  it('closes as failed', () => {
    const tt = new TurnTracker();
    tt.transition(tr(1, 'IDLE', 'RUNNING', false));
    expect(tt.transition(tr(4, 'RUNNING', 'FAILED', true, 1))).toEqual([{ start: 1, end: 4, result: 'failed', prompt: null }]);
  });

  it('closes as interrupted when the pane goes back to rest while busy', () => {
    const tt = new TurnTracker();
    tt.transition(tr(1, 'IDLE', 'RUNNING', false));
    expect(tt.transition(tr(3, 'RUNNING', 'IDLE', false))).toEqual([{ start: 1, end: 3, result: 'interrupted', prompt: null }]);
    tt.transition(tr(4, 'IDLE', 'WAITING_APPROVAL', false));
    expect(tt.transition(tr(5, 'WAITING_APPROVAL', 'IDLE', false))).toEqual([{ start: 4, end: 5, result: 'interrupted', prompt: null }]);
  });

  it('a new prompt mid-turn ends the old turn as interrupted and opens the next with its prompt', () => {
    const tt = new TurnTracker();
    tt.input('first task\r');
    tt.transition(tr(1, 'IDLE', 'RUNNING', false));
    tt.transition(tr(2, 'RUNNING', 'WAITING_APPROVAL', true, 1));
    tt.input('no, do this instead\r');
    expect(tt.transition(tr(5, 'WAITING_APPROVAL', 'RUNNING', false))).toEqual([
      { start: 1, end: 5, result: 'interrupted', prompt: 'first task' },
      { start: 5, end: null, result: null, prompt: 'no, do this instead' },
    ]);
    expect(tt.transition(tr(9, 'RUNNING', 'DONE', true, 5))).toEqual([{ start: 5, end: 9, result: 'done', prompt: 'no, do this instead' }]);
  });

  it('after DONE, new work opens a new turn', () => {
    const tt = new TurnTracker();
    tt.transition(tr(1, 'IDLE', 'RUNNING', false));
    tt.transition(tr(2, 'RUNNING', 'DONE', true, 1));
    tt.input('again\r');
    expect(tt.transition(tr(3, 'DONE', 'RUNNING', false))).toEqual([{ start: 3, end: null, result: null, prompt: 'again' }]);
  });

  it('end() closes an open turn as interrupted, once; nothing open, nothing to close', () => {
    const tt = new TurnTracker();
    expect(tt.end(1)).toBeNull();
    tt.input('long job\r');
    tt.transition(tr(2, 'IDLE', 'RUNNING', false));
    expect(tt.end(7)).toEqual({ start: 2, end: 7, result: 'interrupted', prompt: 'long job' });
    expect(tt.end(8)).toBeNull();
    expect(tt.current).toBeNull();
  });

  it('current is a copy', () => {
    const tt = new TurnTracker();
    tt.transition(tr(1, 'IDLE', 'RUNNING', false));
    tt.current!.prompt = 'tampered';
    expect(tt.current!.prompt).toBeNull();
  });
});
