// The native helper that gives free malloc memory back (src/native/malloc-trim, built by scripts/build-native.mjs).
// V8 frees an ArrayBuffer's memory (xterm keeps every line's cells in one) through the C library's free(), and
// glibc keeps freed chunks resident unless they sit at the top of its heap: a minute after the hostile bench's
// storms the daemon held 88 MB of free malloc memory (RSS 230 MB; 142 MB once malloc_trim ran, measured with gdb).
// Without the helper (not built, not glibc) nothing is trimmed and the daemon works as before.
import { createRequire } from 'node:module';

export interface MallocTrim {
  /** Gives every free page of every arena back to the system; true when something was given back. */
  trim(): boolean;
  /** Bytes malloc holds free (mallinfo2's fordblks), or -1 where the C library does not say. */
  freeBytes(): number;
}

/** Where the helper is, from dist/daemon/ (the build's copy) or src/daemon/ (tests run from the sources). */
const CANDIDATES = ['../native/malloc_trim.node', '../../dist/native/malloc_trim.node', '../native/malloc-trim/build/Release/malloc_trim.node'];

let loaded: MallocTrim | null | undefined;

/** The helper, or null (with why, once) when it cannot be loaded. */
export function mallocTrim(onMissing?: (why: string) => void): MallocTrim | null {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  let why = 'not built (npm run build builds it)';
  for (const path of CANDIDATES) {
    try {
      const m = require(path) as Partial<MallocTrim>;
      if (typeof m.trim === 'function' && typeof m.freeBytes === 'function') return (loaded = m as MallocTrim);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'MODULE_NOT_FOUND') why = String((e as Error).message ?? e);
    }
  }
  onMissing?.(why);
  return (loaded = null);
}
