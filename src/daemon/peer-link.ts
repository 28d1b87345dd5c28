// One peer daemon's live feed: a websocket to its /ws with its token, kept alive by ping/pong, reconnected with
// backoff when it closes, fails or stops answering. It knows nothing of panes: messages go to `onMessage`, and
// `onDown` says when (and why) the peer stopped being reachable.
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import type { WsMessage } from '../web/api-types.js';
import type { PeerSpec } from '../config/peers.js';
import { parsePeerMessage } from './peer-message.js';

/** A ping goes to the peer this often (ms)... */
export const PEER_PING_MS = 1000;
/** ...and a peer that has sent nothing, not even a pong, for this long is down (ms): a dead tunnel or a frozen
 * process shows as unreachable within PEER_PING_MS + PEER_PONG_TIMEOUT_MS, under the 5 s the board promises. */
export const PEER_PONG_TIMEOUT_MS = 3000;
/** A connect (TCP, the websocket handshake) that takes longer than this fails (ms). */
export const PEER_CONNECT_TIMEOUT_MS = 4000;
/** Reconnects start this soon after a failure (ms)... */
export const PEER_BACKOFF_FIRST_MS = 1000;
/** ...doubling each failure in a row up to this (ms); a connection that got its hello starts over. */
export const PEER_BACKOFF_MAX_MS = 60_000;
/** A peer's message is a pane snapshot, a transition or a hello of every pane (at most MAX_PEER_PANES of a few KiB
 * each): far below this. A bigger frame closes the link (ws refuses it before buffering it whole). */
const MAX_MESSAGE_BYTES = 16 << 20;

/** Close codes without a reason, in words. */
const CLOSE_WORDS: Record<number, string> = { 1000: 'closed', 1001: 'daemon stopping', 1006: 'connection lost', 1008: 'dropped for reading too slowly', 1011: 'peer error' };

/** The wait before the next reconnect, after `failures` failures in a row (1 for the first). */
export function backoffMs(failures: number): number {
  return Math.min(PEER_BACKOFF_MAX_MS, PEER_BACKOFF_FIRST_MS * 2 ** Math.max(0, failures - 1));
}

export interface PeerLinkEvents {
  /** A message of the peer's feed (the first is its hello). */
  onMessage(m: WsMessage): void;
  /** The link went down (or a connect failed): `reason` is safe to show (it never holds the token). */
  onDown(reason: string, at: number): void;
  /** A message was refused (malformed, out of bounds, or its handling threw): the link closes and reconnects. */
  onRefused?(reason: string): void;
  /** A connect attempt is about to start after `delayMs` (for the log). */
  onRetry?(delayMs: number, failures: number): void;
}

export class PeerLink {
  private ws: WebSocket | null = null;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private lastHeard = 0;
  private stopped = false;
  /** The token read at the last connect (kept in memory only, for the REST calls of this peer). */
  token = '';
  /** Connects made so far (the first and every reconnect). */
  attempts = 0;
  /** The link is open and the peer's hello has arrived. */
  up = false;

  constructor(
    readonly spec: PeerSpec,
    private readonly events: PeerLinkEvents,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.stopPing();
    this.ws?.terminate();
    this.ws = null;
  }

  private connect(): void {
    if (this.stopped) return;
    this.attempts++;
    try {
      this.token = readFileSync(this.spec.tokenFile, 'utf8').trim();
    } catch (e) {
      return this.down(`cannot read its token file ${this.spec.tokenFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (!this.token) return this.down(`its token file ${this.spec.tokenFile} is empty`);
    const url = `${this.spec.url.replace(/^http/, 'ws')}/ws`;
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${this.token}` }, handshakeTimeout: PEER_CONNECT_TIMEOUT_MS, maxPayload: MAX_MESSAGE_BYTES });
    this.ws = ws;
    ws.on('unexpected-response', (_req, res) => {
      const why = res.statusCode === 401 ? 'it refused the token (401): is token_file its current token?' : `it answered ${res.statusCode} instead of opening its feed`;
      this.fail(ws, why);
    });
    ws.on('open', () => {
      this.lastHeard = this.now();
      this.startPing(ws);
    });
    ws.on('pong', () => (this.lastHeard = this.now()));
    ws.on('message', (data, isBinary) => {
      this.lastHeard = this.now();
      if (this.ws !== ws) return; // a socket given up on may still deliver a frame
      // Checked before use, and handled inside the same guard: whatever a peer sends, or whatever its message makes
      // the mirror do, costs this link, never the daemon.
      try {
        if (isBinary) throw new Error('binary frames are not part of the feed');
        let raw: unknown;
        try {
          raw = JSON.parse(data.toString());
        } catch {
          throw new Error('not JSON');
        }
        const m = parsePeerMessage(raw);
        if (!m) return;
        if (m.type === 'hello') {
          this.up = true;
          this.failures = 0;
        } else if (!this.up) throw new Error(`${m.type} before hello`);
        this.events.onMessage(m);
      } catch (e) {
        const reason = `refused a message: ${(e as Error).message.slice(0, 200)}`;
        this.events.onRefused?.(reason);
        this.fail(ws, reason);
      }
    });
    ws.on('error', (e) => this.fail(ws, describeError(e)));
    ws.on('close', (code, reason) => this.fail(ws, `its feed closed (${code}: ${reason.length ? reason.toString() : (CLOSE_WORDS[code] ?? 'closed')})`));
  }

  private startPing(ws: WebSocket): void {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (this.now() - this.lastHeard > PEER_PONG_TIMEOUT_MS) return this.fail(ws, `no answer for ${PEER_PONG_TIMEOUT_MS / 1000} s`);
      try {
        ws.ping();
      } catch {
        // closing: the close event says so
      }
    }, PEER_PING_MS);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  /** The socket `ws` failed: once per socket, it goes, the peer is down, and a reconnect is scheduled. */
  private fail(ws: WebSocket, reason: string): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.stopPing();
    ws.removeAllListeners();
    ws.on('error', () => {}); // a late error of a socket we gave up on is no one's
    ws.terminate();
    this.down(reason);
  }

  private down(reason: string): void {
    this.up = false;
    this.events.onDown(reason, this.now());
    if (this.stopped) return;
    this.failures++;
    const delay = backoffMs(this.failures);
    this.events.onRetry?.(delay, this.failures);
    this.retryTimer = setTimeout(() => this.connect(), delay);
    this.retryTimer.unref();
  }
}

/** A connect error in words (ECONNREFUSED, a timeout), never with the request's headers. */
function describeError(e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused (is its daemon running, its tunnel open?)';
  if (code === 'ECONNRESET') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (code === 'ENOTFOUND') return 'unknown host name';
  return code ? `${code}: ${e.message}` : e.message;
}
