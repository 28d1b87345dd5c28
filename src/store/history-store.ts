// The history store: panes, transitions, turns and counters in SQLite. Writes go to an in-memory queue and are
// committed together, one transaction per flush, from an unref'd timer: callers on the hot path never wait on
// the disk and never see its errors (they go to onError, and the writes stay queued for the next try).
import type Database from 'better-sqlite3';
import { openDb } from './open-db.js';
import { DAY_MS, pruneBefore, type Pruned } from './prune.js';
import type { Counters, PaneRecord, TransitionRecord, TurnRecord } from './records.js';
import { Statements } from './statements.js';
import { TaskStore } from './task-store.js';
import { isTransient, StoreError } from './store-error.js';
import { WriteQueue, type QueuedWrite } from './write-queue.js';

/** How long writes gather before a flush: one transaction (one fsync at checkpoint) per burst, not per change. */
export const FLUSH_MS = 200;
/** Writes kept while the database refuses them (disk full, locked): bounds memory; beyond it the oldest go. */
export const MAX_QUEUED = 100_000;
/** Longest pause between retries of a failing flush: a full disk is not hammered, a freed one is used soon. */
export const MAX_RETRY_MS = 5_000;
/** History kept by default, as the default config's daemon.retention_days. */
export const RETENTION_DAYS = 30;
/** Rows a history read returns unless asked for more: a pane's recent past, not its whole life. */
export const DEFAULT_LIMIT = 100;

export interface HistoryStoreOptions {
  flushMs?: number;
  /** 0 keeps everything. */
  retentionDays?: number;
  now?: () => number;
  /** Write failures (the store keeps going); default: a process warning. */
  onError?: (err: Error) => void;
  maxQueued?: number;
}

export class HistoryStore {
  private readonly queue: WriteQueue;
  private readonly sql: Statements;
  /** Supervised tasks, in the same database (written synchronously: they are checkpoints). */
  readonly tasks: TaskStore;
  private readonly flushMs: number;
  private readonly retentionDays: number;
  private readonly now: () => number;
  private readonly onError: (err: Error) => void;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private rejectedCount = 0;
  private commitCount = 0;
  private droppedAfterClose = 0;
  /** Queue-full is reported once per stretch of failing flushes, not once per dropped write. */
  private dropReported = false;
  private droppedSeen = 0;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    readonly schemaVersion: number,
    opts: HistoryStoreOptions,
  ) {
    this.flushMs = opts.flushMs ?? FLUSH_MS;
    this.retentionDays = opts.retentionDays ?? RETENTION_DAYS;
    this.now = opts.now ?? Date.now;
    this.onError = opts.onError ?? ((err) => process.emitWarning(err));
    this.queue = new WriteQueue(opts.maxQueued ?? MAX_QUEUED);
    this.sql = new Statements(db);
    this.tasks = new TaskStore(db);
  }

  /** Opens (creating or migrating) the database at `path`; throws StoreError when it cannot be used. */
  static open(path: string, opts: HistoryStoreOptions = {}): HistoryStore {
    const { db, version } = openDb(path, opts.now);
    return new HistoryStore(db, version, opts);
  }

  // ── writes: queued, never throw ──

  upsertPane(p: PaneRecord): void {
    if (!this.accepting()) return;
    this.queue.pane(p);
    this.afterWrite();
  }

  addTransition(t: TransitionRecord): void {
    if (!this.accepting()) return;
    this.queue.transition(t);
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

  /** Commits everything queued, now, in one transaction. False when the database refused it (still queued). */
  flush(): boolean {
    this.clearTimer();
    if (this.closed || this.queue.size === 0) return this.queue.size === 0;
    const entries = this.queue.entries();
    try {
      this.commit(entries);
      this.queue.clear();
    } catch (e) {
      if (isTransient(e)) return this.failed(e);
      // Something in the batch itself is wrong (a constraint, a value SQLite cannot bind): find it and drop it
      // alone, so one bad record does not hold back everything after it.
      try {
        this.commitEach(entries);
      } catch (e2) {
        return this.failed(e2);
      }
    }
    this.failures = 0;
    this.dropReported = false;
    return true;
  }

  // ── reads: flush first, so they see queued writes ──

  panes(): PaneRecord[] {
    this.beforeRead();
    return this.sql.panes();
  }

  pane(id: string): PaneRecord | undefined {
    this.beforeRead();
    return this.sql.pane(id);
  }

  /** Newest first. */
  transitions(paneId: string, limit = DEFAULT_LIMIT): TransitionRecord[] {
    this.beforeRead();
    return this.sql.transitions(paneId, limit);
  }

  /** Newest first. */
  turns(paneId: string, limit = DEFAULT_LIMIT): TurnRecord[] {
    this.beforeRead();
    return this.sql.turns(paneId, limit);
  }

  counters(): Counters {
    this.beforeRead();
    return this.sql.counters();
  }

  /** Deletes transitions and finished turns older than the retention, and panes closed before it. */
  prune(now: number = this.now()): Pruned {
    this.beforeRead();
    if (this.retentionDays <= 0) return { transitions: 0, turns: 0, panes: 0 };
    this.tasks.pruneBefore(now - this.retentionDays * DAY_MS);
    return pruneBefore(this.db, now - this.retentionDays * DAY_MS);
  }

  /** Flushes, then closes. Writes after this are dropped (counted). */
  close(): void {
    if (this.closed) return;
    if (!this.flush()) this.report(new StoreError(`history store closed with ${this.queue.size} writes not saved`));
    this.clearTimer();
    this.closed = true;
    this.db.close();
  }

  // ── health ──

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
    if (!this.timer) this.schedule(this.flushMs);
  }

  private commit(entries: [string, QueuedWrite][]): void {
    this.db.transaction(() => {
      for (const [, w] of entries) this.sql.write(w);
    })();
    this.commitCount++;
  }

  /** One transaction still, each write in its own savepoint; rejected writes are reported and dropped. */
  private commitEach(entries: [string, QueuedWrite][]): void {
    const rejected: [string, unknown][] = [];
    const one = this.db.transaction((w: QueuedWrite) => this.sql.write(w));
    this.db.transaction(() => {
      for (const [key, w] of entries) {
        try {
          one(w); // nested: a savepoint
        } catch (e) {
          if (isTransient(e)) throw e;
          rejected.push([key, e]);
        }
      }
    })();
    this.commitCount++;
    this.queue.clear();
    this.rejectedCount += rejected.length;
    for (const [key, e] of rejected)
      this.report(new StoreError(`history write rejected (${key.split('\0')[0]}): ${(e as Error).message}`, { cause: e }));
  }

  private failed(e: unknown): false {
    this.failures++;
    this.report(new StoreError(`history flush failed, ${this.queue.size} writes kept for retry: ${(e as Error).message}`, { cause: e }));
    this.schedule(Math.min(Math.max(this.flushMs, 1) * 2 ** this.failures, MAX_RETRY_MS));
    return false;
  }

  private beforeRead(): void {
    if (this.closed) throw new StoreError('the history store is closed');
    this.flush();
  }

  private schedule(ms: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, ms);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private report(err: Error): void {
    try {
      this.onError(err);
    } catch {
      // a throwing error handler must not turn a logged failure into a crash on the hot path
    }
  }
}
