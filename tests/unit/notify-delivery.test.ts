// Delivery against real channels on loopback: a webhook that fails then recovers is retried with back-off; one
// that answers too late is "unconfirmed", not failed; an absent one names its cause (not just "fetch failed");
// a question is kept until it gets through, a non-urgent one given up after notify.retries; the counts are honest.
// Also the exact JSON payload / ntfy headers (dashboard link, Click, Actions) and the command hook's environment.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Delivery } from '../../src/notify/delivery.js';
import { webhookChannel } from '../../src/notify/webhook.js';
import { commandChannel } from '../../src/notify/command-hook.js';
import { desktopChannel } from '../../src/notify/desktop.js';
import { notificationFor } from '../../src/notify/text.js';
import type { Notification, NotifyEvent } from '../../src/notify/types.js';

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Got {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook on 127.0.0.1 answering each request with `answer(n)` (status, delay ms). */
async function hook(answer: (n: number) => { status: number; delayMs?: number }): Promise<{ url: string; got: Got[] }> {
  const got: Got[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      const a = answer(got.length);
      setTimeout(() => res.writeHead(a.status).end('nope'), a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  servers.push(s);
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, got };
}

const EV: NotifyEvent = {
  paneId: 'tmux:s@1-x:%3',
  paneName: 'work:2.0',
  program: 'claude',
  kind: 'WAITING_APPROVAL',
  at: Date.UTC(2026, 0, 2, 3, 4, 5),
  tier: 2,
  rule: 'claude.approval_menu',
  line: 'Do you want to proceed?',
  turnDurationS: null,
  facts: {
    question: { text: 'Do you want to proceed?', options: ['1. Yes', "2. Yes, and don't ask again", '3. No'] },
    edge: ['╭────╮', '│ Bash command │', '│ │', '│   npm test │', '│ Do you want to proceed? │', '│ ❯ 1. Yes │', '╰────╯'],
  },
};
const URL_OF = 'http://127.0.0.1:7077/#pane=tmux%3As%401-x%3A%253';

function until(what: string, f: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const t = setInterval(() => {
      if (f()) return clearInterval(t), resolve();
      if (Date.now() > end) return clearInterval(t), reject(new Error(`timed out: ${what}`));
    }, 20);
  });
}

function delivery(ch: ReturnType<typeof webhookChannel>, retries = 2) {
  const counts: Record<string, number> = {};
  const errors: string[] = [];
  const d = new Delivery([ch], { retries, baseMs: 30, count: (k) => void (counts[k] = (counts[k] ?? 0) + 1), onError: (e, _c, _n, final) => errors.push(`${final ? 'final' : 'try'}: ${String((e as Error).message)}`) });
  return { d, counts, errors };
}

describe('delivery: retries and honest counts', () => {
  it('a webhook answering 500 twice, then 200: retried with back-off, counted sent once and delivered once', async () => {
    const w = await hook((n) => ({ status: n <= 2 ? 500 : 200 }));
    const { d, counts } = delivery(webhookChannel(w.url, 'json'), 4);
    d.send(notificationFor({ ...EV, kind: 'DONE', turnDurationS: 9 }));
    await until('three tries', () => counts['notify.sent'] === 1);
    expect(w.got).toHaveLength(3);
    expect(counts).toMatchObject({ 'notify.sent': 1, 'notify.delivered.webhook': 1, 'notify.error.webhook': 2, 'notify.retry.webhook': 2 });
    expect(counts['notify.failed']).toBeUndefined();
    expect(d.report()[0]).toMatchObject({ name: 'webhook', status: 'ok', delivered: 1, failed: 0 });
  });

  it('a non-urgent notification is given up after notify.retries and counted failed, never sent', async () => {
    const w = await hook(() => ({ status: 500 }));
    const { d, counts } = delivery(webhookChannel(w.url, 'json'), 2);
    d.send(notificationFor({ ...EV, kind: 'DONE', turnDurationS: 9 }));
    await until('given up', () => counts['notify.failed'] === 1);
    expect(w.got).toHaveLength(3); // one try and two retries
    expect(counts['notify.sent']).toBeUndefined();
    expect(d.report()[0]).toMatchObject({ status: 'failing', failed: 1, lastError: expect.stringContaining('500') });
  });

  it('a question is kept past notify.retries while the pane still asks, and dropped once it no longer does', async () => {
    const w = await hook(() => ({ status: 503 }));
    const { d, counts } = delivery(webhookChannel(w.url, 'json'), 1);
    let asks = true;
    d.send(notificationFor(EV), () => asks);
    await until('five tries', () => w.got.length >= 5);
    asks = false;
    await until('given up', () => counts['notify.failed'] === 1);
    const tries = w.got.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(w.got.length).toBe(tries);
  });

  it('a webhook that answers after the timeout is "unconfirmed" (it got the request), not failed, and not sent twice', async () => {
    const w = await hook(() => ({ status: 200, delayMs: 800 }));
    const { d, counts, errors } = delivery(webhookChannel(w.url, 'json', { timeoutMs: 200 }), 3);
    d.send(notificationFor(EV));
    await until('unconfirmed', () => counts['notify.unconfirmed'] === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.got).toHaveLength(1);
    expect(counts['notify.failed']).toBeUndefined();
    expect(errors[0]).toMatch(/no answer from the webhook within 0 s \(sent; delivery unconfirmed\)/);
    expect(d.report()[0]).toMatchObject({ unconfirmed: 1, failed: 0 });
  });

  it('an absent webhook names the cause (connection refused), not only "fetch failed"', async () => {
    const w = await hook(() => ({ status: 200 }));
    await new Promise((r) => servers.pop()!.close(r)); // the port is free again: nothing listens
    const { d, counts } = delivery(webhookChannel(w.url, 'json'), 0);
    d.send(notificationFor({ ...EV, kind: 'DONE', turnDurationS: 9 }));
    await until('failed', () => counts['notify.failed'] === 1);
    expect(d.report()[0]!.lastError).toMatch(/fetch failed: .*ECONNREFUSED/);
  });
});

describe('what the channels send (item 7)', () => {
  it('json: the question, its choices, the command it wants and a dashboard link', async () => {
    const w = await hook(() => ({ status: 200 }));
    const { d, counts } = delivery(webhookChannel(w.url, 'json'));
    d.send(notificationFor(EV, URL_OF));
    await until('sent', () => counts['notify.sent'] === 1);
    const body = JSON.parse(w.got[0]!.body);
    expect(body).toMatchObject({ kind: 'WAITING_APPROVAL', url: URL_OF, question: 'Do you want to proceed?', options: ['1. Yes', "2. Yes, and don't ask again", '3. No'], urgent: true });
    expect(body.body).toBe("Do you want to proceed?\nwants to run: npm test\n1. Yes / 2. Yes, and don't ask again / 3. No");
    expect(body.body).not.toMatch(/[│╭╮╰╯─]/);
  });

  it('ntfy: Click and a view action open the pane on the dashboard', async () => {
    const w = await hook(() => ({ status: 200 }));
    const { d, counts } = delivery(webhookChannel(w.url, 'ntfy'));
    d.send(notificationFor(EV, URL_OF));
    await until('sent', () => counts['notify.sent'] === 1);
    const h = w.got[0]!.headers;
    expect(h['click']).toBe(URL_OF);
    expect(h['actions']).toBe(`view, Open pane, ${URL_OF}, clear=true`);
    expect(h['priority']).toBe('high');
    // not ASCII (the ·): RFC 2047, as ntfy decodes it
    expect(h['title']).toBe(`=?UTF-8?B?${Buffer.from('claude · work:2.0 needs you: approval').toString('base64')}?=`);
  });

  it('notify-send: icon, category, --print-id, a jump button; the next one replaces it; an answer withdraws it; a click jumps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-ns-'));
    dirs.push(dir);
    const log = join(dir, 'argv');
    // A recording notify-send: says it knows --print-id and --action, prints an id, and "clicks" the button.
    writeFileSync(join(dir, 'notify-send'), `#!/bin/sh\nif [ "$1" = "--help" ]; then echo "--print-id --replace-id --action"; exit 0; fi\nprintf '%s\\0' "$@" >> '${log}'; printf '\\036' >> '${log}'\necho 4$(tr -cd '\\036' < '${log}' | wc -c)\ncase "$*" in *--action=*) sleep 0.2; echo focus; sleep 2;; esac\n`);
    chmodSync(join(dir, 'notify-send'), 0o755);
    const jumps: string[] = [];
    const ch = desktopChannel({ path: dir, platform: 'linux', onAction: (p) => jumps.push(p) })!;
    await ch.send(notificationFor(EV));
    await until('the click', () => jumps.length > 0);
    expect(jumps).toEqual([EV.paneId]);
    await ch.send(notificationFor({ ...EV, facts: { question: { text: 'Overwrite?', options: [] } } }));
    await ch.withdraw!(EV.paneId, 'work:2.0: answered');
    const calls = readFileSync(log, 'utf8').split('\x1e').filter(Boolean).map((l) => l.split('\0').slice(0, -1));
    expect(calls[0]).toEqual(['--urgency=critical', '--app-name=termsupervisor', '--icon=utilities-terminal', '--category=im.received', '--print-id', '--action=focus=Jump to pane', '--', 'claude · work:2.0 needs you: approval', "Do you want to proceed?\nwants to run: npm test\n1. Yes / 2. Yes, and don't ask again / 3. No"]);
    expect(calls[1]!.slice(4, 7)).toEqual(['--print-id', '--replace-id=41', '--action=focus=Jump to pane']);
    expect(calls[2]).toEqual(['--replace-id=42', '--urgency=low', '--app-name=termsupervisor', '--icon=utilities-terminal', '--expire-time=1000', '--hint=int:transient:1', '--', 'work:2.0: answered']);
  });
});

describe('notify.command (item 8)', () => {
  it('runs the person\'s command with what happened in its environment, only for the chosen states', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-cmd-'));
    dirs.push(dir);
    const out = join(dir, 'env');
    const ch = commandChannel(`env | grep '^TS_' | sort >> '${out}'; echo --- >> '${out}'`, ['FAILED', 'WAITING_APPROVAL']);
    await ch.send(notificationFor({ ...EV, kind: 'DONE', turnDurationS: 9 })); // not chosen: not run
    await ch.send(notificationFor({ ...EV, kind: 'FAILED', rule: 'osc133.command_failed', line: 'exit 2: make: *** [all] Error 2', turnDurationS: 65, facts: { command: 'make all; echo "$HOME"' } }));
    const env = readFileSync(out, 'utf8');
    expect(env.split('---').length).toBe(2);
    expect(env).toContain('TS_STATE=FAILED\n');
    expect(env).toContain('TS_EXIT_CODE=2\n');
    expect(env).toContain('TS_DURATION_S=65\n');
    expect(env).toContain('TS_PANE=tmux:s@1-x:%3\n');
    expect(env).toContain('TS_PANE_NAME=work:2.0\n');
    expect(env).toContain('TS_PROGRAM=claude\n');
    expect(env).toContain('TS_COMMAND=make all; echo "$HOME"\n'); // text in the environment, never run
  });

  it('a failing command is reported once, never run again (retries are for deliveries, not for your script)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-cmd-'));
    dirs.push(dir);
    const out = join(dir, 'runs');
    const counts: Record<string, number> = {};
    const d = new Delivery([commandChannel(`echo run >> '${out}'; exit 1`, [])], { retries: 3, baseMs: 10, count: (k) => void (counts[k] = (counts[k] ?? 0) + 1), onError: () => {} });
    d.send(notificationFor(EV), () => true); // urgent: a delivery would be retried while the pane asks
    await until('failed', () => counts['notify.failed'] === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(out, 'utf8')).toBe('run\n');
    expect(d.report()[0]).toMatchObject({ name: 'command', status: 'failing', failed: 1, lastError: expect.stringContaining('notify.command failed') });
  });
});

export type { Notification };
