// The history store: panes, transitions, actions, turns and counters in SQLite, and supervised tasks beside them.
// Opening (creating or migrating) the database and reading it back are here; the queued, batched writes, retention
// and health are HistoryWrites' (history-writes.ts), which this extends. A read flushes first, and what the database
// did not take yet is shown from memory.
import type Database from 'better-sqlite3';
import { openDb } from './open-db.js';
import type { ActionRecord, Counters, PaneRecord, TransitionRecord, TurnRecord } from './records.js';
import { causeOf, isStorageFault, StoreError } from './store-error.js';
import { HistoryWrites, type HistoryStoreOptions } from './history-writes.js';

export { FLUSH_MS, MAX_BATCH, MAX_QUEUED, MAX_RETRY_MS, PUBLISH_FLUSH_MS, RETENTION_DAYS } from './history-writes.js';
export type { HistoryStoreOptions, OnSaved } from './history-writes.js';

/** Rows a history read returns unless asked for more: a pane's recent past, not its whole life. */
export const DEFAULT_LIMIT = 100;

export class HistoryStore extends HistoryWrites {
  private constructor(
    db: Database.Database,
    readonly schemaVersion: number,
    opts: HistoryStoreOptions,
  ) {
    super(db, opts);
  }

  /** Opens (creating or migrating) the database at `path`; throws StoreError when it cannot be used. */
  static open(path: string, opts: HistoryStoreOptions = {}): HistoryStore {
    const { db, version } = openDb(path, opts.now);
    return new HistoryStore(db, version, opts);
  }

  // ── reads: flush first, so they see queued writes; what the database did not take yet is shown from memory ──

  panes(): PaneRecord[] {
    this.beforeRead();
    const rows = this.read(() => this.sql.panes());
    if (this.queue.size === 0) return rows;
    const byId = new Map(rows.map((p) => [p.id, p]));
    for (const w of this.queue.ofKind('pane')) byId.set(w.rec.id, { ...w.rec });
    return [...byId.values()];
  }

  pane(id: string): PaneRecord | undefined {
    this.beforeRead();
    for (const w of this.queue.ofKind('pane')) if (w.rec.id === id) return { ...w.rec };
    return this.read(() => this.sql.pane(id));
  }

  /** Newest first. */
  transitions(paneId: string, limit = DEFAULT_LIMIT): TransitionRecord[] {
    this.beforeRead();
    const rows = this.read(() => this.sql.transitions(paneId, limit));
    if (this.queue.size === 0) return rows;
    const unsaved: TransitionRecord[] = [];
    for (const w of this.queue.ofKind('transition')) if (w.rec.paneId === paneId) unsaved.unshift({ ...w.rec });
    return [...unsaved, ...rows].slice(0, limit);
  }

  /** Newest first. */
  actions(paneId: string, limit = DEFAULT_LIMIT): ActionRecord[] {
    this.beforeRead();
    const rows = this.read(() => this.sql.actions(paneId, limit));
    if (this.queue.size === 0) return rows;
    const unsaved: ActionRecord[] = [];
    for (const w of this.queue.ofKind('action')) if (w.rec.paneId === paneId) unsaved.unshift({ ...w.rec });
    return [...unsaved, ...rows].slice(0, limit);
  }

  /** Newest first. */
  turns(paneId: string, limit = DEFAULT_LIMIT): TurnRecord[] {
    this.beforeRead();
    const rows = this.read(() => this.sql.turns(paneId, limit));
    if (this.queue.size === 0) return rows;
    const byStart = new Map(rows.map((t) => [t.start, t]));
    for (const w of this.queue.ofKind('turn')) if (w.rec.paneId === paneId) byStart.set(w.rec.start, { ...w.rec });
    return [...byStart.values()].sort((a, b) => b.start - a.start).slice(0, limit);
  }

  counters(): Counters {
    this.beforeRead();
    const c = this.read(() => this.sql.counters());
    for (const w of this.queue.ofKind('counter')) c[w.key] = (c[w.key] ?? 0) + w.delta;
    return c;
  }

  /** Flushes, then closes. Writes after this are dropped (counted). */
  close(): void {
    if (this.closed) return;
    if (!this.flush()) this.report(new StoreError(`history store closed with ${this.queue.size} writes not saved`));
    for (const key of [...this.waiters.keys()]) this.settle(key, false);
    this.clearTimer();
    this.closed = true;
    this.db.close();
  }

  private beforeRead(): void {
    if (this.closed) throw new StoreError('the history store is closed');
    this.flush();
  }

  /** A read the database fails (a damaged page) is a StoreError naming the cause, and history is degraded. */
  private read<T>(fn: () => T): T {
    try {
      const r = fn();
      this.health_.succeeded('read');
      return r;
    } catch (e) {
      if (!isStorageFault(e)) throw e;
      this.fault('read', e, `history read failed: ${causeOf(e)}`);
      throw new StoreError(`history unavailable: ${causeOf(e)}`, { cause: e });
    }
  }
}
