// Quiet hours end to end (issue 28, item 1), in a real tmux pane (private socket) watched by a real daemon that
// notifies through a recording `notify-send` on its PATH: a question asked in them is delivered when they end.
// Its own file: it waits for a minute boundary of the wall clock, so it runs beside the other notification tests.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BASH, pythonMissing, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { calls, notifyLines, withRecordingNotifySend, writeNotifyConfig } from './notify-harness.js';

const missing = tmuxMissing();
if (missing) console.warn(`quiet-hours tmux test SKIPPED: ${missing}`);
const noPython = pythonMissing();

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

describe.skipIf(missing !== null || noPython)('quiet hours in a real tmux pane', () => {
  it('a question asked in quiet hours is delivered when they end (a DONE in them is not)', async () => {
    // Quiet hours from this minute to the next, in the local time the daemon (same TZ) reads: they end at the next
    // minute boundary. Too close to it and the question would miss them: wait for the next minute first.
    const left = () => 60 - new Date().getSeconds();
    if (left() < 25) await new Promise((r) => setTimeout(r, left() * 1000 + 200));
    const now = new Date();
    const hm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    const end = new Date(now.getTime() + 60_000);
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const { nsLog, env } = withRecordingNotifySend(d, true);
    writeNotifyConfig(d.dir, { quiet_hours: `${hm(now)}-${hm(end)}`, group_s: 0 });
    const tmux = new TestTmux(env);
    cleanups.push(() => tmux.kill(true));
    const sh = tmux.newSession('night', BASH, 100, 30);
    const dm = await DaemonProcess.start({ ...d, env }, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const diag = () => `notify log: ${JSON.stringify(notifyLines(d.dir))}\nnotify-send: ${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;
    await until('the pane attached', async () => (await dm.get<Array<{ alive: boolean }>>('/api/panes')).some((p) => p.alive), diag);
    tmux.type(sh, 'sleep 4');
    await until('the DONE dropped for quiet hours', async () => notifyLines(d.dir).some((l) => l.state === 'DONE' && l.reason === 'quiet_hours'), diag, 30_000);
    tmux.type(sh, "read -p 'Rotate the keys now? [y/N] ' a");
    await until('the question held', async () => notifyLines(d.dir).some((l) => l.state === 'WAITING_APPROVAL' && l.reason === 'deferred'), diag, 30_000);
    expect(calls(nsLog)).toEqual([]);
    expect(new Date().getTime()).toBeLessThan(end.getTime() - (end.getSeconds() * 1000 + end.getMilliseconds()));
    // quiet hours end at the next minute: the pane still asks, so it goes out then
    await until('the question delivered at their end', async () => calls(nsLog).length > 0, diag, 90_000);
    expect(calls(nsLog)[0]!.slice(-2)).toEqual(['shell · night:0.0 needs you: approval', 'Rotate the keys now? [y/N]\nYes / No (default)']);
    expect(new Date().getMinutes()).not.toBe(now.getMinutes());
    expect(new Date().getSeconds()).toBeLessThan(10); // at their end, not some time later
  }, 180_000);

});
