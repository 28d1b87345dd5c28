// `termsupervisor logs` with a `run` pane that joined a daemon: the wrapper's event log and the daemon's log both
// record the pane's transitions (each side runs the detector). Printed once each, all sources merged by time.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN } from './harness.js';
import { daemonDirs, DaemonProcess, runCli, runWrapper, until, type DaemonDirs } from './daemon-harness.js';
import type { PaneView } from '../../src/web/api-types.js';
import { join } from 'node:path';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

describe('logs: a run pane watched by a daemon', () => {
  it('each transition once, every source in time order', async () => {
    const d: DaemonDirs = daemonDirs();
    cleanups.push(() => d.cleanup());
    const dm = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    // A one-shot in a joined wrapper: RUNNING at its start, DONE at its exit, in both logs. Its log is the default one.
    const w = runWrapper(d, ['--name', 'twice', '--log', join(d.env['XDG_STATE_HOME']!, 'termsupervisor', 'events.jsonl')], ['bash', '-c', 'sleep 0.5; echo built']);
    cleanups.push(() => void w.kill('SIGKILL'));
    await new Promise((r) => w.on('close', r));
    await until('the pane closed DONE', async () => (await dm.get<PaneView[]>('/api/panes')).some((p) => p.name === 'twice' && !p.alive && p.state === 'DONE'), () => w.out + dm.diag());
    await dm.stop('SIGTERM'); // its log is complete

    const r = await runCli([process.execPath, BIN, 'logs', '--kind', 'transition', '--pane', 'twice'], d.env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.filter((l) => /IDLE\s*→\s*RUNNING/.test(l)), r.stdout).toHaveLength(1);
    expect(lines.filter((l) => /RUNNING\s*→\s*DONE/.test(l)), r.stdout).toHaveLength(1);

    // All kinds: in time order across the files (the clock column never goes back).
    const all = await runCli([process.execPath, BIN, 'logs'], d.env);
    const clocks = all.stdout.trim().split('\n').map((l) => /^(\d\d:\d\d:\d\d(?:\.\d+)?)/.exec(l)?.[1]).filter((c): c is string => !!c);
    expect(clocks.length).toBeGreaterThan(4);
    expect(clocks, all.stdout).toEqual([...clocks].sort());
  });
});
