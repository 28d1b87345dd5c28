// `termsupervisor run` end to end: the BUILT command (bin/termsupervisor → dist/) wrapping real programs, driven
// from a real terminal made here, checked through its event log, its recording and its exit code.
// Needs dist/ (make test builds first; otherwise `npx tsc -p tsconfig.json`).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, BIN, ROOT, scratch, testEnv, waitFor, Wrapped, type LogLine } from './harness.js';

const run = promisify(execFile);
const BASH = ['bash', '--norc', '--noprofile'];
/** Exit status of a process killed by SIGHUP (128 + 1). */
const EXIT_BY_SIGHUP = 129;
/** bash with OSC 133 shell integration: A/B around the prompt, C before a command runs, D;$? when it ends. */
const OSC133_ENV = {
  PS1: '\\[\\e]133;A\\a\\]$ \\[\\e]133;B\\a\\]',
  PS0: '\\e]133;C\\a',
  PROMPT_COMMAND: 'printf "\\e]133;D;%s\\a" "$?"',
};

const open: Wrapped[] = [];
const dirs: Array<() => void> = [];

/** Start a wrapped command in a fresh scratch dir; `runArgs` may be built from that dir (e.g. a recording path). */
function start(runArgs: string[] | ((dir: string) => string[]), extraEnv: Record<string, string> = {}, size?: { cols: number; rows: number }) {
  const s = scratch();
  dirs.push(s.cleanup);
  const args = typeof runArgs === 'function' ? runArgs(s.dir) : runArgs;
  const w = new Wrapped(s.log, args, testEnv(s.dir, extraEnv), size);
  open.push(w);
  return { w, dir: s.dir };
}

const is = (state: string) => (e: LogLine) => e.state === state;

beforeAll(() => assertBuilt());

afterEach(() => {
  for (const w of open.splice(0)) w.kill();
  for (const c of dirs.splice(0)) c();
});

describe('termsupervisor run in a terminal', () => {
  it('(a) plain bash: RUNNING then DONE, a failing command, and the exit code passes through', async () => {
    const { w } = start(['--name', 'plain', '--', ...BASH]);
    await w.waitOutput('the first prompt', (o) => o.includes('$ '));
    const startLine = w.events()[0]!;
    expect(startLine).toMatchObject({ kind: 'pane_start', name: 'plain', state: 'IDLE', command: BASH.join(' ') }); // redacted and cut, as everywhere it is shown

    await w.typeLine('sleep 1; echo hi');
    const running = await w.transition('RUNNING', is('RUNNING'));
    const done = await w.transition('DONE after RUNNING', is('DONE'), running);

    await w.typeLine('ls /nonexistent');
    const after = await w.transition('FAILED or DONE after ls', (e) => e.state === 'FAILED' || e.state === 'DONE', done);
    const failed = w.transitions()[after]!;
    expect(['FAILED', 'DONE']).toContain(failed.state);

    await w.typeLine('exit 3');
    expect((await w.exited()).exitCode).toBe(3);
    const last = w.events().at(-1)!;
    expect(last).toMatchObject({ kind: 'pane_exit', code: 3, exit_code: 3, name: 'plain' });
    // Every record names the same pane and carries the documented fields.
    for (const e of w.events()) expect(e).toMatchObject({ pane: startLine['pane'], ts: expect.any(String), program: expect.any(String) });
    for (const e of w.transitions()) expect(Object.keys(e)).toEqual(expect.arrayContaining(['from', 'tier', 'rule', 'line', 'started_at', 'stalled']));
  });

  it('(b) bash with OSC 133 integration: Tier 1 RUNNING, DONE and FAILED', async () => {
    const { w } = start(['--', ...BASH], OSC133_ENV);
    await w.waitOutput('the first prompt', (o) => o.includes('\x1b]133;B\x07'));

    await w.typeLine('sleep 0.5');
    const running = await w.transition('Tier 1 RUNNING', (e) => e.state === 'RUNNING' && e.tier === 1, -1);
    const done = await w.transition('Tier 1 DONE', (e) => e.state === 'DONE' && e.tier === 1, running);
    await w.typeLine('false');
    const failed = await w.transition('Tier 1 FAILED', (e) => e.state === 'FAILED' && e.tier === 1, done);

    const tr = w.transitions();
    expect(tr[running]!.rule).toMatch(/^osc133\./);
    expect(tr[done]!.rule).toBe('osc133.command_finished');
    expect(tr[failed]!.rule).toBe('osc133.command_failed');
    await w.typeLine('exit 0');
    expect((await w.exited()).exitCode).toBe(0);
  });

  it('(c) a Python REPL: a statement that sleeps 2 s is RUNNING while it sleeps, then DONE', async () => {
    const { w } = start(['--', 'python3', '-i', '-q']);
    await w.waitOutput('the >>> prompt', (o) => o.includes('>>> '));
    await w.typeLine('import time; time.sleep(2); print("slept")');
    // RUNNING must come from the silent work itself, not from the output that ends it.
    const first = await waitFor('RUNNING or the output', () => (w.transitions().some(is('RUNNING')) ? 'RUNNING' : w.output.includes('slept\r') ? 'output' : null), w.diag);
    expect(first, w.diag()).toBe('RUNNING');
    const running = await w.transition('RUNNING', is('RUNNING'));
    await w.transition('DONE after RUNNING', is('DONE'), running);
    await w.typeLine('exit()');
    expect((await w.exited()).exitCode).toBe(0);
  });

  it('(d) a y/N prompt: WAITING_APPROVAL, then DONE once answered', async () => {
    const { w } = start(['--', ...BASH]);
    await w.waitOutput('the first prompt', (o) => o.includes('$ '));
    await w.typeLine(`read -p 'Proceed? [y/N] ' x; echo "answer=$x"`);
    const waiting = await w.transition('WAITING_APPROVAL', is('WAITING_APPROVAL'));
    expect(w.transitions()[waiting]!.line).toContain('Proceed? [y/N]');
    await w.typeLine('y');
    await w.waitOutput('the answer', (o) => o.includes('answer=y'));
    await w.transition('DONE after the answer', is('DONE'), waiting);
    await w.typeLine('exit');
    expect((await w.exited()).exitCode).toBe(0);
  });

  it('(e) --record writes asciicast v2 (output, input, resize, process markers) that replays to the same final state', async () => {
    const { w, dir } = start((d) => ['--record', join(d, 'session.cast'), '--', ...BASH], {}, { cols: 90, rows: 25 });
    const cast = join(dir, 'session.cast');
    await w.waitOutput('the first prompt', (o) => o.includes('$ '));
    w.term.resize(100, 30); // the person resizes their terminal: the pane follows
    await w.typeLine('stty size; sleep 1');
    await w.waitOutput('the new size inside the pane', (o) => o.includes('30 100'));
    const running = await w.transition('RUNNING', is('RUNNING'));
    await w.transition('DONE', is('DONE'), running);
    // A SIGTERM to the wrapper ends the pane: interactive bash ignores TERM, so it is hung up on.
    w.term.kill('SIGTERM');
    expect((await w.exited()).exitCode).toBe(EXIT_BY_SIGHUP);
    const events = w.events();
    expect(events.at(-1)).toMatchObject({ kind: 'pane_exit', signal: 1, exit_code: EXIT_BY_SIGHUP });
    const liveFinal = w.transitions().at(-1)!.state;

    const lines = readFileSync(cast, 'utf8').trim().split('\n');
    const header = JSON.parse(lines[0]!);
    expect(header).toMatchObject({ version: 2, width: 90, height: 25 });
    const recorded = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    const codes = new Set(recorded.map((e) => e[1]));
    expect([...codes].sort()).toEqual(['i', 'm', 'o', 'r']);
    // The markers are the foreground processes the wrapper saw (bash, then the job): a replay has them too.
    const markers = recorded.filter((e) => e[1] === 'm').map((e) => e[2]);
    expect(markers.every((m) => m.startsWith('termsupervisor: process {'))).toBe(true);
    expect(markers.some((m) => m.includes('"name":"sleep"'))).toBe(true);
    expect(recorded.find((e) => e[1] === 'r')![2]).toBe('100x30');
    expect(recorded.filter((e) => e[1] === 'i').map((e) => e[2]).join('')).toContain('stty size; sleep 1\r');
    for (let i = 1; i < recorded.length; i++) expect(recorded[i]![0]).toBeGreaterThanOrEqual(recorded[i - 1]![0]);

    // The replay runs on a few seconds past the last event (quiet windows finish there); the live pane stopped at
    // its exit, so compare the states both were in at that moment.
    const exitT = events.at(-1)!.t;
    const { stdout } = await run(process.execPath, [BIN, 'replay', cast, '--format', 'jsonl'], { cwd: ROOT, env: testEnv(dir) });
    const replayed = stdout.trim().split('\n').map((l) => JSON.parse(l) as LogLine);
    const replayFinal = replayed.filter((e) => e.t <= exitT).at(-1)?.state;
    const why = `live:\n${w.transitions().map((e) => JSON.stringify(e)).join('\n')}\nreplay:\n${stdout}\ncast:\n${lines.join('\n')}`;
    expect(replayFinal, why).toBe(liveFinal);
    expect(liveFinal).toBe('DONE');
  });
});

describe('termsupervisor run without a terminal', () => {
  it("(f) `echo 'echo hi' | termsupervisor run -- bash` prints hi and exits 0", async () => {
    const s = scratch();
    dirs.push(s.cleanup);
    const child = spawn(process.execPath, [BIN, 'run', '--log', s.log, '--', ...BASH], { cwd: ROOT, env: testEnv(s.dir), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    let code: number | null | undefined;
    child.on('exit', (c) => (code = c));
    child.stdin.end('echo hi\n');
    await waitFor('the wrapper to exit', () => code !== undefined, () => `stdout: ${JSON.stringify(out)}\nstderr: ${err}`);
    if (code === undefined) child.kill('SIGKILL');
    expect(code).toBe(0);
    expect(out).toMatch(/(^|[\r\n])hi\r?\n/);
    // Nothing on stderr but the one line saying no daemon watches it (--quiet would silence that too).
    expect(err).toMatch(/^termsupervisor: no daemon running: this pane runs unwatched [^\n]*\n$/);
    const log = readFileSync(s.log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LogLine);
    expect(log[0]).toMatchObject({ kind: 'pane_start', cols: 80, rows: 24 });
    expect(log.at(-1)).toMatchObject({ kind: 'pane_exit', exit_code: 0 });
  });

  it('usage: no command is a usage error, --help prints the usage, an unknown command is 127', async () => {
    const s = scratch();
    dirs.push(s.cleanup);
    const env = testEnv(s.dir);
    const noCmd = await run(process.execPath, [BIN, 'run', '--'], { cwd: ROOT, env }).catch((e) => e);
    expect(noCmd.code).toBe(2);
    expect(noCmd.stderr).toContain('run needs a command after --');
    expect(noCmd.stderr).toContain('usage: termsupervisor run');
    const help = await run(process.execPath, [BIN, 'run', '--help'], { cwd: ROOT, env });
    expect(help.stdout).toContain('examples:');
    const missing = await run(process.execPath, [BIN, 'run', '--log', s.log, '--', 'no-such-command-xyz'], { cwd: ROOT, env }).catch((e) => e);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('command not found: no-such-command-xyz');
  });

  // Issue 26 item 14: a typo in the person's config used to stop their command (exit 2). It always runs; the
  // wrapper says what is wrong and watches with the defaults (the pane still reaches DONE in the log).
  it('a config with mistakes: the command still runs, watched with the defaults, and the mistakes are said', async () => {
    const s = scratch();
    dirs.push(s.cleanup);
    const env = testEnv(s.dir);
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(env['XDG_CONFIG_HOME']!, 'termsupervisor'), { recursive: true });
    writeFileSync(join(env['XDG_CONFIG_HOME']!, 'termsupervisor', 'config.json'), '{ "patterns": { "claude": { "working": ["("] } } }');
    const r = await run(process.execPath, [BIN, 'run', '--log', s.log, '--', 'sh', '-c', 'echo ran-anyway; exit 3'], { cwd: ROOT, env }).catch((e) => e);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toContain('ran-anyway');
    expect(r.stderr).toContain('the config has mistakes; watching this pane with the defaults');
    expect(r.stderr).toMatch(/config\.json: patterns\.claude\.working\[0\]: invalid regular expression/);
    const log = readFileSync(s.log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LogLine);
    expect(log.at(-1)).toMatchObject({ kind: 'pane_exit', exit_code: 3 });
  });
});
