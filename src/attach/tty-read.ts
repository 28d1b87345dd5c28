// Whether a process sits blocked reading its terminal: the kernel's own word that a program waits on the person's
// keys (a `read` at a prompt: bash's `read`, Python's input(), a C program's fgets). Linux /proc only: the process
// is asleep (state S) inside read(2) or readv(2) (/proc/<pid>/syscall) on a descriptor that is a terminal, or
// inside select(2)/pselect6(2) waiting, with no time limit, for descriptor 0 alone to be readable when it is a
// terminal (GNU readline as Python's REPL and input() use it: `pselect6(1, [0], NULL, NULL, NULL)`). Where the
// syscall file cannot be read, the wait channel `n_tty_read` says the same. Programs that wait in an event loop
// (Node's epoll) or poll(2) (which descriptors, the call's memory says, not its arguments) show nothing here; their
// screens tell.
import { readFileSync, readlinkSync } from 'node:fs';

/** Syscall numbers of read(2) and readv(2) per architecture (the first field of /proc/<pid>/syscall). */
const READ_SYSCALLS: Partial<Record<NodeJS.Architecture, readonly number[]>> = {
  x64: [0, 19],
  arm64: [63, 65],
  arm: [3, 145],
  ia32: [3, 145],
  riscv64: [63, 65],
};
/** Syscall numbers of select(2) and pselect6(2) per architecture (arm64 and riscv64 have only pselect6). */
const SELECT_SYSCALLS: Partial<Record<NodeJS.Architecture, readonly number[]>> = {
  x64: [23, 270],
  arm64: [72],
  arm: [142, 335],
  ia32: [142, 308],
  riscv64: [72],
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
    if (call && reads) {
      const fd = reads.includes(call.nr) ? call.fd : waitsOnDescriptorZero(call, SELECT_SYSCALLS[process.arch] ?? []) ? 0 : null;
      return fd !== null && TERMINAL_PATH.test(readlinkSync(`/proc/${pid}/fd/${fd}`));
    }
    return readOrNull(`/proc/${pid}/wchan`)?.trim() === TTY_READ_WCHAN;
  } catch {
    return false;
  }
}

export interface SyscallState {
  nr: number;
  /** The first argument when it can be a descriptor (a read's). */
  fd: number | null;
  /** The arguments (null where not a number, or too large to be exact: a pointer is only ever compared with 0). */
  args: Array<number | null>;
}

/** `/proc/<pid>/syscall`: the number and arguments of the call a sleeping process is in; null when not in one
 * (`running`, `-1 …`) or unreadable. */
export function parseSyscall(line: string | null): SyscallState | null {
  if (!line) return null;
  const f = line.trim().split(/\s+/);
  if (!/^\d+$/.test(f[0] ?? '')) return null;
  const args = f.slice(1, 7).map((a) => (/^0x[0-9a-f]+$/i.test(a) ? Number.parseInt(a, 16) : null));
  const fd = args[0] ?? null;
  return { nr: Number(f[0]), fd: fd !== null && fd < 1 << 20 ? fd : null, args };
}

/** A select(2)/pselect6(2) that can only be waiting for descriptor 0 to be readable, for as long as it takes: one
 * descriptor (nfds 1), a read set, no write or exception set, no timeout (a program that looks for a key between
 * steps of its own work passes one). */
export function waitsOnDescriptorZero(call: SyscallState, selects: readonly number[]): boolean {
  const [nfds, readfds, writefds, exceptfds, timeout] = call.args;
  return selects.includes(call.nr) && nfds === 1 && readfds !== 0 && readfds !== null && writefds === 0 && exceptfds === 0 && timeout === 0;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
