// `wait PANE --appear-timeout S` against a real daemon: the wait starts before the pane exists (a `run --name`
// about to start), finds it when it appears, and follows it to the state; a pane that never comes is exit 2 once
// the appear time is up; without the option, a missing pane is exit 2 at once (as before).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT } from './harness.js';
import { daemonDirs, DaemonProcess, runCli, runWrapper, until, type DaemonDirs } from './daemon-harness.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

async function daemon(): Promise<{ d: DaemonDirs; dm: DaemonProcess }> {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  const dm = await DaemonProcess.start(d, ['--no-tmux']);
  cleanups.push(async () => void (await dm.stop('SIGKILL')));
  return { d, dm };
}

/** A `wait` running in the background: its exit code and stderr once it ends. */
function waiting(d: DaemonDirs, args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, 'wait', ...args], { cwd: ROOT, env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => void child.kill('SIGKILL'));
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr }))) };
}

describe('wait --appear-timeout', () => {
  it('waits for a pane that is not there yet, then for its state', async () => {
    const { d, dm } = await daemon();
    const w = waiting(d, ['later', '--until', 'done', '--appear-timeout', '60', '--timeout', '60']);
    // The wait is connected (the daemon counts its feed) and was told the panes (none of that name) before the
    // pane starts: what follows is the appearing.
    let exited = false;
    void w.done.then(() => (exited = true));
    await until('the wait to follow the feed', async () => /^termsupervisor_ws_clients 1$/m.test(await (await fetch(dm.url + '/metrics')).text()), dm.diag);
    expect(exited).toBe(false);
    const run = runWrapper(d, ['--name', 'later'], ['bash', '-c', 'sleep 1; echo built']);
    cleanups.push(() => void run.kill('SIGKILL'));
    const r = await w.done;
    expect(r.code, r.stderr + run.out + dm.diag()).toBe(0);
  });

  it('exit 2 when none appears in time; without the option, exit 2 at once', async () => {
    const { d } = await daemon();
    const r = await waiting(d, ['never', '--until', 'done', '--appear-timeout', '0.5']).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no pane "never" appeared within 0.5s');
    const now = await runCli([process.execPath, BIN, 'wait', 'never', '--until', 'done'], d.env);
    expect(now.code).toBe(2);
    expect(now.stderr).toContain('no pane "never"');
    const bad = await runCli([process.execPath, BIN, 'wait', 'never', '--until', 'done', '--appear-timeout', 'soon'], d.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--appear-timeout must be a number of seconds');
  });
});
