// Websocket clients for the web tests: a probe that keeps every message it gets and lets a test await the one it
// expects (with a generous bound, never a timing assertion), and the status a refused upgrade answers with.
import WebSocket, { type ClientOptions } from 'ws';

/** Generous bound on any wait: a 2-core CI box under load is slow, but never this slow. */
export const WAIT_MS = 20_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Msg = any;

interface Waiter {
  pred: (m: Msg) => boolean;
  from: number;
  resolve: (m: Msg) => void;
}

export class WsProbe {
  readonly messages: Msg[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  isClosed = false;
  private waiters: Waiter[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const m = isBinary ? data : JSON.parse(data.toString());
      this.messages.push(m);
      const i = this.messages.length - 1;
      this.waiters = this.waiters.filter((w) => {
        if (i < w.from || !w.pred(m)) return true;
        w.resolve(m);
        return false;
      });
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        resolve({ code, reason: reason.toString() });
      }),
    );
    ws.on('error', () => {}); // a refused or dropped socket also closes; the test looks at that
  }

  static open(url: string, opts: ClientOptions = {}): Promise<WsProbe> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, opts);
      const probe = new WsProbe(ws);
      ws.once('open', () => resolve(probe));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** The first message at index `from` or later that matches. */
  waitFor(pred: (m: Msg) => boolean, what: string, from = 0, ms = WAIT_MS): Promise<Msg> {
    for (let i = from; i < this.messages.length; i++) if (pred(this.messages[i])) return Promise.resolve(this.messages[i]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message: ${what} (got ${this.messages.length})`)), ms);
      this.waiters.push({ pred, from, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  ofType(type: string): Msg[] {
    return this.messages.filter((m) => m?.type === type);
  }

  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.ws.terminate();
    await this.closed;
  }
}

/** The HTTP status a websocket upgrade is answered with, or 'open' when it is accepted (then closed). */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.terminate();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.on('error', (e) => reject(e)); // after a resolve this is a no-op: terminate() during the handshake errors
  });
}

/** Polls a condition that has no event of its own, up to a generous bound. */
export async function until(cond: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
