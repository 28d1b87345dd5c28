// When notifications fail (issue 28 item 9), through a real daemon and real `run` panes: a notify-send that exits 1,
// a webhook answering 500, a webhook slower than the daemon's timeout. Each failing channel is counted honestly in
// /api/stats (a failed try is no "sent"), shown by /api/notify (the board's source), /healthz and `doctor` asking
// that daemon, retried with back-off, and the urgent event delivered once the channel works. (An absent webhook:
// notify-run.test.ts.) The channels fail until the test lets them work, so what is read while they fail is read
// while they fail; back-off is checked as a lower bound only (timers never fire early).
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import type { NotifyHealthView } from '../../src/web/api-types.js';
import { notifyHealthText } from '../../web/src/notify-health.js';
import { daemonDirs, DaemonProcess, runCli, until } from './daemon-harness.js';
import { BIN, Wrapped } from './harness.js';
import { calls, writeNotifyConfig } from './notify-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

/** notify.retry_base_s for these tests: retries come quickly, and still measurably apart. */
const BASE_S = 0.3;
/** Timer slack allowed below a back-off wait (clock granularity; a timer never fires early by more). */
const SLACK_MS = 20;

type Counters = Record<string, number>;
interface Check {
  id: string;
  status: string;
  detail: string;
}

async function start(notify: Record<string, unknown>, bin?: string) {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  writeNotifyConfig(d.dir, { group_s: 0, retry_base_s: BASE_S, ...notify });
  const env = bin ? { ...d.env, PATH: `${bin}:${d.env['PATH']}` } : d.env;
  const dm = await DaemonProcess.start({ ...d, env });
  cleanups.push(async () => void (await dm.stop('SIGKILL')));
  const pane = (name: string, script: string) => {
    const w = new Wrapped(join(d.dir, `${name}.jsonl`), ['--daemon', dm.url, '--name', name, '--', 'bash', '-c', script], env);
    cleanups.push(() => w.kill());
    return w;
  };
  const counters = async () => (await dm.get<{ counters: Counters }>('/api/stats')).counters;
  const channel = async (name: string) => (await dm.get<NotifyHealthView>('/api/notify')).channels.find((c) => c.name === name)!;
  // doctor run from a shell whose PATH has no notify-send and whose config names no webhook: it must ask the daemon
  const doctor = async (id: string) => {
    const r = await runCli([process.execPath, BIN, 'doctor', '--json', '--daemon', dm.url], { ...d.env, XDG_CONFIG_HOME: join(d.dir, 'no-config') });
    return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.id === id);
  };
  // what the board's indicator shows for this daemon's answer (web/src/notify-health.ts; in Chromium:
  // dashboard-notify.test.ts)
  const board = async () => notifyHealthText(await dm.get<NotifyHealthView>('/api/notify'));
  return { d, dm, pane, counters, channel, doctor, board };
}

/** Each gap between consecutive times (ms) is at least the back-off's wait: base, 2 × base, 4 × base … */
function expectBackOff(times: number[]): void {
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!, `gap before try ${i + 1}`).toBeGreaterThanOrEqual(BASE_S * 1000 * 2 ** (i - 1) - SLACK_MS);
}

/** A webhook on 127.0.0.1 whose answer to each request the test decides (`answer`); records bodies and times. */
async function webhook(answer: (res: ServerResponse, n: number) => void) {
  const got: Array<{ body: string; at: number }> = [];
  const srv = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (x: string) => (body += x));
    req.on('end', () => {
      got.push({ body, at: Date.now() });
      answer(res, got.length);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => (srv.closeAllConnections(), srv.close(() => r()))));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`, got };
}

describe('failing notification channels, through a real daemon', () => {
  it('a notify-send that exits 1: the question is retried with back-off, never counted sent, shown failing, delivered once it works', async () => {
    const dir = daemonDirs();
    cleanups.push(() => dir.cleanup());
    const bin = join(dir.dir, 'bin');
    const log = join(dir.dir, 'ns.log');
    const times = join(dir.dir, 'ns.times');
    const works = join(dir.dir, 'bus-up');
    mkdirSync(bin);
    // records every try (argv, and when), then fails as notify-send does without a session bus, until `works` exists
    writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\n[ "$1" = "--help" ] && exit 0\nprintf '%s\\0' "$@" >> '${log}'; printf '\\036' >> '${log}'\ndate +%s%3N >> '${times}'\n[ -e '${works}' ] && exit 0\necho 'Cannot autolaunch D-Bus without X11 $DISPLAY' >&2\nexit 1\n`);
    chmodSync(join(bin, 'notify-send'), 0o755);
    const { dm, pane, counters, channel, doctor, board } = await start({}, bin);
    const w = pane('deploy', "read -p 'Deploy to production? [y/N] ' a; sleep 60");
    const diag = () => `notify-send: ${JSON.stringify(calls(log))}\n${w.diag()}\n${dm.diag()}`;
    await until('three tries', async () => calls(log).length >= 3 && ((await counters())['notify.retry.desktop'] ?? 0) >= 3, diag, 40_000);

    const c = await counters();
    expect(c['notify.sent'] ?? 0).toBe(0); // not one got through
    expect(c['notify.failed'] ?? 0).toBe(0); // nor given up: a question is kept while the pane asks
    expect(c['notify.error.desktop']).toBeGreaterThanOrEqual(3);
    expect(c['notify.delivered.desktop'] ?? 0).toBe(0);
    const h = await channel('desktop');
    expect(h).toMatchObject({ status: 'failing', delivered: 0, failed: 0 });
    // how it ended and what it said, not the command line it was given
    expect(h.lastError).toBe(`${join(bin, 'notify-send')} failed: exit 1: Cannot autolaunch D-Bus without X11 $DISPLAY`);
    expect(await dm.get('/healthz')).toMatchObject({ ok: true, notifyFailing: ['desktop'] });
    expect(await board()).toEqual({ text: 'notifications failing: desktop', title: expect.stringContaining(`: ${h.lastError}; 0 delivered, 0 failed`) });
    expect(await doctor('notify.desktop')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`the daemon's desktop channel (${join(bin, 'notify-send')}, an older notify-send: no replace, withdraw, jump button) is failing: ${h.lastError}; 0 delivered, 0 failed`) });

    writeFileSync(works, '');
    await until('delivered once it works', async () => (await channel('desktop')).delivered === 1, diag, 60_000);
    const tries = calls(log);
    expect(new Set(tries.map((t) => JSON.stringify(t))).size).toBe(1); // the same notification each time
    expect(tries[0]!.slice(-2)).toEqual(['shell · deploy needs you: approval', 'Deploy to production? [y/N]\nYes / No (default)']);
    expectBackOff(readFileSync(times, 'utf8').trim().split('\n').map(Number));
    const after = await counters();
    expect(after['notify.sent']).toBe(1);
    expect(after['notify.delivered.desktop']).toBe(1);
    expect(after['notify.retry.desktop']).toBe(tries.length - 1);
    expect(await channel('desktop')).toMatchObject({ status: 'ok', delivered: 1, failed: 0, retrying: 0 });
    expect(await dm.get('/healthz')).not.toHaveProperty('notifyFailing');
    expect(await board()).toBeNull();
    expect(await doctor('notify.desktop')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/: 1 delivered, 0 failed$/) });
    await new Promise((r) => setTimeout(r, 3 * BASE_S * 1000)); // a stretch for any stray retry to show
    expect(calls(log)).toHaveLength(tries.length);
  }, 120_000);

  it('a webhook answering 500: a failure is retried with back-off, counted as errors not sent, and delivered once when it answers 200', async () => {
    let up = false;
    const hook = await webhook((res) => {
      if (up) return void res.end('ok');
      res.statusCode = 500;
      res.end('upstream relay down');
    });
    const { dm, pane, counters, channel, doctor, board } = await start({ desktop: false, webhook_url: hook.url });
    const w = pane('build', 'echo building; sleep 4; exit 3');
    const diag = () => `webhook: ${hook.got.length} requests\n${w.diag()}\n${dm.diag()}`;
    await until('three tries', async () => hook.got.length >= 3 && ((await counters())['notify.retry.webhook'] ?? 0) >= 3, diag, 40_000);

    const c = await counters();
    expect(c['notify.sent'] ?? 0).toBe(0);
    expect(c['notify.failed'] ?? 0).toBe(0); // FAILED is urgent: kept past notify.retries
    expect(c['notify.error.webhook']).toBeGreaterThanOrEqual(3);
    const h = await channel('webhook');
    expect(h).toMatchObject({ status: 'failing', delivered: 0, failed: 0, lastError: 'webhook answered 500 Internal Server Error: upstream relay down', detail: `json ${hook.url}` });
    expect(await dm.get('/healthz')).toMatchObject({ ok: true, notifyFailing: ['webhook'] });
    expect(await board()).toEqual({ text: 'notifications failing: webhook', title: `webhook (json ${hook.url}): webhook answered 500 Internal Server Error: upstream relay down; 0 delivered, 0 failed` });
    expect(await doctor('notify.webhook')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`the daemon's webhook channel (json ${hook.url}) is failing: webhook answered 500 Internal Server Error: upstream relay down; 0 delivered, 0 failed`) });

    up = true;
    await until('delivered once it answers', async () => (await channel('webhook')).delivered === 1, diag, 60_000);
    const bodies = hook.got.map((g) => g.body);
    expect(new Set(bodies).size).toBe(1); // the same notification each try
    expect(JSON.parse(bodies[0]!)).toMatchObject({ kind: 'FAILED', name: 'build', exitCode: 3, urgent: true });
    expectBackOff(hook.got.map((g) => g.at));
    const after = await counters();
    expect(after['notify.sent']).toBe(1);
    expect(after['notify.delivered.webhook']).toBe(1);
    expect(after['notify.retry.webhook']).toBe(hook.got.length - 1);
    expect(await channel('webhook')).toMatchObject({ status: 'ok', delivered: 1, failed: 0, retrying: 0 });
    expect(await dm.get('/healthz')).not.toHaveProperty('notifyFailing');
    expect(await board()).toBeNull();
    expect(await doctor('notify.webhook')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/: 1 delivered, 0 failed$/) });
    const n = hook.got.length;
    await new Promise((r) => setTimeout(r, 3 * BASE_S * 1000)); // a stretch for any stray retry to show
    expect(hook.got).toHaveLength(n);
  }, 120_000);

  it('a DONE the webhook refuses past notify.retries is given up: counted failed, never sent', async () => {
    const hook = await webhook((res) => {
      res.statusCode = 500;
      res.end('upstream relay down');
    });
    const { dm, pane, counters, channel, doctor } = await start({ desktop: false, webhook_url: hook.url, retries: 2 });
    const w = pane('build', 'echo building; sleep 4; echo built');
    const diag = () => `webhook: ${hook.got.length} requests\n${w.diag()}\n${dm.diag()}`;
    await until('given up', async () => (await channel('webhook')).failed === 1, diag, 40_000);
    expect(JSON.parse(hook.got[0]!.body)).toMatchObject({ kind: 'DONE', name: 'build', urgent: false });
    expect(hook.got).toHaveLength(3); // the try and notify.retries more
    expectBackOff(hook.got.map((g) => g.at));
    const c = await counters();
    expect(c['notify.failed']).toBe(1);
    expect(c['notify.failed.webhook']).toBe(1);
    expect(c['notify.sent'] ?? 0).toBe(0);
    expect(c['notify.retry.webhook']).toBe(2);
    expect(await channel('webhook')).toMatchObject({ status: 'failing', delivered: 0, failed: 1, retrying: 0 });
    expect(await doctor('notify.webhook')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/upstream relay down; 0 delivered, 1 failed$/) });
  }, 120_000);

  it('a webhook slower than webhook_timeout_s: counted unconfirmed (sent once, not retried, not "failed"), /healthz answers meanwhile; the next, fast, is delivered', async () => {
    const held: ServerResponse[] = [];
    const hook = await webhook((res, n) => (n === 1 ? held.push(res) : res.end('ok')));
    const { dm, pane, counters, channel, doctor } = await start({ desktop: false, webhook_url: hook.url, webhook_timeout_s: 1 });
    const w = pane('deploy', "read -p 'Deploy to production? [y/N] ' a; sleep 60");
    const diag = () => `webhook: ${hook.got.length} requests\n${w.diag()}\n${dm.diag()}`;
    await until('the question posted', async () => hook.got.length >= 1, diag, 30_000);
    // the request is open at the webhook: the daemon answers its health check all the same
    const t0 = Date.now();
    expect(await dm.get('/healthz')).toMatchObject({ ok: true });
    console.log(`/healthz with a webhook request hanging: ${Date.now() - t0} ms`);
    expect(held).toHaveLength(1);
    await until('given up waiting for an answer', async () => (await channel('webhook')).unconfirmed === 1, diag, 30_000);
    held[0]!.end('ok'); // it answers, later than the daemon waited

    const c = await counters();
    expect(c['notify.unconfirmed']).toBe(1);
    expect(c['notify.unconfirmed.webhook']).toBe(1);
    expect(c['notify.sent'] ?? 0).toBe(0);
    expect(c['notify.failed'] ?? 0).toBe(0);
    expect(c['notify.retry.webhook'] ?? 0).toBe(0); // it may have arrived: a second copy on the phone is worse
    expect(await channel('webhook')).toMatchObject({ delivered: 0, failed: 0, unconfirmed: 1, lastError: expect.stringMatching(/^no answer from the webhook within 1 s \(sent; delivery unconfirmed\)/) });
    expect(await doctor('notify.webhook')).toMatchObject({ detail: expect.stringMatching(/no answer from the webhook within 1 s \(sent; delivery unconfirmed\).*; 0 delivered, 0 failed, 1 unconfirmed$/) });

    const f = pane('build', 'echo building; sleep 4; exit 3');
    await until('the failure delivered', async () => (await channel('webhook')).delivered === 1, () => `${f.diag()}\n${diag()}`, 40_000);
    expect(hook.got.map((g) => (JSON.parse(g.body) as { kind: string; name: string }).kind + ' ' + (JSON.parse(g.body) as { name: string }).name)).toEqual(['WAITING_APPROVAL deploy', 'FAILED build']);
    const after = await counters();
    expect(after['notify.sent']).toBe(1);
    expect(after['notify.unconfirmed']).toBe(1);
    expect(await channel('webhook')).toMatchObject({ status: 'ok', delivered: 1, failed: 0, unconfirmed: 1 });
    expect(await doctor('notify.webhook')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/: 1 delivered, 0 failed, 1 unconfirmed$/) });
    expect(await dm.get('/healthz')).not.toHaveProperty('notifyFailing');
  }, 120_000);
});
