// What the Notifier holds back instead of dropping: a question (or failure, stall, stopped task) that came during
// the rate limit or quiet hours, sent when they end if the pane still asks; and DONEs gathered for notify.group_s so
// several panes finishing together make one notification.
import type { NotifyEvent } from './types.js';

export interface Held {
  ev: NotifyEvent;
  /** Epoch ms from which it may go (the rate limit's end); quiet hours are checked when it is due. */
  dueAt: number;
  why: 'rate_limited' | 'quiet_hours';
  /** The pending notice that keeps it across a restart (pending.ts). */
  id?: string;
}

export class HeldBack {
  /** pane-or-key + kind → the latest event held (a newer one of the same kind replaces it). */
  private readonly held = new Map<string, Held>();
  private group: { dueAt: number; evs: NotifyEvent[] } | null = null;

  hold(key: string, h: Held): void {
    this.held.set(key, h);
  }

  get(key: string): Held | undefined {
    return this.held.get(key);
  }

  /** Gathers a DONE; the group is due `windowMs` after its first member. */
  gather(ev: NotifyEvent, now: number, windowMs: number): void {
    if (!this.group) this.group = { dueAt: now + windowMs, evs: [] };
    // One pane finishing twice within the window is its latest end.
    this.group.evs = this.group.evs.filter((e) => (e.key ?? e.paneId) !== (ev.key ?? ev.paneId));
    this.group.evs.push(ev);
  }

  /** Held events whose time came (taken out). */
  due(now: number): Held[] {
    const out: Held[] = [];
    for (const [k, h] of this.held) if (h.dueAt <= now) (this.held.delete(k), out.push(h));
    return out;
  }

  /** The same event went out by itself: what was held for it is no longer owed. */
  cancel(key: string): Held | undefined {
    const h = this.held.get(key);
    this.held.delete(key);
    return h;
  }

  /** Put back one that is due but still may not go (quiet hours go on). */
  keep(key: string, h: Held): void {
    if (!this.held.has(key)) this.held.set(key, h);
  }

  /** The gathered DONEs once their window closed (taken out). */
  dueGroup(now: number): NotifyEvent[] {
    if (!this.group || this.group.dueAt > now) return [];
    const evs = this.group.evs;
    this.group = null;
    return evs;
  }

  drop(paneId: string): Held[] {
    const out: Held[] = [];
    for (const [k, h] of this.held) if (h.ev.paneId === paneId) (this.held.delete(k), out.push(h));
    if (this.group) this.group.evs = this.group.evs.filter((e) => e.paneId !== paneId);
    return out;
  }

  get size(): number {
    return this.held.size + (this.group?.evs.length ?? 0);
  }

  /** Epoch ms of the earliest thing due, or null when nothing is held. */
  nextDue(): number | null {
    let next: number | null = this.group?.dueAt ?? null;
    for (const h of this.held.values()) if (next === null || h.dueAt < next) next = h.dueAt;
    return next;
  }
}
