// "Jump to the pane" (POST /api/panes/:id/focus) against the real things: a tmux server on a private socket with a
// person's client attached in a PTY (node-pty running `tmux attach`), two sessions, and a real daemon following it.
// A jump makes that client show the pane — another window of its session, or a pane of another session
// (switch-client) — checked with what tmux says that client shows. A `run` pane's jump says where it runs.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as pty from 'node-pty';
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, runCli, until } from './daemon-harness.js';
import { BIN } from './harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import type { ActionView, FocusResult, PaneView, WsMessage } from '../../src/web/api-types.js';
import { TmuxWatcher } from '../../src/attach/tmux/tmux-watcher.js';
import { resolveTmuxSocket } from '../../src/attach/tmux/tmux-socket.js';
import { focusTmuxPane } from '../../src/attach/tmux/tmux-focus.js';

const missing = tmuxMissing();
if (missing) console.warn(`jump tests SKIPPED: ${missing}`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => ensureBuilt(), 120_000);

async function focus(dm: DaemonProcess, id: string, client = 'cli'): Promise<{ status: number; body: FocusResult & { error?: string } }> {
  const r = await fetch(`${dm.url}/api/panes/${encodeURIComponent(id)}/focus`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dm.token}`, 'x-termsupervisor-client': client },
  });
  return { status: r.status, body: (await r.json()) as FocusResult & { error?: string } };
}

describe.skipIf(missing !== null)('jump to a pane', () => {
  it('tmux: the attached client shows the pane, in another window and in another session', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const a0 = tmux.newSession('alpha', BASH, 80, 24);
    const a1 = tmux.run('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'alpha:', BASH).trim();
    const b0 = tmux.newSession('beta', BASH, 80, 24);
    const b1 = tmux.run('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'beta:', BASH).trim();
    const b1split = tmux.split(b1, BASH);

    // The person: a terminal attached to session alpha (window 0 shown).
    const person = pty.spawn('tmux', ['-L', tmux.socket, 'attach', '-t', 'alpha'], { name: 'xterm-256color', cols: 80, rows: 24, env: d.env });
    cleanups.push(() => person.kill());
    const client = await until('the client to attach', async () => tmux.run('list-clients', '-F', '#{client_name}').trim().split('\n').find((c) => c.startsWith('/dev/')) ?? null);
    // What that client shows: list-clients expands a client's formats in its own session (display -p -c CLIENT
    // would expand them for the "current" session, the most recently used one, not necessarily the client's).
    const shows = () => tmux.run('list-clients', '-F', '#{client_name} #{session_name}:#{window_index}.#{pane_id}').split('\n').find((l) => l.startsWith(client + ' '))!.slice(client.length + 1);
    expect(shows()).toBe(`alpha:0.${a0}`);

    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const ids = [a0, a1, b0, b1, b1split].map((p) => tmux.paneId(p));
    await until('the tmux panes to be attached', async () => {
      const ps = await dm.get<PaneView[]>('/api/panes');
      return ids.every((i) => ps.some((p) => p.id === i && p.alive));
    }, () => dm.diag());
    const feed = await dm.feed();
    cleanups.push(() => feed.ws.terminate());

    const view = (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === tmux.paneId(b1split))!;
    expect(view.where).toEqual({ session: 'beta', window: '1', pane: b1split });

    // Another window of the client's session.
    const inSession = await focus(dm, tmux.paneId(a1));
    expect(inSession.status, JSON.stringify(inSession.body)).toBe(200);
    expect(inSession.body).toMatchObject({ focused: true, action: { kind: 'focus', origin: 'cli', paneId: tmux.paneId(a1) } });
    // Issue 26 item 13: session:window.pane in tmux's own indexes, the id apart; no "switched session" within one.
    expect(inSession.body.how).toContain(`alpha:1.0 (${a1})`);
    expect(inSession.body.how).not.toContain('switched session');
    expect(shows()).toBe(`alpha:1.${a1}`);

    // A pane that is not its window's active one, in another session: switch-client, window and pane selected.
    expect(tmux.show(b1, '#{pane_active}')).toBe('1');
    const other = await focus(dm, tmux.paneId(b1split), 'dashboard');
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.body.focused).toBe(true);
    expect(other.body.how).toContain(`beta:1.1 (${b1split}) (switched session)`);
    expect(shows()).toBe(`beta:1.${b1split}`);
    expect(tmux.show(b1split, '#{pane_active}')).toBe('1');

    // Each jump is an action on the live feed, with who asked and from where.
    await until('the actions on the feed', async () => feed.messages.filter((m) => m.type === 'action').length >= 2);
    const actions = feed.messages.filter((m): m is Extract<WsMessage, { type: 'action' }> & { type: string } => m.type === 'action').map((m) => m.action);
    expect(actions.map((a) => [a.paneId, a.kind, a.origin, a.keys])).toEqual([
      [tmux.paneId(a1), 'focus', 'cli', ''],
      [tmux.paneId(b1split), 'focus', 'dashboard', ''],
    ]);
    expect(actions[1]!.from).toMatch(/127\.0\.0\.1/);
    // …and in the pane's history.
    const kept = await dm.get<ActionView[]>(`/api/panes/${encodeURIComponent(tmux.paneId(b1split))}/actions`);
    expect(kept).toEqual([actions[1]]);

    // No client attached any more: nothing to show it in, said so.
    person.kill();
    await until('the client to detach', async () => !tmux.run('list-clients', '-F', '#{client_name}').includes('/dev/'));
    const nobody = await focus(dm, tmux.paneId(a0));
    expect(nobody.body).toMatchObject({ focused: false });
    expect(nobody.body.how).toContain('no tmux client is attached');
  });

  it("top: Enter on a tmux pane's row makes the person's client show it", async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const topPane = tmux.newSession('alpha', BASH, 120, 24);
    const work = tmux.newSession('work', BASH, 80, 24);
    // The person's terminal shows session alpha, where they run top.
    const person = pty.spawn('tmux', ['-L', tmux.socket, 'attach', '-t', 'alpha'], { name: 'xterm-256color', cols: 120, rows: 24, env: d.env });
    cleanups.push(() => person.kill());
    const client = await until('the client to attach', async () => tmux.run('list-clients', '-F', '#{client_name}').trim().split('\n').find((c) => c.startsWith('/dev/')) ?? null);
    const shows = () => tmux.run('list-clients', '-F', '#{client_name} #{session_name}:#{pane_id}').split('\n').find((l) => l.startsWith(client + ' '))!.slice(client.length + 1);
    expect(shows()).toBe(`alpha:${topPane}`);
    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const workId = tmux.paneId(work);
    await until('the work pane to be attached', async () => (await dm.get<PaneView[]>('/api/panes')).some((p) => p.id === workId && p.alive), () => dm.diag());

    tmux.type(topPane, `node ${BIN} top`);
    await until('top on screen', async () => /termsupervisor top/.test(tmux.screen(topPane).split('\n')[0] ?? ''), () => tmux.screen(topPane) + dm.diag());
    // Only the work pane: filter by its tmux id, then Enter on its row.
    tmux.keys(topPane, '/');
    tmux.run('send-keys', '-t', topPane, '-l', `:${work}`);
    tmux.keys(topPane, 'Enter');
    await until('the filter applied', async () => tmux.screen(topPane).split('\n').filter((l) => /IDLE|RUNNING|DONE/.test(l)).length === 1, () => tmux.screen(topPane));
    tmux.keys(topPane, 'Enter');
    await until('the client to show the work pane', async () => shows() === `work:${work}`, () => shows() + '\n' + tmux.screen(topPane));
    const kept = await dm.get<ActionView[]>(`/api/panes/${encodeURIComponent(workId)}/actions`);
    expect(kept[0]).toMatchObject({ kind: 'focus', origin: 'top' });
  });

  it('tmux with no control client of ours attached: the same jump through `tmux -S`', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    tmux.newSession('one', BASH, 80, 24);
    const two = tmux.newSession('two', BASH, 80, 24);
    const person = pty.spawn('tmux', ['-L', tmux.socket, 'attach', '-t', 'one'], { name: 'xterm-256color', cols: 80, rows: 24, env: d.env });
    cleanups.push(() => person.kill());
    const client = await until('the client to attach', async () => tmux.run('list-clients', '-F', '#{client_name}').trim().split('\n').find((c) => c.startsWith('/dev/')) ?? null);
    // A watcher never started has no control client: its commands go through one `tmux -S` each.
    const w = new TmuxWatcher({ socket: resolveTmuxSocket(tmux.socket, d.env), sink: null as never, log: { info() {}, warn() {}, debug() {} }, env: d.env });
    const r = await focusTmuxPane((cmds) => w.run(cmds), two);
    expect(r).toMatchObject({ focused: true });
    expect(tmux.run('list-clients', '-F', '#{client_name} #{session_name}:#{pane_id}').trim()).toBe(`${client} two:${two}`);
    expect(await focusTmuxPane((cmds) => w.run(cmds), '%999')).toEqual({ focused: false, how: 'tmux pane %999 is gone' });
  });

  it('run: says where it runs (host, tty, pid); unknown and closed panes are refused', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const dm = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    // In a PTY, as a person runs it: the wrapper's terminal is that PTY.
    const w = pty.spawn(process.execPath, ['bin/termsupervisor', 'run', '--name', 'here', '--log', `${d.dir}/events.jsonl`, '--', 'bash', '--norc', '--noprofile'], { name: 'xterm-256color', cols: 80, rows: 24, cwd: process.cwd(), env: d.env });
    let out = '';
    w.onData((s) => (out += s));
    cleanups.push(() => w.kill());
    const pane = await until('the run pane with its pid', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.name === 'here' && p.alive && p.where?.pid !== undefined), () => out + dm.diag());
    expect(pane.where).toEqual({ host: hostname(), tty: expect.stringMatching(/^\/dev\/pts\/\d+$/), pid: expect.any(Number) });
    // The pid is the program's: its parent is the wrapper (the process the PTY started).
    expect(readFileSync(`/proc/${pane.where!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]).toBe(String(w.pid));
    const r = await focus(dm, pane.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ focused: false, how: `runs on ${hostname()} in ${pane.where!.tty} (pid ${pane.where!.pid})`, action: { kind: 'focus', origin: 'cli' } });

    // The CLI: a jump that could not happen is exit 4 (issue 26 item 13), with where it runs.
    const cli = await runCli([process.execPath, BIN, 'focus', 'here'], d.env);
    expect(cli.code, cli.stderr).toBe(4);
    expect(cli.stdout).toContain(`cannot show here [${pane.id}]: runs on ${hostname()}`);

    expect((await focus(dm, 'no-such-pane')).status).toBe(404);
    w.write('exit\r');
    await until('the pane to close', async () => (await dm.get<PaneView[]>('/api/panes')).some((p) => p.id === pane.id && !p.alive));
    const closed = await focus(dm, pane.id);
    expect(closed.status).toBe(409);
    expect(closed.body.error).toContain('closed');

    // Without the token, refused like every mutation.
    const anon = await fetch(`${dm.url}/api/panes/${encodeURIComponent(pane.id)}/focus`, { method: 'POST' });
    expect(anon.status).toBe(401);
  });
});
