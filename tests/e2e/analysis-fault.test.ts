// No pane's analysis takes anything down (issue 14, item 6). A real daemon and a real `run` wrapper (in a real
// terminal, joined to that daemon, wrapping a real bash) are both started with a profile that throws whenever the
// screen shows a word (tests/helpers/throwing-profile: a module-loading hook, the only fake: a real screen no longer
// makes a profile throw). Printing the word must leave both processes up, the pass-through working, the error in
// run's event log, daemon.log, /metrics and the pane's API object, and the pane watched: once the word is gone, the
// next command's turn is read as ever.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, BIN, ROOT, scratch, testEnv, waitFor, Wrapped, type LogLine } from './harness.js';
import { DaemonProcess, daemonDirs, until, type DaemonDirs } from './daemon-harness.js';

const HOOK = join(ROOT, 'tests', 'helpers', 'throwing-profile', 'register.mjs');
/** The word that makes the injected profile throw (split in the typed command so its echo alone does not). */
const WORD = 'KABOOM';
const BASH = ['bash', '--norc', '--noprofile'];

interface PaneJson {
  id: string;
  name: string;
  alive: boolean;
  analysisError: { at: number; stage: string; step: string; program: string; message: string; count: number } | null;
}

const undo: Array<() => unknown> = [];
afterEach(async () => {
  for (const u of undo.splice(0).reverse()) await u();
});

beforeAll(() => assertBuilt());

function faultyEnv(d: DaemonDirs): Record<string, string> {
  return { ...d.env, NODE_OPTIONS: `${d.env['NODE_OPTIONS'] ?? ''} --import=${HOOK}`.trim(), TERMSUPERVISOR_TEST_THROW_ON: WORD };
}

describe('an exception in a pane\'s analysis', () => {
  it('is caught at the pane in the daemon and in run: logged, counted, shown, and the pane stays watched', async () => {
    const d = daemonDirs();
    undo.push(() => d.cleanup());
    const env = faultyEnv(d);
    const dm = await DaemonProcess.start({ ...d, env });
    undo.push(() => dm.stop('SIGKILL'));
    const s = scratch();
    undo.push(s.cleanup);
    const w = new Wrapped(s.log, ['--name', 'faulty', '--', ...BASH], env);
    undo.push(() => w.kill());
    const diag = () => `${w.diag()}\n${dm.diag()}`;
    await waitFor('the first prompt', () => w.output.includes('$ '), diag);
    const pane = await until('the pane in the daemon', async () => (await dm.get<PaneJson[]>('/api/panes')).find((p) => p.name === 'faulty' && p.alive), diag);

    // The screen now holds the word: every read of it throws, in the wrapper and in the daemon.
    await w.typeLine(`echo KA""BOOM; echo pass-through-$((6*7))`);
    await waitFor('the pass-through of the output', () => w.output.includes('pass-through-42'), diag);
    await waitFor('analysis_error in run\'s event log', () => w.events().find((e) => e.kind === ('analysis_error' as never)), diag);
    const shown = await until('analysisError on the pane', async () => (await dm.get<PaneJson>(`/api/panes/${pane.id}`)).analysisError, diag);
    expect(shown).toMatchObject({ stage: 'analysis', program: 'shell', message: "TypeError: Cannot read properties of undefined (reading 'trim')" });
    expect(shown.count).toBeGreaterThanOrEqual(1);
    const runFault = w.events().find((e) => e.kind === ('analysis_error' as never))!;
    expect(runFault).toMatchObject({ stage: 'analysis', program: 'shell', error: "TypeError: Cannot read properties of undefined (reading 'trim')" });

    const metrics = await (await fetch(dm.url + '/metrics')).text();
    expect(metrics).toMatch(/^termsupervisor_analysis_errors_total\{stage="analysis",program="shell"\} [1-9]\d*$/m);
    const logPath = join(d.dir, 'state', 'termsupervisor', 'daemon.log');
    const logged = await waitFor('the error in daemon.log', () => readFileSync(logPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['event'] === 'analysis_error'), diag);
    expect(logged).toMatchObject({ level: 'error', kind: 'pane', pane: pane.id, stage: 'analysis', profile: 'shell', rule: expect.stringMatching(/^analysis\./) });
    expect(JSON.stringify(logged['err'])).toContain('reading \'trim\'');

    // The word leaves the screen: the same command's turn is read as ever, in both processes.
    const typedAt = Date.now();
    const after = (e: LogLine) => Date.parse(String(e['ts'])) >= typedAt;
    await w.typeLine('clear; sleep 1; echo second-$((2+3))');
    // Its DONE (the turn may have begun with the first command: no read ended that one while the word was shown).
    await w.transition('DONE after the error', (e) => e.state === 'DONE' && after(e));
    expect(w.output, diag()).toContain('second-5');
    await until('the daemon reads the pane again (DONE)', async () => {
      const p = await dm.get<PaneJson & { state: string; since: number }>(`/api/panes/${pane.id}`);
      return p.state === 'DONE' && p.since >= typedAt;
    }, diag);

    // Nothing died.
    expect(w.exit).toBeNull();
    expect(dm.child.exitCode).toBeNull();
    expect(await dm.get<{ ok: boolean }>('/healthz')).toMatchObject({ ok: true });
    await w.typeLine('exit 0');
    expect((await w.exited()).exitCode).toBe(0);
  });

  it('run: a monitor thread that dies leaves the pass-through working and says so in the event log', async () => {
    const s = scratch();
    undo.push(s.cleanup);
    const env = { ...testEnv(s.dir), NODE_OPTIONS: `--import=${HOOK}`, TERMSUPERVISOR_TEST_WORKER_DIES: '1' };
    const w = new Wrapped(s.log, ['--no-daemon', '--name', 'unwatched', '--', ...BASH], env);
    undo.push(() => w.kill());
    await waitFor('the first prompt', () => w.output.includes('$ '), w.diag);
    const died = await waitFor('analysis_error (thread) in the event log', () => w.events().find((e) => e.kind === ('analysis_error' as never)), w.diag);
    expect(died).toMatchObject({ stage: 'analysis', step: 'thread', error: expect.stringContaining('injected: the pane monitor thread dies') });
    await w.typeLine('echo still-$((20+1))');
    await waitFor('the pass-through after the thread died', () => w.output.includes('still-21'), w.diag);
    await w.typeLine('exit 4');
    expect((await w.exited()).exitCode).toBe(4);
  });

  it('anything that still escapes is written to daemon.log (fatal) before the daemon exits', async () => {
    const d = daemonDirs();
    undo.push(() => d.cleanup());
    const env = { ...d.env, NODE_OPTIONS: `--import=${join(ROOT, 'tests', 'helpers', 'crash-later.mjs')}` };
    const dm = await DaemonProcess.start({ ...d, env });
    undo.push(() => dm.stop('SIGKILL'));
    dm.child.kill('SIGUSR2');
    const exit = await dm.exited;
    expect(exit.code).not.toBe(0);
    const lines = readFileSync(join(d.dir, 'state', 'termsupervisor', 'daemon.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ level: 'fatal', kind: 'daemon', event: 'crash', origin: 'uncaughtException', err: { message: 'injected crash for the test' } });
  });
});

describe('classify on a screen its profile fails on', () => {
  it('prints one clear line naming the analysis error and exits 1, without a stack trace', () => {
    const s = scratch();
    undo.push(s.cleanup);
    const r = spawnSync(BIN, ['classify', '-'], {
      input: `$ echo ${WORD}\n${WORD}\n$ `,
      env: { ...testEnv(s.dir), NODE_OPTIONS: `--import=${HOOK}`, TERMSUPERVISOR_TEST_THROW_ON: WORD },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^termsupervisor: classify: analysis error on this screen: TypeError: Cannot read properties of undefined \(reading 'trim'\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});
