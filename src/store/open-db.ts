// Opens the history database: checks it is ours and not from a newer build before changing anything, then sets
// the connection up and applies pending migrations.
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { APPLICATION_ID, LATEST_VERSION, MIGRATIONS } from './migrations.js';
import { causeOf, damagedAdvice, isDamaged, StoreError } from './store-error.js';

/** Waiting on another process's lock while opening and migrating: startup, so a long wait is fine. */
export const OPEN_BUSY_TIMEOUT_MS = 5_000;
/** Waiting on a lock during a flush blocks the event loop; a longer wait gives up and retries at the next flush. */
export const WRITE_BUSY_TIMEOUT_MS = 250;

export interface OpenedDb {
  db: Database.Database;
  /** The schema version after migrations. */
  version: number;
  /** Migration versions applied by this open (empty when the database was current). */
  applied: number[];
}

export function openDb(path: string, now: () => number = Date.now): OpenedDb {
  const memory = path === ':memory:';
  if (!memory) {
    createPrivately(path);
    refuseReadOnly(path);
  }
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (e) {
    throw new StoreError(`cannot open the history database ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    checkOurs(db, path);
    checkIntact(db, path);
    // Only now change anything: WAL rewrites the file header.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const applied = migrate(db, path);
    db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('created_at', String(now()));
    db.pragma(`busy_timeout = ${WRITE_BUSY_TIMEOUT_MS}`);
    return { db, version: userVersion(db), applied };
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    if (isDamaged(e)) throw damaged(path, causeOf(e), e);
    if (/^SQLITE_READONLY/.test((e as { code?: string }).code ?? '')) throw readOnly(path, causeOf(e), e);
    throw new StoreError(`cannot use the history database ${path}: ${describe(e)}`, { cause: e });
  }
}

/** The folder 0700 and the file 0600 when we create them (commands and prompts are private); SQLite's -wal and
 * -shm files copy the database file's mode. Existing ones are left as the person set them. */
function createPrivately(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  } catch (e) {
    throw new StoreError(`cannot create the history database ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** A file (or its folder, where SQLite keeps the -wal and -shm files) we may not write is said to be read-only,
 * before SQLite opens it read-only by itself and fails later with a less telling error. */
function refuseReadOnly(path: string): void {
  for (const [what, p] of [['', path], [' folder', dirname(path)]] as const) {
    try {
      accessSync(p, constants.W_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'EACCES';
      throw readOnly(path, `${what ? `its folder ${p}` : 'the file'} is not writable (${code === 'EROFS' ? 'a read-only file system' : code})`, e);
    }
  }
}

function readOnly(path: string, why: string, cause: unknown): StoreError {
  return new StoreError(
    `the history database ${path} is read-only: ${why}. termsupervisor keeps history in it and must write it: ` +
      'give it back to your user (chown, chmod u+w), or start the daemon with --db elsewhere',
    { cause },
  );
}

/** The refusal of a damaged file: one paragraph naming the file and the way out, never a stack trace. */
export function damaged(path: string, cause: string, err?: unknown): StoreError {
  return new StoreError(
    `the history database ${path} is damaged (${cause}); termsupervisor will not write into a damaged file. ` +
      `To go on, ${damagedAdvice(path)}.`,
    { cause: err },
  );
}

/** Reads every page's structure (PRAGMA quick_check): a damaged page is found at start, not by a later write or
 * the retention prune. Linear in the file's size; a month of history is read in well under a second. */
export function checkIntact(db: Database.Database, path: string): void {
  let result: unknown;
  try {
    result = db.pragma('quick_check(1)', { simple: true });
  } catch (e) {
    if (isDamaged(e)) throw damaged(path, causeOf(e), e);
    throw e;
  }
  if (result !== 'ok') throw damaged(path, `quick_check: ${String(result)}`);
}

export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Refuses a file that is not ours, or is from a newer build (reads only: works on a read-only connection too). */
export function checkOurs(db: Database.Database, path: string): void {
  let version: number;
  let appId: number;
  try {
    version = userVersion(db);
    appId = db.pragma('application_id', { simple: true }) as number;
  } catch (e) {
    if (isDamaged(e)) {
      throw new StoreError(
        `${path} is not a SQLite database, or its first page is damaged (${describe(e)}). If it is your history, ` +
          `${damagedAdvice(path)}; otherwise point --db elsewhere.`,
        { cause: e },
      );
    }
    throw new StoreError(`cannot read the history database ${path} (${describe(e)}); point --db elsewhere`, { cause: e });
  }
  if (appId !== 0 && appId !== APPLICATION_ID)
    throw new StoreError(`${path} is another program's SQLite database (application_id ${appId}); point --db elsewhere`);
  if (version > LATEST_VERSION)
    throw new StoreError(
      `${path} was written by a newer termsupervisor (schema ${version}, this build knows up to ${LATEST_VERSION}); ` +
        'upgrade termsupervisor or point --db elsewhere',
    );
  if (version === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
    if (tables.n > 0) throw new StoreError(`${path} is a SQLite database with other tables in it; point --db elsewhere`);
  }
}

function migrate(db: Database.Database, path: string): number[] {
  const applied: number[] = [];
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (userVersion(db) >= m.version) continue;
    // IMMEDIATE and a second look: another process opening the same file at once must not apply it twice.
    db.transaction(() => {
      if (userVersion(db) >= m.version) return;
      try {
        db.exec(m.sql);
      } catch (e) {
        throw new StoreError(`${path}: migration ${m.version} (${m.name}) failed: ${describe(e)}`, { cause: e });
      }
      db.pragma(`user_version = ${m.version}`);
      applied.push(m.version);
    }).immediate();
  }
  return applied;
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string };
  return err.code ? `${err.code}: ${err.message}` : String(err.message ?? e);
}
