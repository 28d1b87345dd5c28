// `termsupervisor run -- <one thing to do>` end to end: the BUILT wrapper in a real terminal, its program in a real
// pty, with no daemon (its JSONL event log) and joined to a real daemon (API, history, `status --all`). A one-shot
// program is one turn: RUNNING from its start, FAILED or DONE at its exit with the exit code (Tier 1); a question it
// asks meanwhile is WAITING_APPROVAL; a session (a shell, a REPL) gets no turn at its start. No timed assertions.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, readLog, scratch, testEnv, Wrapped, type LogLine } from './harness.js';
import { daemonScratch, DaemonProcess, runCli, until } from './daemon-harness.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const BUILD = ['bash', '-c', 'echo compiling; sleep 2; echo "3 tests failed"; exit 1'];

const open: Wrapped[] = [];
const { cleanups, dirs } = daemonScratch();
beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => {
  for (const w of open.splice(0)) w.kill();
});

function wrapped(runArgs: string[], extraEnv: Record<string, string> = {}): { w: Wrapped; dir: string } {
  const s = scratch();
  cleanups.push(s.cleanup);
  const w = new Wrapped(s.log, ['--no-daemon', ...runArgs], testEnv(s.dir, extraEnv));
  open.push(w);
  return { w, dir: s.dir };
}

const brief = (e: LogLine) => `${e.state} t${e.tier} ${e.rule}: ${e.line}`;

describe('run: a one-shot program without a daemon (event log)', () => {
  it('bash -c that fails: RUNNING from its start, FAILED at its exit with the code and its last line, both Tier 1', async () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    const cast = join(s.dir, 'build.cast');
    const { w } = wrapped(['--name', 'build', '--record', cast, '--', ...BUILD]);
    expect((await w.exited()).exitCode).toBe(1);
    const events = w.events();
    expect(events[0]).toMatchObject({ kind: 'pane_start', name: 'build', one_shot: true, shell_integration: false });
    expect(w.transitions().map(brief), w.diag()).toEqual([
      expect.stringMatching(/^RUNNING t1 run\.command_executed: bash -c echo compiling/),
      'FAILED t1 run.command_failed: exit 1: 3 tests failed',
    ]);
    // RUNNING came at the start, before the program had printed anything worth reading.
    expect(w.transitions()[0]!.t).toBeLessThan(1);
    expect(events.at(-1)).toMatchObject({ kind: 'pane_exit', exit_code: 1, state: 'FAILED' });
    // The recording marks the program's start and end, so its replay has the same turn.
    const replay = await runCli([process.execPath, BIN, 'replay', cast, '--format', 'jsonl'], testEnv(s.dir));
    const replayed = replay.stdout.trim().split('\n').map((l) => JSON.parse(l) as LogLine);
    expect(replayed.map((e) => `${e.state} ${e.rule}`), replay.stdout + replay.stderr).toEqual(['RUNNING run.command_executed', 'FAILED run.command_failed']);
    expect(replayed[1]!.line).toBe('exit 1: 3 tests failed');
  });

  it('a Python traceback: FAILED with the exception line, not RUNNING at the end', async () => {
    const { w } = wrapped(['--name', 'py', '--', 'python3', '-c', 'import time; print("loading"); time.sleep(1); raise ValueError("bad config")']);
    expect((await w.exited()).exitCode).toBe(1);
    expect(w.transitions().map(brief), w.diag()).toEqual([expect.stringMatching(/^RUNNING t1 run\.command_executed/), 'FAILED t1 run.command_failed: exit 1: ValueError: bad config']);
  });

  it('npm test with a failing suite: FAILED with its exit code', async () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    const pkg = join(s.dir, 'pkg');
    mkdirSync(pkg);
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'pkg', version: '1.0.0', scripts: { test: 'node -e "console.log(\'2 passing\'); console.log(\'1 failing\'); process.exit(1)"' } }));
    const { w } = wrapped(['--name', 't', '--', 'npm', '--prefix', pkg, 'test']);
    expect((await w.exited()).exitCode).toBe(1);
    expect(w.transitions().map((e) => `${e.state} ${e.rule}`), w.diag()).toEqual(['RUNNING run.command_executed', 'FAILED run.command_failed']);
    expect(w.transitions()[1]!.line).toMatch(/^exit 1/);
  });

  it("a script's input() question right after its start is WAITING_APPROVAL; answered, it runs on and ends DONE", async () => {
    const { w } = wrapped(['--name', 'setup', '--', 'python3', '-c', 'n = input("Project name: "); import time; time.sleep(0.5); print("created", n)']);
    const asked = await w.transition('WAITING_APPROVAL', (e) => e.state === 'WAITING_APPROVAL');
    expect(w.transitions()[asked], w.diag()).toMatchObject({ rule: 'shell.question_at_cursor', line: 'Project name:' });
    await w.typeLine('demo');
    await w.waitOutput('the answer taken', (o) => o.includes('created demo'));
    expect((await w.exited()).exitCode).toBe(0);
    expect(w.transitions().map((e) => e.state), w.diag()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
    expect(w.transitions().at(-1)).toMatchObject({ tier: 1, rule: 'run.command_finished', line: 'exit 0: created demo' });
  });

  it('rm -i asks: WAITING_APPROVAL, then DONE once answered', async () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    const file = join(s.dir, 'old.log');
    writeFileSync(file, 'x\n');
    const { w } = wrapped(['--name', 'rm', '--', 'rm', '-i', file]);
    await w.transition('WAITING_APPROVAL', (e) => e.state === 'WAITING_APPROVAL');
    await w.typeLine('y');
    expect((await w.exited()).exitCode).toBe(0);
    expect(w.transitions().map((e) => e.state), w.diag()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
  });

  it('sessions get no turn at their start: bash and a Python REPL are IDLE until something is asked of them', async () => {
    const { w: sh } = wrapped(['--', 'bash', '--norc', '--noprofile']);
    await sh.waitOutput('the prompt', (o) => o.includes('$ '));
    await sh.typeLine('sleep 1; echo hi');
    await sh.transition('DONE', (e) => e.state === 'DONE');
    const shFirst = sh.transitions()[0]!;
    expect(sh.events()[0]).toMatchObject({ kind: 'pane_start', one_shot: false });
    expect(shFirst.rule, sh.diag()).not.toMatch(/^run\./);

    const { w: py } = wrapped(['--', 'python3', '-q']);
    await py.waitOutput('the >>> prompt', (o) => o.includes('>>> '));
    await py.typeLine('import time; time.sleep(1); print("slept")');
    await py.transition('DONE', (e) => e.state === 'DONE');
    expect(py.transitions()[0]!.rule, py.diag()).not.toMatch(/^run\./);
    await py.typeLine('exit()');
    await py.exited();
    expect(py.transitions().some((e) => e.rule?.startsWith('run.')), py.diag()).toBe(false);
  });
});

describe('run: a one-shot program joined to a daemon', () => {
  it('the daemon shows RUNNING then FAILED with the exit code; the closed pane keeps FAILED in the API, history and status --all', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const w = new Wrapped(join(d.dir, 'events.jsonl'), ['--name', 'build', '--', ...BUILD], d.env);
    open.push(w);
    expect((await w.exited()).exitCode).toBe(1);
    const pane = await until('the pane closed', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.name === 'build' && !p.alive), dm.diag);
    expect(pane).toMatchObject({ state: 'FAILED', tier: 1, source: 'process', rule: 'run.command_failed', line: 'exit 1: 3 tests failed', alive: false, exitCodeUnknown: false });
    const history = (await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(pane.id)}/transitions`)).reverse();
    expect(history.map((t) => `${t.from}>${t.to} ${t.rule}`)).toEqual(['IDLE>RUNNING run.command_executed', 'RUNNING>FAILED run.command_failed']);
    const status = await runCli([process.execPath, BIN, 'status', '--all', '--no-color'], d.env);
    expect(status.stdout, status.stderr).toMatch(/✗ FAILED .* build .* closed .*run\.command_failed "exit 1: 3 tests failed"/);
    // The wrapper's own log says the same.
    expect(readLog(join(d.dir, 'events.jsonl')).filter((e) => e.kind === 'transition').map((e) => e.state)).toEqual(['RUNNING', 'FAILED']);
  }, 60_000);

  it('a daemon restarted while the program runs still gets its end: the rejoining wrapper says it is running', async () => {
    const d = dirs();
    let dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const go = join(d.dir, 'go');
    const w = new Wrapped(join(d.dir, 'events.jsonl'), ['--name', 'slow', '--', 'bash', '-c', `while [ ! -e ${go} ]; do sleep 0.1; done; echo "2 failed"; exit 4`], d.env);
    open.push(w);
    const id = await until('RUNNING on the first daemon', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.name === 'slow' && p.state === 'RUNNING')?.id, dm.diag);
    await dm.stop('SIGKILL');
    dm = await DaemonProcess.start(d);
    await until('the wrapper back, its program RUNNING', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id && p.alive && p.state === 'RUNNING'), dm.diag);
    writeFileSync(go, '');
    expect((await w.exited()).exitCode).toBe(4);
    const pane = await until('the pane closed', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id && !p.alive), dm.diag);
    expect(pane).toMatchObject({ state: 'FAILED', rule: 'run.command_failed', line: 'exit 4: 2 failed' });
  }, 60_000);
});
