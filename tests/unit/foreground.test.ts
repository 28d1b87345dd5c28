// The /proc stat parser behind foreground-job detection, and one live read of a real pty's foreground job.
import { describe, expect, it } from 'vitest';
import pty from 'node-pty';
import { parseStat, parseTpgid, readForeground, type ForegroundJob } from '../../src/attach/foreground.js';

/** Poll interval and deadline while the forked child execs and takes its terminal (normally milliseconds). */
const POLL_MS = 20;
const WAIT_MS = 10_000;

async function foregroundOf(pid: number, name: string): Promise<ForegroundJob | null> {
  const deadline = Date.now() + WAIT_MS;
  let job = readForeground(pid);
  while (job?.name !== name && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    job = readForeground(pid);
  }
  return job;
}

/** A real /proc/<pid>/stat line (bash on pts/3, foreground group 4242), with `comm` substituted. */
const stat = (comm: string, tpgid = '4242') =>
  `1234 (${comm}) S 1200 1234 1234 34819 ${tpgid} 4194560 1031 0 0 0 1 0 0 0 20 0 1 0 123456 9023488 1152 18446744073709551615 1 1 0 0 0 0 65536 3686404 1266761467 0 0 0 17 1 0 0 0 0 0`;

describe('parseTpgid', () => {
  it('reads field 8 (tpgid) of an ordinary stat line', () => {
    expect(parseTpgid(stat('bash'))).toBe(4242);
  });

  it('counts fields after the last ")": comm may hold spaces and parentheses', () => {
    expect(parseTpgid(stat('tmux: server'))).toBe(4242);
    expect(parseTpgid(stat('a) S 1 2 3 4 5 (b'))).toBe(4242);
    expect(parseTpgid(stat(') ) )'))).toBe(4242);
  });

  it('no controlling terminal (-1 or 0) is null', () => {
    expect(parseTpgid(stat('daemon', '-1'))).toBeNull();
    expect(parseTpgid(stat('daemon', '0'))).toBeNull();
  });

  it('parseStat also gives the session (field 6), to tell a pty session leader from a child not yet set up', () => {
    expect(parseStat(stat('x) y'))).toEqual({ session: 1234, tpgid: 4242 });
  });

  it('malformed or truncated lines are null, never a throw', () => {
    expect(parseTpgid('')).toBeNull();
    expect(parseTpgid('1234 bash S 1 2 3 4 5')).toBeNull();
    expect(parseTpgid('1234 (bash) S 1 2')).toBeNull();
    expect(parseTpgid('1234 (bash) S 1 2 3 4 x5')).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('readForeground on a live pty', () => {
  it('names the job in the foreground, and null once the process is gone', async () => {
    const term = pty.spawn('sleep', ['30'], { cols: 80, rows: 24, env: process.env as Record<string, string> });
    try {
      expect(await foregroundOf(term.pid, 'sleep')).toEqual({ pid: term.pid, name: 'sleep' });
    } finally {
      term.kill('SIGKILL');
    }
    await new Promise<void>((resolve) => term.onExit(() => resolve()));
    expect(readForeground(term.pid)).toBeNull();
  });
});
