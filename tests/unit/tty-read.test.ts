// Whether a process sits blocked reading its terminal, read from Linux /proc for real processes in real ptys: a
// bash `read` at a prompt does, a `sleep` does not; and the /proc/<pid>/syscall parser.
import { describe, expect, it } from 'vitest';
import pty from 'node-pty';
import { parseSyscall, readsTerminal, waitsOnDescriptorZero } from '../../src/attach/tty-read.js';

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
    expect(parseSyscall('0 0x0 0x5621b1d05f40 0x1000 0x0 0x7ffd68f7f270 0x0 0x7ffd68f7f288 0x7f5a303c72ad')).toMatchObject({ nr: 0, fd: 0 });
    expect(parseSyscall('63 0x3 0x1 0x2 0x0 0x0 0x0 0x0 0x0')).toMatchObject({ nr: 63, fd: 3, args: [3, 1, 2, 0, 0, 0] });
  });
  it('not in a call, or nothing readable: null', () => {
    expect(parseSyscall('running')).toBeNull();
    expect(parseSyscall('-1 0x7ffd 0x7f')).toBeNull();
    expect(parseSyscall(null)).toBeNull();
  });
});

describe('a select that waits for descriptor 0 alone, without a time limit', () => {
  const X64 = [23, 270];
  // Python 3.11's REPL at `>>>` (GNU readline), read from /proc on x86-64
  const repl = parseSyscall('270 0x1 0x7ffded001830 0x0 0x0 0x0 0x0 0x7ffded0017a0 0x7ff16211c954')!;
  it("is readline's wait for a key", () => {
    expect(waitsOnDescriptorZero(repl, X64)).toBe(true);
    expect(waitsOnDescriptorZero(parseSyscall('23 0x1 0x7ffd1000 0x0 0x0 0x0 0x0 0x0 0x0')!, X64)).toBe(true);
  });
  it('not with more descriptors, a write set, a timeout, no read set, nor another call', () => {
    expect(waitsOnDescriptorZero(parseSyscall('270 0x5 0x7ffd1000 0x0 0x0 0x0 0x0 0x0 0x0')!, X64)).toBe(false);
    expect(waitsOnDescriptorZero(parseSyscall('270 0x1 0x7ffd1000 0x7ffd2000 0x0 0x0 0x0 0x0 0x0')!, X64)).toBe(false);
    expect(waitsOnDescriptorZero(parseSyscall('270 0x1 0x7ffd1000 0x0 0x0 0x7ffd3000 0x0 0x0 0x0')!, X64)).toBe(false);
    expect(waitsOnDescriptorZero(parseSyscall('23 0x1 0x0 0x0 0x0 0x7ffd3000 0x0 0x0 0x0')!, X64)).toBe(false);
    expect(waitsOnDescriptorZero(parseSyscall('7 0x1 0x7ffd1000 0x0 0x0 0x0 0x0 0x0 0x0')!, X64)).toBe(false);
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

  it("Python's REPL at `>>>` (readline's select on descriptor 0) reads it; running a line that sleeps, it does not", async () => {
    const p = pty.spawn('python3', ['-q'], { cols: 80, rows: 24, env: { ...process.env, TERM: 'xterm-256color' } });
    try {
      expect(await settle(p.pid, true)).toBe(true);
      p.write('import time; time.sleep(5)\r');
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
