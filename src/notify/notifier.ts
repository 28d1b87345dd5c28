// The notification policy: which state changes reach the person, and how often. Pure apart from the channels it
// calls: the clock and the local time of day are injected, so tests (and replays) decide what "now" is.
//
// Checks, in order (the first that applies is the reason nothing was sent):
//   disabled      the kind is not in notify.states
//   short_turn    DONE after a turn shorter than done_min_turn_s (you were probably still looking)
//   duplicate     the same pane and kind was already handled within dedupe_s (two tiers saw one event)
//   rate_limited  this pane was notified within min_interval_s (a flapping pane must not spam)
//   quiet_hours   local time is inside notify.quiet_hours
//   no_channels   nothing to deliver to (all channels off or unavailable)
// Otherwise every channel gets it; a channel's failure is reported through onError and never thrown.
import type { NotifyConfig } from '../config/config.js';
import { inQuietWindow, localMinuteOfDay, parseQuietHours, type QuietWindow } from './quiet-hours.js';
import { notificationFor } from './text.js';
import type { Notification, NotifyChannel, NotifyEvent } from './types.js';

export type SuppressReason = 'disabled' | 'short_turn' | 'duplicate' | 'rate_limited' | 'quiet_hours' | 'no_channels';
export const SUPPRESS_REASONS: readonly SuppressReason[] = ['disabled', 'short_turn', 'duplicate', 'rate_limited', 'quiet_hours', 'no_channels'];

export interface NotifyResult {
  sent: boolean;
  /** 'sent', or the SuppressReason. */
  reason: 'sent' | SuppressReason;
}

export interface NotifierOptions {
  /** Epoch ms; the policy's windows are measured on it. Default Date.now. */
  now?: () => number;
  /** Minutes since local midnight of an epoch-ms time, for quiet hours. Default: the process's time zone. */
  minuteOfDay?: (epochMs: number) => number;
  /** A channel failed to deliver (network down, notify-send missing its session bus...). */
  onError?: (err: unknown, channel: string, n: Notification) => void;
}

export class Notifier {
  private readonly states: Set<string>;
  private readonly quiet: QuietWindow | null;
  private readonly now: () => number;
  private readonly minuteOfDay: (epochMs: number) => number;
  private readonly onError: (err: unknown, channel: string, n: Notification) => void;
  /** pane + kind → when that pair last got past the duplicate check (sent or suppressed later on). */
  private readonly lastHandled = new Map<string, number>();
  /** pane → when it was last notified. */
  private readonly lastSent = new Map<string, number>();
  private readonly counts: Record<string, number> = { 'notify.sent': 0 };
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly cfg: NotifyConfig,
    private readonly channels: NotifyChannel[],
    opts: NotifierOptions = {},
  ) {
    this.states = new Set(cfg.states);
    this.quiet = parseQuietHours(cfg.quiet_hours);
    this.now = opts.now ?? Date.now;
    this.minuteOfDay = opts.minuteOfDay ?? localMinuteOfDay;
    this.onError = opts.onError ?? (() => {});
    for (const r of SUPPRESS_REASONS) this.counts[`notify.suppressed.${r}`] = 0;
  }

  handle(ev: NotifyEvent): NotifyResult {
    const reason = this.decide(ev);
    if (reason !== 'sent') {
      this.count(`notify.suppressed.${reason}`);
      return { sent: false, reason };
    }
    this.count('notify.sent');
    const n = notificationFor(ev);
    for (const ch of this.channels) this.deliver(ch, n);
    return { sent: true, reason: 'sent' };
  }

  /** 'notify.sent', 'notify.suppressed.<reason>', 'notify.error.<channel>' → count. */
  counters(): Record<string, number> {
    return { ...this.counts };
  }

  /** Resolves once every delivery started so far has finished (shutdown waits on this). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Drop a closed pane's windows, so a long-running daemon does not keep every pane it ever saw. */
  forget(paneId: string): void {
    this.lastSent.delete(paneId);
    for (const k of this.lastHandled.keys()) if (k.startsWith(`${paneId}\u0000`)) this.lastHandled.delete(k);
  }

  private decide(ev: NotifyEvent): NotifyResult['reason'] {
    if (!this.states.has(ev.kind)) return 'disabled';
    // An unknown duration (a turn begun before the daemon saw the pane) is not known to be short.
    if (ev.kind === 'DONE' && ev.turnDurationS !== null && ev.turnDurationS < this.cfg.done_min_turn_s) return 'short_turn';
    const now = this.now();
    const who = ev.key ?? ev.paneId;
    const key = `${who}\u0000${ev.kind}`;
    const handled = this.lastHandled.get(key);
    // Measured from the first report, not refreshed by duplicates: a repeating event still surfaces again.
    if (handled !== undefined && now - handled < this.cfg.dedupe_s * 1000) return 'duplicate';
    this.lastHandled.set(key, now);
    const sent = this.lastSent.get(who);
    if (sent !== undefined && now - sent < this.cfg.min_interval_s * 1000) return 'rate_limited';
    if (this.quiet && inQuietWindow(this.quiet, this.minuteOfDay(now))) return 'quiet_hours';
    if (this.channels.length === 0) return 'no_channels';
    this.lastSent.set(who, now);
    return 'sent';
  }

  private deliver(ch: NotifyChannel, n: Notification): void {
    let p: Promise<void>;
    try {
      p = Promise.resolve(ch.send(n));
    } catch (e) {
      p = Promise.reject(e); // a channel that throws instead of rejecting is still caught
    }
    const tracked: Promise<void> = p
      .catch((err: unknown) => {
        this.count(`notify.error.${ch.name}`);
        try {
          this.onError(err, ch.name, n);
        } catch {
          // a failing error handler must not turn into an unhandled rejection
        }
      })
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private count(key: string): void {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
}
