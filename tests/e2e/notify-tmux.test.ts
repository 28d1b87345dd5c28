// Notifications end to end (issue 28), in real tmux panes (private socket) watched by a real daemon that notifies
// through a recording `notify-send` on its PATH and a real webhook on 127.0.0.1:
//   1  a question right after a DONE is held for the rate limit and then sent, never dropped (quiet hours:
//      notify-quiet-tmux.test.ts);
//   2  a command without shell integration that exits 2 says its exit code is unknown;
//   3  the person's own Ctrl-C pings nobody;  4  a REPL that takes 4 s to start pings nobody;
//   5  the same question after a daemon restart is not notified again; once answered it is withdrawn;
//   7  the notify-send arguments (icon, category, print-id, replace-id, jump button) and the JSON link.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BASH, playback, pythonMissing, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { calls, notifyLines, withRecordingNotifySend, writeNotifyConfig } from './notify-harness.js';

const missing = tmuxMissing();
if (missing) console.warn(`notification tmux tests SKIPPED: ${missing}`);
const noPython = pythonMissing();

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

describe.skipIf(missing !== null || noPython)('notifications from real tmux panes', () => {
  it('holds a question for the rate limit, says nothing for an own Ctrl-C or a REPL start, one notification per question across a restart', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const { nsLog, env } = withRecordingNotifySend(d, true);
    const posts: Array<Record<string, unknown>> = [];
    const server: Server = createServer((req, res) => {
      let b = '';
      req.on('data', (x) => (b += x));
      req.on('end', () => (posts.push(JSON.parse(b)), res.end('ok')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    // min_interval_s 6: the question 1.5 s after the DONE falls inside it.
    writeNotifyConfig(d.dir, { webhook_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, min_interval_s: 6, group_s: 0 });
    const tmux = new TestTmux(env);
    cleanups.push(() => tmux.kill(true));
    const sh = tmux.newSession('main', BASH, 100, 30);
    const dirs = { ...d, env };
    let dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const diag = () => `notify log: ${JSON.stringify(notifyLines(d.dir))}\nnotify-send: ${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;
    await until('the pane attached', async () => (await dm.get<Array<{ id: string; alive: boolean }>>('/api/panes')).some((p) => p.alive), diag);
    const reasons = () => notifyLines(d.dir).map((l) => `${l.state} ${l.reason}${l.held ? ' (held)' : ''}`);

    // 1: a DONE, then a question 1.5 s later, inside the rate limit: held, then sent while the pane still asks.
    tmux.type(sh, 'sleep 4');
    await until('the DONE notified', async () => calls(nsLog).length >= 1, diag, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    tmux.type(sh, "read -p 'Really deploy? [y/N] ' a");
    await until('the question held', async () => reasons().includes('WAITING_APPROVAL deferred'), diag, 30_000);
    await until('the question sent once the limit ended', async () => calls(nsLog).length >= 2, diag, 30_000);
    const [done, asked] = calls(nsLog);
    // 2: no shell integration, so nobody knows how `sleep 4` exited: the title says so.
    expect(done!.at(-2)).toMatch(/^shell · main:0\.0 finished, exit code unknown \([3-5]s\)$/); // the turn as the screen saw it
    expect(done!.at(-1)).toBe('sleep 4'); // the command line, read off the screen (tmux names only the process)
    // 7: the exact arguments: one notification per pane (replaces the DONE), a jump button, icon and category.
    expect(asked).toEqual(['--urgency=critical', '--app-name=termsupervisor', '--icon=utilities-terminal', '--category=im.received', '--print-id', '--replace-id=71', '--action=focus=Jump to pane', '--', 'shell · main:0.0 needs you: approval', 'Really deploy? [y/N]\nYes / No (default)']);
    expect(reasons()).toContain('WAITING_APPROVAL sent (held)');
    await until('the webhook got both', async () => posts.length >= 2, diag);
    expect(posts[1]).toMatchObject({ kind: 'WAITING_APPROVAL', question: 'Really deploy? [y/N]', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/#pane=tmux%3A/) });

    // 5: a daemon restart while the question is still on screen: it is the same question, not notified again.
    await dm.stop('SIGTERM');
    dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    await until('the question seen again after the restart', async () => notifyLines(d.dir).filter((l) => l.state === 'WAITING_APPROVAL').length >= 3, diag, 30_000);
    expect(reasons().filter((r) => r.startsWith('WAITING_APPROVAL')).at(-1)).toBe('WAITING_APPROVAL already_notified');
    expect(calls(nsLog)).toHaveLength(2);

    // 3: the person's own Ctrl-C: the prompt comes back under ^C, and nobody is pinged.
    tmux.type(sh, 'y');
    await new Promise((r) => setTimeout(r, 2000));
    tmux.type(sh, 'echo started; sleep 30');
    await until('the command running', async () => tmux.screen(sh).includes('started'), diag);
    await new Promise((r) => setTimeout(r, 4000));
    tmux.keys(sh, 'C-c');
    await until('the interrupt seen', async () => reasons().includes('DONE own_interrupt'), diag, 30_000);

    // 4: a REPL that takes 4 s to start: its first >>> is no DONE worth a ping.
    tmux.type(sh, "python3 -c 'import time; time.sleep(4); import code; code.interact()'");
    await until('the REPL start seen', async () => reasons().includes('DONE startup'), diag, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    const after = calls(nsLog).slice(2);
    // Nothing but the withdrawal of the answered question (it left WAITING): no ping for ^C or the REPL.
    expect(after.every((c) => c.includes('--expire-time=1000') && c.at(-1) === 'main:0.0: answered'), JSON.stringify(after)).toBe(true);
  }, 180_000);

  it('panes finishing together make one notification naming them', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const { nsLog, env } = withRecordingNotifySend(d, true);
    // a wider window than the default 2 s: tmux reports each pane's foreground once a second, on a loaded machine later
    writeNotifyConfig(d.dir, { group_s: 4 });
    const tmux = new TestTmux(env);
    cleanups.push(() => tmux.kill(true));
    const a = tmux.newSession('api', BASH, 100, 30);
    const b = tmux.newSession('web', BASH, 100, 30);
    tmux.run('rename-window', '-t', 'api:0', 'server'); // a window the person named: the notification says so
    const dm = await DaemonProcess.start({ ...d, env }, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const diag = () => `notify log: ${JSON.stringify(notifyLines(d.dir))}\nnotify-send: ${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;
    await until('both panes attached', async () => (await dm.get<Array<{ alive: boolean }>>('/api/panes')).filter((p) => p.alive).length === 2, diag);
    tmux.type(a, 'sleep 4');
    tmux.type(b, 'sleep 4');
    await until('both DONEs grouped', async () => notifyLines(d.dir).filter((l) => l.state === 'DONE' && l.reason === 'grouped').length === 2, diag, 30_000);
    await until('the group sent', async () => calls(nsLog).length > 0, diag, 15_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(calls(nsLog)).toHaveLength(1);
    const [title, body] = calls(nsLog)[0]!.slice(-2);
    expect(title).toMatch(/^2 panes are done: (api:server, web:0\.0|web:0\.0, api:server)$/);
    expect(body!.split('\n').sort()).toEqual([expect.stringMatching(/^shell · api:server finished, exit code unknown \(\ds\) · sleep 4$/), expect.stringMatching(/^shell · web:0\.0 finished, exit code unknown \(\ds\) · sleep 4$/)]);
  }, 120_000);

  it("an agent the person interrupted (Esc) pings nobody: Claude's, Codex's and Gemini's own notices, played in tmux", async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const { nsLog, env } = withRecordingNotifySend(d, true);
    writeNotifyConfig(d.dir, { group_s: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'ts-notify-play-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const tmux = new TestTmux(env);
    cleanups.push(() => tmux.kill(true));
    const plays = ['claude-interrupt', 'codex-interrupt', 'gemini-interrupt'].map((n) => playback(dir, n));
    const panes = plays.map((p) => tmux.newSession(p.name, p.command, p.cast.header.width, p.cast.header.height));
    const dm = await DaemonProcess.start({ ...d, env }, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const diag = () => `notify log: ${JSON.stringify(notifyLines(d.dir))}\nnotify-send: ${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;
    await until('the players attached', async () => (await dm.get<Array<{ alive: boolean }>>('/api/panes')).filter((p) => p.alive).length === 3, diag);
    for (const p of panes) tmux.keys(p, 'Enter');
    const longest = Math.max(...plays.map((p) => p.duration));
    await until('three interrupted turns handled', async () => notifyLines(d.dir).filter((l) => l.state === 'DONE').length >= 3, diag, (longest + 30) * 1000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(notifyLines(d.dir).map((l) => `${l.state} ${l.rule} ${l.reason}`).sort()).toEqual(['DONE claude.interrupted own_interrupt', 'DONE gemini.cancelled own_interrupt', 'DONE osc7501.idle own_interrupt']);
    expect(calls(nsLog)).toEqual([]);
  }, 120_000);
});
