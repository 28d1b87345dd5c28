// A look at a history database without taking part in it (`termsupervisor doctor`): opened read-only, so it never
// migrates, never switches the journal mode and takes no write lock from a running daemon; its schema version read,
// and closed again.
import Database from 'better-sqlite3';
import { checkIntact, checkOurs, damaged, userVersion } from './open-db.js';
import { LATEST_VERSION } from './migrations.js';
import { causeOf, isDamaged, StoreError } from './store-error.js';

/** A running daemon's lock is held for one batched commit at most: waiting this long is plenty. */
const INSPECT_BUSY_TIMEOUT_MS = 1000;

export interface DbInspection {
  /** PRAGMA user_version: the last migration applied. */
  version: number;
  /** The newest schema this build knows (a lower version is migrated on the daemon's next start). */
  latest: number;
}

/** Throws StoreError when the file cannot be opened, is not ours, is damaged, or is from a newer build. */
export function inspectDb(path: string): DbInspection {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: INSPECT_BUSY_TIMEOUT_MS });
  } catch (e) {
    throw new StoreError(`cannot open the history database ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    checkOurs(db, path);
    checkIntact(db, path);
    return { version: userVersion(db), latest: LATEST_VERSION };
  } catch (e) {
    if (e instanceof StoreError) throw e;
    if (isDamaged(e)) throw damaged(path, causeOf(e), e);
    throw new StoreError(`cannot read the history database ${path}: ${(e as Error).message}`, { cause: e });
  } finally {
    db.close();
  }
}
