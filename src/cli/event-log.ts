// The JSONL event log `run` appends to and `make loghook` tails: one line per pane start, state transition and pane
// exit. Several wrappers may share one file, so each record is a single write to a file opened for appending
// (O_APPEND keeps concurrent lines whole), written synchronously so nothing is lost when the wrapper exits.
// Bounded like daemon.log (config log.max_bytes, log.keep): a write that would take the file past the size first
// moves it to events.jsonl.1 (… .keep, the oldest deleted). Another wrapper that rotated first is noticed (the
// name no longer leads to our file) and followed to the new file. A write that fails is counted and dropped.
import { closeSync, fstatSync, type Stats, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MachineState } from '../analysis/types.js';

/** The log holds what the detector decided, not screen contents: owner-only, like a shell history. */
const LOG_FILE_MODE = 0o600;
const LOG_DIR_MODE = 0o700;

export type EventKind = 'pane_start' | 'transition' | 'pane_exit' | 'daemon_link' | 'analysis_error';

/** Fields every record carries. */
export interface EventBase {
  /** Wall-clock time, ISO 8601. */
  ts: string;
  kind: EventKind;
  pane: string;
  name: string;
  /** The profile reading the pane (shell, claude, …) when the record was written. */
  program: string;
  /** Pane-clock seconds (0 = the pane started). */
  t: number;
  state: MachineState;
}

export interface PaneStartEvent extends EventBase {
  kind: 'pane_start';
  /** Redacted and cut: the log may be shared in a bug report. */
  command: string;
  pid: number | null;
  cols: number;
  rows: number;
  agent: string;
  /** The program is one thing to do, itself one turn (not a session: shell, REPL, agent, editor). */
  one_shot: boolean;
  /** The names the program goes by besides its command (its executable's, its script's package's). */
  identity?: string[];
  /** A shell started with the injected shell integration. */
  shell_integration: boolean;
}

export interface TransitionEvent extends EventBase {
  kind: 'transition';
  from: MachineState;
  tier: number;
  rule: string;
  line: string;
  started_at: number;
  stalled: boolean;
}

export interface PaneExitEvent extends EventBase {
  kind: 'pane_exit';
  code: number | null;
  signal: number | null;
  /** What the wrapper exits with: the code, or 128+signal. */
  exit_code: number;
}

/** The wrapper joined or lost its daemon. */
export interface DaemonLinkEvent extends EventBase {
  kind: 'daemon_link';
  status: 'connected' | 'disconnected';
  url: string;
  why?: string;
}

/** An exception was caught in the pane's screen, analysis or state code: the wrapper and the pane went on. */
export interface AnalysisErrorEvent extends EventBase {
  kind: 'analysis_error';
  /** screen | analysis | state */
  stage: string;
  /** What was being applied: output, input, tick, signal, ... */
  step: string;
  /** The error's name and message. */
  error: string;
  /** Errors caught in this pane so far (repeats of the last one are not all logged: see monitor-worker.ts); 1 when the monitor's thread itself failed (step "thread": the pane then passes through unwatched). */
  count: number;
}

export type LogEvent = PaneStartEvent | TransitionEvent | PaneExitEvent | DaemonLinkEvent | AnalysisErrorEvent;

export interface EventLogBounds {
  /** Rotate before a write would take the file past this many bytes. */
  maxBytes: number;
  /** Old files kept (path.1 … path.<keep>); 0: the file starts over. */
  keep: number;
}

/** Without bounds from the config: daemon.log's defaults (config/default.jsonc, log). */
const DEFAULT_BOUNDS: EventLogBounds = { maxBytes: 10 << 20, keep: 3 };

export class EventLog {
  private fd: number | null;
  /** Records that could not be written. */
  dropped = 0;

  constructor(
    readonly path: string,
    private readonly bounds: EventLogBounds = DEFAULT_BOUNDS,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: LOG_DIR_MODE });
    this.fd = openSync(path, 'a', LOG_FILE_MODE);
  }

  append(ev: LogEvent): void {
    if (this.fd === null) return;
    const line = JSON.stringify(ev) + '\n';
    try {
      this.makeRoom(Buffer.byteLength(line));
      writeSync(this.fd, line);
    } catch {
      this.dropped++;
    }
  }

  /** Several wrappers append to one file: its size is read from the file, not counted here. */
  private makeRoom(bytes: number): void {
    const mine = fstatSync(this.fd!);
    const named = statOrNull(this.path);
    if (!named || named.ino !== mine.ino || named.dev !== mine.dev) {
      this.reopen(); // another wrapper rotated it (or it was removed): write where the name leads now
      return this.makeRoomIn(statOrNull(this.path)?.size ?? 0, bytes);
    }
    this.makeRoomIn(mine.size, bytes);
  }

  private makeRoomIn(size: number, bytes: number): void {
    if (size === 0 || size + bytes <= this.bounds.maxBytes) return;
    const { keep } = this.bounds;
    if (keep <= 0) rmSync(this.path, { force: true });
    else {
      rmSync(`${this.path}.${keep}`, { force: true });
      for (let i = keep - 1; i >= 1; i--) renameIfThere(`${this.path}.${i}`, `${this.path}.${i + 1}`);
      renameIfThere(this.path, `${this.path}.1`);
    }
    this.reopen();
  }

  private reopen(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.fd = openSync(this.path, 'a', LOG_FILE_MODE);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
