// tmux presence (issue 29) against the real things: a tmux server on a private socket with the plugin's lines
// loaded, a person's client attached in a PTY (node-pty running `tmux attach`, its screen rendered by a real
// @xterm/headless), and a real daemon following the server. As a pane goes RUNNING → WAITING_APPROVAL → DONE, the
// options (display -p) and what the client's screen shows (its status line and window list) carry the marks within
// PRESENCE_LIMIT_MS of the transition reaching the live feed; prefix N (focus --next) moves the client; a DONE pane
// shown for a moment is acknowledged (ack.focus), a WAITING one is not.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as pty from 'node-pty';
import xtermHeadless from '@xterm/headless';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, runCli, until } from './daemon-harness.js';
import { BIN, ROOT } from './harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const { Terminal } = xtermHeadless;
const missing = tmuxMissing();
if (missing) console.warn(`tmux presence tests SKIPPED: ${missing}`);

/** The bound: a mark shows within half a second of the state it stands for. */
const PRESENCE_LIMIT_MS = 500;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => ensureBuilt(), 120_000);

/** The person's terminal: `tmux attach` in a PTY, its output rendered by xterm. */
function person(tmux: TestTmux, session: string, env: Record<string, string>) {
  const term = new Terminal({ cols: 120, rows: 20, allowProposedApi: true, logLevel: 'off' });
  const p = pty.spawn('tmux', ['-L', tmux.socket, 'attach', '-t', session], { name: 'xterm-256color', cols: 120, rows: 20, env });
  p.onData((d) => term.write(d));
  cleanups.push(() => p.kill());
  const row = (y: number) => term.buffer.active.getLine(y)?.translateToString(true) ?? '';
  return { pty: p, term, statusLine: () => row(19), screen: () => Array.from({ length: 20 }, (_, y) => row(y)).join('\n') };
}

/** The window list shows `glyph` right after window 1's name and flags (`1:agent-✓`). */
function windowMark(status: string, glyph: string): boolean {
  return new RegExp(`1:agent[^ ]* {0,2}${glyph.replace('?', '\\?')}`).test(status);
}

/** How long after now `probe` first holds (polled every 50 ms: the figure is a bound to within that). */
async function timed(what: string, probe: () => boolean | Promise<boolean>, diag: () => string): Promise<number> {
  const t0 = Date.now();
  await until(what, async () => await probe(), diag, 10_000);
  return Date.now() - t0;
}

describe.skipIf(missing !== null)('tmux presence (real tmux, a client in a PTY, a real daemon)', () => {
  it('marks follow RUNNING → WAITING → DONE; prefix N jumps; a look acks DONE, not WAITING', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const ask = join(d.dir, 'ask.sh');
    writeFileSync(ask, 'sleep 1.5\nread -r -p "Remove the build folder? [y/N] " ans\necho "answer: $ans"\n');
    const home = tmux.newSession('work', BASH, 120, 19);
    const agent = tmux.run('new-window', '-d', '-n', 'agent', '-P', '-F', '#{pane_id}', '-t', 'work:', BASH).trim();
    tmux.run('set', '-g', '@termsupervisor_bin', BIN);
    tmux.run('source-file', join(ROOT, 'tmux', 'termsupervisor.conf'));
    const client = person(tmux, 'work', d.env);
    await until('the client to attach', async () => tmux.run('list-clients', '-F', '#{client_name}').includes('/dev/'));

    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = tmux.paneId(agent);
    await until('the panes attached and seeded', async () => {
      const ps = await dm.get<PaneView[]>('/api/panes');
      return [home, agent].every((p) => ps.some((v) => v.id === tmux.paneId(p) && v.alive && v.edge.some((l) => l.trim() !== '')));
    }, () => dm.diag());
    // The window the person named names its pane.
    expect((await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)!.name).toBe('work:agent');
    const feed = await dm.feed();
    cleanups.push(() => feed.ws.terminate());
    /** When the live feed brought the pane's next transition to `to`. */
    const arrival = (to: string, after: number) =>
      until(`${to} on the feed`, async () => {
        const i = feed.messages.findIndex((m, k) => k >= after && m.type === 'transition' && (m['transition'] as TransitionView).paneId === id && (m['transition'] as TransitionView).to === to);
        return i >= 0 ? { at: Date.now(), index: i } : null;
      }, () => dm.diag(), 30_000);
    const opt = (target: string, name: string) => tmux.show(target, `#{${name}}`);
    const diag = () => `status line: ${client.statusLine()}\noptions: ${tmux.run('show-options', '-g')}\n${dm.diag()}`;

    // bash draws a prompt with bracketed paste on after its first command: a no-op first (see tmux-shell-turns).
    tmux.type(agent, ':');
    await until('the no-op', async () => tmux.screen(agent).includes('$ :\n$'), () => dm.diag());
    let mark = feed.messages.length;
    tmux.type(agent, `bash ${ask}`);

    // RUNNING: the pane's and window's state, the server's count, and ◐ in the client's window list and status line.
    await arrival('RUNNING', mark);
    const running = await timed('the running marks', () => opt(agent, '@termsupervisor_state') === 'running' && opt('work:agent', '@termsupervisor_running') === '1' && windowMark(client.statusLine(), '◐') && client.statusLine().includes('◐ 1'), diag);
    console.log(`running marks ${running} ms after the feed: ${client.statusLine()}`);
    expect(running).toBeLessThan(PRESENCE_LIMIT_MS);

    // WAITING_APPROVAL: ? in both, the session and server count it as needing you.
    mark = feed.messages.length;
    await arrival('WAITING_APPROVAL', mark);
    const waiting = await timed('the waiting marks', () => opt(agent, '@termsupervisor_state') === 'waiting' && opt('work:agent', '@termsupervisor_needs') === '1' && windowMark(client.statusLine(), '?') && client.statusLine().includes('? 1') && !client.statusLine().includes('◐'), diag);
    console.log(`waiting marks ${waiting} ms after the feed: ${client.statusLine()}`);
    expect(waiting).toBeLessThan(PRESENCE_LIMIT_MS);
    expect(tmux.run('show-options', '-w', '-t', 'work:agent', '-v', '@termsupervisor_mark').trim()).toBe('#[fg=#f0b429,bg=#161b22] ? #[default]');
    // The session's own count (not the server's, which a format would fall back to).
    expect(tmux.run('show-options', '-t', 'work', '-v', '@termsupervisor_needs').trim()).toBe('1');
    expect(tmux.run('show-options', '-g', '-v', '@termsupervisor_waiting').trim()).toBe('1');
    // The window the client shows has nothing to say: no mark.
    expect(opt('work:0', '@termsupervisor_mark')).toBe('');

    // DONE, unseen (the client shows window 0): ✓.
    mark = feed.messages.length;
    tmux.type(agent, 'y');
    await arrival('DONE', mark);
    const done = await timed('the done marks', () => opt(agent, '@termsupervisor_state') === 'done' && windowMark(client.statusLine(), '✓') && client.statusLine().includes('✓ 1'), diag);
    console.log(`done marks ${done} ms after the feed: ${client.statusLine()}`);
    expect(done).toBeLessThan(PRESENCE_LIMIT_MS);
    // Not acknowledged while nobody shows it.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)!.state).toBe('DONE');

    // prefix N (C-b N): the client jumps to the pane that needs you; shown for a moment, it is acknowledged.
    mark = feed.messages.length;
    client.pty.write('\x02N');
    await until('the client to show the agent pane', async () => tmux.run('list-clients', '-F', '#{client_control_mode} #{pane_id}').split('\n').includes(`0 ${agent}`), diag);
    const acked = await arrival('IDLE', mark);
    const ack = feed.messages[acked.index]!['transition'] as TransitionView;
    expect(ack.rule).toBe('ack.focus');
    await until('the marks cleared', async () => opt(agent, '@termsupervisor_state') === '' && opt('work:agent', '@termsupervisor_mark') === '' && !/[?✓◐]/.test(client.statusLine()), diag);

    // Shown while it asks: WAITING stays WAITING (a look is no answer); answered, its DONE is seen at once.
    mark = feed.messages.length;
    tmux.type(agent, `bash ${ask}`);
    await arrival('WAITING_APPROVAL', mark);
    await new Promise((r) => setTimeout(r, 2500));
    const still = (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)!;
    expect(still.state).toBe('WAITING_APPROVAL');
    mark = feed.messages.length;
    tmux.type(agent, 'n');
    await arrival('DONE', mark);
    const seen = await arrival('IDLE', mark);
    expect((feed.messages[seen.index]!['transition'] as TransitionView).rule).toBe('ack.focus');

    // `status --format tmux`: the same counts as a line for #(…); nothing at rest.
    const line = await runCli([process.execPath, BIN, 'status', '--format', 'tmux'], d.env);
    expect(line.code).toBe(0);
    expect(line.stdout).toBe('\n');

    // Named by the person: the name is tmux's pane option, and the card's.
    const named = await runCli([process.execPath, BIN, 'name', id, 'reviewer'], d.env);
    expect(named.stdout + named.stderr).toContain('is named reviewer');
    expect(opt(agent, '@termsupervisor_name')).toBe('reviewer');
    await until('the name on the pane', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)!.name === 'reviewer');
    await runCli([process.execPath, BIN, 'name', id, ''], d.env);
    await until('its tmux name back', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)!.name === 'work:agent');
    // The person renames the window: the pane follows (%window-renamed).
    tmux.run('rename-window', '-t', 'work:agent', 'review');
    await until('the new window name', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)!.name === 'work:review');

    // prefix T: top in a popup over the client, the panes listed; q closes it (display-popup -E).
    client.pty.write('\x02T');
    await until('top in the popup', async () => client.screen().includes('termsupervisor top') && client.screen().includes('live panes'), () => client.screen());
    expect(tmux.run('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n').sort()).toEqual([home, agent].sort()); // a popup is no pane
    client.pty.write('q');
    await until('the popup closed', async () => !client.screen().includes('termsupervisor top'), () => client.screen());

    // The daemon stopping takes its marks away: nobody would keep them current.
    tmux.type(agent, 'sleep 30');
    await until('running again', async () => opt('work:review', '@termsupervisor_state') === 'running', diag);
    await dm.stop('SIGTERM');
    expect(tmux.run('show-options', '-g').includes('@termsupervisor_running')).toBe(false);
    expect(opt('work:review', '@termsupervisor_state')).toBe('');
  }, 120_000);

  it('config tmux.presence false: nothing is set on the server, nothing is acknowledged by a look', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const config = join(d.dir, 'config.json');
    writeFileSync(config, JSON.stringify({ tmux: { presence: false } }));
    const sh = tmux.newSession('work', BASH, 120, 19);
    const client = person(tmux, 'work', d.env);
    await until('the client to attach', async () => tmux.run('list-clients', '-F', '#{client_name}').includes('/dev/'));
    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket, '--config', config]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = tmux.paneId(sh);
    await until('the pane attached', async () => (await dm.get<PaneView[]>('/api/panes')).some((p) => p.id === id && p.alive && p.edge.some((l) => l.trim())), () => dm.diag());
    tmux.type(sh, ':');
    await until('the no-op', async () => tmux.screen(sh).includes('$ :\n$'), () => dm.diag());
    tmux.type(sh, 'sleep 1; echo built');
    await until('DONE', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)?.state === 'DONE', () => dm.diag(), 30_000);
    // Shown by the client all along, for well over the look's moment: still FAILED, and no option anywhere.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id)!.state).toBe('DONE');
    expect(tmux.run('show-options', '-g')).not.toContain('@termsupervisor');
    expect(tmux.run('show-options', '-p', '-t', sh)).not.toContain('@termsupervisor');
    expect(client.statusLine()).not.toContain('✓');
  }, 60_000);

  it("a look from a terminal without focus (focus-events on, focus out) is no look; once focused, it is", async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const sh = tmux.newSession('work', BASH, 120, 19);
    tmux.run('new-window', '-d', '-t', 'work:', BASH);
    tmux.run('set', '-g', 'focus-events', 'on');
    const client = person(tmux, 'work', d.env);
    await until('the client to attach', async () => tmux.run('list-clients', '-F', '#{client_name}').includes('/dev/'));
    const flags = () => tmux.run('list-clients', '-F', '#{client_control_mode} #{client_flags}').split('\n').find((l) => l.startsWith('0 ')) ?? '';
    client.pty.write('\x1b[O'); // the terminal reports it lost focus
    await until('the client unfocused', async () => !flags().includes('focused'), () => flags());
    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = tmux.paneId(sh);
    const state = async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id);
    await until('the pane attached', async () => (await state())?.edge.some((l) => l.trim()), () => dm.diag());
    tmux.type(sh, ':');
    await until('the no-op', async () => tmux.screen(sh).includes('$ :\n$'), () => dm.diag());
    tmux.type(sh, 'sleep 1; echo built');
    await until('DONE', async () => (await state())?.state === 'DONE', () => dm.diag(), 30_000);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await state())!.state).toBe('DONE');
    // Focus back, and the person looks again (another window, then this one): seen.
    client.pty.write('\x1b[I');
    await until('the client focused', async () => flags().includes('focused'), () => flags());
    tmux.run('select-window', '-t', 'work:1');
    tmux.run('select-window', '-t', 'work:0');
    await until('acknowledged by the look', async () => (await state())?.state === 'IDLE' && (await state())?.rule === 'ack.focus', () => dm.diag(), 10_000);
  }, 60_000);
});
