// Our own programs inside a watched tmux pane (issue 26 items 4 and 5), against a real tmux server on a private
// socket (-L) and a real daemon watching it: `run --name api` typed into a tmux pane is ONE pane, `api`, read
// through the wrapper's own signals (the tmux pane is left to it while it runs, and watched again after), and a
// jump to it goes through tmux to that pane; `top` in a tmux pane is not watched as work while it runs.
import * as pty from 'node-pty';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, runCli, until } from './daemon-harness.js';
import { BIN } from './harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import type { PaneView } from '../../src/web/api-types.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);
const missing = tmuxMissing();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setup() {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  const tmux = new TestTmux(d.env);
  cleanups.push(() => tmux.kill(true));
  const work = tmux.newSession('work', BASH, 100, 30);
  const other = tmux.run('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'work:', BASH).trim();
  const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
  cleanups.push(async () => void (await dm.stop('SIGKILL')));
  const panes = () => dm.get<PaneView[]>('/api/panes');
  const live = async () => (await panes()).filter((p) => p.alive);
  await until('the tmux panes', async () => (await live()).filter((p) => p.attach === 'tmux').length === 2, () => dm.diag());
  return { d, tmux, work, other, dm, panes, live };
}

describe.skipIf(missing !== null)('our programs in a watched tmux pane (private server, -L)', () => {
  it('run --name api inside a tmux pane is one pane, api, read through the wrapper; focus jumps through tmux', async () => {
    const { d, tmux, work, other, dm, live } = await setup();
    const workId = tmux.paneId(work);
    // The person: a terminal attached to the session, looking at the other window.
    const person = pty.spawn('tmux', ['-L', tmux.socket, 'attach', '-t', 'work:1'], { name: 'xterm-256color', cols: 100, rows: 30, env: d.env });
    cleanups.push(() => person.kill());
    await until('the client', async () => tmux.run('list-clients', '-F', '#{client_name}').includes('/dev/'));

    tmux.type(work, `${process.execPath} ${BIN} run --name api -- ${BASH}`);
    const api = await until('the run pane', async () => (await live()).find((p) => p.name === 'api' && p.attach === 'run'), () => dm.diag() + tmux.screen(work));
    // The tmux pane is the wrapper's now: not a second card.
    await until('the tmux pane left to the wrapper', async () => !(await live()).some((p) => p.id === workId), () => dm.diag());
    expect(api.where).toMatchObject({ pane: work, tmuxSocket: expect.stringContaining(tmux.socket) });

    await sleep(500);
    tmux.type(work, 'sleep 1; echo from-api');
    await until('api DONE', async () => (await live()).find((p) => p.id === api.id)?.state === 'DONE', () => dm.diag() + tmux.screen(work));
    const all = await live();
    expect(all.filter((p) => p.id === workId)).toEqual([]);
    expect(all.filter((p) => p.needsYou).map((p) => p.name)).toEqual(['api']);

    // A jump: the person's client goes to the tmux pane the wrapper runs in (exit 0).
    const shows = () => tmux.run('list-clients', '-F', '#{client_name} #{session_name}:#{window_index}.#{pane_id}').split('\n').find((l) => l.includes('/dev/'))!.split(' ')[1];
    expect(shows()).toBe(`work:1.${other}`);
    const jump = await runCli([process.execPath, BIN, 'focus', 'api'], d.env);
    expect(jump.code, jump.stdout + jump.stderr).toBe(0);
    expect(jump.stdout).toContain(`work:0.0 (${work})`);
    expect(shows()).toBe(`work:0.${work}`);

    // The wrapper ends: the tmux pane (its shell again) is watched again.
    tmux.type(work, 'exit');
    await until('the tmux pane watched again', async () => (await live()).some((p) => p.id === workId), () => dm.diag());
    expect((await live()).some((p) => p.id === api.id)).toBe(false);
  }, 120_000);

  it('top in a tmux pane is not watched as work while it runs', async () => {
    const { tmux, work, dm, live, panes } = await setup();
    const workId = tmux.paneId(work);
    tmux.type(work, `${process.execPath} ${BIN} top`);
    await until('top on screen', async () => /termsupervisor top/.test(tmux.screen(work)), () => tmux.screen(work));
    await until('the top pane left alone', async () => !(await live()).some((p) => p.id === workId), () => dm.diag() + tmux.screen(work));
    // For as long as it runs: not a waiting pane, not a running one.
    await sleep(3000);
    expect((await live()).some((p) => p.id === workId)).toBe(false);
    const history = (await panes()).find((p) => p.id === workId);
    expect(history?.state ?? 'IDLE').not.toBe('WAITING_APPROVAL');
    tmux.keys(work, 'q');
    await until('watched again after top quits', async () => (await live()).some((p) => p.id === workId), () => dm.diag() + tmux.screen(work));
  }, 120_000);
});
