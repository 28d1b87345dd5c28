// The daemon under load, as a child process: started from bin/termsupervisor in a throw-away XDG tree, measured
// from /proc (its CPU and resident memory, never ours), and always stopped — SIGTERM, then SIGKILL after a bound —
// with its temp folder removed, even when the bench fails or is interrupted.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProbeFigures } from './daemon-probe.js';

/** From dist/bench/ (or src/bench/) up to the repository's launcher. */
export const BIN_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'termsupervisor');
/** The event-loop probe preloaded into the daemon (built next to this file). */
const PROBE_PATH = join(dirname(fileURLToPath(import.meta.url)), 'daemon-probe.js');
const PROBE_WAIT_MS = 3000;
/** The daemon prints its one-time dashboard link once it listens. */
const READY_LINE = /termsupervisor: dashboard (https?:\/\/[^\s/]+)\/auth\?code=/;
const START_TIMEOUT_MS = 20_000;
/** After SIGTERM the daemon flushes history and exits; past this it is killed. */
const STOP_GRACE_MS = 5_000;
/** Kept of the daemon's stdout/stderr, for the error message when it fails to start or dies. */
const MAX_OUTPUT_CHARS = 8192;
/**
 * The bench's departures from the shipped defaults: no desktop notifications (100 replayed agents would pop up
 * a notify-send every few seconds on the machine running the bench, and spawn a process for each), and no tmux
 * attach (the person's own tmux panes are not part of the measured load).
 */
export const BENCH_DAEMON_CONFIG = { notify: { desktop: false }, tmux: { enabled: false } };

// ---- /proc ------------------------------------------------------------------------------------------------

let clockTicks: number | null = null;
/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on every common Linux). */
export function clkTck(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime + stime (all threads) in clock ticks, from the text of /proc/<pid>/stat. */
export function parseStatTicks(stat: string): number {
  // The command name (field 2) is in parentheses and may hold spaces or ')': count fields after the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`unreadable /proc stat line: ${stat.slice(0, 80)}`);
  return utime + stime;
}

/** A `Key:   123 kB` field of /proc/<pid>/status, in KiB (NaN when absent). */
export function parseStatusKb(status: string, key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return m ? Number(m[1]) : NaN;
}

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid: number): number {
  return parseStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) / clkTck();
}

/** Times the main thread gave up the CPU by itself (woke up, did its work, slept again): its wakeups. */
export function voluntarySwitches(pid: number): number {
  const m = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

export function memoryKb(pid: number): { rssKb: number; hwmKb: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssKb: parseStatusKb(s, 'VmRSS'), hwmKb: parseStatusKb(s, 'VmHWM') };
}

/** A CPU window: `% of one core` = CPU seconds used / wall seconds elapsed × 100. */
export class CpuWindow {
  private readonly cpu0: number;
  private readonly switches0: number;
  private readonly t0 = performance.now();
  constructor(private readonly pid: number) {
    this.cpu0 = cpuSeconds(pid);
    this.switches0 = voluntarySwitches(pid);
  }
  end(): { cpuS: number; wallS: number; pct: number; wakeupsPerS: number } {
    const cpuS = cpuSeconds(this.pid) - this.cpu0;
    const wakeups = voluntarySwitches(this.pid) - this.switches0;
    const wallS = (performance.now() - this.t0) / 1000;
    return { cpuS, wallS, pct: (cpuS / wallS) * 100, wakeupsPerS: wakeups / wallS };
  }
}

/** Resident memory sampled on a timer (every 0.5 s by default); the peak of the samples is the figure. */
export class RssSampler {
  peakKb = 0;
  samples = 0;
  private timer: NodeJS.Timeout | null = null;
  constructor(private readonly pid: number, private readonly everyMs = 500) {}
  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
  private sample(): void {
    try {
      const { rssKb } = memoryKb(this.pid);
      if (Number.isFinite(rssKb)) this.peakKb = Math.max(this.peakKb, rssKb);
      this.samples++;
    } catch {
      // the process is gone: the caller finds out from its exit
    }
  }
}

// ---- the child ------------------------------------------------------------------------------------------

export interface DaemonProcess {
  pid: number;
  /** http://127.0.0.1:PORT */
  url: string;
  token: string;
  /** The temp folder (XDG dirs, database); removed by stop() unless keepDir. */
  dir: string;
  /** Why the daemon died early, or null while it runs. */
  exited(): string | null;
  /** Starts the event-loop probe (no-op without one). */
  probeStart(): void;
  /** Stops the event-loop probe and returns what it measured (null without a probe, or when it did not answer). */
  probe(): Promise<ProbeFigures | null>;
  /** SIGTERM, then SIGKILL after a bound; removes the temp folder. Safe to call more than once. */
  stop(): Promise<{ code: number | null; signal: string | null; killed: boolean }>;
}

/** The daemon's diagnostics a bench run asks for in its environment: $BENCH_DAEMON_NODE_FLAGS (space-separated node
 * flags, e.g. --cpu-prof or --trace-gc) and $BENCH_DAEMON_OUTPUT (a file for its stdout and stderr). */
export function daemonDiagnostics(env: NodeJS.ProcessEnv = process.env): Pick<StartOptions, 'nodeFlags' | 'outputFile'> {
  const nodeFlags = env['BENCH_DAEMON_NODE_FLAGS']?.split(/\s+/).filter(Boolean);
  const outputFile = env['BENCH_DAEMON_OUTPUT'];
  return { ...(nodeFlags?.length && { nodeFlags }), ...(outputFile && { outputFile }) };
}

export interface StartOptions {
  /** Node flags for the daemon only, before its script (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`, which NODE_OPTIONS refuses). */
  nodeFlags?: string[];
  /** Preload the event-loop probe (src/bench/daemon-probe.ts). */
  probe?: boolean;
  /** Also append the daemon's stdout and stderr here (e.g. with --trace-gc). */
  outputFile?: string;
  /** Let the daemon attach to tmux (the tmux workload, on its own private server); off otherwise. */
  tmux?: boolean;
  /** More of the daemon's config (the remote bench's `remotes` and `ssh`). */
  config?: Record<string, unknown>;
}

/** Children not yet stopped: killed synchronously if the bench exits or is interrupted before stop(). */
const live = new Set<{ child: ChildProcess; dir: string }>();
let guardsInstalled = false;

function installGuards(): void {
  if (guardsInstalled) return;
  guardsInstalled = true;
  const killAll = () => {
    for (const l of live) {
      if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill('SIGKILL');
      rmSync(l.dir, { recursive: true, force: true });
    }
    live.clear();
  };
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      process.stderr.write(`bench: ${sig}: stopping the daemon\n`);
      killAll();
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

export async function startDaemonProcess(o: StartOptions = {}): Promise<DaemonProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'ts-bench-daemon-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
  };
  delete env['NODE_OPTIONS'];
  delete env['TERMSUPERVISOR_DAEMON'];
  const probeFile = join(dir, 'probe.json');
  const flags = [...(o.nodeFlags ?? [])];
  if (o.probe && existsSync(PROBE_PATH)) {
    env['BENCH_DAEMON_PROBE_FILE'] = probeFile;
    flags.push('--import', pathToFileURL(PROBE_PATH).href);
  }
  const cfgPath = join(dir, 'bench-config.json');
  writeFileSync(cfgPath, JSON.stringify({ ...BENCH_DAEMON_CONFIG, tmux: { enabled: o.tmux ?? false }, ...o.config }) + '\n');

  installGuards();
  const child = spawn(process.execPath, [...flags, BIN_PATH, 'daemon', '--port', '0', '--db', join(dir, 'db.sqlite'), '--config', cfgPath], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const entry = { child, dir };
  live.add(entry);
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString('utf8')).slice(-MAX_OUTPUT_CHARS);
  };
  child.stderr!.on('data', keep);
  if (o.outputFile) {
    const copy = createWriteStream(o.outputFile, { flags: 'a' });
    copy.on('error', () => {});
    child.stdout!.pipe(copy);
    child.stderr!.pipe(copy);
  }
  let exitReason: string | null = null;
  const exitedP = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      exitReason = `daemon exited (code ${code}, signal ${signal})${output.trim() ? `: ${output.trim().slice(-500)}` : ''}`;
      resolve({ code, signal });
    });
  });
  child.on('error', (e) => {
    exitReason = `daemon could not start: ${e.message}`;
  });

  let stopped: Promise<{ code: number | null; signal: string | null; killed: boolean }> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      let killed = false;
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        child.kill('SIGTERM');
        const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), STOP_GRACE_MS).unref());
        if ((await Promise.race([exitedP, timer])) === 'timeout') {
          killed = true;
          child.kill('SIGKILL');
        }
      }
      const r = child.pid === undefined ? { code: null, signal: null } : await exitedP;
      live.delete(entry);
      rmSync(dir, { recursive: true, force: true });
      return { ...r, killed };
    })());

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`daemon did not print its dashboard link within ${START_TIMEOUT_MS / 1000} s: ${output.trim().slice(-500)}`)), START_TIMEOUT_MS);
      let line: string | null = '';
      child.stdout!.on('data', (b: Buffer) => {
        keep(b);
        if (line === null) return;
        line += b.toString('utf8');
        const m = READY_LINE.exec(line);
        if (m) {
          clearTimeout(timer);
          line = null;
          resolve(m[1]!);
        }
      });
      child.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(exitReason ?? 'daemon exited'));
      });
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    const token = readFileSync(join(dir, 'config', 'termsupervisor', 'token'), 'utf8').trim();
    const probe = async (): Promise<ProbeFigures | null> => {
      if (!env['BENCH_DAEMON_PROBE_FILE'] || exitReason) return null;
      rmSync(probeFile, { force: true }); // a window before this one left its figures
      child.kill('SIGUSR2');
      for (let waited = 0; waited < PROBE_WAIT_MS; waited += 50) {
        await new Promise((r) => setTimeout(r, 50));
        try {
          return JSON.parse(readFileSync(probeFile, 'utf8')) as ProbeFigures;
        } catch {
          // not written yet
        }
      }
      return null;
    };
    const probeStart = () => {
      if (env['BENCH_DAEMON_PROBE_FILE'] && !exitReason) child.kill('SIGUSR2');
    };
    return { pid: child.pid!, url, token, dir, exited: () => exitReason, probeStart, probe, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
