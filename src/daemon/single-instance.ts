// One daemon per history database and per runtime file. A second daemon on the same files would take over the
// runtime file (clients then lose the first, which keeps serving) and write the same database; so it refuses at
// start, naming the first's address. Locks, not the runtime file, decide: they die with their process.
import { dirname, join } from 'node:path';
import { LockError, tryLock, type InstanceLock } from './instance-lock.js';
import { readRuntimeFile } from './runtime-file.js';

/** A daemon already holds the database or the runtime file; the message names it and the way out. */
export class DaemonRunningError extends Error {
  override readonly name = 'DaemonRunningError';
}

export interface InstanceClaim {
  release(): void;
}

/** The lock beside a database: `history.sqlite` → `history.sqlite.lock` (`:memory:` has nothing to share). */
export function databaseLockPath(dbPath: string): string | null {
  return dbPath === ':memory:' ? null : `${dbPath}.lock`;
}

/** The lock beside the runtime file, which tells clients (`status`, `run`, `task`) where the daemon is. */
export function runtimeLockPath(runtimePath: string): string {
  return join(dirname(runtimePath), 'daemon.lock');
}

/** Takes both locks, or throws DaemonRunningError (releasing what it took). */
export function claimInstance(dbPath: string, runtimePath: string): InstanceClaim {
  const held: InstanceLock[] = [];
  const release = () => {
    for (const l of held.splice(0)) l.release();
  };
  const runtime = tryLock(runtimeLockPath(runtimePath));
  if (!runtime) throw new DaemonRunningError(refusal('runtime', dbPath, runtimePath));
  held.push(runtime);
  const dbLock = databaseLockPath(dbPath);
  let db: InstanceLock | null = null;
  try {
    db = dbLock === null ? null : tryLock(dbLock);
  } catch (e) {
    // A folder nobody can write in holds a database nobody can write either: the store says so, read-only.
    if (e instanceof LockError && e.unwritable) return { release };
    release();
    throw e;
  }
  if (dbLock !== null && !db) {
    release();
    throw new DaemonRunningError(refusal('database', dbPath, runtimePath));
  }
  if (db) held.push(db);
  return { release };
}

function refusal(what: 'runtime' | 'database', dbPath: string, runtimePath: string): string {
  const first = readRuntimeFile(runtimePath);
  const stop = 'stop it first (Ctrl-C where it runs, or `termsupervisor service uninstall` for the login service)';
  if (what === 'runtime') {
    if (!first) return `another termsupervisor daemon is starting with the runtime dir of ${runtimePath}: wait for it, or ${stop}`;
    return `a termsupervisor daemon already runs at ${first.url} (pid ${first.pid}, runtime file ${runtimePath}); use that one, or ${stop}`;
  }
  if (first && first.db === dbPath) return `a termsupervisor daemon already runs at ${first.url} (pid ${first.pid}) on ${dbPath}; use that one, or ${stop}`;
  return `another termsupervisor daemon (started with other XDG dirs) is using the history database ${dbPath}: one daemon per database; ${stop}, or pass another --db`;
}
