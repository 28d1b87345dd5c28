// A real `termsupervisor daemon` process for end-to-end tests: its own XDG dirs and a free port, started from
// the built CLI, read through its printed link and its files. Stopped (or killed) by the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterEach } from 'vitest';
import { BIN, ROOT, testEnv, waitFor } from './harness.js';

/** What the daemon prints when it is ready. */
const READY = /termsupervisor: dashboard (http:\/\/[^/\s]+)\/auth\?code=(\S+)/;

export interface DaemonDirs {
  dir: string;
  env: Record<string, string>;
  db: string;
  cleanup(): void;
}

export function daemonDirs(): DaemonDirs {
  const dir = mkdtempSync(join(tmpdir(), 'ts-daemon-'));
  mkdirSync(join(dir, 'run'), { recursive: true, mode: 0o700 });
  return { dir, env: testEnv(dir), db: join(dir, 'history.sqlite'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A termsupervisor command line to run, and the directory to run it in. */
export interface ProgramAt {
  argv: string[];
  cwd: string;
}

export class DaemonProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  url = '';
  code = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /** `program`: the command to start (default this checkout's bin); an installed copy is tested this way too. */
  constructor(readonly dirs: DaemonDirs, args: string[] = [], program: ProgramAt = { argv: [process.execPath, BIN], cwd: ROOT }) {
    this.child = spawn(program.argv[0]!, [...program.argv.slice(1), 'daemon', '--port', '0', '--db', dirs.db, ...args], { cwd: program.cwd, env: dirs.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  static async start(dirs: DaemonDirs, args: string[] = [], program?: ProgramAt): Promise<DaemonProcess> {
    const d = new DaemonProcess(dirs, args, program);
    let done = false;
    void d.exited.then(() => (done = true));
    const m = await waitFor('the daemon to print its dashboard link', () => READY.exec(d.stdout) ?? (done ? ({} as RegExpExecArray) : null), () => d.diag());
    if (!m[1]) throw new Error(`daemon exited before it was ready\n${d.diag()}`);
    d.url = m[1];
    d.code = m[2]!;
    return d;
  }

  get token(): string {
    return readFileSync(join(this.dirs.dir, 'config', 'termsupervisor', 'token'), 'utf8').trim();
  }

  get runtimeFile(): string {
    return join(this.dirs.dir, 'run', 'termsupervisor', 'daemon.json');
  }

  async get<T>(path: string): Promise<T> {
    const r = await fetch(this.url + path);
    if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  }

  async post(path: string, token: string | null): Promise<Response> {
    return fetch(this.url + path, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {} });
  }

  /** A /ws client collecting every message. */
  async feed(): Promise<{ ws: WebSocket; messages: Array<{ type: string; [k: string]: unknown }> }> {
    const ws = new WebSocket(this.url.replace('http', 'ws') + '/ws');
    const messages: Array<{ type: string; [k: string]: unknown }> = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { ws, messages };
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  diag(): string {
    return `daemon stdout:\n${this.stdout}\ndaemon stderr:\n${this.stderr}`;
  }

  runtimeFileExists(): boolean {
    return existsSync(this.runtimeFile);
  }
}

/** A `run` wrapper without a terminal: its stdin is a pipe the test types into; `out` collects what it prints. */
export function runWrapper(d: DaemonDirs, args: string[], command: string[]): ChildProcess & { out: string } {
  const child = spawn(process.execPath, [BIN, 'run', '--log', `${d.dir}/events.jsonl`, ...args, '--', ...command], { cwd: ROOT, env: d.env, stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcess & { out: string };
  child.out = '';
  child.stdout!.on('data', (b: Buffer) => (child.out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (child.out += b.toString()));
  return child;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a CLI command to its end (`argv[0]` a program, e.g. node with the bin) and collects what it printed. */
export function runCli(argv: string[], env: Record<string, string>, cwd = ROOT): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const c = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    c.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    c.on('error', reject);
    c.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** waitFor for conditions that need an await (an HTTP read); polls until the probe gives a value. */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, diag: () => string = () => '', timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${diag()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Per-test cleanup for daemon tests: `dirs()` makes scratch XDG dirs and `cleanups` takes anything else to undo
 * (processes to kill); everything runs after each test, newest first.
 */
export function daemonScratch(): { cleanups: Array<() => Promise<void> | void>; dirs: () => DaemonDirs } {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    cleanups,
    dirs: () => {
      const d = daemonDirs();
      cleanups.push(() => d.cleanup());
      return d;
    },
  };
}
