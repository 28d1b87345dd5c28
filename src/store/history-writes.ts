// The history store's writes: panes, transitions, actions, turns and counters go to an in-memory queue and are
// committed from an unref'd timer in bounded batches, one transaction each: callers on the hot path never wait on
// the disk and never see its errors. A failing database (full disk, a lock held too long, a damaged page) makes the
// store "degraded" (health(), onHealth) while the writes wait in memory; it retries by itself, each batch that fits
// is kept, and the first flush that empties the queue again is its recovery. Retention pruning and task
// checkpoints degrade it the same way. Reads and opening are HistoryStore's (history-store.ts), which extends this.
import type Database from 'better-sqlite3';
import { DAY_MS, pruneBefore, type Pruned } from './prune.js';
import type { ActionRecord, Counters, PaneRecord, TransitionRecord, TurnRecord } from './records.js';
import { Statements } from './statements.js';
import { TaskStore } from './task-store.js';
import { NotifyPendingStore } from './notify-pending.js';
import { causeOf, isStorageFault, StoreError } from './store-error.js';
import { StoreHealth, type HealthChange, type HistoryHealth, type StoreOp } from './store-health.js';
import { WriteQueue } from './write-queue.js';
import { commitBatch, type Batch } from './batch-commit.js';

/** How long writes gather before a flush: one transaction per burst, not per change. */
export const FLUSH_MS = 200;
/** How soon a transition someone waits on (to publish it once saved) is committed: see daemon.publish_flush_s. */
export const PUBLISH_FLUSH_MS = 20;
/** Writes kept while the database refuses them (disk full, locked): bounds memory; beyond it the oldest go. */
export const MAX_QUEUED = 100_000;
/** Writes per transaction. Bounded so that a nearly full disk still takes a batch (progress resumes as soon as a
 * little space is free, instead of waiting for room for the whole backlog), and one commit holds the event loop
 * for milliseconds, not the seconds a 100,000-write backlog takes. */
export const MAX_BATCH = 500;
/** Batches one timer flush commits before it yields to the event loop (a backlog drains in slices). */
const BATCHES_PER_TURN = 4;
/** Longest pause between retries of a failing flush: a full disk is not hammered, a freed one is used soon. */
export const MAX_RETRY_MS = 2_000;
/** History kept by default, as the default config's daemon.retention_days. */
export const RETENTION_DAYS = 30;

/** Told once a transition's row is committed (true), or when it cannot be yet (false: history is degraded). */
export type OnSaved = (saved: boolean) => void;

export interface HistoryStoreOptions {
  flushMs?: number;
  publishFlushMs?: number;
  /** 0 keeps everything. */
  retentionDays?: number;
  now?: () => number;
  /** Write failures (the store keeps going); default: a process warning. */
  onError?: (err: Error) => void;
  /** History became degraded, or recovered by itself. */
  onHealth?: (c: HealthChange) => void;
  maxQueued?: number;
  maxBatch?: number;
}

export abstract class HistoryWrites {
  protected readonly queue: WriteQueue;
  protected readonly sql: Statements;
  /** Supervised tasks, in the same database (written synchronously: they are checkpoints). */
  readonly tasks: TaskStore;
  /** Urgent notifications not delivered yet (written synchronously: a restart must find them). */
  readonly notifyPending: NotifyPendingStore;
  private readonly flushMs: number;
  private readonly publishFlushMs: number;
  private readonly maxBatch: number;
  private readonly retentionDays: number;
  private readonly now: () => number;
  private readonly onError: (err: Error) => void;
  protected readonly health_: StoreHealth;
  /** Transitions whose committing someone waits on, by queue key. */
  protected readonly waiters = new Map<string, OnSaved>();
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private failures = 0;
  private rejectedCount = 0;
  private commitCount = 0;
  private droppedAfterClose = 0;
  /** Queue-full is reported once per stretch of failing flushes, not once per dropped write. */
  private dropReported = false;
  private droppedSeen = 0;
  /** A retention prune the database refused: tried again after the next flush that goes through. */
  private prunePending = false;
  protected closed = false;

  protected constructor(
    protected readonly db: Database.Database,
    opts: HistoryStoreOptions,
  ) {
    this.flushMs = opts.flushMs ?? FLUSH_MS;
    this.publishFlushMs = Math.min(opts.publishFlushMs ?? PUBLISH_FLUSH_MS, this.flushMs);
    this.maxBatch = Math.max(1, opts.maxBatch ?? MAX_BATCH);
    this.retentionDays = opts.retentionDays ?? RETENTION_DAYS;
    this.now = opts.now ?? Date.now;
    this.onError = opts.onError ?? ((err) => process.emitWarning(err));
    this.queue = new WriteQueue(opts.maxQueued ?? MAX_QUEUED, (key) => this.settle(key, false));
    this.health_ = new StoreHealth(this.now, opts.onHealth ?? (() => {}), () => ({ queued: this.queue.size, dropped: this.dropped }));
    this.sql = new Statements(db);
    this.tasks = new TaskStore(db, (write) => this.taskWrite(write));
    this.notifyPending = new NotifyPendingStore(db, (write) => this.syncWrite('notify', 'pending notification not kept', write));
  }

  // ── writes: queued, never throw ──

  upsertPane(p: PaneRecord): void {
    if (!this.accepting()) return;
    this.queue.pane(p);
    this.afterWrite();
  }

  /**
   * Queues a transition. `onSaved`, when given, is called once: true right after the transaction holding it
   * commits (within publishFlushMs), false at once while history is degraded or if it is dropped.
   */
  addTransition(t: TransitionRecord, onSaved?: OnSaved): void {
    this.addAwaited(() => this.queue.transition(t), onSaved);
  }

  /** Queues an action (keys typed, an ack); `onSaved` as for a transition: its row is committed, or cannot be. */
  addAction(a: ActionRecord, onSaved?: OnSaved): void {
    this.addAwaited(() => this.queue.action(a), onSaved);
  }

  /** Queues a row whose publisher waits for its commit (`queue` returns the row's key). */
  private addAwaited(queue: () => ReturnType<typeof this.queue.action>, onSaved?: OnSaved): void {
    if (!this.accepting()) return void onSaved?.(false);
    const key = queue();
    if (onSaved) {
      if (this.health_.failing('write')) onSaved(false);
      else {
        this.waiters.set(key, onSaved);
        this.scheduleBy(this.publishFlushMs);
      }
    }
    this.afterWrite();
  }

  saveTurn(t: TurnRecord): void {
    if (!this.accepting()) return;
    this.queue.turn(t);
    this.afterWrite();
  }

  addCounters(deltas: Counters): void {
    if (!this.accepting()) return;
    this.queue.counters(deltas);
    this.afterWrite();
  }

  /** Commits everything queued, now, in bounded batches. False when the database refused one (the rest is still
   * queued, and retried by itself). */
  flush(): boolean {
    return this.drain(Infinity);
  }

  /**
   * Deletes transitions and finished turns older than the retention, and panes closed before it. Never throws on
   * a storage failure: history is degraded and the prune is tried again once writes go through (null then).
   */
  prune(now: number = this.now()): Pruned | null {
    if (this.closed) throw new StoreError('the history store is closed');
    this.prunePending = false;
    this.flush();
    if (this.retentionDays <= 0) return { transitions: 0, actions: 0, turns: 0, panes: 0 };
    const cutoff = now - this.retentionDays * DAY_MS;
    try {
      const pruned = this.db.transaction(() => {
        this.tasks.pruneBefore(cutoff);
        return pruneBefore(this.db, cutoff);
      }).immediate();
      this.health_.succeeded('prune');
      return pruned;
    } catch (e) {
      if (!isStorageFault(e)) throw e;
      this.prunePending = true;
      this.fault('prune', e, `history retention prune failed (tried again once writes go through): ${causeOf(e)}`);
      this.scheduleBy(this.retryMs());
      return null;
    }
  }

  // ── health ──

  /** Whether history is being kept, and if not why, since when, and what waits in memory. */
  health(): HistoryHealth {
    return this.health_.snapshot();
  }

  /** Writes dropped: the oldest beyond the queue cap, and any made after close. */
  get dropped(): number {
    return this.queue.dropped + this.droppedAfterClose;
  }

  /** Writes the database rejected for their content (reported through onError). */
  get rejected(): number {
    return this.rejectedCount;
  }

  /** Writes waiting for the next flush. */
  get queued(): number {
    return this.queue.size;
  }

  /** Flush transactions committed. */
  get commits(): number {
    return this.commitCount;
  }

  private accepting(): boolean {
    if (!this.closed) return true;
    this.droppedAfterClose++;
    return false;
  }

  private afterWrite(): void {
    const dropped = this.queue.dropped;
    if (dropped > this.droppedSeen) {
      if (!this.dropReported) this.report(new StoreError(`history queue full: dropped ${dropped} oldest writes so far`));
      this.dropReported = true;
      this.droppedSeen = dropped;
    }
    if (!this.timer) this.schedule(this.health_.failing('write') ? this.retryMs() : this.flushMs);
  }

  /** Commits up to `batches` bounded batches, oldest writes first; true when the queue is empty afterwards. */
  private drain(batches: number): boolean {
    this.clearTimer();
    if (this.closed) return this.queue.size === 0;
    for (let n = 0; this.queue.size > 0; n++) {
      if (n >= batches) {
        this.schedule(0); // the rest in the next turn of the event loop: others get their turn meanwhile
        return false;
      }
      if (!this.commitBatch(this.queue.oldest(this.maxBatch))) return false;
    }
    this.failures = 0;
    this.dropReported = false;
    this.health_.succeeded('write');
    if (this.prunePending) this.prune();
    return true;
  }

  /** One batch in one transaction; false when the storage refused it (it stays queued). */
  private commitBatch(batch: Batch): boolean {
    const r = commitBatch(this.db, this.sql, batch);
    if (!r.ok) return this.failed(r.fault);
    this.committed(batch);
    this.rejectedCount += r.rejected.length;
    for (const [key, e] of r.rejected)
      this.report(new StoreError(`history write rejected (${key.split('\0')[0]}): ${(e as Error).message}`, { cause: e }));
    return true;
  }

  private committed(batch: Batch): void {
    this.commitCount++;
    for (const [key] of batch) this.queue.remove(key);
    for (const [key] of batch) this.settle(key, true);
  }

  protected settle(key: string, saved: boolean): void {
    const w = this.waiters.get(key);
    if (!w) return;
    this.waiters.delete(key);
    try {
      w(saved);
    } catch (e) {
      this.report(e as Error); // a listener's bug is not the store's failure
    }
  }

  private failed(e: unknown): false {
    this.failures++;
    this.fault('write', e, `history flush failed, ${this.queue.size} writes kept for retry: ${causeOf(e)}`);
    // Those waiting to publish are not held back by a disk that may stay full: they go out, marked unsaved.
    for (const key of [...this.waiters.keys()]) this.settle(key, false);
    this.schedule(this.retryMs());
    return false;
  }

  protected fault(op: StoreOp, e: unknown, message: string): void {
    this.health_.failed(op, e);
    this.report(new StoreError(message, { cause: e }));
  }

  private retryMs(): number {
    return Math.min(Math.max(this.flushMs, 1) * 2 ** Math.max(1, this.failures), MAX_RETRY_MS);
  }

  /** A task checkpoint the database refuses (a full disk) degrades history instead of throwing into the task loop:
   * the task carries on in memory and its next checkpoint, once one goes through, holds everything. */
  private taskWrite(write: () => void): void {
    this.syncWrite('task', 'task checkpoint failed', write);
  }

  /** A write made at once, not queued: a storage fault degrades history (reported), never throws. */
  private syncWrite(op: 'task' | 'notify', what: string, write: () => void): void {
    try {
      write();
      this.health_.succeeded(op);
    } catch (e) {
      if (!isStorageFault(e)) throw e;
      this.fault(op, e, `${what}: ${causeOf(e)}`);
    }
  }

  /** A flush within `ms` at the latest (sooner stays sooner). */
  private scheduleBy(ms: number): void {
    if (this.timer && this.timerDue <= performance.now() + ms) return;
    this.schedule(ms);
  }

  private schedule(ms: number): void {
    this.clearTimer();
    this.timerDue = performance.now() + ms; // the timer's clock, whatever clock stamps the records
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      this.drain(BATCHES_PER_TURN);
    }, ms);
    this.timer.unref();
  }

  protected clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
  }

  protected report(err: Error): void {
    try {
      this.onError(err);
    } catch {
      // a throwing error handler must not turn a logged failure into a crash on the hot path
    }
  }
}
