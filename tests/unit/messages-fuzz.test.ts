// Fuzzed messages from outside the process (issue 27): peer feeds, pane links and the daemon's replies to them, the
// iTerm2 bridge, hook POSTs, each with null, wrong types, huge strings and huge counts. Every parser refuses with its
// own error (never a TypeError), a peer's checked messages go through a real PeerMirror on a real SQLite history
// without throwing, and a real daemon process fed all of them over its real sockets (a hostile peer feed too) is
// still answering afterwards, with the refusals in its log: 0 crashes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePeerMessage, PeerMessageError } from '../../src/daemon/peer-message.js';
import { PeerMirror } from '../../src/daemon/peer-mirror.js';
import { LinkMessageError, parseLinkMessage, parseLinkReply } from '../../src/attach/link-protocol.js';
import { BridgeMessageError, parseBridgeMessage } from '../../src/attach/iterm2/protocol.js';
import { parseHookBody } from '../../src/hooks/hook-body.js';
import { replyTextProblem } from '../../src/daemon/reply-text.js';
import { Prng } from '../../src/bench/prng.js';
import { HistoryStore } from '../../src/store/history-store.js';
import { tempDirs } from '../helpers/store-fixtures.js';
import { ensureBuilt } from '../helpers/build.js';
import { daemonScratch, DaemonProcess } from '../e2e/daemon-harness.js';
import { BRIDGE_SAMPLES, HOOK_SAMPLES, hostileTexts, HUGE_COUNT, LINK_REPLY_SAMPLES, LINK_SAMPLES, PEER_SAMPLES } from '../helpers/hostile-messages.js';

/** Cases per protocol without the huge values (fast), and with them. */
const SMALL_CASES = 2000;
const BIG_CASES = 150;

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

/** Runs `parse` on every text; returns what was thrown other than `ok` errors (each a crash). */
function crashes(texts: string[], parse: (t: string) => unknown, ok: (e: unknown) => boolean): string[] {
  const out: string[] = [];
  for (const t of texts) {
    try {
      parse(t);
    } catch (e) {
      if (!ok(e)) out.push(`${(e as Error).name}: ${(e as Error).message} <- ${t.slice(0, 200)}`);
    }
  }
  return out;
}

/** The text as the peer link and fastify hand it on: not JSON is refused before these parsers (as null here). */
const json = (t: string): unknown => {
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
};

const cases = (samples: Parameters<typeof hostileTexts>[0], seed: number) => [...hostileTexts(samples, SMALL_CASES, seed, false), ...hostileTexts(samples, BIG_CASES, seed + 1, true)];

describe('fuzzed messages: every parser refuses with its own error', () => {
  it('peer feed messages', () => {
    expect(crashes(cases(PEER_SAMPLES, 27_01), (t) => parsePeerMessage(json(t)), (e) => e instanceof PeerMessageError)).toEqual([]);
  });
  it('pane link messages and the daemon\'s replies', () => {
    expect(crashes(cases(LINK_SAMPLES, 27_02), parseLinkMessage, (e) => e instanceof LinkMessageError)).toEqual([]);
    expect(crashes(cases(LINK_REPLY_SAMPLES, 27_03), parseLinkReply, (e) => e instanceof LinkMessageError)).toEqual([]);
  });
  it('iTerm2 bridge messages', () => {
    expect(crashes(cases(BRIDGE_SAMPLES, 27_04), parseBridgeMessage, (e) => e instanceof BridgeMessageError)).toEqual([]);
  });
  it('hook bodies (never thrown on)', () => {
    expect(crashes(cases(HOOK_SAMPLES, 27_05), (t) => parseHookBody(json(t)), () => false)).toEqual([]);
  });
  it('a hello of 100,000 panes, or "panes":"notarray", is refused at once', () => {
    const pane = (PEER_SAMPLES[1] as { pane: unknown }).pane;
    const t0 = performance.now();
    expect(() => parsePeerMessage({ type: 'hello', version: '1', panes: new Array(HUGE_COUNT).fill(pane) })).toThrow(PeerMessageError);
    expect(performance.now() - t0).toBeLessThan(100);
    expect(() => parsePeerMessage({ type: 'hello', version: '1', panes: 'notarray' })).toThrow('hello: panes must be a list');
    for (const bad of [{ type: 'pane', pane: null }, { type: 'hello', version: '1', panes: [null] }, { type: 'transition', transition: null }]) {
      expect(() => parsePeerMessage(bad)).toThrow(PeerMessageError);
    }
  });
  it('what passes the peer check goes through a real mirror without throwing', () => {
    const store = HistoryStore.open(join(tmp.make(), 'h.sqlite'), { flushMs: 3_600_000, publishFlushMs: 0 });
    const m = new PeerMirror({ name: 'box', url: 'http://127.0.0.1:1', tokenFile: '/t', allowTyping: false }, {
      store, emit: () => {}, notify: () => {}, log: pino({ level: 'silent' }), request: async () => ({ status: 200, body: [null, 1, 'x'] }),
    });
    let used = 0;
    for (const t of cases(PEER_SAMPLES, 27_06)) {
      let msg;
      try {
        msg = parsePeerMessage(JSON.parse(t));
      } catch {
        continue;
      }
      if (msg) m.handle(msg), used++;
    }
    expect(used).toBeGreaterThan(100);
    store.close();
  });
});

describe('fuzzed messages against a real daemon process', () => {
  const { cleanups, dirs } = daemonScratch();
  let peer: Server;
  let peerWss: WebSocketServer;
  beforeAll(() => ensureBuilt(), 120_000);

  /** A hostile peer daemon: each connection gets a valid hello, then a burst of fuzzed messages. */
  async function hostilePeer(texts: string[]): Promise<string> {
    peer = createServer((_req, res) => res.writeHead(404).end());
    peerWss = new WebSocketServer({ server: peer });
    peerWss.on('connection', (ws) => {
      ws.send(JSON.stringify(PEER_SAMPLES[0]));
      for (const t of texts) ws.send(t);
    });
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      for (const c of peerWss.clients) c.terminate();
      peerWss.close();
      peer.closeAllConnections();
      peer.close();
    });
    return `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  }

  /** Opens a link websocket, sends every text, and waits until the daemon closes it or all were sent. */
  function sendAll(url: string, token: string, first: string, texts: string[]): Promise<void> {
    return new Promise((resolve) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
      ws.on('open', () => {
        ws.send(first);
        for (const t of texts) if (ws.readyState === ws.OPEN) ws.send(t);
        setTimeout(() => (ws.close(), resolve()), 200);
      });
      ws.on('error', () => resolve());
      ws.on('close', () => resolve());
    });
  }

  it('peer, link, bridge and hook messages: the daemon answers throughout, refusals logged, 0 crashes', async () => {
    const d = dirs();
    const peerUrl = await hostilePeer(hostileTexts(PEER_SAMPLES, 300, 27_10, true));
    const tokenFile = join(d.dir, 'peer-token');
    writeFileSync(tokenFile, 'peer-token-0123456789');
    const dm = await DaemonProcess.start(d, ['--peer', `fuzz=${peerUrl}`, '--peer-token-file', tokenFile]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const base = dm.url.replace('http', 'ws');
    const alive = async () => (await fetch(`${dm.url}/healthz`)).status === 200;

    // Links: each batch after a valid hello (refused messages past MAX_BAD_MESSAGES close that link), and whole
    // links that start with garbage.
    const links = hostileTexts(LINK_SAMPLES, 400, 27_11, true);
    for (let i = 0; i < links.length; i += 40) await sendAll(`${base}/api/pane-link`, dm.token, JSON.stringify(LINK_SAMPLES[0]).replace('run-fuzz-1', `run-fuzz-${i}`), links.slice(i, i + 40));
    for (const t of links.slice(0, 20)) await sendAll(`${base}/api/pane-link`, dm.token, t, []);
    expect(await alive()).toBe(true);

    const bridge = hostileTexts(BRIDGE_SAMPLES, 300, 27_12, true);
    for (let i = 0; i < bridge.length; i += 30) await sendAll(`${base}/bridge/iterm2`, dm.token, JSON.stringify(BRIDGE_SAMPLES[0]), bridge.slice(i, i + 30));
    expect(await alive()).toBe(true);

    for (const body of hostileTexts(HOOK_SAMPLES, 200, 27_13, false)) {
      const r = await fetch(`${dm.url}/api/hooks`, { method: 'POST', headers: { authorization: `Bearer ${dm.token}`, 'content-type': 'application/json' }, body });
      expect([200, 202, 400, 413], body.slice(0, 200)).toContain(r.status);
    }
    expect(await alive()).toBe(true);

    // The hostile peer was met (and refused, its link closed with the reason) at least once by now.
    const logFile = join(d.dir, 'state', 'termsupervisor', 'daemon.log');
    const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '') + dm.stdout + dm.stderr;
    const deadline = Date.now() + 10_000;
    while (!/peer fuzz: refused a message/.test(log()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(log()).toMatch(/peer fuzz: refused a message/);
    expect(log()).toMatch(/pane link message refused/);
    expect(log()).toMatch(/iterm2 bridge message refused/);
    expect(await alive()).toBe(true);
    expect(dm.child.exitCode).toBeNull();
  }, 120_000);
});

describe('fuzzed reply texts', () => {
  it('a reply is refused exactly when it holds a control character other than Tab and line breaks', () => {
    const r = new Prng(27_20);
    // Printable ASCII, a few non-ASCII letters, every C0 control, DEL and C1.
    const alphabet = ['a', 'Z', ' ', '~', 'é', '✓', '\t', '\n', '\r', ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\x7f', ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i))];
    const forbidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
    let refused = 0;
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: r.int(1, 12) }, () => alphabet[r.int(0, alphabet.length - 1)]).join('');
      const problem = replyTextProblem(text.replace(/\r\n?/g, '\n'));
      expect(problem === null, JSON.stringify(text)).toBe(!forbidden.test(text));
      if (problem) refused++;
    }
    expect(refused).toBeGreaterThan(1000);
  });
});
