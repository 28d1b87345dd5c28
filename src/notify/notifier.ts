// The notification policy: which state changes reach the person, and when. The clock and the local time of day
// are injected, so tests (and replays) decide what "now" is.
//
// Checks, in order (the first that applies decides):
//   disabled          the kind is not in notify.states
//   short_turn        DONE after a turn shorter than done_min_turn_s (you were probably still looking)
//   own_interrupt     the person's own Ctrl-C or Esc ended it (not-news.ts)
//   startup           a REPL or agent reached its first prompt after the command that launched it
//   reconnected       the pane's screen replayed after a reconnection or a daemon restart: no new turn
//   not_news          the pane itself says the end needs nobody (src/state/needs-you.ts)
//   already_notified  the same question, still unanswered, was notified before (even before an ack or a restart)
//   duplicate         the same pane and kind was already handled within dedupe_s (two tiers saw one event); a
//                     question asked again after the pane moved on (answered) is new
//   no_channels       nothing to deliver to (all channels off or unavailable)
//   rate_limited      this pane was notified within min_interval_s: a DONE is dropped; anything urgent (a question,
//                     a failure) is deferred to the limit's end and sent then if the pane still asks
//   quiet_hours       inside notify.quiet_hours: a DONE is dropped; anything urgent is deferred to their end
// A DONE that passes waits notify.group_s for others: panes finishing together make one notification.
// Delivery (retries, channel health) is delivery.ts's; a channel's failure is reported and never thrown.
// Anything urgent held back or not yet delivered is kept in a PendingStore (pending.ts) until it is through, so a
// restarted daemon delivers it, if its pane still asks.
import type { NotifyConfig } from '../config/config.js';
import { AskedLedger } from './asked-ledger.js';
import { HeldBack, type Held } from './deferred.js';
import { Delivery, type ChannelHealth } from './delivery.js';
import { notNews, RestMemory } from './not-news.js';
import { PendingNotices, type ResumeDrop } from './pending.js';
import { inQuietWindow, localMinuteOfDay, parseQuietHours, type QuietWindow } from './quiet-hours.js';
import { groupNotification } from './group-text.js';
import { clean, notificationFor } from './text.js';
import type { Notification, NotifyChannel, NotifyEvent, PendingNotice, PendingStore } from './types.js';

export type SuppressReason = 'disabled' | 'short_turn' | 'own_interrupt' | 'startup' | 'reconnected' | 'not_news' | 'already_notified' | 'duplicate' | 'rate_limited' | 'quiet_hours' | 'no_channels' | 'answered';
export const SUPPRESS_REASONS: readonly SuppressReason[] = ['disabled', 'short_turn', 'own_interrupt', 'startup', 'reconnected', 'not_news', 'already_notified', 'duplicate', 'rate_limited', 'quiet_hours', 'no_channels', 'answered'];

export interface NotifyResult {
  /** Handed to the channels now, or later (deferred, grouped). */
  sent: boolean;
  /** 'sent', 'deferred' (rate limit or quiet hours: goes when they end), 'grouped' (goes with the group), or why
   * it was not sent. */
  reason: 'sent' | 'deferred' | 'grouped' | SuppressReason;
}

export interface NotifierOptions {
  /** Epoch ms; the policy's windows are measured on it. Default Date.now. */
  now?: () => number;
  /** Minutes since local midnight of an epoch-ms time, for quiet hours. Default: the process's time zone. */
  minuteOfDay?: (epochMs: number) => number;
  /** A channel failed a try (network down, notify-send missing its session bus...); `final` when given up. */
  onError?: (err: unknown, channel: string, n: Notification, final?: boolean) => void;
  /** Every counter increment (the daemon keeps them in its history across restarts). */
  onCount?: (key: string) => void;
  /** A held-back notification went out or was dropped (for the log). */
  onLater?: (ev: NotifyEvent, reason: NotifyResult['reason']) => void;
  /** Where notified questions are remembered across restarts (default: memory only). */
  ledger?: AskedLedger;
  /** A link to a pane on the dashboard, when one is known. */
  link?: (paneId: string) => string | undefined;
  /** Where urgent notifications are kept until delivered, across restarts (default: memory only). */
  pending?: PendingStore;
  /** A pane's state now, null when it is not attached (asked of notices from before a restart whose pane said
   * nothing in time). Default: not attached. */
  paneState?: (paneId: string) => string | null;
  /** A notice from before a restart was delivered again, or dropped and why (for the log). */
  onResume?: (ev: NotifyEvent, outcome: 'resumed' | ResumeDrop, stateNow: string | null) => void;
}

/** Quiet hours are whole minutes: what they hold is looked at again just after each minute turns. */
const MINUTE_MS = 60_000;
/** After the minute turns, so the local clock reads the new minute. */
const MINUTE_SLACK_MS = 20;
/** The held-back timer never sleeps longer than this (a clock jump is noticed within it). */
const MAX_SLEEP_MS = 60_000;
/** States in which a pane has moved on from its question (answered): the next question is new. */
const MOVED_ON = new Set(['RUNNING', 'LONG_RUNNING', 'DONE', 'FAILED']);

export class Notifier {
  private readonly states: Set<string>;
  private readonly quiet: QuietWindow | null;
  private readonly now: () => number;
  private readonly minuteOfDay: (epochMs: number) => number;
  private readonly o: NotifierOptions;
  /** pane + kind → when that pair last got past the duplicate check (sent or suppressed later on). A question's
   * entry goes once the pane moves on: two tiers may word one question differently, but an answer ends it. */
  private readonly lastHandled = new Map<string, number>();
  /** pane → when it was last notified. */
  private readonly lastSent = new Map<string, number>();
  /** pane → its state now, as transitions told (a held question goes only while its pane still asks). */
  private readonly stateNow = new Map<string, string>();
  /** pane → the title of its question's notification on screen (withdrawn once answered). */
  private readonly asking = new Map<string, string>();
  private readonly rest = new RestMemory();
  private readonly ledger: AskedLedger;
  private readonly held = new HeldBack();
  private readonly pending: PendingNotices;
  private readonly delivery: Delivery;
  private readonly counts: Record<string, number> = { 'notify.sent': 0 };
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly cfg: NotifyConfig,
    private readonly channels: NotifyChannel[],
    opts: NotifierOptions = {},
  ) {
    this.o = opts;
    this.states = new Set(cfg.states);
    this.quiet = parseQuietHours(cfg.quiet_hours);
    this.now = opts.now ?? Date.now;
    this.minuteOfDay = opts.minuteOfDay ?? localMinuteOfDay;
    this.ledger = opts.ledger ?? new AskedLedger(null);
    this.pending = new PendingNotices(opts.pending ?? null, this.now);
    for (const r of SUPPRESS_REASONS) this.counts[`notify.suppressed.${r}`] = 0;
    this.delivery = new Delivery(channels, {
      retries: cfg.retries ?? 4,
      baseMs: (cfg.retry_base_s ?? 2) * 1000,
      now: this.now,
      count: (k) => this.count(k),
      onError: (err, ch, n, final) => opts.onError?.(err, ch, n, final),
    });
  }

  handle(ev: NotifyEvent): NotifyResult {
    // A notice from before a restart meets its pane's event again: the same question goes on, another is new.
    for (const n of this.pending.takeResuming(ev.paneId, ev.kind)) {
      if (ev.kind === 'WAITING_APPROVAL' && fingerprint(n.ev) !== fingerprint(ev)) this.dropResumed(n, 'question_changed', ev.kind);
      else this.revive(n);
    }
    const reason = this.decide(ev);
    if (reason === 'sent') this.send(ev);
    else if (reason === 'deferred' || reason === 'grouped') this.count(`notify.${reason}`);
    else this.count(`notify.suppressed.${reason}`);
    this.schedule();
    return { sent: reason === 'sent' || reason === 'deferred' || reason === 'grouped', reason };
  }

  /** Every transition of a pane (not only the notified ones): what it rests at, whether it still asks. */
  noteState(paneId: string, to: string, rule: string, program: string): void {
    this.stateNow.set(paneId, to);
    this.rest.note(paneId, to, rule, program);
    if (MOVED_ON.has(to)) {
      this.ledger.clear(paneId);
      // Answered: the next question is new even within dedupe_s (a pane flapping between working and asking).
      this.lastHandled.delete(`${paneId}\u0000WAITING_APPROVAL`);
    }
    if (to !== 'WAITING_APPROVAL') this.withdraw(paneId);
    // What is kept for a restart goes once the pane moved on (held ones are also dropped, logged, when due).
    for (const n of this.pending.ofPane(paneId)) if (!matchesState(n.ev, to)) this.pending.drop(n.id);
    for (const n of this.pending.takeResuming(paneId)) {
      if (matchesState(n.ev, to)) this.revive(n);
      else this.dropResumed(n, 'answered', to);
    }
    this.schedule();
  }

  /** Notices a previous daemon kept (the PendingStore's): each is delivered once its pane is back and still where
   * it was, else dropped with the reason. A task's goes at once (its end or pause stays news). */
  resume(notices: PendingNotice[]): void {
    for (const n of this.pending.resume(notices)) this.revive(n);
    this.schedule();
  }

  /** The daemon is stopping: what is pending now stays kept for the next one (its deliveries end unfinished). */
  stopping(): void {
    this.pending.freeze();
  }

  /** Sends what is due: a deferred question whose rate limit or quiet hours ended, a group whose window closed. */
  poll(): void {
    const now = this.now();
    for (const n of this.pending.expired(now)) {
      const state = this.o.paneState?.(n.ev.paneId) ?? null;
      if (state === null) this.dropResumed(n, 'pane_gone', null);
      else if (matchesState(n.ev, state)) this.revive(n);
      else this.dropResumed(n, 'answered', state);
    }
    for (const h of this.held.due(now)) this.release(h, now);
    const group = this.held.dueGroup(now);
    if (group.length === 1) this.deliver(notificationFor(group[0]!, this.o.link?.(group[0]!.paneId)));
    else if (group.length > 1) this.deliver(groupNotification(group, this.o.link?.('')));
    for (const ev of group) this.lastSent.set(ev.key ?? ev.paneId, now);
    this.schedule();
  }

  /** 'notify.sent', 'notify.suppressed.<reason>', 'notify.delivered|failed|error|retry.<channel>' → count. */
  counters(): Record<string, number> {
    return { ...this.counts };
  }

  /** Each channel's health (GET /api/notify, doctor, the board), and how much is held back. */
  health(): { channels: Array<ChannelHealth & { detail?: string }>; held: number } {
    const detail = new Map(this.channels.map((c) => [c.name, c.detail]));
    return { channels: this.delivery.report().map((h) => ({ ...h, ...(detail.get(h.name) ? { detail: detail.get(h.name) } : {}) })), held: this.held.size + this.pending.resumingCount };
  }

  /** Resolves once every delivery started so far has finished (shutdown waits on this). */
  async settled(): Promise<void> {
    await this.delivery.settled();
  }

  close(): void {
    this.pending.freeze();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.delivery.close();
    this.ledger.close();
    for (const ch of this.channels) {
      try {
        ch.close?.();
      } catch {
        // shutting down: nothing more to do for it
      }
    }
  }

  /** Drop a closed pane's windows, so a long-running daemon does not keep every pane it ever saw. The ledger keeps
   * its question: a pane that comes back (a daemon restart re-attaches it) still asks the same one. */
  forget(paneId: string): void {
    this.lastSent.delete(paneId);
    this.stateNow.delete(paneId);
    this.asking.delete(paneId);
    this.rest.forget(paneId);
    for (const h of this.held.drop(paneId)) this.pending.drop(h.id);
    for (const n of this.pending.ofPane(paneId)) this.pending.drop(n.id);
    for (const k of this.lastHandled.keys()) if (k.startsWith(`${paneId}\u0000`)) this.lastHandled.delete(k);
  }

  private decide(ev: NotifyEvent): NotifyResult['reason'] {
    if (!this.states.has(ev.kind)) return 'disabled';
    // The pane's own word (needs-you.ts): what the person did, a program starting up, a screen replayed on reconnect.
    if (ev.notNews) return notNewsReason(ev.notNews);
    // An unknown duration (a turn begun before the daemon saw the pane) is not known to be short.
    if (ev.kind === 'DONE' && ev.turnDurationS !== null && ev.turnDurationS < this.cfg.done_min_turn_s) return 'short_turn';
    const why = notNews(ev, this.rest.last(ev.paneId));
    if (why) return why;
    if (ev.kind === 'WAITING_APPROVAL' && this.ledger.has(ev.paneId, fingerprint(ev))) return 'already_notified';
    const now = this.now();
    const who = ev.key ?? ev.paneId;
    const key = `${who}\u0000${ev.kind}`;
    const handled = this.lastHandled.get(key);
    // Measured from the first report, not refreshed by duplicates: a repeating event still surfaces again.
    if (handled !== undefined && now - handled < this.cfg.dedupe_s * 1000) return 'duplicate';
    this.lastHandled.set(key, now);
    if (this.channels.length === 0) return 'no_channels';
    const urgent = ev.kind !== 'DONE' && ev.kind !== 'TASK_FINISHED';
    const sent = this.lastSent.get(who);
    if (sent !== undefined && now - sent < this.cfg.min_interval_s * 1000) {
      if (!urgent) return 'rate_limited';
      this.hold(key, ev, sent + this.cfg.min_interval_s * 1000, 'rate_limited');
      return 'deferred';
    }
    if (this.isQuiet(now)) {
      if (!urgent) return 'quiet_hours';
      this.hold(key, ev, nextMinute(now), 'quiet_hours');
      return 'deferred';
    }
    if (ev.kind === 'DONE' && (this.cfg.group_s ?? 0) > 0) {
      this.held.gather(ev, now, this.cfg.group_s * 1000);
      this.lastSent.set(who, now);
      return 'grouped';
    }
    return 'sent';
  }

  /** A held event is due: gone if the pane no longer asks, kept while quiet hours go on, else sent. */
  private release(h: Held, now: number): void {
    const key = `${h.ev.key ?? h.ev.paneId}\u0000${h.ev.kind}`;
    if (!this.stillMatters(h.ev)) {
      this.pending.drop(h.id);
      this.count('notify.suppressed.answered');
      this.o.onLater?.(h.ev, 'answered');
      return;
    }
    if (this.isQuiet(now)) return void this.held.keep(key, { ...h, dueAt: nextMinute(now), why: 'quiet_hours' });
    const sent = this.lastSent.get(h.ev.key ?? h.ev.paneId);
    if (sent !== undefined && now - sent < this.cfg.min_interval_s * 1000) return void this.held.keep(key, { ...h, dueAt: sent + this.cfg.min_interval_s * 1000 });
    this.send(h.ev, h.id);
    this.o.onLater?.(h.ev, 'sent');
  }

  /** Holds an urgent event until `dueAt`, kept for a restart (a newer one of the same pane and kind replaces it). */
  private hold(key: string, ev: NotifyEvent, dueAt: number, why: 'rate_limited' | 'quiet_hours'): void {
    const id = this.held.get(key)?.id ?? this.pending.newId();
    this.held.hold(key, { ev, dueAt, why, id });
    this.pending.held(id, ev, this.channels.map((c) => c.name), why);
  }

  /** `heldId`: the pending notice of the held event going out now. */
  private send(ev: NotifyEvent, heldId?: string, only?: string[]): void {
    const who = ev.key ?? ev.paneId;
    const cancelled = this.held.cancel(`${who}\u0000${ev.kind}`);
    if (cancelled?.id !== heldId) this.pending.drop(cancelled?.id);
    this.lastSent.set(who, this.now());
    const n = notificationFor(ev, this.o.link?.(ev.paneId));
    if (ev.kind === 'WAITING_APPROVAL') {
      this.ledger.set(ev.paneId, fingerprint(ev));
      this.asking.set(ev.paneId, `${n.paneName}: answered`);
    }
    if (!n.urgent) return this.deliver(n, () => this.stillMatters(ev));
    const id = heldId ?? this.pending.newId();
    const channels = only ?? this.channels.map((c) => c.name);
    this.pending.sending(id, ev, channels);
    this.deliver(n, () => this.stillMatters(ev), channels, (ch) => this.pending.through(id, ch));
  }

  private deliver(n: Notification, matters?: () => boolean, only?: string[], through?: (channel: string) => void): void {
    this.count('notify.queued');
    this.delivery.send(n, matters, only, through);
  }

  /** A notice from before a restart whose pane is still where it was: held ones wait their turn again (quiet hours
   * are looked at anew), one being sent goes to the channels that still owe it. */
  private revive(n: PendingNotice): void {
    this.pending.adopt(n);
    this.count('notify.resumed');
    this.o.onResume?.(n.ev, 'resumed', this.stateNow.get(n.ev.paneId) ?? null);
    const key = `${n.ev.key ?? n.ev.paneId}\u0000${n.ev.kind}`;
    if (n.stage === 'held') return void this.held.hold(key, { ev: n.ev, dueAt: this.now(), why: n.why ?? 'quiet_hours', id: n.id });
    this.send(n.ev, n.id, n.channels.filter((c) => this.channels.some((ch) => ch.name === c)));
  }

  private dropResumed(n: PendingNotice, why: ResumeDrop, state: string | null): void {
    this.pending.discard(n);
    this.count(`notify.resume_dropped.${why}`);
    this.o.onResume?.(n.ev, why, state);
  }

  /** Whether the pane still is where the event was (still asks, still failed, still stalled). */
  private stillMatters(ev: NotifyEvent): boolean {
    return matchesState(ev, this.stateNow.get(ev.paneId));
  }

  private withdraw(paneId: string): void {
    const title = this.asking.get(paneId);
    if (title === undefined) return;
    this.asking.delete(paneId);
    for (const ch of this.channels) {
      if (!ch.withdraw) continue;
      ch.withdraw(paneId, title).then(
        () => this.count(`notify.withdrawn.${ch.name}`),
        (err: unknown) => this.o.onError?.(err, ch.name, { title, body: '', kind: 'WAITING_APPROVAL', paneId, paneName: '', program: '', at: this.now(), tier: 0, rule: 'withdraw', urgent: false }, true),
      );
    }
  }

  private isQuiet(now: number): boolean {
    return this.quiet !== null && inQuietWindow(this.quiet, this.minuteOfDay(now));
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const held = this.held.nextDue();
    const resume = this.pending.nextDeadline();
    const next = held === null ? resume : resume === null ? held : Math.min(held, resume);
    if (next === null) return void (this.timer = null);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.poll();
    }, Math.max(MINUTE_SLACK_MS, Math.min(next - this.now(), MAX_SLEEP_MS)));
    this.timer.unref();
  }

  private count(key: string): void {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
    this.o.onCount?.(key);
  }
}

/** Whether a pane in `state` is still where the event was (still asks, still failed, still stalled). */
function matchesState(ev: NotifyEvent, state: string | undefined): boolean {
  if (ev.key) return true; // a task's end or pause stays news
  if (state === undefined) return true; // no transition seen since (peers, tests): as it was
  if (ev.kind === 'STALLED') return state === 'RUNNING' || state === 'LONG_RUNNING';
  return state === ev.kind;
}

/** Just after the next minute begins (quiet hours end on a minute). */
function nextMinute(now: number): number {
  return now - (now % MINUTE_MS) + MINUTE_MS + MINUTE_SLACK_MS;
}

/** A question is the same while its words and choices are (redacted and cleaned: what the person was shown). */
export function fingerprint(ev: NotifyEvent): string {
  const q = ev.facts?.question;
  return q ? clean(`${q.text}\u0000${q.options.join('\u0001')}`) : clean(ev.line).trim();
}

/** The pane's needs-you verdict as a suppression reason. */
function notNewsReason(why: string): SuppressReason {
  if (why === 'own_interrupt' || why === 'startup') return why;
  if (why === 'reconnected' || why === 'carried') return 'reconnected';
  return 'not_news';
}
