// Writes waiting for the next flush, oldest first. Writes that replace one another (a pane's upsert, a turn's
// save, a counter's delta) share a slot, so a busy pane costs one row per flush, not one per change. Records are
// copied: a caller may keep mutating its own object after handing it over.
import type { ActionRecord, Counters, PaneRecord, TransitionRecord, TurnRecord } from './records.js';

export type QueuedWrite =
  | { kind: 'pane'; rec: PaneRecord }
  | { kind: 'transition'; rec: TransitionRecord }
  | { kind: 'turn'; rec: TurnRecord }
  | { kind: 'action'; rec: ActionRecord }
  | { kind: 'counter'; key: string; delta: number };

export class WriteQueue {
  // A Map keeps insertion order: the first key is the oldest write.
  private items = new Map<string, QueuedWrite>();
  private seq = 0;
  private droppedCount = 0;

  /** `cap` bounds memory while the database refuses writes; beyond it the oldest writes are dropped (each told to
   * `onDrop` by its key). */
  constructor(
    private readonly cap: number,
    private readonly onDrop: (key: string) => void = () => {},
  ) {}

  get size(): number {
    return this.items.size;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  pane(rec: PaneRecord): void {
    this.put(`p\0${rec.id}`, { kind: 'pane', rec: { ...rec } });
  }

  /** Returns the write's key (a transition is never replaced: each has its own). */
  transition(rec: TransitionRecord): string {
    const key = `t\0${this.seq++}`;
    this.put(key, { kind: 'transition', rec: { ...rec } });
    return key;
  }

  /** Returns the write's key (an action is never replaced: each has its own). */
  action(rec: ActionRecord): string {
    const key = `a\0${this.seq++}`;
    this.put(key, { kind: 'action', rec: { ...rec } });
    return key;
  }

  turn(rec: TurnRecord): void {
    this.put(`u\0${rec.paneId}\0${rec.start}`, { kind: 'turn', rec: { ...rec } });
  }

  counters(deltas: Counters): void {
    for (const [key, delta] of Object.entries(deltas)) {
      if (!delta) continue;
      const slot = `c\0${key}`;
      const prev = this.items.get(slot);
      this.put(slot, { kind: 'counter', key, delta: delta + (prev?.kind === 'counter' ? prev.delta : 0) });
    }
  }

  /** Oldest first, with the keys `remove` takes. */
  entries(): [string, QueuedWrite][] {
    return [...this.items];
  }

  /** The oldest `n` writes: one bounded batch. */
  oldest(n: number): [string, QueuedWrite][] {
    const out: [string, QueuedWrite][] = [];
    for (const e of this.items) {
      if (out.length >= n) break;
      out.push(e);
    }
    return out;
  }

  /** Queued writes of one kind, oldest first (reads show what the database has not taken yet). */
  *ofKind<K extends QueuedWrite['kind']>(kind: K): Generator<Extract<QueuedWrite, { kind: K }>> {
    for (const w of this.items.values()) if (w.kind === kind) yield w as Extract<QueuedWrite, { kind: K }>;
  }

  remove(key: string): void {
    this.items.delete(key);
  }

  clear(): void {
    this.items.clear();
  }

  private put(key: string, item: QueuedWrite): void {
    // delete first: a replaced write moves to the newest place, it is the newest change
    this.items.delete(key);
    this.items.set(key, item);
    while (this.items.size > this.cap) {
      const oldest = this.items.keys().next().value as string;
      this.items.delete(oldest);
      this.droppedCount++;
      this.onDrop(oldest);
    }
  }
}
