// Urgent notifications not delivered yet (a question held for quiet hours, a failure a down webhook still owes),
// in the history database: a daemon killed or restarted delivers them when it comes back, if they are still news
// (the Notifier decides that; this only keeps them). Written synchronously like task checkpoints: a notice is a
// few rows a day, and it must be on disk before the daemon can be killed with it in memory.
import type Database from 'better-sqlite3';
import type { PendingNotice, PendingStore } from '../notify/types.js';

/** Notices kept at most: a person has a few dozen panes, not hundreds asking at once; a flapping pane or a webhook
 * down for days must not grow the table without bound (the oldest go first). */
export const MAX_PENDING_NOTICES = 200;
/** A notice older than this is dropped rather than delivered: after a day the question is no longer what the
 * person needs to hear about first (the board still shows whatever the pane asks now). */
export const MAX_PENDING_AGE_MS = 24 * 3600_000;

/** Runs one write; a storage fault is reported by the history store, never thrown. */
export type PendingWriteGuard = (write: () => void) => void;

export class NotifyPendingStore implements PendingStore {
  private readonly put;
  private readonly del;
  private readonly all;
  private readonly trimOld;
  private readonly trimOver;

  constructor(
    db: Database.Database,
    private readonly guard: PendingWriteGuard = (write) => write(),
  ) {
    this.put = db.prepare(
      `INSERT INTO notify_pending (id, pane_id, created_at, data) VALUES (@id, @pane, @createdAt, @data)
       ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
    );
    this.del = db.prepare('DELETE FROM notify_pending WHERE id = ?');
    this.all = db.prepare('SELECT data FROM notify_pending ORDER BY created_at, id').pluck();
    this.trimOld = db.prepare('DELETE FROM notify_pending WHERE created_at < ?');
    this.trimOver = db.prepare(
      'DELETE FROM notify_pending WHERE id IN (SELECT id FROM notify_pending ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?)',
    );
  }

  save(p: PendingNotice): void {
    this.guard(() => {
      this.put.run({ id: p.id, pane: p.ev.paneId, createdAt: p.createdAt, data: JSON.stringify(p) });
      this.trimOver.run(MAX_PENDING_NOTICES);
    });
  }

  remove(id: string): void {
    this.guard(() => this.del.run(id));
  }

  /** What a previous daemon left pending, oldest first, after dropping those past the age. Never throws: an
   * unreadable table costs the notices, not the start. */
  load(now: number): PendingNotice[] {
    let rows: string[] = [];
    this.guard(() => {
      this.trimOld.run(now - MAX_PENDING_AGE_MS);
      rows = this.all.all() as string[];
    });
    const out: PendingNotice[] = [];
    for (const r of rows) {
      try {
        out.push(JSON.parse(r) as PendingNotice);
      } catch {
        // a row this build cannot read is skipped: a lost notice, never a daemon that cannot start
      }
    }
    return out;
  }
}
