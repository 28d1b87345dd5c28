// A command in a real PTY whose terminal stays open after the command ends, until the test has read all it wrote.
// node-pty gives up reading 200 ms after its child exits (DESTROY_SOCKET_TIMEOUT_MS in its unixTerminal.js): on a
// busy machine the last output of a command that exits at once would be lost, and a test reading it would fail for
// the machine's sake. Here `sh` runs the command, then prints an end mark with its exit status and waits; the test
// reads up to the mark, and kills what is left.
import pty from 'node-pty';
import type { IPty } from 'node-pty';
import { randomBytes } from 'node:crypto';
import { waitFor } from './harness.js';

export interface HeldOptions {
  cols?: number;
  rows?: number;
  cwd: string;
  env: Record<string, string>;
}

export interface HeldEnd {
  /** Everything the terminal received before the end mark. */
  out: Buffer;
  /** The command's exit status, as its shell saw it ($?). */
  code: number;
}

/** Deadline for a command that writes a lot on a loaded machine (1 MB through two ptys). */
const HELD_WAIT_MS = 60_000;

export class HeldPty {
  readonly term: IPty;
  private readonly chunks: Buffer[] = [];
  private readonly mark = `<<held-pty-end:${randomBytes(6).toString('hex')}:`;

  constructor(file: string, args: string[], opts: HeldOptions) {
    const script = 'mark=$1; shift; "$@"; code=$?; printf "%s%d>>" "$mark" "$code"; exec sleep 600';
    this.term = pty.spawn('sh', ['-c', script, 'sh', this.mark, file, ...args], {
      name: 'xterm-256color',
      cols: opts.cols ?? 100,
      rows: opts.rows ?? 30,
      cwd: opts.cwd,
      env: opts.env,
      encoding: null,
    });
    this.term.onData((d) => this.chunks.push(Buffer.isBuffer(d) ? d : Buffer.from(d as unknown as string, 'utf8')));
  }

  /** What the terminal received so far. */
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  get text(): string {
    return this.bytes.toString('utf8');
  }

  /** Waits for the command's end mark: its output before it and its exit status; the shell is then killed. */
  async ended(timeoutMs = HELD_WAIT_MS): Promise<HeldEnd> {
    const mark = Buffer.from(this.mark);
    const end = await waitFor('the command to end (its end mark)', () => {
      const all = this.bytes;
      const at = all.lastIndexOf(mark);
      if (at < 0) return null;
      const rest = all.subarray(at + mark.length).toString('latin1').match(/^(\d+)>>/);
      return rest ? { out: all.subarray(0, at), code: Number(rest[1]) } : null;
    }, () => `received ${this.bytes.length} bytes; tail: ${JSON.stringify(this.bytes.subarray(-300).toString('latin1'))}`, timeoutMs);
    this.kill();
    return end;
  }

  kill(): void {
    try {
      this.term.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
