// A live pane: a command spawned on a pseudo-terminal we own (node-pty). Emits what it prints, what the person types
// through write(), resizes, foreground-job changes and its exit, stamped with the same clock the monitor runs on.
import pty from 'node-pty';
import type { IPty } from 'node-pty';
import { StringDecoder } from 'node:string_decoder';
import { holdUntilDrained, rawPtyBytes } from './pty-bytes.js';
import type { Clock } from '../state/clock.js';
import type { ProgramsConfig } from '../config/config.js';
import { ForegroundWatcher, type ForegroundJob } from './foreground.js';
import type { PaneEvent, PaneEventListener, PaneSource, PaneSourceInfo } from './source.js';

/** The child learns which pane it is in (hooks and nested tools report back under this id). */
export const PANE_ID_ENV = 'TERMSUPERVISOR_PANE_ID';
/** TERM for the child when the parent has none: what most terminal emulators announce. */
const DEFAULT_TERM = 'xterm-256color';
/** Variables describing the outer terminal's size would lie to the child: its size is the pty's. */
const STALE_SIZE_VARS = ['COLUMNS', 'LINES'];
/** terminate(): a child still alive this long after the first signal gets SIGHUP (interactive bash ignores TERM). */
const HANGUP_GRACE_MS = 1000;
/** ...and this long after that, SIGKILL: a wrapper must never hang on a child that ignores everything. */
const KILL_GRACE_MS = 3000;

export interface PtySourceOptions {
  id: string;
  name: string;
  /** argv: the program and its arguments, as the person gave them. */
  command: string[];
  /** What is actually started, when it differs from `command` (a shell given its integration). */
  exec?: string[];
  cols: number;
  rows: number;
  /** Pane time: the monitor's clock, so event times and transition times agree. */
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Override for tests; defaults to FOREGROUND_POLL_MS. */
  foregroundPollMs?: number;
  /** The program is one thing to do, not a session (src/analysis/program-kind.ts): its start and its exit are
   * reported as one command's (`command` events), which makes the program itself a turn. */
  oneShot?: boolean;
  /** With these lists each foreground job's names are read from the process (process-identity.ts). */
  programs?: ProgramsConfig;
}

export interface PtyExit {
  code: number | null;
  signal: number | null;
}

/** Exit status of a process killed by signal N is this plus N (shell convention). */
const SIGNAL_EXIT_BASE = 128;

/** The status a shell would report: the exit code, or 128+N when signal N ended the program. */
export function exitStatus(exit: PtyExit): number {
  if (exit.signal) return SIGNAL_EXIT_BASE + exit.signal;
  return exit.code ?? 1;
}

export class PtySource implements PaneSource {
  readonly info: PaneSourceInfo;
  private readonly listeners: PaneEventListener[] = [];
  private term: IPty | null = null;
  private watcher: ForegroundWatcher | null = null;
  private exitInfo: PtyExit | null = null;
  private fg: ForegroundJob | null = null;
  private readonly exitWaiters: Array<(e: PtyExit) => void> = [];
  private readonly byteListeners: Array<(bytes: Buffer) => void> = [];
  private paused = false;
  /** Output decoded for the analysis only, across reads (a character split between two reads is one character). */
  private readonly outputDecoder = new StringDecoder('utf8');
  private readonly inputDecoder = new StringDecoder('utf8');

  constructor(private readonly opts: PtySourceOptions) {
    if (opts.command.length === 0) throw new Error('PtySource: empty command');
    this.info = { id: opts.id, name: opts.name, kind: 'pty', cols: opts.cols, rows: opts.rows, command: opts.command.join(' ') };
  }

  onEvent(listener: PaneEventListener): void {
    this.listeners.push(listener);
  }

  /** The program's output exactly as it wrote it, before it is decoded for the `output` event: for a pass-through
   * (`run` writes these to the person's terminal: invalid UTF-8, Latin-1, binary all reach it unchanged). Called
   * before each read's `output` event. */
  onBytes(listener: (bytes: Buffer) => void): void {
    this.byteListeners.push(listener);
  }

  /** The child's pid once started (the shell whose terminal we watch). */
  get pid(): number | null {
    return this.term?.pid ?? null;
  }

  /** The pty's foreground job as last seen (null: not known on this platform, or not read yet). */
  get foreground(): ForegroundJob | null {
    return this.fg;
  }

  async start(): Promise<void> {
    if (this.term) return;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.opts.env ?? process.env)) if (v !== undefined && !STALE_SIZE_VARS.includes(k)) env[k] = v;
    env[PANE_ID_ENV] = this.opts.id;
    const [file, ...args] = (this.opts.exec ?? this.opts.command) as [string, ...string[]];
    const term = pty.spawn(file, args, {
      name: env['TERM'] || DEFAULT_TERM,
      cols: this.opts.cols,
      rows: this.opts.rows,
      cwd: this.opts.cwd ?? process.cwd(),
      env,
    });
    this.term = term;
    if (this.opts.oneShot) this.emit({ kind: 'command', t: this.now(), phase: 'executed' });
    // node-pty emits exit only after the pty's output is fully read, so 'exit' is always the last event.
    const raw = rawPtyBytes(term);
    let lastReadAt = Date.now();
    const letGo = holdUntilDrained(term, () => lastReadAt, () => this.paused);
    term.onData((data: string | Buffer) => {
      lastReadAt = Date.now();
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (const l of this.byteListeners) l(bytes);
      const text = typeof data === 'string' ? data : this.outputDecoder.write(data);
      if (text) this.emit({ kind: 'output', t: this.now(), data: text });
    });
    term.onExit(({ exitCode, signal }) => {
      letGo?.();
      this.watcher?.stop();
      // A character cut short at the very end still counts for the analysis (as U+FFFD).
      const rest = raw ? this.outputDecoder.end() : '';
      if (rest) this.emit({ kind: 'output', t: this.now(), data: rest });
      // Linux reports signal 0 for a normal exit.
      const exit: PtyExit = signal ? { code: null, signal } : { code: exitCode, signal: null };
      this.exitInfo = exit;
      this.term = null;
      // Ended by us (the wrapper's own terminal hung up, or the wrapper was told to stop): the program did not
      // finish its work, its terminal closed. No turn's end (a SIGHUP's 129 is no failure of the command's): the
      // pane just closes, in the state it was in.
      if (this.opts.oneShot && !this.endedByUs) this.emit({ kind: 'command', t: this.now(), phase: 'finished', exitCode: exitStatus(exit) });
      this.emit({ kind: 'exit', t: this.now(), code: exit.code, signal: exit.signal });
      for (const w of this.exitWaiters.splice(0)) w(exit);
    });
    this.watcher = new ForegroundWatcher(
      term.pid,
      (job) => {
        this.fg = job;
        this.emit({ kind: 'process', t: this.now(), name: job.name, pid: job.pid, ...(job.names && { names: job.names }), ...(job.reading !== undefined && { reading: job.reading }) });
      },
      this.opts.foregroundPollMs,
      this.opts.programs ?? null,
    );
    this.watcher.start();
  }

  /** Keys the person typed: to the child, and reported as input. */
  write(data: string): void {
    if (!this.term || data === '') return;
    this.emit({ kind: 'input', t: this.now(), data });
    this.term.write(data);
  }

  /** The person's keyboard bytes exactly as read (any encoding): to the child unchanged, reported decoded. */
  writeBytes(bytes: Buffer): void {
    if (!this.term || bytes.length === 0) return;
    const text = this.inputDecoder.write(bytes);
    if (text) this.emit({ kind: 'input', t: this.now(), data: text });
    this.term.write(bytes);
  }

  resize(cols: number, rows: number): void {
    if (!this.term || cols <= 0 || rows <= 0) return;
    if (cols === this.info.cols && rows === this.info.rows) return;
    this.info.cols = cols;
    this.info.rows = rows;
    this.term.resize(cols, rows);
    this.emit({ kind: 'resize', t: this.now(), cols, rows });
  }

  /** Stop reading the child's output (back-pressure); the kernel then blocks the child's writes. */
  pause(): void {
    this.paused = true;
    this.term?.pause();
  }

  resume(): void {
    this.paused = false;
    this.term?.resume();
  }

  /** Send a signal to the child process (by name, e.g. 'SIGHUP'). */
  kill(signal: NodeJS.Signals): void {
    try {
      this.term?.kill(signal);
    } catch {
      // already gone
    }
  }

  /** Resolves with the child's exit (immediately if it has already exited). */
  exited(): Promise<PtyExit> {
    if (this.exitInfo) return Promise.resolve(this.exitInfo);
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  /** Signal the child, escalating to SIGHUP and then SIGKILL if it stays; resolves when it has exited. */
  async terminate(first: NodeJS.Signals = 'SIGHUP'): Promise<PtyExit> {
    if (!this.term) return this.exited();
    this.endedByUs = true;
    this.kill(first);
    const timers = [
      first !== 'SIGHUP' && first !== 'SIGKILL' ? setTimeout(() => this.kill('SIGHUP'), HANGUP_GRACE_MS) : null,
      setTimeout(() => this.kill('SIGKILL'), HANGUP_GRACE_MS + KILL_GRACE_MS),
    ];
    for (const t of timers) t?.unref();
    const exit = await this.exited();
    for (const t of timers) if (t) clearTimeout(t);
    return exit;
  }

  /** Hang up on the child (as a closing terminal does) and wait for it to go. */
  async stop(): Promise<void> {
    this.watcher?.stop();
    if (this.term) await this.terminate('SIGHUP');
  }

  private now(): number {
    return this.opts.clock.now() / 1000;
  }

  /** terminate() or stop() ended the child: its exit is the pane closing, not the command finishing. */
  private endedByUs = false;

  private emit(ev: PaneEvent): void {
    for (const l of this.listeners) l(ev);
  }
}
