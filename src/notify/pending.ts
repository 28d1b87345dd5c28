// Urgent notifications kept until delivered, across a daemon restart: each question, failure, stall or stopped
// task held back (rate limit, quiet hours) or handed to channels that did not take it yet is written to a
// PendingStore (the daemon's SQLite; none in tests and replays), shrunk as channels take it, and removed once
// through or no longer news. What a previous daemon left is "resuming" until its pane says where it is now: still
// there (the same question on screen, still failed) → delivered; moved on, a new question, or gone → dropped, with
// the reason. The policy of when is the Notifier's; this only keeps the books.
import type { NotifyEvent, PendingNotice, PendingStore } from './types.js';

/** How long a notice from before a restart waits for its pane to come back and be read: a `run` wrapper retries
 * its daemon link at most every 10 s, tmux panes attach at start; a pane not back by then is gone. */
export const RESUME_WAIT_MS = 30_000;

/** Why a notice from before a restart was not delivered. */
export type ResumeDrop = 'answered' | 'question_changed' | 'pane_gone';

interface Resuming {
  notice: PendingNotice;
  deadline: number;
}

export class PendingNotices {
  /** id → the notices this daemon keeps. */
  private readonly kept = new Map<string, PendingNotice>();
  /** id → notices a previous daemon left, not yet matched with their pane. */
  private readonly resuming = new Map<string, Resuming>();
  private seq = 0;
  /** The daemon is stopping: what is kept now is what the next one gets (a stop is no delivery). */
  private frozen = false;

  constructor(
    private readonly store: PendingStore | null,
    private readonly now: () => number,
  ) {}

  /** A new notice's id: unique across restarts (time and a counter). */
  newId(): string {
    return `${this.now().toString(36)}-${(this.seq++).toString(36)}`;
  }

  held(id: string, ev: NotifyEvent, channels: string[], why: 'rate_limited' | 'quiet_hours'): void {
    this.keep({ id, stage: 'held', ev, channels, createdAt: this.kept.get(id)?.createdAt ?? this.now(), why });
  }

  sending(id: string, ev: NotifyEvent, channels: string[]): void {
    if (!channels.length) return this.drop(id);
    this.keep({ id, stage: 'sending', ev, channels, createdAt: this.kept.get(id)?.createdAt ?? this.now() });
  }

  /** A channel is through with the notice (delivered, sent unanswered, or given up): it no longer owes it. */
  through(id: string, channel: string): void {
    const n = this.kept.get(id);
    if (!n || this.frozen) return;
    const channels = n.channels.filter((c) => c !== channel);
    if (channels.length) this.keep({ ...n, channels });
    else this.drop(id);
  }

  drop(id: string | undefined): void {
    if (id === undefined || this.frozen || !this.kept.delete(id)) return;
    this.store?.remove(id);
  }

  /** The notices this daemon keeps for a pane. */
  ofPane(paneId: string): PendingNotice[] {
    return [...this.kept.values()].filter((n) => n.ev.paneId === paneId);
  }

  freeze(): void {
    this.frozen = true;
  }

  // ── what a previous daemon left ──

  /** Notices loaded at start: each waits for its pane until RESUME_WAIT_MS from now (a task's goes at once). */
  resume(notices: PendingNotice[]): PendingNotice[] {
    const now = this.now();
    const atOnce: PendingNotice[] = [];
    for (const n of notices) {
      if (n.ev.key) atOnce.push(n);
      else this.resuming.set(n.id, { notice: n, deadline: now + RESUME_WAIT_MS });
    }
    return atOnce;
  }

  /** Resuming notices of this pane (of this kind, when given): taken out, for the caller to deliver or drop. */
  takeResuming(paneId: string, kind?: string): PendingNotice[] {
    const out: PendingNotice[] = [];
    for (const [id, r] of this.resuming) {
      if (r.notice.ev.paneId !== paneId || (kind !== undefined && r.notice.ev.kind !== kind)) continue;
      this.resuming.delete(id);
      out.push(r.notice);
    }
    return out;
  }

  /** Resuming notices whose pane did not come back in time (taken out). */
  expired(now: number): PendingNotice[] {
    const out: PendingNotice[] = [];
    for (const [id, r] of this.resuming) if (r.deadline <= now) (this.resuming.delete(id), out.push(r.notice));
    return out;
  }

  /** A resuming notice is delivered again: this daemon keeps it from now on (same row). */
  adopt(n: PendingNotice): void {
    this.kept.set(n.id, n);
  }

  /** A resuming notice that is no longer news: its row goes. */
  discard(n: PendingNotice): void {
    if (this.frozen) return;
    this.kept.delete(n.id);
    this.store?.remove(n.id);
  }

  nextDeadline(): number | null {
    let next: number | null = null;
    for (const r of this.resuming.values()) if (next === null || r.deadline < next) next = r.deadline;
    return next;
  }

  get resumingCount(): number {
    return this.resuming.size;
  }

  private keep(n: PendingNotice): void {
    if (this.frozen) return;
    this.kept.set(n.id, n);
    this.store?.save(n);
  }
}
