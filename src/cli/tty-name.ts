// The path of the terminal the wrapper runs in (/dev/pts/3, /dev/ttys004), so a person told "it runs there" can
// find the window: the first of stdin, stdout, stderr that is a terminal. Linux names it in /proc; elsewhere
// (macOS) tty(1) does, reading the same descriptor.
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { isatty } from 'node:tty';

export function ttyName(): string | null {
  for (const fd of [0, 1, 2]) {
    if (!isatty(fd)) continue;
    try {
      const p = readlinkSync(`/proc/self/fd/${fd}`);
      if (p.startsWith('/dev/')) return p;
    } catch {
      // no /proc: ask tty(1)
    }
    try {
      const p = execFileSync('tty', { stdio: [fd, 'pipe', 'ignore'], encoding: 'utf8', timeout: 2000 }).trim();
      if (p.startsWith('/dev/')) return p;
    } catch {
      // not a terminal after all, or no tty(1)
    }
  }
  return null;
}
