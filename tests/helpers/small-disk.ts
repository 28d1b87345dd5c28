// A disk that fills up, for the history store's full-disk tests. A real small tmpfs when this machine lets us mount
// one (root, `mount -t tmpfs`); otherwise SQLite's own limit on the file's pages (PRAGMA max_page_count), which
// fails writes with the same SQLITE_FULL, injected at the storage layer. Chosen at run time; `kind` says which
// (TS_SMALL_DISK=pages forces the fallback).
import type Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Room for the database, its WAL (checkpointed at 1000 pages, 4 MiB) and some history; small, so filling it takes a moment. */
const TMPFS_SIZE = '16m';
const CHUNK = Buffer.alloc(16 << 10, 1);

export interface SmallDisk {
  kind: 'tmpfs' | 'max_page_count';
  /** A folder on it. */
  dir: string;
  /** Takes all the space left: the database on `conn` (the store's own connection) can grow no more. */
  fill(conn: Database.Database): void;
  /** Gives the space back. */
  free(conn: Database.Database): void;
  /** After fill: gives back only `bytes` of space. */
  room(conn: Database.Database, bytes: number): void;
  /** Makes the file system read-only (tmpfs only; false when it cannot). */
  readOnly(): boolean;
  cleanup(): void;
}

export function smallDisk(): SmallDisk {
  const base = mkdtempSync(join(tmpdir(), 'ts-disk-'));
  const dir = join(base, 'mnt');
  mkdirSync(dir);
  try {
    if (process.env['TS_SMALL_DISK'] === 'pages') throw new Error('asked for the page-limit fallback');
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return pageLimit(base, dir);
  }
  const filler = join(dir, 'filler');
  return {
    kind: 'tmpfs',
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        for (;;) writeSync(fd, CHUNK);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      unlinkSync(filler);
    },
    room(_conn, bytes) {
      truncateSync(filler, Math.max(0, statSync(filler).size - bytes));
    },
    readOnly() {
      try {
        execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    },
    cleanup() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** No mount here: the database's own page limit stands in for the disk's size, on the store's connection. */
function pageLimit(base: string, dir: string): SmallDisk {
  return {
    kind: 'max_page_count',
    dir,
    fill: (conn) => void conn.pragma(`max_page_count = ${conn.pragma('page_count', { simple: true }) as number}`),
    free: (conn) => void conn.pragma('max_page_count = 1073741823'),
    room: (conn, bytes) => {
      const pages = Math.ceil(bytes / (conn.pragma('page_size', { simple: true }) as number));
      conn.pragma(`max_page_count = ${(conn.pragma('page_count', { simple: true }) as number) + pages}`);
    },
    readOnly: () => false,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
