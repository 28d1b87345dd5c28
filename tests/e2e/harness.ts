// Drives the built `termsupervisor run` the way a person would: inside a real terminal (a node-pty pty made here,
// so the wrapper sees a TTY), typing keys and reading the screen and the event log. No timed assertions: every
// wait polls for a condition with a generous deadline and explains what it was waiting for when it gives up.
import pty from 'node-pty';
import type { IPty } from 'node-pty';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'termsupervisor');
/** How often a wait re-checks its condition. */
const POLL_MS = 50;
/** Deadline for one condition: normally met within a second or two; this much room covers a loaded CI box. */
export const WAIT_MS = 20_000;

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is not built: run `npx tsc -p tsconfig.json` (or `make test`) first');
}

export async function waitFor<T>(what: string, probe: () => T | null | undefined | false, diag: () => string = () => '', timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${diag()}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export interface LogLine {
  kind: 'pane_start' | 'transition' | 'pane_exit';
  state: string;
  from?: string;
  tier?: number;
  rule?: string;
  line?: string;
  t: number;
  [k: string]: unknown;
}

/** A scratch dir per test: XDG state/config (so no user config leaks in), the event log, recordings. */
export function scratch(): { dir: string; log: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-run-'));
  return { dir, log: join(dir, 'events.jsonl'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function readLog(path: string): LogLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LogLine);
}

/** An environment for a predictable bash: no rc files' effects, no history file, the test's own XDG dirs. */
export function testEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(join(dir, 'tmux'), { recursive: true, mode: 0o700 }); // tmux wants its TMUX_TMPDIR to exist
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // No outside daemon, tmux server or pane identity leaks in: a daemon under test watches only what the test made.
  for (const k of ['PROMPT_COMMAND', 'PS0', 'BASH_ENV', 'ENV', 'TERMSUPERVISOR_PANE_ID', 'TERMSUPERVISOR_DAEMON', 'TMUX', 'TMUX_PANE']) delete env[k];
  return { ...env, TERM: 'xterm-256color', PS1: '$ ', INPUTRC: '/dev/null', HISTFILE: '/dev/null', XDG_STATE_HOME: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_RUNTIME_DIR: join(dir, 'run'), TMUX_TMPDIR: join(dir, 'tmux'), ...extra };
}

export class Wrapped {
  readonly term: IPty;
  output = '';
  exit: { exitCode: number; signal?: number } | null = null;

  constructor(readonly log: string, runArgs: string[], env: Record<string, string>, size = { cols: 100, rows: 30 }) {
    this.term = pty.spawn(process.execPath, [BIN, 'run', '--log', log, ...runArgs], { name: 'xterm-256color', ...size, cwd: ROOT, env });
    this.term.onData((d) => (this.output += d));
    this.term.onExit((e) => (this.exit = e));
  }

  events(): LogLine[] {
    return readLog(this.log);
  }

  transitions(): LogLine[] {
    return this.events().filter((e) => e.kind === 'transition');
  }

  diag = (): string => {
    const tail = this.output.slice(-600).replace(/\x1b/g, '\\e');
    return `event log:\n${this.events().map((e) => '  ' + JSON.stringify(e)).join('\n')}\nscreen output (tail):\n${tail}`;
  };

  /** Type a line like a person: the text, wait for its echo, then Enter. */
  async typeLine(text: string): Promise<void> {
    const before = this.output.length;
    this.term.write(text);
    await waitFor(`the echo of ${JSON.stringify(text)}`, () => this.output.slice(before).includes(text.slice(-12)), this.diag);
    this.term.write('\r');
  }

  /** The first transition after index `after` (in transitions()) matching `pred`; returns its index. */
  async transition(what: string, pred: (e: LogLine) => boolean, after = -1): Promise<number> {
    return waitFor(
      what,
      () => {
        const i = this.transitions().findIndex((e, idx) => idx > after && pred(e));
        return i >= 0 ? i + 1 : null; // +1 so index 0 is truthy for waitFor
      },
      this.diag,
    ).then((i) => i - 1);
  }

  async waitOutput(what: string, pred: (out: string) => boolean): Promise<void> {
    await waitFor(what, () => pred(this.output), this.diag);
  }

  async exited(): Promise<{ exitCode: number; signal?: number }> {
    return waitFor('the wrapper to exit', () => this.exit, this.diag);
  }

  kill(): void {
    if (!this.exit) this.term.kill('SIGKILL');
  }
}
