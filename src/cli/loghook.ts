// `make loghook`: follows the JSONL event log `termsupervisor run` writes, one readable line per event.
// usage: node dist/cli/loghook.js [PATH] [--once]   (PATH defaults to the XDG event log; --once: print and exit)
// Prints what is already there, then polls for appends. Waits for a log that does not exist yet, starts over when
// it is truncated or replaced, and shows a line it cannot read as it is: a tail must never die on its input.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { pathToFileURL } from 'node:url';
import { eventLogPath } from '../config/paths.js';
import { formatEventLine } from './event-format.js';

/** How often the log is checked for appends: a person watching does not notice a quarter second. */
const POLL_MS = 250;
/** Bytes read per read() call while catching up on a large log. */
const CHUNK_BYTES = 64 * 1024;

export class LogTail {
  private offset = 0;
  private inode = -1;
  private partial = '';
  private decoder = new StringDecoder('utf8');

  constructor(
    readonly path: string,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Read whatever was appended since the last call; returns false while the file does not exist. */
  poll(): boolean {
    let st;
    try {
      st = statSync(this.path);
    } catch {
      return false;
    }
    if (st.ino !== this.inode || st.size < this.offset) this.restart(st.ino); // replaced or truncated
    if (st.size === this.offset) return true;
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return false; // removed between stat and open
    }
    try {
      const buf = Buffer.alloc(CHUNK_BYTES);
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, this.offset);
        if (n <= 0) break;
        this.offset += n;
        this.feed(this.decoder.write(buf.subarray(0, n)));
      }
    } finally {
      closeSync(fd);
    }
    return true;
  }

  private restart(inode: number): void {
    this.inode = inode;
    this.offset = 0;
    this.partial = '';
    this.decoder = new StringDecoder('utf8');
  }

  private feed(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? ''; // an unfinished last line waits for its newline
    for (const l of lines) if (l.trim()) this.onLine(l);
  }
}

export async function loghook(argv: string[]): Promise<number> {
  const once = argv.includes('--once');
  const path = argv.find((a) => !a.startsWith('--')) ?? eventLogPath();
  const colour = Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'];
  process.stdout.on('error', () => process.exit(0)); // the reader went away (loghook | head): nothing left to do
  const tail = new LogTail(path, (line) => process.stdout.write(formatEventLine(line, colour) + '\n'));
  let announced = false;
  for (;;) {
    const found = tail.poll();
    if (once) {
      if (!found) process.stderr.write(`loghook: no event log at ${path}\n`);
      return found ? 0 : 1;
    }
    if (!found && !announced) {
      process.stderr.write(`loghook: waiting for ${path} (start a pane with 'termsupervisor run -- <command>')\n`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

// Run only as the entry point (`node dist/cli/loghook.js`), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  loghook(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
