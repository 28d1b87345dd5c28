// `make loghook` on the daemon log: filters, readable lines for every kind, rotation followed without losing a
// line, and the command end to end with --no-follow.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogTail, loghook, parseLoghookArgs, renderLine, type LoghookOptions } from '../../src/cli/loghook.js';
import { closeLogger, createLogger, logSignal, logSuppressed, logTransition, paneLogger, type Logger } from '../../src/daemon/logger.js';
import { RotatingFile } from '../../src/daemon/rotating-file.js';

const dirs: string[] = [];
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.restoreAllMocks();
});

function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'ts-loghook-d-'));
  dirs.push(d);
  return d;
}

/** A daemon log written by the real logger: two panes, every kind loghook knows, one run-log line, one garbage line. */
function sampleLog(level = 'info'): string {
  const file = join(temp(), 'daemon.log');
  const root: Logger = createLogger({ file, level, maxBytes: 1 << 20, keep: 1 });
  root.info({ kind: 'daemon', port: 7878 }, 'listening on 127.0.0.1:7878');
  const api = paneLogger(root, { id: 'tmux-1', name: 'api', program: 'claude' });
  const web = paneLogger(root, { id: 'tmux-2', name: 'web', program: 'codex' });
  api.info({ kind: 'pane', event: 'attached', command: 'claude --token abc' }, 'attached');
  logSignal(api, { t: 1, type: 'run', tier: 1, rule: 'hook.UserPromptSubmit', line: '' });
  logTransition(api, { paneId: 'tmux-1', at: 0, from: 'IDLE', to: 'RUNNING', tier: 1, source: 'hook', rule: 'hook.UserPromptSubmit', line: 'fix the bug', stalled: false, startedAt: 0, startedAtKept: false });
  logSuppressed(web, { t: 2, type: 'done', tier: 3, rule: 'generic.quiet_done', reason: 'prompt_silence' });
  web.info({ kind: 'hook', event: 'Notification', rule: 'hook.notification' }, 'hook');
  logTransition(web, { paneId: 'tmux-2', at: 0, from: 'RUNNING', to: 'WAITING_APPROVAL', tier: 2, source: 'profile', rule: 'codex.waiting', line: 'Allow command?', stalled: false, startedAt: 0, startedAtKept: true });
  web.info({ kind: 'notify', state: 'WAITING_APPROVAL', sent: false, reason: 'quiet_hours' }, 'notify');
  root.error({ kind: 'http', err: new Error('EADDRINUSE') }, 'listen failed');
  closeLogger(root);
  appendFileSync(
    file,
    JSON.stringify({ ts: '2026-01-02T03:04:05.678Z', kind: 'pane_start', pane: 'pty-1-1', name: 'api', program: 'shell', t: 0, state: 'IDLE', command: ['bash'], cols: 80, rows: 24 }) + '\nnot json at all\n',
  );
  return file;
}

function opts(argv: string[]): LoghookOptions {
  const o = parseLoghookArgs(argv, { XDG_STATE_HOME: '/xdg' });
  if ('error' in o) throw new Error(o.error);
  return o;
}

function render(file: string, argv: string[], colour = false): string[] {
  const o = opts(argv);
  const out: string[] = [];
  const tail = new LogTail(file, (l) => {
    const r = renderLine(l, o, colour);
    if (r !== null) out.push(r.replace(/^\d\d:\d\d:\d\d\.\d{3}/, 'TT')); // local time varies by machine
  });
  tail.poll();
  tail.close();
  return out;
}

describe('loghook arguments', () => {
  it('follows the run log, the daemon log and the service log by default', () => {
    expect(opts([])).toEqual({ files: ['/xdg/termsupervisor/events.jsonl', '/xdg/termsupervisor/daemon.log', '/xdg/termsupervisor/service.log'], follow: true, pane: null, kinds: null });
  });

  it('takes --file (repeatable, or a bare path), --pane, --kind, --no-follow / --once', () => {
    const o = opts(['--file', '/a', '/b', '--pane=api', '--kind', 'transition,pane_start', '--no-follow']);
    expect(o).toEqual({ files: ['/a', '/b'], follow: false, pane: 'api', kinds: new Set(['transition', 'pane']) });
    expect(opts(['--once']).follow).toBe(false);
  });

  it('refuses unknown kinds and options, naming what is known', () => {
    expect(parseLoghookArgs(['--kind', 'transition,bogus'])).toEqual({ error: expect.stringMatching(/unknown bogus \(known: transition, signal/) });
    expect(parseLoghookArgs(['--frobnicate'])).toEqual({ error: 'unknown option --frobnicate' });
    expect(parseLoghookArgs(['--pane'])).toEqual({ error: '--pane needs a pane name or id' });
  });
});

describe('loghook on the daemon log', () => {
  it('prints every kind readably; unreadable lines as they are', () => {
    const out = render(sampleLog(), []);
    expect(out).toEqual([
      'TT  daemon          daemon      listening on 127.0.0.1:7878',
      'TT  api             pane        attached',
      'TT  api             signal      run  tier 1  hook.UserPromptSubmit',
      'TT  api                         IDLE → RUNNING           tier 1  hook.UserPromptSubmit',
      'TT  web             suppressed  done  tier 3  generic.quiet_done  (prompt_silence)',
      'TT  web             hook        Notification  hook.notification',
      'TT  web                      RUNNING → WAITING_APPROVAL  tier 2  codex.waiting',
      'TT  web             notify      WAITING_APPROVAL  not sent (quiet_hours)',
      'TT  daemon          http        listen failed  EADDRINUSE',
      'TT  api             started  bash  (pty-1-1, 80x24, shell)',
      'not json at all',
    ]);
  });

  it('shows the screen line when the daemon logged at debug', () => {
    const out = render(sampleLog('debug'), ['--kind', 'transition']);
    expect(out[0]).toContain('hook.UserPromptSubmit  "fix the bug"');
    expect(out[1]).toContain('codex.waiting  "Allow command?"');
  });

  it('--pane matches a name or an id, across both log formats; unreadable lines are hidden by filters', () => {
    const file = sampleLog();
    const byName = render(file, ['--pane', 'api']);
    expect(byName).toHaveLength(4);
    expect(byName.every((l) => l.startsWith('TT  api '))).toBe(true);
    expect(render(file, ['--pane', 'tmux-2'])).toHaveLength(4);
  });

  it('--kind keeps only those kinds; pane covers the run log’s pane_start', () => {
    const file = sampleLog();
    expect(render(file, ['--kind', 'transition']).map((l) => l.slice(4, 7))).toEqual(['api', 'web']);
    expect(render(file, ['--kind', 'pane'])).toEqual(['TT  api             pane        attached', 'TT  api             started  bash  (pty-1-1, 80x24, shell)']);
    expect(render(file, ['--kind', 'transition,suppressed', '--pane', 'web'])).toHaveLength(2);
  });

  it('dims suppressed signals and colours levels only on a terminal', () => {
    const out = render(sampleLog(), ['--kind', 'suppressed,http'], true);
    expect(out[0]).toMatch(/^\x1b\[2m.*prompt_silence\)\x1b\[0m$/);
    expect(out[1]).toContain('\x1b[31mhttp');
  });
});

describe('LogTail and rotation', () => {
  it('reads the rest of a rotated file and any file rotated past, then the new one: no line lost', () => {
    const path = join(temp(), 'daemon.log');
    const got: string[] = [];
    const tail = new LogTail(path, (l) => got.push(l));
    cleanups.push(() => tail.close());
    const f = new RotatingFile(path, { maxBytes: 40, keep: 5 });
    cleanups.push(() => f.end());
    let n = 0;
    const write = (k: number) => {
      for (let i = 0; i < k; i++) f.write(`line ${String(n++).padStart(2, '0')}\n`); // 8 bytes: 5 lines fill a file
    };
    write(2);
    tail.poll();
    write(6); // into the first file until it is full (5 lines, 40 bytes), then a rotation: 0-4 | 5-7
    tail.poll();
    write(2); // 8 and 9 fill the second file
    tail.poll();
    write(10); // two rotations between polls: 10-14 | 15-19
    tail.poll();
    write(1); // and one more poll without rotation: only the new line
    tail.poll();
    const seen = got.map((l) => Number(l.slice(5)));
    // The file the tail had open is read to its end, and a whole file rotated past between two polls (10-14,
    // now daemon.log.1, the old one daemon.log.2) is read before the current one.
    expect(seen).toEqual([...Array(21).keys()]);
  });

  it('a rename and a recreate between polls: old lines first, then the new file, a partial last line kept', () => {
    const path = join(temp(), 'daemon.log');
    const got: string[] = [];
    const tail = new LogTail(path, (l) => got.push(l));
    cleanups.push(() => tail.close());
    writeFileSync(path, 'a1\n');
    tail.poll();
    appendFileSync(path, 'a2\na3-partial');
    renameSync(path, `${path}.1`);
    expect(tail.poll()).toBe(true); // gone for now: still following the old file
    expect(got).toEqual(['a1', 'a2']);
    writeFileSync(path, 'b1\n');
    tail.poll();
    appendFileSync(path, 'b2\n');
    tail.poll();
    expect(got).toEqual(['a1', 'a2', 'a3-partial', 'b1', 'b2']);
  });

  it('the loghook command prints the filtered log and exits with --no-follow', async () => {
    const file = sampleLog();
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
      written.push(String(s));
      return true;
    });
    const code = await loghook(['--file', file, '--no-follow', '--kind', 'transition', '--pane', 'web']);
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/web +RUNNING → WAITING_APPROVAL +tier 2 +codex\.waiting\n$/);
  });

  it('exits 1 with --no-follow when no log exists', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await loghook(['--file', join(temp(), 'none.log'), '--no-follow'])).toBe(1);
  });
});
