// The daemon log: file modes, size rotation without losing lines, and the debug-only rule for screen text and
// command lines (redacted when written).
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  closeLogger,
  createLogger,
  daemonLogPath,
  logIgnoredMark,
  logSignal,
  logSuppressed,
  logTransition,
  paneLogger,
  scrub,
  type Logger,
} from '../../src/daemon/logger.js';
import { RotatingFile } from '../../src/daemon/rotating-file.js';

const dirs: string[] = [];
const loggers: Logger[] = [];
afterEach(() => {
  for (const l of loggers.splice(0)) closeLogger(l);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'ts-logger-'));
  dirs.push(d);
  return d;
}

function make(level: string, extra: { maxBytes?: number; keep?: number } = {}) {
  const file = join(temp(), 'state', 'termsupervisor', 'daemon.log');
  const log = createLogger({ file, level, maxBytes: extra.maxBytes ?? 1 << 20, keep: extra.keep ?? 3 });
  loggers.push(log);
  const lines = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { file, log, lines };
}

const transition = {
  paneId: 'p1',
  at: 1000,
  from: 'RUNNING',
  to: 'WAITING_APPROVAL',
  tier: 2,
  source: 'profile',
  rule: 'claude.waiting',
  line: 'export GITHUB_TOKEN=abc123 && deploy',
  stalled: false,
  startedAt: 0,
  startedAtKept: true,
} as const;

describe('createLogger', () => {
  it('writes JSON lines with an ISO time and a word level, to a 0600 file in a 0700 folder', () => {
    const { file, log, lines } = make('info');
    log.info({ kind: 'daemon' }, 'started');
    const [rec] = lines();
    expect(rec).toMatchObject({ level: 'info', kind: 'daemon', msg: 'started', pid: process.pid });
    expect(String(rec!['time'])).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  });

  it('at info, screen text and command lines are left out, and the caller’s object is untouched', () => {
    const { log, lines } = make('info');
    const pane = paneLogger(log, { id: 'p1', name: 'api', program: 'claude' });
    logTransition(pane, transition);
    const fields = { kind: 'pane', event: 'attached', command: ['deploy', '--token', 'abc'], prompt: 'fix it' };
    pane.info(fields, 'attached');
    const [t, p] = lines();
    expect(t).toMatchObject({ kind: 'transition', pane: 'p1', name: 'api', program: 'claude', from: 'RUNNING', to: 'WAITING_APPROVAL', tier: 2, rule: 'claude.waiting' });
    expect(t).not.toHaveProperty('line');
    expect(p).not.toHaveProperty('command');
    expect(p).not.toHaveProperty('prompt');
    expect(fields.command).toEqual(['deploy', '--token', 'abc']);
  });

  it('at debug, they are written redacted (commands cut)', () => {
    const { log, lines } = make('debug');
    const pane = paneLogger(log, { id: 'p1', name: 'api', program: 'shell' });
    logTransition(pane, transition);
    pane.debug({ kind: 'pane', command: `deploy --token abc ${'x'.repeat(300)}` }, 'cmd');
    const [t, p] = lines();
    expect(t!['line']).toBe('export GITHUB_TOKEN=*** && deploy');
    expect(String(p!['command']).startsWith('deploy --token *** xxx')).toBe(true);
    expect(Array.from(String(p!['command']))).toHaveLength(200);
  });

  it('follows a level changed at run time', () => {
    const { log, lines } = make('info');
    log.level = 'debug';
    log.info({ kind: 'hook', line: 'hello' }, 'x');
    expect(lines()[0]!['line']).toBe('hello');
  });

  it('signals and suppressed signals at info, activity only at debug', () => {
    const { log, lines } = make('info');
    logSignal(log, { t: 1.5, type: 'done', tier: 3, rule: 'generic.quiet_done', line: '$ ' });
    logSignal(log, { t: 2, type: 'activity', tier: 3, rule: 'output', line: '' });
    logSuppressed(log, { t: 3, type: 'run', tier: 3, rule: 'generic.run', reason: 'debounce' });
    expect(lines().map((l) => [l['kind'], l['type'], l['reason']])).toEqual([
      ['signal', 'done', undefined],
      ['suppressed', 'run', 'debounce'],
    ]);
  });

  it('an ignored mark is a debug line that says why (forged, out of order), with its screen line redacted', () => {
    const info = make('info');
    logIgnoredMark(info.log, { t: 1, signal: { kind: 'command-finished', protocol: 'osc133', exitCode: 0 }, line: '', reason: 'forged_mark' });
    expect(info.lines()).toEqual([]);
    const { log, lines } = make('debug');
    logIgnoredMark(log, { t: 1, signal: { kind: 'command-finished', protocol: 'osc133', exitCode: 0 }, line: 'export GITHUB_TOKEN=abc123', reason: 'forged_mark' });
    logIgnoredMark(log, { t: 2, signal: { kind: 'agent-state', protocol: 'osc7501', state: 'done', extra: {} }, line: '', reason: 'mark_out_of_order' });
    expect(lines().map((l) => [l['kind'], l['reason'], l['msg']])).toEqual([
      ['suppressed', 'forged_mark', 'ignored forged mark: osc133 command-finished'],
      ['suppressed', 'mark_out_of_order', 'ignored out-of-order mark: osc7501 done'],
    ]);
    expect(lines()[0]!['line']).not.toContain('abc123');
  });

  it('copies every line to `also`', () => {
    const got: string[] = [];
    const file = join(temp(), 'daemon.log');
    const log = createLogger({ file, level: 'info', maxBytes: 1 << 20, keep: 1, also: { write: (l) => got.push(l) } });
    loggers.push(log);
    log.warn({ kind: 'daemon' }, 'hello');
    expect(got).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(got[0]);
  });

  it('writes nothing after close', () => {
    const { file, log } = make('info');
    log.info({ kind: 'daemon' }, 'one');
    closeLogger(log);
    log.info({ kind: 'daemon' }, 'two');
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('scrub leaves objects without those fields as they are', () => {
    const o = { kind: 'http', url: '/api' };
    expect(scrub(o, false)).toBe(o);
  });

  it('daemonLogPath follows XDG_STATE_HOME', () => {
    expect(daemonLogPath({ XDG_STATE_HOME: '/tmp/xdg' })).toBe('/tmp/xdg/termsupervisor/daemon.log');
  });
});

describe('RotatingFile', () => {
  it('rotates before passing max bytes, shifts .1 → .2 …, keeps `keep` files, never splits a line', () => {
    const path = join(temp(), 'd.log');
    const f = new RotatingFile(path, { maxBytes: 100, keep: 2 });
    const line = (i: number) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(20)}\n`; // 30 bytes
    for (let i = 0; i < 10; i++) f.write(line(i));
    f.end();
    // 3 lines (90 bytes) fit; the 4th would pass 100. Files: .2 = 3..5, .1 = 6..8, current = 9; 0..2 deleted.
    expect(readFileSync(path, 'utf8')).toBe(line(9));
    expect(readFileSync(`${path}.1`, 'utf8')).toBe(line(6) + line(7) + line(8));
    expect(readFileSync(`${path}.2`, 'utf8')).toBe(line(3) + line(4) + line(5));
    expect(existsSync(`${path}.3`)).toBe(false);
    for (const p of [path, `${path}.1`, `${path}.2`]) expect(statSync(p).mode & 0o777).toBe(0o600);
  });

  it('loses no line across many rotations when keep is large enough', () => {
    const path = join(temp(), 'd.log');
    const f = new RotatingFile(path, { maxBytes: 64, keep: 50 });
    for (let i = 0; i < 40; i++) f.write(`{"n":${i}}\n`);
    f.end();
    const all: number[] = [];
    for (let k = 50; k >= 1; k--) if (existsSync(`${path}.${k}`)) all.push(...nums(`${path}.${k}`));
    all.push(...nums(path));
    expect(all).toEqual([...Array(40).keys()]);
  });

  it('continues an existing file, counting its size, and tightens its mode', () => {
    const path = join(temp(), 'd.log');
    writeFileSync(path, 'x'.repeat(90) + '\n', { mode: 0o644 });
    const f = new RotatingFile(path, { maxBytes: 100, keep: 1 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(f.bytesInFile).toBe(91);
    f.write('0123456789\n');
    f.end();
    expect(readFileSync(path, 'utf8')).toBe('0123456789\n');
    expect(readFileSync(`${path}.1`, 'utf8')).toHaveLength(91);
  });

  it('keep 0 starts the file over', () => {
    const path = join(temp(), 'd.log');
    const f = new RotatingFile(path, { maxBytes: 10, keep: 0 });
    f.write('aaaaaaaa\n');
    f.write('bbbbbbbb\n');
    f.end();
    expect(readFileSync(path, 'utf8')).toBe('bbbbbbbb\n');
    expect(existsSync(`${path}.1`)).toBe(false);
  });

  it('a line longer than max bytes still goes in whole', () => {
    const path = join(temp(), 'd.log');
    const f = new RotatingFile(path, { maxBytes: 10, keep: 1 });
    f.write('a'.repeat(30) + '\n');
    f.end();
    expect(readFileSync(path, 'utf8')).toBe('a'.repeat(30) + '\n');
  });
});

function nums(p: string): number[] {
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { n: number }).n);
}
