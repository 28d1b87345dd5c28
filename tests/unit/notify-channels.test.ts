// Notification channels against the real thing: a local HTTP server for the webhook, a fake notify-send /
// osascript found on PATH and spawned as a real process, and the exact bytes of the terminal bell.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { bellBytes, bellChannel } from '../../src/notify/bell.js';
import { channelsFromConfig } from '../../src/notify/channels.js';
import { desktopChannel } from '../../src/notify/desktop.js';
import { notificationFor } from '../../src/notify/text.js';
import type { NotifyEvent } from '../../src/notify/types.js';
import { headerText, webhookChannel } from '../../src/notify/webhook.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ts-notify-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

const event: NotifyEvent = {
  paneId: 'pty-1',
  paneName: 'api-pane',
  program: 'claude',
  kind: 'WAITING_APPROVAL',
  at: Date.UTC(2026, 0, 2, 3, 4, 5),
  tier: 2,
  rule: 'claude.waiting',
  line: 'Do you want to proceed? "quotes" \\ and `ticks` $(rm -rf ~)',
  turnDurationS: null,
};
const note = notificationFor(event);

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server on 127.0.0.1, port 0, answering with `reply`; resolves its URL and what it received. */
async function server(reply: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const srv: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      reply(req, res);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/topic`, seen };
}

describe('webhook channel', () => {
  it('json: posts the notification as JSON, without the raw screen line', async () => {
    const { url, seen } = await server((_q, res) => res.writeHead(204).end());
    await webhookChannel(url, 'json').send(note);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    const doc = JSON.parse(seen[0]!.body) as Record<string, unknown>;
    expect(doc).toMatchObject({
      kind: 'WAITING_APPROVAL',
      title: 'claude · api-pane needs you: approval',
      pane: 'pty-1',
      name: 'api-pane',
      program: 'claude',
      tier: 2,
      rule: 'claude.waiting',
      urgent: true,
      at: '2026-01-02T03:04:05.000Z',
    });
    expect(doc['body']).toBe(note.body);
    expect(doc).not.toHaveProperty('line');
  });

  it('ntfy: the body as text, Title (RFC 2047 when not ASCII), Priority and Tags headers', async () => {
    const { url, seen } = await server((_q, res) => res.writeHead(200).end('{"id":"x"}'));
    await webhookChannel(url, 'ntfy').send(note);
    await webhookChannel(url, 'ntfy').send(notificationFor({ ...event, kind: 'DONE', line: 'all green', turnDurationS: 90 }));
    const [wait, done] = seen;
    expect(wait!.body).toBe(note.body);
    expect(wait!.headers['content-type']).toMatch(/^text\/plain/);
    expect(wait!.headers['priority']).toBe('high');
    expect(wait!.headers['tags']).toBe('raised_hand,claude');
    const title = String(wait!.headers['title']);
    const m = /^=\?UTF-8\?B\?(.+)\?=$/.exec(title);
    expect(m).not.toBeNull();
    expect(Buffer.from(m![1]!, 'base64').toString('utf8')).toBe('claude · api-pane needs you: approval');
    expect(done!.headers['priority']).toBe('default');
    expect(done!.headers['tags']).toBe('white_check_mark,claude');
    expect(headerText('plain ascii')).toBe('plain ascii');
  });

  it('a non-2xx answer is an error carrying the status', async () => {
    const { url } = await server((_q, res) => res.writeHead(500, 'Internal Server Error').end('boom'));
    await expect(webhookChannel(url, 'json').send(note)).rejects.toThrow(/500 Internal Server Error: boom/);
  });

  it('a server that never answers is abandoned at the timeout', async () => {
    const { url, seen } = await server(() => {
      /* never answers */
    });
    await expect(webhookChannel(url, 'json', { timeoutMs: 200 }).send(note)).rejects.toThrow(/no answer from the webhook within 0 s \(sent; delivery unconfirmed\)/);
    expect(seen).toHaveLength(1);
  });
});

/** A fake notifier program writing its argv, NUL-separated, to a file next to it. */
function fakeProgram(dir: string, name: string): string {
  const argvFile = join(dir, `${name}.argv`);
  const script = join(dir, name);
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\0' "$@" > '${argvFile}'\n`);
  chmodSync(script, 0o755);
  return argvFile;
}

function argvOf(file: string): string[] {
  return readFileSync(file, 'utf8').split('\0').slice(0, -1);
}

describe('desktop channel', () => {
  it('is null when no notifier program is on PATH', () => {
    const empty = tempDir();
    expect(desktopChannel({ platform: 'linux', path: empty })).toBeNull();
    expect(desktopChannel({ platform: 'darwin', path: empty })).toBeNull();
  });

  it('Linux: runs notify-send found first on PATH with urgency and the text as plain arguments (no shell)', async () => {
    const dir = tempDir();
    const argvFile = fakeProgram(dir, 'notify-send');
    const ch = desktopChannel({ platform: 'linux', path: `${dir}${delimiter}${process.env['PATH'] ?? ''}` });
    expect(ch).not.toBeNull();
    await ch!.send(note);
    expect(argvOf(argvFile)).toEqual(['--urgency=critical', '--app-name=termsupervisor', '--icon=utilities-terminal', '--category=im.received', '--', note.title, note.body]);
    await ch!.send(notificationFor({ ...event, kind: 'DONE', line: '-rf starts with a dash', turnDurationS: 10 }));
    const done = argvOf(argvFile);
    expect(done[0]).toBe('--urgency=normal');
    expect(done.slice(4)).toEqual(['--', 'claude · api-pane is done (10s)', '-rf starts with a dash']);
  });

  it('macOS: osascript gets the text as argv items, never inside the script', async () => {
    const dir = tempDir();
    const argvFile = fakeProgram(dir, 'osascript');
    const ch = desktopChannel({ platform: 'darwin', path: dir });
    await ch!.send(note);
    const argv = argvOf(argvFile);
    const script = argv.filter((_a, i) => argv[i - 1] === '-e').join('\n');
    expect(script).toBe('on run argv\ndisplay notification (item 2 of argv) with title (item 1 of argv)\nend run');
    expect(argv.slice(-2)).toEqual([note.title, note.body]);
  });

  it('a notifier that fails is an error', async () => {
    const dir = tempDir();
    const script = join(dir, 'notify-send');
    writeFileSync(script, '#!/bin/sh\necho "no session bus" >&2\nexit 1\n');
    chmodSync(script, 0o755);
    // how it ended and what it said; not execFile's "Command failed: <the whole command line>", which buried both
    await expect(desktopChannel({ platform: 'linux', path: dir })!.send(note)).rejects.toThrow(new Error(`${script} failed: exit 1: no session bus`));
  });

  it('a notifier that hangs is killed, and says so', async () => {
    const dir = tempDir();
    const script = join(dir, 'notify-send');
    writeFileSync(script, '#!/bin/sh\n[ "$1" = "--help" ] && exit 0\nexec sleep 10\n');
    chmodSync(script, 0o755);
    await expect(desktopChannel({ platform: 'linux', path: dir, timeoutMs: 300 })!.send(note)).rejects.toThrow(new Error(`${script} failed: killed (SIGTERM) after 300 ms`));
  });
});

describe('bell channel', () => {
  it('writes BEL and OSC 9 with the text to the pane', async () => {
    const writes: Array<[string, string]> = [];
    await bellChannel((pane, bytes) => void writes.push([pane, bytes])).send(note);
    expect(writes).toEqual([['pty-1', `\x07\x1b]9;${note.title}: ${note.body}\x07`]]);
  });

  it('never lets text end the sequence or read as a ConEmu progress report', () => {
    const bytes = bellBytes({ ...note, title: '4;1 evil\x07\x1b]0;x', body: '' });
    expect(bytes).toBe('\x07\x1b]9; 4;1 evil  ]0;x\x07');
  });
});

describe('channelsFromConfig', () => {
  it('builds what is switched on and says what cannot work here', () => {
    const dir = tempDir();
    fakeProgram(dir, 'notify-send');
    const missing: string[] = [];
    const cfg = { states: [], desktop: true, terminal_bell: true, webhook_url: 'http://127.0.0.1:1/x', webhook_format: 'ntfy', min_interval_s: 0, dedupe_s: 0, done_min_turn_s: 0, quiet_hours: '', group_s: 0, retries: 0, retry_base_s: 1, webhook_timeout_s: 30, command: '', command_states: [], dashboard_url: '' };
    const on = channelsFromConfig(cfg, { desktop: { platform: 'linux', path: dir }, paneWrite: () => {} });
    expect(on.map((c) => c.name)).toEqual(['desktop', 'bell', 'webhook']);
    const off = channelsFromConfig(cfg, { desktop: { platform: 'linux', path: join(dir, 'none') }, onUnavailable: (c) => missing.push(c) });
    expect(off.map((c) => c.name)).toEqual(['webhook']);
    expect(missing).toEqual(['desktop', 'bell']);
    // building a channel sends nothing: at most it asks notify-send what it can do
    expect(existsSync(join(dir, 'notify-send.argv')) ? argvOf(join(dir, 'notify-send.argv')) : []).toEqual(existsSync(join(dir, 'notify-send.argv')) ? ['--help'] : []);
  });
});
