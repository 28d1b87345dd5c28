// One question, one notification: the question each pane was last notified for, kept in SQLite so neither an ack
// (WAITING → IDLE while the question stays on screen, then WAITING again) nor a daemon restart sends it twice.
// Forgotten when the pane moves on (answered: it runs, ends or fails) or the question changes.
// Its own small file beside the history (notify.sqlite): no migration of the history schema, and a damaged or
// unwritable file only costs the memory across restarts (the ledger keeps working in memory).
import Database from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Rows older than this are dropped at open: a question unanswered for a week is no longer on any screen. */
const KEEP_MS = 7 * 24 * 3600_000;

export class AskedLedger {
  private readonly mem = new Map<string, string>();
  private db: Database.Database | null = null;

  /** `path` null: memory only (tests, no history file). */
  constructor(path: string | null, private readonly onError: (e: unknown) => void = () => {}) {
    if (!path) return;
    try {
      const fresh = !existsSync(path);
      this.db = new Database(path);
      if (fresh) chmodSync(path, 0o600);
      this.db.pragma('journal_mode = WAL');
      this.db.exec('CREATE TABLE IF NOT EXISTS asked (pane_id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, at INTEGER NOT NULL)');
      this.db.prepare('DELETE FROM asked WHERE at < ?').run(Date.now() - KEEP_MS);
      for (const r of this.db.prepare('SELECT pane_id, fingerprint FROM asked').all() as Array<{ pane_id: string; fingerprint: string }>) this.mem.set(r.pane_id, r.fingerprint);
    } catch (e) {
      this.onError(e);
      this.db = null;
    }
  }

  /** Whether this pane was already notified for this very question. */
  has(paneId: string, fingerprint: string): boolean {
    return this.mem.get(paneId) === fingerprint;
  }

  set(paneId: string, fingerprint: string): void {
    this.mem.set(paneId, fingerprint);
    this.write(() => this.db!.prepare('INSERT OR REPLACE INTO asked (pane_id, fingerprint, at) VALUES (?, ?, ?)').run(paneId, fingerprint, Date.now()));
  }

  /** The pane moved on: the next question, even the same words, is a new one. */
  clear(paneId: string): void {
    if (!this.mem.delete(paneId)) return;
    this.write(() => this.db!.prepare('DELETE FROM asked WHERE pane_id = ?').run(paneId));
  }

  close(): void {
    try {
      this.db?.close();
    } catch {
      // closing at shutdown: nothing left to save
    }
    this.db = null;
  }

  private write(op: () => void): void {
    if (!this.db) return;
    try {
      op();
    } catch (e) {
      this.onError(e);
    }
  }
}

/** The ledger's file for a history database path (":memory:" and no path: memory only). */
export function askedLedgerPath(historyDb: string | undefined): string | null {
  return !historyDb || historyDb === ':memory:' ? null : join(dirname(historyDb), 'notify.sqlite');
}
