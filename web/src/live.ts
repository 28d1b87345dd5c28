// The live feed: one WebSocket to /ws on the page's own host. It reconnects by itself with a growing, jittered
// delay (reset once a hello arrives), and reports its state for the connection indicator.
import type { WsMessage } from '../../src/web/api-types.js';
import { retryDelay } from './reconnect.js';

export type ConnState = { kind: 'connecting' } | { kind: 'live' } | { kind: 'offline'; retryAt: number };

export class Live {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer = 0;

  constructor(
    private readonly url: string,
    private readonly onMessage: (m: WsMessage) => void,
    private readonly onState: (s: ConnState) => void,
  ) {
    // Back on the network or back to the tab: do not sit out a long backoff.
    addEventListener('online', () => this.retryNow());
    document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && this.retryNow());
  }

  start(): void {
    this.connect();
  }

  private retryNow(): void {
    if (this.ws || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = 0;
    this.connect();
  }

  private connect(): void {
    this.onState({ kind: 'connecting' });
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onmessage = (ev) => {
      let m: WsMessage;
      try {
        m = JSON.parse(String(ev.data)) as WsMessage;
      } catch {
        return; // not ours to understand
      }
      if (m.type === 'hello') {
        this.attempt = 0;
        this.onState({ kind: 'live' });
      }
      this.onMessage(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    const delay = retryDelay(this.attempt++);
    this.onState({ kind: 'offline', retryAt: Date.now() + delay });
    this.timer = window.setTimeout(() => {
      this.timer = 0;
      this.connect();
    }, delay);
  }
}
