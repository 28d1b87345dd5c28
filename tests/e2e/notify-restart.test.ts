// Urgent notifications kept until delivered, across a daemon restart (issue 28, "Done means"): real tmux panes
// (private socket) watched by a real daemon with its real SQLite history, a recording notify-send and a real
// webhook on 127.0.0.1 that is down, then up.
//   a  a question held for quiet hours, the daemon killed (SIGKILL) and started after they ended: delivered once;
//   c  a question held the same way but answered while the daemon was down: not delivered, the reason logged;
//   d  the delivered question, acked and still on screen: not notified again, neither after the ack nor a restart;
//   b  a question the webhook did not take (down): a restarted daemon retries it, and once the webhook is up it
//      gets it once; the desktop, which had it, is not sent it twice.
import Database from 'better-sqlite3';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import type { NotifyHealthView } from '../../src/web/api-types.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { calls, notifyLines, withRecordingNotifySend, writeNotifyConfig } from './notify-harness.js';

const missing = tmuxMissing();
if (missing) console.warn(`notification restart tests SKIPPED: ${missing}`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

/** How long an acked question is watched for a second notification: past the ~25 s the issue saw it come back. */
const ACK_WATCH_MS = 30_000;

interface Line {
  state: string;
  reason: string;
  name?: string;
  resumed?: boolean;
  stateNow?: string | null;
}

/** A daemon's scratch folders, a recording notify-send on its PATH, and its config file. */
function setup(config: Record<string, unknown>) {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  const { nsLog, env } = withRecordingNotifySend(d);
  writeNotifyConfig(d.dir, config);
  const tmux = new TestTmux(env);
  cleanups.push(() => tmux.kill(true));
  return { d, dirs: { ...d, env }, nsLog, tmux, lines: () => notifyLines(d.dir) as Line[] };
}

/** The notices the daemon keeps for a restart, as its SQLite file holds them. */
function kept(db: string): Array<{ stage: string; channels: string[]; ev: { paneName: string } }> {
  const h = new Database(db, { readonly: true });
  try {
    return (h.prepare('SELECT data FROM notify_pending').pluck().all() as string[]).map((r) => JSON.parse(r));
  } finally {
    h.close();
  }
}

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  return new Promise<number>((r) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as AddressInfo).port;
      srv.close(() => r(p));
    });
  });
}

describe.skipIf(missing !== null)('urgent notifications across a daemon restart', () => {
  it('a question held for quiet hours is delivered once by the restarted daemon after they end; one answered meanwhile is dropped, said why; an acked one is not sent again', async () => {
    // Quiet hours from this minute to the next (local time, as the daemon reads it): they end at the next minute
    // boundary. Too close to it and the questions would miss them: wait for the next minute first.
    const left = () => 60 - new Date().getSeconds();
    if (left() < 30) await new Promise((r) => setTimeout(r, left() * 1000 + 200));
    const start = new Date();
    const hm = (x: Date) => `${String(x.getHours()).padStart(2, '0')}:${String(x.getMinutes()).padStart(2, '0')}`;
    const end = new Date(start.getTime() + 60_000);
    const { d, dirs, nsLog, tmux, lines } = setup({ quiet_hours: `${hm(start)}-${hm(end)}`, group_s: 0 });
    const keep = tmux.newSession('keys', BASH, 100, 30);
    const gone = tmux.newSession('deploy', BASH, 100, 30);
    let dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const diag = () => `notify log: ${JSON.stringify(lines())}\nnotify-send: ${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;
    await until('both panes attached', async () => (await dm.get<Array<{ alive: boolean }>>('/api/panes')).filter((p) => p.alive).length === 2, diag);
    tmux.type(keep, "read -p 'Rotate the keys now? [y/N] ' a");
    tmux.type(gone, "read -p 'Deploy to production? [y/N] ' b");
    await until('both questions held for quiet hours', async () => lines().filter((l) => l.state === 'WAITING_APPROVAL' && l.reason === 'deferred').length === 2, diag, 30_000);
    expect(calls(nsLog)).toEqual([]);
    expect(kept(d.db).map((n) => `${n.stage} ${n.ev.paneName}`).sort()).toEqual(['held deploy:0.0', 'held keys:0.0']);
    expect(Date.now()).toBeLessThan(end.getTime() - end.getSeconds() * 1000 - end.getMilliseconds()); // still in them

    // Killed: nothing can be saved on the way out. While it is down, one question is answered; the hours end.
    await dm.stop('SIGKILL');
    tmux.type(gone, 'y');
    await until('the answer on screen', async () => /Deploy to production\? \[y\/N\] y\s*\n.*[$#] ?$/m.test(tmux.screen(gone)), () => tmux.screen(gone));
    const afterQuiet = end.getTime() - end.getSeconds() * 1000 - end.getMilliseconds() + 1000;
    if (Date.now() < afterQuiet) await new Promise((r) => setTimeout(r, afterQuiet - Date.now()));

    dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    await until('the kept question delivered', async () => calls(nsLog).length >= 1, diag, 40_000);
    await until('the answered one dropped, with its reason', async () => lines().some((l) => l.resumed && l.name === 'deploy:0.0'), diag, 40_000);
    await new Promise((r) => setTimeout(r, 2000));
    // a: once, the question as asked.
    expect(calls(nsLog)).toHaveLength(1);
    expect(calls(nsLog)[0]!.slice(-2)).toEqual(['shell · keys:0.0 needs you: approval', 'Rotate the keys now? [y/N]\nYes / No (default)']);
    // c: the answered one is not news any more: dropped, and the log says why (the pane had moved on).
    expect(lines().find((l) => l.resumed && l.name === 'deploy:0.0')).toMatchObject({ state: 'WAITING_APPROVAL', reason: 'answered', stateNow: expect.not.stringMatching(/^WAITING_APPROVAL$/) });
    expect(calls(nsLog).flat().join('\n')).not.toContain('Deploy to production');
    expect(kept(d.db)).toEqual([]); // delivered or dropped: nothing kept

    // d: the person acks the question, which stays on screen: no second notification, then or after a restart.
    const panes = await dm.get<Array<{ id: string; name: string; state: string }>>('/api/panes');
    const keys = panes.find((p) => p.name === 'keys:0.0')!;
    expect(keys.state).toBe('WAITING_APPROVAL');
    const acked = await fetch(`${dm.url}/api/panes/${encodeURIComponent(keys.id)}/ack`, { method: 'POST', headers: { authorization: `Bearer ${dm.token}` } });
    expect(acked.status).toBe(200);
    // The issue saw it notified again ~25 s after the ack: wait past that. Whatever the pane's question is read as
    // meanwhile, it is the one already notified.
    const atAck = lines().filter((l) => l.state === 'WAITING_APPROVAL').length;
    await new Promise((r) => setTimeout(r, ACK_WATCH_MS));
    expect(lines().filter((l) => l.state === 'WAITING_APPROVAL').slice(atAck).every((l) => l.reason === 'already_notified'), diag()).toBe(true);
    expect(calls(nsLog)).toHaveLength(1);
    await dm.stop('SIGKILL');
    const before = lines().filter((l) => l.state === 'WAITING_APPROVAL').length;
    dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    await until('the question seen again after the restart', async () => lines().filter((l) => l.state === 'WAITING_APPROVAL').length > before, diag, 30_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(lines().filter((l) => l.state === 'WAITING_APPROVAL').slice(before).map((l) => l.reason)).toEqual(['already_notified']);
    expect(calls(nsLog)).toHaveLength(1);
  }, 300_000);

  it('a question the webhook did not take is retried by the restarted daemon and delivered once when the webhook is up', async () => {
    const port = await freePort();
    const { d, dirs, nsLog, tmux, lines } = setup({ webhook_url: `http://127.0.0.1:${port}/hook`, retry_base_s: 0.3, group_s: 0 });
    const sh = tmux.newSession('infra', BASH, 100, 30);
    let dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const diag = () => `notify log: ${JSON.stringify(lines())}\nnotify-send: ${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;
    const counters = async () => (await dm.get<{ counters: Record<string, number> }>('/api/stats')).counters;
    await until('the pane attached', async () => (await dm.get<Array<{ alive: boolean }>>('/api/panes')).some((p) => p.alive), diag);
    tmux.type(sh, "read -p 'Drop the old tables? [y/N] ' a");
    await until('the desktop has it, the webhook is retried', async () => calls(nsLog).length === 1 && ((await counters())['notify.retry.webhook'] ?? 0) >= 2, diag, 30_000);
    expect(kept(d.db).map((n) => `${n.stage} ${n.channels.join(',')}`)).toEqual(['sending webhook']); // the desktop took it

    // A clean stop (SIGTERM): the panes closing on the way out are no answer, the notice stays kept.
    await dm.stop('SIGTERM');
    dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    // Still down: the restarted daemon takes it up again and retries (its own channel health, not the counters,
    // which are kept across restarts).
    await until('retried after the restart', async () => (await dm.get<NotifyHealthView>('/api/notify')).channels.some((c) => c.name === 'webhook' && c.status === 'failing' && c.retrying > 0), diag, 40_000);
    const posts: Array<Record<string, unknown>> = [];
    const server: Server = createServer((req, res) => {
      let b = '';
      req.on('data', (x) => (b += x));
      req.on('end', () => (posts.push(JSON.parse(b) as Record<string, unknown>), res.end('ok')));
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    await until('the webhook got it', async () => posts.length >= 1, diag, 40_000);
    await new Promise((r) => setTimeout(r, 3000));
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ kind: 'WAITING_APPROVAL', name: 'infra:0.0', question: 'Drop the old tables? [y/N]' });
    expect(calls(nsLog)).toHaveLength(1); // the desktop had it before the restart: not sent twice
    expect(lines().some((l) => l.resumed && l.reason === 'resumed' && l.state === 'WAITING_APPROVAL')).toBe(true);
    // delivered: nothing is kept any more, so another restart sends nothing
    expect(kept(d.db)).toEqual([]);
    await dm.stop('SIGTERM');
    dm = await DaemonProcess.start(dirs, ['--tmux-socket', tmux.socket]);
    await until('the question seen after the last restart', async () => lines().filter((l) => l.state === 'WAITING_APPROVAL' && l.reason === 'already_notified').length >= 2, diag, 30_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(posts).toHaveLength(1);
    expect(calls(nsLog)).toHaveLength(1);
  }, 180_000);
});
