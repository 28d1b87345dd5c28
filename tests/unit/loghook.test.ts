// `make loghook`: following the event log (missing file, partial lines, truncation) and the one-line format.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogTail } from '../../src/cli/loghook.js';
import { formatEventLine } from '../../src/cli/event-format.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tailOf(): { path: string; tail: LogTail; got: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-loghook-'));
  dirs.push(dir);
  const path = join(dir, 'events.jsonl');
  const got: string[] = [];
  return { path, tail: new LogTail(path, (l) => got.push(l)), got };
}

const transition = {
  ts: '2026-01-02T03:04:05.678Z',
  kind: 'transition',
  pane: 'pty-1-1',
  name: 'api',
  program: 'shell',
  t: 1.5,
  state: 'RUNNING',
  from: 'IDLE',
  tier: 2,
  rule: 'shell.command_running',
  line: 'make test',
  started_at: 1.5,
  stalled: false,
};

describe('LogTail', () => {
  it('waits for a missing file, then delivers whole lines only, across appends', () => {
    const { path, tail, got } = tailOf();
    expect(tail.poll()).toBe(false);
    writeFileSync(path, 'one\ntw');
    expect(tail.poll()).toBe(true);
    expect(got).toEqual(['one']);
    appendFileSync(path, 'o\nthree\n');
    tail.poll();
    expect(got).toEqual(['one', 'two', 'three']);
  });

  it('keeps a multi-byte character split across appends whole', () => {
    const { path, tail, got } = tailOf();
    const bytes = Buffer.from('→ done\n');
    writeFileSync(path, bytes.subarray(0, 1));
    tail.poll();
    appendFileSync(path, bytes.subarray(1));
    tail.poll();
    expect(got).toEqual(['→ done']);
  });

  it('starts over when the log is truncated or replaced', () => {
    const { path, tail, got } = tailOf();
    writeFileSync(path, 'old line one\nold line two\n');
    tail.poll();
    writeFileSync(path, 'new\n');
    tail.poll();
    expect(got).toEqual(['old line one', 'old line two', 'new']);
  });
});

describe('formatEventLine', () => {
  it('shows time, pane, from → state, tier, rule and the screen line', () => {
    const out = formatEventLine(JSON.stringify(transition), false);
    expect(out).toMatch(/^\d\d:\d\d:\d\d\.678  api /);
    expect(out).toContain('IDLE → RUNNING');
    expect(out).toContain('tier 2  shell.command_running  "make test"');
    expect(out).not.toContain('\x1b');
  });

  it('colours the state only when asked', () => {
    expect(formatEventLine(JSON.stringify(transition), true)).toContain('\x1b[33mRUNNING');
  });

  it('formats pane start and exit', () => {
    const start = formatEventLine(JSON.stringify({ ...transition, kind: 'pane_start', state: 'IDLE', command: ['bash', '-l'], cols: 80, rows: 24 }), false);
    expect(start).toContain('started  bash -l  (pty-1-1, 80x24, shell)');
    const exit = formatEventLine(JSON.stringify({ ...transition, kind: 'pane_exit', code: 3, signal: null, exit_code: 3 }), false);
    expect(exit).toContain('exited   code 3, exit status 3, last state RUNNING');
  });

  it('prints anything else as it is, never throwing', () => {
    for (const raw of ['not json', '[1,2]', '42', 'null', '{"kind":"future_kind"}', '{"kind":"transition"}']) {
      expect(() => formatEventLine(raw, true)).not.toThrow();
    }
    expect(formatEventLine('not json {', false)).toBe('not json {');
    expect(formatEventLine('{"kind":"future_kind"}', false)).toBe('{"kind":"future_kind"}');
  });
});
