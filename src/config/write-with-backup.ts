// Replacing a file of the person's (an agent's settings, a shell rc file) safely: a timestamped backup of the
// previous version first, then an atomic replace that keeps the file's mode and writes through a symlink.
import { chmodSync, constants, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A file we create holds the person's configuration: owner-only unless told otherwise. */
const NEW_FILE_MODE = 0o600;

/** The file's text, or null when there is none yet (any other failure is thrown). */
export function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Writes `text` to `file`; when `before` is not null and the file exists, backs it up first. Returns the backup. */
export function writeWithBackup(file: string, before: string | null, text: string, now: Date = new Date(), newMode = NEW_FILE_MODE): { backup: string | null } {
  const target = existsSync(file) && lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  mkdirSync(dirname(target), { recursive: true });
  let backup: string | null = null;
  let mode = newMode;
  if (before !== null && existsSync(target)) {
    mode = statSync(target).mode & 0o777;
    backup = backupName(file, now);
    copyFileSync(target, backup, constants.COPYFILE_EXCL);
  }
  const tmp = `${target}.termsupervisor-tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text, { mode });
    chmodSync(tmp, mode); // the umask may have narrowed it
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return { backup };
}

/** `settings.json.termsupervisor-backup-20260102T030405`, with -2, -3… when that exists already. */
function backupName(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '');
  for (let n = 1; ; n++) {
    const name = `${file}.termsupervisor-backup-${stamp}${n > 1 ? `-${n}` : ''}`;
    if (!existsSync(name)) return name;
  }
}
