// One daemon per database and per runtime file: an exclusive OS lock on a small file next to each, held for the
// daemon's life. The lock is SQLite's (POSIX fcntl locks on Unix, LockFileEx on Windows), taken through
// better-sqlite3 which the daemon ships anyway: the kernel drops it when the process dies, even by kill -9, so a
// stale runtime file or lock file of a dead daemon never blocks a new one, and two daemons starting at once cannot
// both win (the lock is taken atomically, unlike "check the runtime file, then write it").
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { isBusy, isDamaged } from '../store/store-error.js';

/** The lock file cannot be made or opened (a read-only dir, a damaged file): a clear message, not a stack. */
export class LockError extends Error {
  override readonly name = 'LockError';
  /** The place is not writable (a read-only mount, no permission): nothing there can be written by anyone. */
  get unwritable(): boolean {
    const code = (this.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' && UNWRITABLE.has(code);
  }
}

const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'SQLITE_READONLY', 'SQLITE_CANTOPEN']);

export interface InstanceLock {
  readonly path: string;
  release(): void;
}

/**
 * The lock on `path` (created 0600 when missing), or null when another process — or another daemon in this
 * process — holds it. Never waits: a second daemon refuses at once.
 */
export function tryLock(path: string): InstanceLock | null {
  try {
    return lockOnce(path);
  } catch (e) {
    // Not a database (a stray file of that name): nobody can hold a lock through it, so it is made anew.
    if (!isDamaged(e)) throw new LockError(`cannot take the lock ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    rmSync(path, { force: true });
    return lockOnce(path);
  } catch (e) {
    throw new LockError(`cannot take the lock ${path}: ${(e as Error).message}`, { cause: e });
  }
}

function lockOnce(path: string): InstanceLock | null {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  // timeout 0: a lock held elsewhere is an answer, not something to wait for.
  const db = new Database(path, { timeout: 0 });
  try {
    // EXCLUSIVE locking mode keeps the write lock after the transaction ends, until the connection closes.
    db.pragma('locking_mode = EXCLUSIVE');
    // No -journal file beside it: the one row is rewritten whole, and a damaged file is made anew (tryLock).
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since INTEGER NOT NULL)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, Date.now());
    db.exec('COMMIT');
  } catch (e) {
    db.close();
    if (isBusy(e)) return null;
    throw e;
  }
  let held = true;
  return {
    path,
    release() {
      if (held) db.close();
      held = false;
    },
  };
}
