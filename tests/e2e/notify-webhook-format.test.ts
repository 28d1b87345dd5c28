// What a webhook receives from a real daemon (issue 28 item 7): a real `run` pane asks a question, and a real HTTP
// server on 127.0.0.1 records the exact request. ntfy format: the question as the body, Title / Priority / Tags,
// Click = the dashboard link to the pane and an Actions "Open pane" button. JSON format: the payload with its
// dashboard link (notify.dashboard_url when set).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { Wrapped } from './harness.js';
import { writeNotifyConfig } from './notify-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

interface Got {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook on 127.0.0.1 recording each request; answers 200. */
async function recordingServer(): Promise<{ url: string; got: Got[] }> {
  const got: Got[] = [];
  const srv = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (x: string) => (body += x));
    req.on('end', () => (got.push({ method: req.method!, url: req.url!, headers: req.headers, body }), res.end('ok')));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => srv.close(() => r())));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/ts-alerts`, got };
}

/** A daemon with only the webhook channel, and a `run` pane named `deploy` asking a question; its pane id. */
async function askThroughDaemon(notify: Record<string, unknown>) {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  writeNotifyConfig(d.dir, { desktop: false, group_s: 0, ...notify });
  const dm = await DaemonProcess.start(d);
  cleanups.push(async () => void (await dm.stop('SIGKILL')));
  const w = new Wrapped(join(d.dir, 'w.jsonl'), ['--daemon', dm.url, '--name', 'deploy', '--', 'bash', '-c', "read -p 'Deploy to production? [y/N] ' a; sleep 60"], d.env);
  cleanups.push(() => w.kill());
  const pane = await until('the pane asking', async () => (await dm.get<Array<{ id: string; name: string; state: string }>>('/api/panes')).find((p) => p.name === 'deploy' && p.state === 'WAITING_APPROVAL'), () => `${w.diag()}\n${dm.diag()}`, 30_000);
  return { dm, pane, diag: () => `${w.diag()}\n${dm.diag()}` };
}

describe('webhook formats through a real daemon', () => {
  it('ntfy: the body, Title, Priority, Tags, Click = the dashboard link to the pane, an Open pane action', async () => {
    const hook = await recordingServer();
    const { dm, pane, diag } = await askThroughDaemon({ webhook_url: hook.url, webhook_format: 'ntfy' });
    await until('the webhook got the question', async () => hook.got.length >= 1, diag, 30_000);
    const link = `${dm.url}/#pane=${encodeURIComponent(pane.id)}`;
    const [r] = hook.got;
    expect(r!.method).toBe('POST');
    expect(r!.url).toBe('/ts-alerts');
    const title = 'shell · deploy needs you: approval';
    // the title has a non-ASCII "·": RFC 2047 encoded, as ntfy decodes it
    expect(r!.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      title: `=?UTF-8?B?${Buffer.from(title, 'utf8').toString('base64')}?=`,
      priority: 'high',
      tags: 'raised_hand,shell',
      click: link,
      actions: `view, Open pane, ${link}, clear=true`,
    });
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#pane=/);
    expect(r!.body).toBe('Deploy to production? [y/N]\nYes / No (default)');
    expect(hook.got).toHaveLength(1);
  }, 90_000);

  it('json: the payload names the pane, its question and choices, and links to it on notify.dashboard_url', async () => {
    const hook = await recordingServer();
    const { pane, diag } = await askThroughDaemon({ webhook_url: hook.url, webhook_format: 'json', dashboard_url: 'https://phone.example:8443/ts/' });
    await until('the webhook got the question', async () => hook.got.length >= 1, diag, 30_000);
    const [r] = hook.got;
    expect(r!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(r!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      source: 'termsupervisor',
      kind: 'WAITING_APPROVAL',
      title: 'shell · deploy needs you: approval',
      body: 'Deploy to production? [y/N]\nYes / No (default)',
      pane: pane.id,
      name: 'deploy',
      program: 'shell',
      urgent: true,
      question: 'Deploy to production? [y/N]',
      options: ['Yes', 'No (default)'],
      exitCode: null,
      url: `https://phone.example:8443/ts/#pane=${encodeURIComponent(pane.id)}`,
    });
    expect(Date.parse(body['at'] as string)).not.toBeNaN();
    expect(hook.got).toHaveLength(1);
  }, 90_000);
});
