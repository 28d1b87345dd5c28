// How to name this command in a hint the person will type: `termsupervisor` when that is what their PATH finds,
// else the path to our bin/termsupervisor (in a checkout `make run` starts it from bin/, which is not on PATH).
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExecutable } from './which.js';

/** The package root: this file is dist/cli/command-name.js (or src/cli/command-name.ts under vitest). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export function commandName(opts: { root?: string; path?: string; cwd?: string } = {}): string {
  const bin = join(opts.root ?? ROOT, 'bin', 'termsupervisor');
  const found = findExecutable('termsupervisor', opts.path ?? process.env['PATH'] ?? '');
  if (found && real(found) === real(bin)) return 'termsupervisor';
  const rel = relative(opts.cwd ?? process.cwd(), bin);
  // Under the current folder: `bin/termsupervisor` reads best; elsewhere the absolute path is the one that works.
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.includes(sep) ? rel : `.${sep}${rel}`;
  return bin;
}
