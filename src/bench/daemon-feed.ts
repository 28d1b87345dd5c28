// A dashboard's view of the daemon under load: one /ws client (no Origin, on loopback, so no token needed, like
// a local tool) that times every transition from the daemon making it (`transition.at`) to receiving it here.
import { WebSocket } from 'ws';
import type { WsMessage } from '../web/api-types.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** The daemon serialises `{type: 'transition', …}` with the type first: pane snapshots are skipped unparsed. */
const TRANSITION_PREFIX = '{"type":"transition"';

export class FeedClient {
  /** Delays (ms) of transitions received while recording, by phase. */
  readonly latencies = new Map<string, number[]>();
  /** Every transition received, and `pane` snapshots (counted, not parsed). */
  transitions = 0;
  paneMessages = 0;
  closed: string | null = null;
  /** Panes whose transitions are not timed (the hostile bench's own pane). */
  readonly untimed = new Set<string>();
  /** Splits a phase's delays by pane (the remote bench: `local` and `ssh`): recorded as `<phase>:<group>`. */
  group: ((paneId: string) => string) | null = null;
  private phase: string | null = null;
  private ws: WebSocket | null = null;

  /** Connects and resolves on the daemon's hello. */
  connect(url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url.replace(/^http/, 'ws') + '/ws', { handshakeTimeout: CONNECT_TIMEOUT_MS });
      this.ws = ws;
      let hello = false;
      const timer = setTimeout(() => reject(new Error(`/ws: no hello within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      ws.on('message', (data) => {
        const received = Date.now();
        const text = data.toString();
        if (!text.startsWith(TRANSITION_PREFIX)) {
          if (!hello && text.startsWith('{"type":"hello"')) {
            hello = true;
            clearTimeout(timer);
            resolve();
          } else this.paneMessages++;
          return;
        }
        const m = JSON.parse(text) as Extract<WsMessage, { type: 'transition' }>;
        this.transitions++;
        if (this.phase !== null && !this.untimed.has(m.transition.paneId)) {
          const key = this.group ? `${this.phase}:${this.group(m.transition.paneId)}` : this.phase;
          const list = this.latencies.get(key) ?? [];
          list.push(received - m.transition.at);
          this.latencies.set(key, list);
        }
      });
      ws.on('unexpected-response', (_req, res) => {
        clearTimeout(timer);
        reject(new Error(`/ws refused: HTTP ${res.statusCode}`));
      });
      ws.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      ws.on('close', (code, reason) => {
        clearTimeout(timer);
        this.closed = `${code} ${reason.toString()}`.trim();
        reject(new Error(`/ws closed before hello (${this.closed})`));
      });
    });
  }

  /** Transitions received from now on are timed under this phase's name (null: not timed). */
  record(phase: string | null): void {
    this.phase = phase;
  }

  samples(phase: string): number[] {
    return this.latencies.get(phase) ?? [];
  }

  close(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState !== ws.CLOSED) ws.terminate();
  }
}
