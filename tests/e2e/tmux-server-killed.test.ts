// A closed terminal is closed (issue 26 item 11): when the tmux server goes away (kill-server, a crash, the
// machine's session ending) its panes' shells die of SIGHUP; that is no failed turn of theirs. The pane was
// recorded as `FAILED exit 129: <whatever line was last>`; it closes in the state it was in.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { BIN } from './harness.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);
const missing = tmuxMissing();

describe.skipIf(missing !== null)('tmux server killed', () => {
  it('its panes close in the state they were in, not FAILED exit 129', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const idle = tmux.newSession('work', BASH, 100, 30);
    const busy = tmux.split(idle, BASH);
    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const ids = [tmux.paneId(idle), tmux.paneId(busy)];
    const panes = () => dm.get<PaneView[]>('/api/panes');
    await until('both panes', async () => ids.every((id) => panes().then((ps) => ps.some((p) => p.id === id && p.alive))) && (await panes()).filter((p) => ids.includes(p.id) && p.alive).length === 2, () => dm.diag());
    await new Promise((r) => setTimeout(r, 500));
    tmux.type(idle, 'echo the-last-line');
    tmux.type(busy, 'sleep 600');
    await until('the idle pane DONE, the busy one RUNNING', async () => {
      const ps = await panes();
      return ps.find((p) => p.id === ids[0])?.state === 'DONE' && ['RUNNING', 'LONG_RUNNING'].includes(ps.find((p) => p.id === ids[1])?.state ?? '');
    }, () => dm.diag());

    tmux.kill();
    await until('both closed', async () => (await panes()).filter((p) => ids.includes(p.id) && !p.alive).length === 2, () => dm.diag());
    await new Promise((r) => setTimeout(r, 500));
    const after = await panes();
    for (const id of ids) {
      const p = after.find((x) => x.id === id)!;
      const trs = await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(id)}/transitions?limit=50`);
      expect(p.state, JSON.stringify(trs.slice(0, 3))).not.toBe('FAILED');
      expect(trs.filter((t) => t.to === 'FAILED')).toEqual([]);
      expect(p.line).not.toMatch(/exit 129/);
    }
    expect(after.find((x) => x.id === ids[0])!.state).toBe('DONE');
  }, 90_000);

  it('a `run` pane inside it closes too: its program dying of the hang-up is no failure', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const dm = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const pane = tmux.newSession('work', `${process.execPath} ${BIN} run --name api -- ${BASH}`, 100, 30);
    const panes = () => dm.get<PaneView[]>('/api/panes');
    const api = await until('the run pane', async () => (await panes()).find((p) => p.name === 'api' && p.alive), () => dm.diag() + tmux.screen(pane));
    await new Promise((r) => setTimeout(r, 500));
    tmux.type(pane, 'echo the-last-line');
    await until('DONE', async () => (await panes()).find((p) => p.id === api.id)?.state === 'DONE', () => dm.diag() + tmux.screen(pane));
    tmux.type(pane, 'sleep 600');
    await until('RUNNING', async () => ['RUNNING', 'LONG_RUNNING'].includes((await panes()).find((p) => p.id === api.id)?.state ?? ''), () => dm.diag() + tmux.screen(pane));

    tmux.kill();
    const closed = await until('closed', async () => (await panes()).find((p) => p.id === api.id && !p.alive), () => dm.diag());
    const trs = await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(api.id)}/transitions?limit=50`);
    expect(closed.state, JSON.stringify(trs.slice(0, 3))).not.toBe('FAILED');
    expect(closed.line).not.toMatch(/exit 129/);
  }, 90_000);

  it('a one-shot `run` program killed by the hang-up closes its pane, not FAILED exit 129', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const dm = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const pane = tmux.newSession('work', `${process.execPath} ${BIN} run --name job -- sh -c 'echo building; sleep 600'`, 100, 30);
    const panes = () => dm.get<PaneView[]>('/api/panes');
    const job = await until('the run pane RUNNING', async () => (await panes()).find((p) => p.name === 'job' && p.alive && p.state === 'RUNNING'), () => dm.diag() + tmux.screen(pane));
    tmux.kill();
    const closed = await until('closed', async () => (await panes()).find((p) => p.id === job.id && !p.alive), () => dm.diag());
    const trs = await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(job.id)}/transitions?limit=50`);
    expect(trs.filter((t) => t.to === 'FAILED'), JSON.stringify(trs)).toEqual([]);
    expect(closed.line).not.toMatch(/exit 129/);
  }, 90_000);
});
