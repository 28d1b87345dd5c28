// Whether a process sits blocked reading its terminal, read from Linux /proc for real processes in real ptys: a
// bash `read` at a prompt does, a `sleep` does not; and the /proc/<pid>/syscall parser.
import { describe, expect, it } from 'vitest';
import pty from 'node-pty';
import { parseSyscall, readsTerminal } from '../../src/attach/tty-read.js';

const linux = process.platform === 'linux';
/** Poll interval and deadline while the child starts and reaches its read (normally milliseconds). */
const POLL_MS = 20;
const WAIT_MS = 10_000;

async function settle(pid: number, want: boolean): Promise<boolean> {
  const deadline = Date.now() + WAIT_MS;
  let got = readsTerminal(pid);
  while (got !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    got = readsTerminal(pid);
  }
  return got;
}

describe('parseSyscall', () => {
  it('the call number and its first argument (the descriptor of a read)', () => {
    expect(parseSyscall('0 0x0 0x5621b1d05f40 0x1000 0x0 0x7ffd68f7f270 0x0 0x7ffd68f7f288 0x7f5a303c72ad')).toEqual({ nr: 0, fd: 0 });
    expect(parseSyscall('63 0x3 0x1 0x2 0x0 0x0 0x0 0x0 0x0')).toEqual({ nr: 63, fd: 3 });
  });
  it('not in a call, or nothing readable: null', () => {
    expect(parseSyscall('running')).toBeNull();
    expect(parseSyscall('-1 0x7ffd 0x7f')).toBeNull();
    expect(parseSyscall(null)).toBeNull();
  });
});

describe.skipIf(!linux)('readsTerminal (real ptys)', () => {
  it('bash blocked in `read` at its prompt reads the terminal; once it has its line and sleeps, it does not', async () => {
    const p = pty.spawn('bash', ['--norc', '--noprofile', '-c', 'printf "> "; read x; sleep 5'], { cols: 80, rows: 24 });
    try {
      expect(await settle(p.pid, true)).toBe(true);
      p.write('hi\r');
      expect(await settle(p.pid, false)).toBe(false);
    } finally {
      p.kill('SIGKILL');
    }
  });

  it('a process that only sleeps never reads it', async () => {
    const p = pty.spawn('sleep', ['5'], { cols: 80, rows: 24 });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(readsTerminal(p.pid)).toBe(false);
    } finally {
      p.kill('SIGKILL');
    }
  });

  it('a process that is gone: false', () => {
    expect(readsTerminal(2 ** 22 + 12345)).toBe(false);
  });
});
