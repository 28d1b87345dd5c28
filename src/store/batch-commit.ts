// One bounded batch of queued history writes in one transaction. A storage fault (a full disk, a held lock, a
// damaged page) refuses the whole batch, which stays queued for a retry; a write that is wrong in itself (a
// constraint, a value SQLite cannot bind) is found and left out alone, so one bad record never holds back the rest.
import type Database from 'better-sqlite3';
import type { Statements } from './statements.js';
import { isStorageFault } from './store-error.js';
import type { QueuedWrite } from './write-queue.js';

export type Batch = [key: string, write: QueuedWrite][];

/** Committed (with the writes left out and why), or refused by the storage (nothing of it committed). */
export type BatchOutcome = { ok: true; rejected: [key: string, error: unknown][] } | { ok: false; fault: unknown };

export function commitBatch(db: Database.Database, sql: Statements, batch: Batch): BatchOutcome {
  try {
    db.transaction(() => {
      for (const [, w] of batch) sql.write(w);
    })();
    return { ok: true, rejected: [] };
  } catch (e) {
    if (isStorageFault(e)) return { ok: false, fault: e };
    try {
      return { ok: true, rejected: commitEach(db, sql, batch) };
    } catch (e2) {
      return { ok: false, fault: e2 };
    }
  }
}

/** One transaction still, each write in its own savepoint; returns the writes the database rejected. */
function commitEach(db: Database.Database, sql: Statements, batch: Batch): [string, unknown][] {
  const rejected: [string, unknown][] = [];
  const one = db.transaction((w: QueuedWrite) => sql.write(w));
  db.transaction(() => {
    for (const [key, w] of batch) {
      try {
        one(w); // nested: a savepoint
      } catch (e) {
        if (isStorageFault(e)) throw e;
        rejected.push([key, e]);
      }
    }
  })();
  return rejected;
}
