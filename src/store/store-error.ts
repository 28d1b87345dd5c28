// The one error the store throws at its callers (open, reads on a closed store), with a message a person can act on.
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** SQLite result codes that name a passing condition (another writer, a full or failing disk): retry later. */
const TRANSIENT = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|PROTOCOL|NOMEM)/;

/** True when writing the same rows again later may succeed; false for errors the rows themselves cause. */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT.test(code);
}
