// Whether a process sits blocked reading its terminal: the kernel's own word that a program waits on the person's
// keys (a `read` at a prompt: bash's `read`, Python's input(), a C program's fgets). Linux /proc only: the process
// is asleep (state S) inside read(2) or readv(2) (/proc/<pid>/syscall) on a descriptor that is a terminal. Where
// the syscall file cannot be read, the wait channel `n_tty_read` says the same. Programs that wait in an event loop
// (Node's epoll) show nothing here; their screens tell.
import { readFileSync, readlinkSync } from 'node:fs';

/** Syscall numbers of read(2) and readv(2) per architecture (the first field of /proc/<pid>/syscall). */
const READ_SYSCALLS: Partial<Record<NodeJS.Architecture, readonly number[]>> = {
  x64: [0, 19],
  arm64: [63, 65],
  arm: [3, 145],
  ia32: [3, 145],
  riscv64: [63, 65],
};
/** The tty layer's read, as the wait channel names it on kernels that do. */
const TTY_READ_WCHAN = 'n_tty_read';
/** Descriptors that are terminals (a pty's slave, a console). */
const TERMINAL_PATH = /^\/dev\/(?:pts\/\d+|tty\w*)$/;

/** Whether `pid` is blocked reading a terminal right now (false off Linux, when it is gone, or when unsure). */
export function readsTerminal(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 1).trim()[0] !== 'S') return false;
    const call = parseSyscall(readOrNull(`/proc/${pid}/syscall`));
    const reads = READ_SYSCALLS[process.arch];
    if (call && reads) return reads.includes(call.nr) && call.fd !== null && TERMINAL_PATH.test(readlinkSync(`/proc/${pid}/fd/${call.fd}`));
    return readOrNull(`/proc/${pid}/wchan`)?.trim() === TTY_READ_WCHAN;
  } catch {
    return false;
  }
}

/** `/proc/<pid>/syscall`: the number and first argument of the call a sleeping process is in; null when not in
 * one (`running`, `-1 …`) or unreadable. */
export function parseSyscall(line: string | null): { nr: number; fd: number | null } | null {
  if (!line) return null;
  const f = line.trim().split(/\s+/);
  if (!/^\d+$/.test(f[0] ?? '')) return null;
  const fd = f[1] !== undefined && /^0x[0-9a-f]+$/i.test(f[1]) ? Number.parseInt(f[1], 16) : null;
  return { nr: Number(f[0]), fd: fd !== null && fd < 1 << 20 ? fd : null };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
