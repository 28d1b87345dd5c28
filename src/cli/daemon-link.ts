// The `run` wrapper's link to a daemon: finds it (--daemon URL, $TERMSUPERVISOR_DAEMON, or the runtime file a
// running daemon wrote), streams the pane's events to it, and reconnects by itself. It never holds the person's
// terminal back: while the daemon is away or behind, events for it are dropped, not queued.
import { WebSocket } from 'ws';
import { LINK_PROTOCOL_VERSION, parseLinkReply, type LinkHello, type LinkMessage, type LinkReply } from '../attach/link-protocol.js';
import type { PaneEvent } from '../attach/source.js';
import { readRuntimeFile } from '../daemon/runtime-file.js';
import { readToken } from '../daemon/token.js';

/** Reconnect backoff: first retry soon (a daemon restarting), then no more than this often. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;
/** Unsent bytes beyond which output is dropped for the daemon (the daemon is stuck; the person is not). */
const MAX_UNSENT_BYTES = 8 << 20;
/**
 * Until the first welcome (a few ms) events are held, so the daemon sees the pane from its first prompt; held
 * beyond this many characters they are dropped. After a reconnect nothing is replayed: late events would carry
 * the wrong time.
 */
const MAX_EARLY_CHARS = 1 << 20;
/** How long close() waits for the daemon to confirm by default. */
const CLOSE_WAIT_MS = 1000;

export interface DaemonTarget {
  url: string;
  token: string | null;
  /** Where the address came from, for messages. */
  from: 'flag' | 'env' | 'runtime-file';
}

/** The daemon to join, or null to run standalone. */
export function findDaemon(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): DaemonTarget | null {
  const token = readToken();
  if (flag) return { url: flag, token, from: 'flag' };
  if (env['TERMSUPERVISOR_DAEMON']) return { url: env['TERMSUPERVISOR_DAEMON'], token, from: 'env' };
  const info = readRuntimeFile();
  return info ? { url: info.url, token, from: 'runtime-file' } : null;
}

export interface LinkOptions {
  target: DaemonTarget;
  /** Read at each (re)connection: fields known only once the program started (its pid) are in it by then. */
  hello: Omit<LinkHello, 'type' | 'v'>;
  /** Keys the daemon types into the pane (a supervised task): written to the pty like the person's own. */
  onSend?: (data: string) => void;
  /** Bytes the daemon wants shown on the person's terminal (an opt-in bell). */
  onBell?: (data: string) => void;
  onStatus?: (status: 'connected' | 'disconnected', why?: string) => void;
  /** The pane's screen as it stands, drawn (screen/repaint.ts): sent first when a daemon missed its past. It may
   * take a moment (the `run` wrapper asks its monitor's thread): events meanwhile wait as before a welcome. */
  repaint?: () => string | Promise<string>;
}

export class DaemonLink {
  private ws: WebSocket | null = null;
  private welcomed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private size: { cols: number; rows: number };
  private early: LinkMessage[] | null = [];
  private earlyChars = 0;
  /** Output events dropped while the daemon was away or behind. */
  dropped = 0;
  /** A daemon welcomed this pane before: the next one (a restart, a reconnect) has missed what the screen shows. */
  private everWelcomed = false;
  /** The pane's one-shot program has started and not ended: a daemon that joins later is told so. */
  private commandRunning = false;

  constructor(private readonly opts: LinkOptions) {
    this.size = { cols: opts.hello.cols, rows: opts.hello.rows };
    this.connect();
  }

  get connected(): boolean {
    return this.welcomed;
  }

  /** Resolves once the daemon welcomed the pane, or false after `ms` (tests and `run --daemon` checks). */
  ready(ms: number): Promise<boolean> {
    if (this.welcomed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      const check = setInterval(() => {
        if (!this.welcomed && !this.closed) return;
        clearTimeout(t);
        clearInterval(check);
        resolve(this.welcomed);
      }, 20);
    });
  }

  send(ev: PaneEvent): void {
    if (ev.kind === 'resize') this.size = { cols: ev.cols, rows: ev.rows };
    if (ev.kind === 'command') this.commandRunning = ev.phase === 'executed';
    const ws = this.ws;
    if (!ws || !this.welcomed || ws.readyState !== ws.OPEN) {
      const m = toMessage(ev);
      const chars = 'data' in m ? m.data.length : 0;
      if (this.early && this.earlyChars + chars <= MAX_EARLY_CHARS) {
        this.early.push(m);
        this.earlyChars += chars;
      } else if (ev.kind === 'output') this.dropped++;
      return;
    }
    if (ev.kind === 'output' && ws.bufferedAmount > MAX_UNSENT_BYTES) {
      this.dropped++;
      return;
    }
    ws.send(JSON.stringify(toMessage(ev)));
  }

  /** Sends what is queued (the exit), then closes; a daemon that has not confirmed within `waitMs` is cut off (it
   * sees the link drop and closes the pane all the same). */
  async close(waitMs = CLOSE_WAIT_MS): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const ws = this.ws;
    if (!ws || ws.readyState !== ws.OPEN) return ws?.terminate();
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        ws.terminate();
        resolve();
      }, waitMs);
      ws.once('close', () => {
        clearTimeout(t);
        resolve();
      });
      ws.close(1000, 'pane exited');
    });
  }

  private async welcome(ws: WebSocket): Promise<void> {
    if ((this.everWelcomed || this.dropped > 0) && this.opts.repaint) {
      const data = await this.opts.repaint();
      if (this.ws !== ws || ws.readyState !== ws.OPEN) return;
      if (data) ws.send(JSON.stringify({ type: 'output', data }));
    }
    this.welcomed = true;
    // A daemon that missed the program's start (a restart mid-run) learns it still runs: its exit is then a turn's end.
    if (this.everWelcomed && this.commandRunning) ws.send(JSON.stringify({ type: 'command', phase: 'executed' } satisfies LinkMessage));
    this.everWelcomed = true;
    for (const e of this.early ?? []) ws.send(JSON.stringify(e));
    this.early = null;
    this.retryMs = RETRY_FIRST_MS;
    this.opts.onStatus?.('connected');
  }

  private connect(): void {
    if (this.closed) return;
    // A daemon found through its runtime file may come back on another port: look again on each attempt.
    if (this.opts.target.from === 'runtime-file') {
      const info = readRuntimeFile();
      if (info) this.opts.target.url = info.url;
    }
    const url = this.opts.target.url.replace(/^http/, 'ws').replace(/\/+$/, '') + '/api/pane-link';
    const headers: Record<string, string> = {};
    if (this.opts.target.token) headers['authorization'] = `Bearer ${this.opts.target.token}`;
    const ws = new WebSocket(url, { headers, handshakeTimeout: 5000 });
    this.ws = ws;
    ws.on('open', () => {
      const hello: LinkHello = { type: 'hello', v: LINK_PROTOCOL_VERSION, ...this.opts.hello, ...this.size };
      ws.send(JSON.stringify(hello));
    });
    ws.on('message', (data) => {
      let m: LinkReply;
      try {
        m = parseLinkReply(data.toString());
      } catch (e) {
        // Nothing of it is used: the link closes with the reason (the wrapper's log says it) and reconnects.
        const why = `refused a reply: ${(e as Error).message}`.slice(0, 120);
        this.opts.onStatus?.('disconnected', why);
        return ws.close(1002, why);
      }
      if (m.type === 'welcome') void this.welcome(ws);
      else if (m.type === 'bell') this.opts.onBell?.(m.data);
      else if (m.type === 'send') this.opts.onSend?.(m.data);
    });
    ws.on('error', () => {}); // 'close' follows and retries
    ws.on('unexpected-response', (_req, res) => {
      this.opts.onStatus?.('disconnected', `daemon refused the link: HTTP ${res.statusCode}`);
      ws.terminate();
    });
    ws.on('close', (code, reason) => {
      const was = this.welcomed;
      this.welcomed = false;
      this.early = null; // the first attempt failed: what was held is too old to send later
      this.ws = null;
      if (was) this.opts.onStatus?.('disconnected', `${code} ${reason.toString()}`.trim());
      if (this.closed) return;
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
      this.retryTimer.unref();
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    });
  }
}

function toMessage(ev: PaneEvent): LinkMessage {
  switch (ev.kind) {
    case 'output':
      return { type: 'output', data: typeof ev.data === 'string' ? ev.data : Buffer.from(ev.data).toString('utf8') };
    case 'input':
      return { type: 'input', data: ev.data };
    case 'resize':
      return { type: 'resize', cols: ev.cols, rows: ev.rows };
    case 'process':
      return { type: 'process', name: ev.name, ...(ev.pid !== undefined && { pid: ev.pid }), ...(ev.names && { names: ev.names }), ...(ev.reading !== undefined && { reading: ev.reading }) };
    case 'command':
      return ev.phase === 'executed' ? { type: 'command', phase: 'executed' } : { type: 'command', phase: 'finished', exitCode: ev.exitCode };
    case 'exit':
      return { type: 'exit', code: ev.code, signal: ev.signal ?? null };
  }
}
