// Which job is in the foreground of a pty: the terminal's foreground process group, read from Linux /proc.
// A job change (bash → sleep → bash) is the cheapest reliable sign that a command started or ended. Anywhere
// /proc is missing or unreadable we report nothing rather than guess.
import { readFileSync } from 'node:fs';
import type { ProgramsConfig } from '../config/config.js';
import { namesOfPid } from './process-identity.js';
import { readsTerminal } from './tty-read.js';

/** Polling /proc is a few microseconds; four reads a second is quick enough to see a job start. */
export const FOREGROUND_POLL_MS = 250;
/** Fields of /proc/<pid>/stat counted from just after `(comm)`: 6 session, 8 tpgid (proc(5) numbering). */
const SESSION_AFTER_COMM = 3;
const TPGID_AFTER_COMM = 5;

export interface ForegroundJob {
  pid: number;
  name: string;
  /** The names the job goes by besides `name` (its executable's, its script's, its package's: process-identity.ts). */
  names?: string[];
  /** It sits blocked reading the terminal (tty-read.ts): waiting on the person's keys. */
  reading?: boolean;
}

/**
 * The terminal's foreground process group id from a /proc/<pid>/stat line, or null when there is none.
 * comm (field 2) is in parentheses and may itself hold spaces and ')', so fields are counted after the last ')'.
 */
export function parseTpgid(stat: string): number | null {
  return parseStat(stat)?.tpgid ?? null;
}

/** Session id and terminal foreground group of a /proc/<pid>/stat line (null when malformed or no terminal). */
export function parseStat(stat: string): { session: number; tpgid: number } | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 1).trim().split(/\s+/);
  const session = int(fields[SESSION_AFTER_COMM]);
  const tpgid = int(fields[TPGID_AFTER_COMM]);
  if (session === null || tpgid === null || tpgid <= 0) return null; // -1: no controlling terminal
  return { session, tpgid };
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

function int(raw: string | undefined): number | null {
  return raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : null;
}

/**
 * The foreground job of the terminal session `pid` leads; null off Linux or on any read error (process gone).
 * Until the freshly forked child has called setsid() it still sits in our session, on our own terminal: its tpgid
 * would name a job of the wrapper's terminal, so a pid that does not lead its session reports nothing.
 */
export function readForeground(pid: number): ForegroundJob | null {
  if (process.platform !== 'linux') return null;
  try {
    const st = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    if (st === null || st.session !== pid) return null;
    const name = readFileSync(`/proc/${st.tpgid}/comm`, 'utf8').replace(/\n$/, '');
    return name ? { pid: st.tpgid, name } : null;
  } catch {
    return null;
  }
}

/** The names the foreground job of the terminal `sessionPid` leads goes by besides `name` (a tmux pane's first
 * process: its job `node` is @google/gemini-cli); empty when /proc does not tell. */
export function foregroundNames(sessionPid: number, name: string, programs: ProgramsConfig): string[] {
  const job = readForeground(sessionPid);
  return job ? namesOfPid(job.pid, programs).filter((n) => n !== name) : [];
}

/** Polls the foreground job of `pid`'s terminal and calls back only when it changes (another job, or the same job
 * starting or ceasing to read the terminal). With `programs`, each new job's names are read once (identity). Never
 * keeps node alive. */
export class ForegroundWatcher {
  private timer: NodeJS.Timeout | null = null;
  private last = '';
  private lastJob = '';
  private names: string[] = [];

  constructor(
    private readonly pid: number,
    private readonly onChange: (job: ForegroundJob) => void,
    private readonly intervalMs = FOREGROUND_POLL_MS,
    private readonly programs: ProgramsConfig | null = null,
  ) {}

  start(): void {
    if (process.platform !== 'linux' || this.timer) return;
    this.poll();
    this.timer = setInterval(() => this.poll(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private poll(): void {
    const job = readForeground(this.pid);
    if (!job) return;
    // The command line too: a forked child that has not exec'd yet shows its parent's (the wrapper's own `node`),
    // and a script's interpreter may exec another program under the same pid and name.
    const id = `${job.pid}:${job.name}:${cmdline(job.pid)}`;
    if (id !== this.lastJob) {
      this.lastJob = id;
      this.names = this.programs ? namesOfPid(job.pid, this.programs).filter((n) => n !== job.name) : [];
    }
    const reading = readsTerminal(job.pid);
    const key = `${id}:${reading}`;
    if (key === this.last) return;
    this.last = key;
    this.onChange({ ...job, ...(this.names.length > 0 && { names: this.names }), reading });
  }
}
