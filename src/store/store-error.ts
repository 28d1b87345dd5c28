// The one error the store throws at its callers (open, reads on a closed store), with a message a person can act on.
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** SQLite result codes that name a passing condition (another writer, a full or failing disk, a file made
 * read-only): writing the same rows later may succeed. */
const TRANSIENT = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|PROTOCOL|NOMEM)/;
/** Codes that say the file itself is damaged: no retry mends it, but the rows are not at fault either. */
const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** True when writing the same rows again later may succeed; false for errors the rows themselves cause. */
export function isTransient(err: unknown): boolean {
  return TRANSIENT.test(codeOf(err));
}

/** True when the database file is damaged (a corrupt page, a header that is not SQLite's). */
export function isDamaged(err: unknown): boolean {
  return DAMAGED.test(codeOf(err));
}

/** Another connection holds the lock the operation needs (with a zero timeout: held right now). */
export function isBusy(err: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(codeOf(err));
}

/** The storage failed, not the rows: keep them queued, report history degraded. */
export function isStorageFault(err: unknown): boolean {
  return isTransient(err) || isDamaged(err);
}

/** A short cause for health reports: the SQLite code and its message ("SQLITE_FULL: database or disk is full"). */
export function causeOf(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  const msg = typeof e?.message === 'string' ? e.message : String(err);
  const code = codeOf(err);
  return code && !msg.startsWith(code) ? `${code}: ${msg}` : msg;
}

/** The way out for a damaged file, said the same way by the daemon's refusal and by `doctor`. */
export function damagedAdvice(path: string): string {
  return `move it aside (mv '${path}' '${path}.damaged') and start the daemon again: it creates a new, empty history ` +
    '(the old file can still be examined or salvaged with sqlite3 .recover)';
}
