// Pushes the daemon's live feed to dashboard websockets. Transitions go out at once; pane snapshots are
// coalesced per pane. A client that stops reading is skipped (it gets the latest snapshot later, never a
// backlog) and dropped if it stays behind: one slow browser tab never grows memory or delays the others.
import type { WebSocket } from 'ws';
import type { PaneView, WsMessage } from './api-types.js';

export interface HubOptions {
  /** Snapshots of one pane are sent at most once per this window (ms). */
  coalesceMs: number;
  /** A client with more than this many bytes unsent is behind. */
  maxBufferedBytes: number;
  /** A client behind for this long is dropped (ms). */
  slowDropMs: number;
  now?: () => number;
}

/** Transitions kept for a client that is behind; past this it is dropped (it would miss history anyway). */
const MAX_QUEUED_TRANSITIONS = 1000;
/** Close code for a client dropped for not reading (1008: policy violation). */
const SLOW_CLOSE_CODE = 1008;

interface Client {
  ws: WebSocket;
  /** Latest unsent snapshot per pane. */
  panes: Map<string, PaneView>;
  removed: Set<string>;
  transitions: WsMessage[];
  behindSince: number | null;
}

export class WsHub {
  private readonly clients = new Set<Client>();
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  /** Clients dropped for being slow, and messages not sent to a client that was behind. */
  dropped = 0;
  skipped = 0;
  sent = 0;

  constructor(private readonly opts: HubOptions) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.clients.size;
  }

  add(ws: WebSocket, hello: WsMessage): void {
    const c: Client = { ws, panes: new Map(), removed: new Set(), transitions: [], behindSince: null };
    this.clients.add(c);
    ws.on('close', () => this.clients.delete(c));
    ws.on('error', () => this.clients.delete(c));
    this.send(c, hello);
  }

  /** Called by the daemon feed. */
  publish(m: WsMessage): void {
    for (const c of this.clients) {
      switch (m.type) {
        case 'transition':
          if (this.behind(c)) this.queueTransition(c, m);
          else {
            // Caught up since the last flush: what it missed goes first, the feed's order is its meaning.
            for (const q of c.transitions.splice(0)) this.send(c, q);
            this.send(c, m);
          }
          break;
        case 'pane':
          c.removed.delete(m.pane.id);
          c.panes.set(m.pane.id, m.pane);
          break;
        case 'pane_removed':
          c.panes.delete(m.id);
          c.removed.add(m.id);
          break;
        default:
          this.send(c, m);
      }
    }
    if (m.type !== 'transition') this.schedule();
  }

  /** Sends every pending snapshot now (a transition's pane goes with it, so the card and the event agree). */
  flushPane(id: string): void {
    for (const c of this.clients) {
      const p = c.panes.get(id);
      if (p && !this.behind(c)) {
        c.panes.delete(id);
        this.send(c, { type: 'pane', pane: p });
      }
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const c of this.clients) c.ws.close(1001, 'daemon stopping');
    this.clients.clear();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.opts.coalesceMs);
    this.timer.unref();
  }

  private flush(): void {
    let more = false;
    for (const c of [...this.clients]) {
      if (this.behind(c)) {
        this.skipped++;
        more = true;
        continue;
      }
      for (const m of c.transitions.splice(0)) this.send(c, m);
      for (const id of c.removed) this.send(c, { type: 'pane_removed', id });
      c.removed.clear();
      // Checked per snapshot: a client can fall behind within one flush (many panes, big edges).
      for (const [id, p] of c.panes) {
        if (this.behind(c)) {
          more = true;
          break;
        }
        this.send(c, { type: 'pane', pane: p });
        c.panes.delete(id);
      }
    }
    if (more) this.schedule();
  }

  /** Behind: too much unsent. Stays behind too long: dropped. */
  private behind(c: Client): boolean {
    if (c.ws.bufferedAmount <= this.opts.maxBufferedBytes) {
      c.behindSince = null;
      return false;
    }
    c.behindSince ??= this.now();
    if (this.now() - c.behindSince >= this.opts.slowDropMs) this.drop(c, 'too slow');
    return true;
  }

  private queueTransition(c: Client, m: WsMessage): void {
    if (c.transitions.length >= MAX_QUEUED_TRANSITIONS) return this.drop(c, 'too far behind');
    c.transitions.push(m);
    this.schedule();
  }

  private drop(c: Client, why: string): void {
    if (!this.clients.delete(c)) return;
    this.dropped++;
    c.ws.close(SLOW_CLOSE_CODE, why);
    // A client that does not read may not read the close frame either.
    setTimeout(() => c.ws.terminate(), 1000).unref();
  }

  private send(c: Client, m: WsMessage): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    c.ws.send(JSON.stringify(m));
    this.sent++;
  }
}
