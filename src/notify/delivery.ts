// Delivering one notification to one channel, and keeping at it: a failed try is retried with back-off (a webhook
// that answered 500, a notify-send that lost its bus for a moment); an urgent one (a question the pane still asks)
// is kept until it gets through or stops mattering. Each channel's health is counted honestly: delivered, failed
// (given up), unconfirmed (sent but no answer in time), and the last error with its cause.
import type { Notification, NotifyChannel } from './types.js';

/** A try that fails is retried after base × 2^n ms, never longer than this apart. */
export const RETRY_MAX_MS = 60_000;

export interface DeliveryOptions {
  /** Retries of a non-urgent notification before it is given up (urgent ones go on while they matter). */
  retries: number;
  /** The first retry's wait (ms). */
  baseMs: number;
  now?: () => number;
  count: (key: string) => void;
  onError: (err: unknown, channel: string, n: Notification, final: boolean) => void;
}

export interface ChannelHealth {
  name: string;
  /** ok: the last try got through (or none was made yet); failing: the last try failed. */
  status: 'ok' | 'failing' | 'unused';
  delivered: number;
  failed: number;
  unconfirmed: number;
  retrying: number;
  lastOkAt: number | null;
  lastErrorAt: number | null;
  lastError: string | null;
}

/** A channel's error that says the request went out but no answer came: not retried (it may have arrived). */
export class UnconfirmedError extends Error {
  readonly unconfirmed = true;
}

export class Delivery {
  private readonly health = new Map<string, ChannelHealth>();
  private readonly pending = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly channels: NotifyChannel[],
    private readonly o: DeliveryOptions,
  ) {
    for (const ch of channels) this.health.set(ch.name, blank(ch.name));
  }

  /** Sends to every channel (or only those named in `only`); `matters` is asked before each retry (false: the pane
   * was answered, give up); `through` hears of each channel once it is through with it (delivered, sent without
   * an answer, or given up), so what is kept for a restart can shrink to what is still owed. */
  send(n: Notification, matters: () => boolean = () => true, only?: readonly string[], through?: (channel: string) => void): void {
    const chans = only ? this.channels.filter((c) => only.includes(c.name)) : this.channels;
    const tally: Tally = { left: chans.length, delivered: false, unconfirmed: false, through };
    for (const ch of chans) this.attempt(ch, n, matters, 0, tally);
  }

  /** Every channel's health (GET /api/notify, doctor, the board). */
  report(): ChannelHealth[] {
    return [...this.health.values()].map((h) => ({ ...h }));
  }

  /** Resolves once every try started so far has finished (shutdown waits on this; pending retries are dropped). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** A channel is through with a notification: once all are, it counts as sent (any delivered), unconfirmed, or
   * failed (none got it) — never "sent" for a notification nobody received. */
  private finish(tally: Tally, how: 'delivered' | 'unconfirmed' | 'failed', channel: string): void {
    // Given up because the daemon stops is not through: the restarted daemon still owes it.
    if (!(how === 'failed' && this.closed)) safely(() => tally.through?.(channel));
    if (how === 'delivered') tally.delivered = true;
    if (how === 'unconfirmed') tally.unconfirmed = true;
    if (--tally.left > 0) return;
    this.o.count(tally.delivered ? 'notify.sent' : tally.unconfirmed ? 'notify.unconfirmed' : 'notify.failed');
  }

  private attempt(ch: NotifyChannel, n: Notification, matters: () => boolean, tried: number, tally: Tally): void {
    const h = this.health.get(ch.name)!;
    let p: Promise<void>;
    try {
      p = Promise.resolve(ch.send(n));
    } catch (e) {
      p = Promise.reject(e); // a channel that throws instead of rejecting is still caught
    }
    const tracked: Promise<void> = p
      .then(() => {
        h.delivered++;
        h.status = 'ok';
        h.lastOkAt = this.now();
        this.o.count(`notify.delivered.${ch.name}`);
        this.finish(tally, 'delivered', ch.name);
      })
      .catch((err: unknown) => this.failed(ch, n, matters, tried, err, tally))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private failed(ch: NotifyChannel, n: Notification, matters: () => boolean, tried: number, err: unknown, tally: Tally): void {
    const h = this.health.get(ch.name)!;
    h.status = 'failing';
    h.lastErrorAt = this.now();
    h.lastError = describeError(err);
    this.o.count(`notify.error.${ch.name}`);
    const unconfirmed = (err as { unconfirmed?: boolean })?.unconfirmed === true;
    const again = !unconfirmed && !ch.noRetry && !this.closed && (n.urgent ? matters() : tried < this.o.retries);
    if (unconfirmed) {
      h.unconfirmed++;
      this.o.count(`notify.unconfirmed.${ch.name}`);
      this.finish(tally, 'unconfirmed', ch.name);
    } else if (!again) {
      h.failed++;
      this.o.count(`notify.failed.${ch.name}`);
      this.finish(tally, 'failed', ch.name);
    }
    safely(() => this.o.onError(err, ch.name, n, !again));
    if (!again) return;
    h.retrying++;
    this.o.count(`notify.retry.${ch.name}`);
    const wait = Math.min(RETRY_MAX_MS, this.o.baseMs * 2 ** tried);
    const t = setTimeout(() => {
      this.timers.delete(t);
      h.retrying--;
      if (this.closed || (n.urgent && !matters())) return this.finish(tally, 'failed', ch.name);
      this.attempt(ch, n, matters, tried + 1, tally);
    }, wait);
    t.unref();
    this.timers.add(t);
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }
}

interface Tally {
  left: number;
  delivered: boolean;
  unconfirmed: boolean;
  through?: (channel: string) => void;
}

function blank(name: string): ChannelHealth {
  return { name, status: 'unused', delivered: 0, failed: 0, unconfirmed: 0, retrying: 0, lastOkAt: null, lastErrorAt: null, lastError: null };
}

/** An error with its causes: Node's fetch says only "fetch failed"; the cause says ECONNREFUSED 127.0.0.1:9. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 4; i++) {
    const msg = e instanceof Error ? e.message : String(e);
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !msg.includes(code) ? `${msg} (${code})` : msg);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(': ').slice(0, 300);
}

function safely(f: () => void): void {
  try {
    f();
  } catch {
    // a failing error handler must not turn into an unhandled rejection
  }
}
