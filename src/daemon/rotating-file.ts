// The daemon log's file: a pino destination that appends whole lines synchronously and rotates by size
// (daemon.log → daemon.log.1 → … → daemon.log.<keep>, the oldest deleted). Synchronous writes lose nothing on a
// normal exit or a crash, and the daemon logs state changes, not output, so the cost is a few writes a second.
// A write that fails (disk full, folder removed) is counted and dropped: logging must never take the daemon down.
// pino-roll (pino's rotating transport, 4.0) was tried and kept out: its live file is `daemon.<N>.log` with N growing
// for ever (only an optional symlink stays put), where `logs`, `make loghook` and a person's `tail -F` follow
// daemon.log; its mkdir takes no mode (the folder must be 0700); and on a full disk sonic-boom keeps every refused
// line in memory to retry (35 'error' events for 100 lines on a 64 KB tmpfs), with no count of what it dropped.
import { closeSync, fchmodSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** The log names panes, programs and (at debug) screen text: owner-only, like a shell history. */
const LOG_FILE_MODE = 0o600;
const LOG_DIR_MODE = 0o700;

export interface RotatingFileOptions {
  /** Rotate before a write would take the file past this many bytes (a single longer line still goes in whole). */
  maxBytes: number;
  /** Old files kept (file.1 … file.<keep>); 0 keeps none: the file simply starts over. */
  keep: number;
}

export class RotatingFile {
  private fd: number | null = null;
  private size = 0;
  /** Writes that failed and were dropped. */
  dropped = 0;
  lastError: Error | null = null;

  constructor(
    readonly path: string,
    private readonly opts: RotatingFileOptions,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: LOG_DIR_MODE });
    this.open();
  }

  /** pino calls this with one serialized line (ending in "\n"). */
  write(chunk: string): boolean {
    if (this.fd === null) return false;
    const bytes = Buffer.byteLength(chunk);
    try {
      if (this.size > 0 && this.size + bytes > this.opts.maxBytes) this.rotate();
      if (this.fd === null) throw new Error('log file could not be reopened');
      writeSync(this.fd, chunk);
      this.size += bytes;
      return true;
    } catch (e) {
      this.dropped++;
      this.lastError = e as Error;
      return false;
    }
  }

  /** Writes are synchronous: nothing is ever waiting. Here for pino and callers that expect a flush. */
  flushSync(): void {}

  /** Close the file; later writes are ignored. Safe to call twice. */
  end(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  get bytesInFile(): number {
    return this.size;
  }

  private open(): void {
    const fd = openSync(this.path, 'a', LOG_FILE_MODE);
    // The mode given to open applies only to a new file: an existing log made by an older version is tightened too.
    fchmodSync(fd, LOG_FILE_MODE);
    this.size = fstatSync(fd).size;
    this.fd = fd;
  }

  private rotate(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    const { keep } = this.opts;
    if (keep <= 0) {
      rmSync(this.path, { force: true });
    } else {
      rmSync(`${this.path}.${keep}`, { force: true });
      for (let i = keep - 1; i >= 1; i--) renameIfThere(`${this.path}.${i}`, `${this.path}.${i + 1}`);
      renameIfThere(this.path, `${this.path}.1`);
    }
    this.open();
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
