// "The program is blocked on the person": the pane's foreground process group (tpgid of the shell) and whether a
// process in it sleeps in a read of the terminal, or in select/poll/epoll on it. Read from /proc (as root, or as
// the same user: /proc/<pid>/syscall and /proc/<pid>/mem need ptrace access). Linux x86_64 syscall numbers.
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';

const READS = new Map([[0, 'read'], [17, 'pread64'], [19, 'readv']]);
const WAITS = new Map([[7, 'poll'], [23, 'select'], [270, 'pselect6'], [271, 'ppoll'], [232, 'epoll_wait'], [281, 'epoll_pwait'], [441, 'epoll_pwait2']]);
/** The group's member list is re-read at most this often (ms): a /proc scan per 10 ms poll costs a core. */
const MEMBERS_REFRESH_MS = 100;

function statFields(pid) {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = s.lastIndexOf(')');
  // after "pid (comm) ": state ppid pgrp session tty_nr tpgid ...
  return { comm: s.slice(s.indexOf('(') + 1, close), rest: s.slice(close + 2).split(' ') };
}

export function foregroundGroup(shellPid) {
  return Number(statFields(shellPid).rest[5]);
}

export function comm(pid) {
  try {
    return statFields(pid).comm;
  } catch {
    return '?';
  }
}

/** The terminal a process has on fd 0 (the pane's pts). */
export function ttyOf(pid) {
  return readlinkSync(`/proc/${pid}/fd/0`);
}

function fdTarget(pid, fd) {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return null;
  }
}

/** An fd on the pane's terminal: its pts, or /dev/tty (the controlling terminal: getpass and ssh open it). */
function onTty(pid, fd, tty) {
  const target = fdTarget(pid, fd);
  return target === tty || target === '/dev/tty';
}

function readMem(pid, addr, len) {
  if (addr === 0n || len <= 0 || len > 65536) return null;
  let fd;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
    const buf = Buffer.alloc(len);
    const n = readSync(fd, buf, 0, len, addr);
    return n === len ? buf : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Which fds a sleeping select/poll/epoll call waits on for input, or null if they cannot be read. */
function waitedFds(pid, nr, args) {
  const fds = [];
  if (nr === 7 || nr === 271) {
    const n = Number(args[1]);
    const buf = readMem(pid, args[0], n * 8);
    if (!buf) return null;
    for (let i = 0; i < n; i++) if (buf.readInt16LE(i * 8 + 4) & 1) fds.push(buf.readInt32LE(i * 8));
    return fds;
  }
  if (nr === 23 || nr === 270) {
    const n = Number(args[0]);
    const buf = readMem(pid, args[1], Math.ceil(n / 64) * 8);
    if (!buf) return null;
    for (let fd = 0; fd < n; fd++) if (buf[fd >> 3] & (1 << (fd & 7))) fds.push(fd);
    return fds;
  }
  // epoll: the fds registered in the epoll instance, from its fdinfo
  try {
    const info = readFileSync(`/proc/${pid}/fdinfo/${Number(args[0])}`, 'utf8');
    for (const m of info.matchAll(/^tfd:\s+(\d+)/gm)) fds.push(Number(m[1]));
    return fds;
  } catch {
    return null;
  }
}

/** How one process relates to the terminal right now: {state: 'read'|'wait'|'other'|'running', syscall}. */
export function ioState(pid, tty) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/syscall`, 'utf8').trim();
  } catch {
    return { state: 'gone', syscall: '' };
  }
  if (text === 'running' || text.startsWith('-1')) return { state: 'running', syscall: text };
  const parts = text.split(' ');
  const nr = Number(parts[0]);
  const args = parts.slice(1, 7).map((h) => BigInt(h));
  if (READS.has(nr)) {
    return { state: onTty(pid, Number(args[0]), tty) ? 'read' : 'other', syscall: READS.get(nr) };
  }
  if (WAITS.has(nr)) {
    const fds = waitedFds(pid, nr, args);
    const waits = fds ? fds.some((fd) => onTty(pid, fd, tty)) : onTty(pid, 0, tty);
    return { state: waits ? 'wait' : 'other', syscall: WAITS.get(nr) };
  }
  return { state: 'other', syscall: `sys${nr}` };
}

/** Polls the foreground group of a shell: who is in front, and is it blocked on the person (reading the tty). */
export class TtyWatch {
  constructor(shellPid, tty) {
    this.shellPid = shellPid;
    this.tty = tty;
    this.members = [];
    this.membersAt = 0;
    this.membersOf = -1;
  }

  groupMembers(pgid, now) {
    if (pgid !== this.membersOf || now - this.membersAt > MEMBERS_REFRESH_MS) {
      const out = [];
      for (const d of readdirSync('/proc')) {
        if (!/^\d+$/.test(d)) continue;
        try {
          if (Number(statFields(Number(d)).rest[2]) === pgid) out.push(Number(d));
        } catch {
          /* gone */
        }
      }
      this.members = out;
      this.membersAt = now;
      this.membersOf = pgid;
    }
    return this.members;
  }

  /** One sample: {pgid, name, blocked: bool, how: 'read'|'wait'|..., pid, syscall}. */
  sample(now) {
    let pgid;
    try {
      pgid = foregroundGroup(this.shellPid);
    } catch {
      return null;
    }
    const name = comm(pgid);
    const lead = ioState(pgid, this.tty);
    if (lead.state === 'read' || lead.state === 'wait') return { pgid, name, blocked: true, how: lead.state, pid: pgid, syscall: lead.syscall };
    for (const pid of this.groupMembers(pgid, now)) {
      if (pid === pgid) continue;
      const s = ioState(pid, this.tty);
      if (s.state === 'read' || s.state === 'wait') return { pgid, name, blocked: true, how: s.state, pid, syscall: s.syscall };
    }
    return { pgid, name, blocked: false, how: lead.state, pid: pgid, syscall: lead.syscall };
  }
}
