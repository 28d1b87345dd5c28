// Notifications from `termsupervisor run` panes (issue 28), through a recording notify-send on the daemon's PATH:
// the person's own Ctrl-C (exit 130 after the ^C they typed) pings nobody, while a command that fails by itself
// is an urgent notification naming the command, its exit code and how long it ran.
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, runCli, until } from './daemon-harness.js';
import { BIN } from './harness.js';
import { calls, notifyLines, recordingNotifySend, writeNotifyConfig } from './notify-harness.js';
import type { NotifyHealthView } from '../../src/web/api-types.js';
import { Wrapped } from './harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

function reasons(dir: string): string[] {
  return notifyLines(dir).map((l) => `${l.state} ${l.reason}`);
}

describe('notifications from run panes', () => {
  it('an own Ctrl-C (exit 130) is silent; a failure by itself says the command, exit code and duration', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const nsLog = join(d.dir, 'ns.log');
    recordingNotifySend(join(d.dir, 'bin'), nsLog);
    const env = { ...d.env, PATH: `${join(d.dir, 'bin')}:${d.env['PATH']}` };
    const dm = await DaemonProcess.start({ ...d, env });
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const diag = () => `${JSON.stringify(reasons(d.dir))}\n${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;

    const a = new Wrapped(join(d.dir, 'a.jsonl'), ['--daemon', dm.url, '--name', 'deploy', '--', 'bash', '-c', 'echo go; sleep 30'], env);
    cleanups.push(() => a.term.kill());
    await until('the command running', async () => a.output.includes('go'), diag);
    await new Promise((r) => setTimeout(r, 4000)); // longer than done_min_turn_s: only its being theirs keeps it quiet
    a.term.write('\x03');
    await until('the interrupt handled', async () => reasons(d.dir).some((r) => r.endsWith('own_interrupt')), diag, 30_000);

    const b = new Wrapped(join(d.dir, 'b.jsonl'), ['--daemon', dm.url, '--name', 'build', '--', 'bash', '-c', 'echo building; sleep 4; exit 3'], env);
    cleanups.push(() => b.term.kill());
    await until('the failure notified', async () => calls(nsLog).some((c) => c.some((x) => x.includes('build needs you: failed'))), diag, 30_000);
    const failed = calls(nsLog).find((c) => c.some((x) => x.includes('build needs you: failed')))!;
    expect(failed[0]).toBe('--urgency=critical');
    expect(failed.at(-2)).toMatch(/^shell · build needs you: failed \(exit 3, [4-6]s\)$/);
    // nothing for the interrupted pane
    expect(calls(nsLog).filter((c) => c.some((x) => x.includes('deploy')))).toEqual([]);
    // doctor, run where notify-send is NOT on PATH, reports the daemon's channel (found on the daemon's PATH)
    const doc = await runCli([process.execPath, BIN, 'doctor', '--json', '--daemon', dm.url], d.env);
    const checks = (JSON.parse(doc.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks;
    expect(checks.find((c) => c.id === 'notify.desktop')).toMatchObject({ status: 'ok', detail: `the daemon notifies through desktop (${join(d.dir, 'bin', 'notify-send')}, an older notify-send: no replace, withdraw, jump button): 1 delivered, 0 failed` });
    expect(checks.find((c) => c.id === 'notify')).toBeUndefined();
  }, 90_000);

  it('an absent webhook: an urgent failure is retried (never counted sent), its cause shown by /api/notify, /api/stats and doctor', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    // a loopback port nothing listens on any more: the connection is refused
    const port = await new Promise<number>((r) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as AddressInfo).port;
        srv.close(() => r(p));
      });
    });
    writeNotifyConfig(d.dir, { desktop: false, webhook_url: `http://127.0.0.1:${port}/hook`, retries: 1, retry_base_s: 0.2 });
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const w = new Wrapped(join(d.dir, 'w.jsonl'), ['--daemon', dm.url, '--name', 'build', '--', 'bash', '-c', 'echo building; sleep 4; exit 3'], d.env);
    cleanups.push(() => w.term.kill());
    // FAILED is urgent: past notify.retries it is still kept and retried (back-off), never counted as sent.
    await until('three tries', async () => ((await dm.get<{ counters: Record<string, number> }>('/api/stats')).counters['notify.error.webhook'] ?? 0) >= 3, () => dm.diag(), 40_000);
    const h = await dm.get<NotifyHealthView>('/api/notify');
    expect(h.channels[0]).toMatchObject({ name: 'webhook', status: 'failing', delivered: 0, retrying: 1, detail: `json http://127.0.0.1:${port}/hook` });
    expect(h.channels[0]!.lastError).toMatch(/fetch failed: .*ECONNREFUSED/);
    const stats = await dm.get<{ counters: Record<string, number>; notify: NotifyHealthView }>('/api/stats');
    expect(stats.counters['notify.sent'] ?? 0).toBe(0);
    expect(stats.counters['notify.retry.webhook']).toBeGreaterThanOrEqual(2);
    expect(stats.notify.channels[0]!.status).toBe('failing');
    expect(await dm.get('/healthz')).toMatchObject({ ok: true, notifyFailing: ['webhook'] });
    const doc = await runCli([process.execPath, BIN, 'doctor', '--json', '--daemon', dm.url], d.env);
    const checks = (JSON.parse(doc.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks;
    expect(checks.find((c) => c.id === 'notify.webhook')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/failing: fetch failed: .*ECONNREFUSED.*0 delivered, 0 failed, 1 retrying/) });
  }, 90_000);
});
