// `npm run bench -- --only tmux`: a real daemon (child process) watching a real tmux server (its own socket folder,
// $TMUX_TMPDIR, so no other tmux server is touched) with N panes spread over a few sessions.
//   idle:   N bash prompts, attached and settled; the daemon's CPU (and the tmux server's) over a window.
//   stream: N panes each running `cat FIFO` under a recorded program's name, fed the corpus recordings (cycled) at
//           their own timestamps by this process; the daemon's CPU while they play, and each pane's transitions
//           compared with `replay` of the same recording without its input events (tmux never reports keys).
// A measurement, never a test: nothing here asserts.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config.js';
import { ReplaySource } from '../attach/replay-source.js';
import type { Cast } from '../attach/asciicast.js';
import { replayCast } from '../daemon/replay.js';
import { positiveIntOption } from './options.js';
import { playIntoFifos } from './fifo-player.js';
import { loadCorpus } from './corpus.js';
import { cpuSeconds, CpuWindow, daemonDiagnostics, memoryKb, startDaemonProcess, type DaemonProcess } from './daemon-proc.js';

/** Daemon CPU with the tmux panes silent, % of one core (issue 30: a silent pane costs nothing but memory). */
const TMUX_IDLE_TARGET_PCT = 0.5;

export const TMUX_VALUE_OPTIONS = ['tmux-panes', 'tmux-idle-seconds'];
export const TMUX_USAGE = `  --only tmux: a daemon watching a private tmux server: idle CPU, then recordings streamed through panes
  --tmux-panes N  panes (default 50)   --tmux-idle-seconds N  idle window (default 30, after a 10 s settle)`;

const DEFAULTS = { panes: 50, idleSeconds: 30 };
/** Panes are spread over this many sessions (one control client each), one 120x40 window per pane. */
const SESSIONS = 5;
/** After every pane is attached, before the idle window: the seeds are parsed and the first rest ticks pass. */
const SETTLE_S = 10;
/** After the last recorded event: quiet windows and stability timers finish (replay runs on 5 s). */
const STREAM_TAIL_S = 8;
/** Margin after every pane is attached before the recordings start: the seeds' replies are in. */
const SEED_MARGIN_MS = 2000;
const ATTACH_TIMEOUT_MS = 60_000;
const COLS = 120;
const ROWS = 40;

export interface TmuxBenchOptions {
  panes: number;
  idleSeconds: number;
}

export interface TmuxBenchResult {
  panes: number;
  sessions: number;
  idle: { seconds: number; cpuPct: number; wakeupsPerS: number; rssMb: number; tmuxCpuPct: number };
  stream: { seconds: number; cpuPct: number; rssMb: number; matched: number; total: number; mismatches: Array<{ pane: string; recording: string; want: string[]; got: string[] }> };
}

export function tmuxOptions(options: Map<string, string | true>): TmuxBenchOptions {
  const int = (name: string, fallback: number) => positiveIntOption(options, name, fallback);
  return { panes: int('tmux-panes', DEFAULTS.panes), idleSeconds: int('tmux-idle-seconds', DEFAULTS.idleSeconds) };
}

/** A tmux server in a throw-away socket folder. */
class BenchTmux {
  readonly dir = mkdtempSync(join(tmpdir(), 'ts-bench-tmux-'));
  readonly env: NodeJS.ProcessEnv;
  constructor() {
    this.env = { ...process.env, TMUX_TMPDIR: this.dir };
    delete this.env['TMUX'];
  }
  run(...args: string[]): string {
    return execFileSync('tmux', args, { env: this.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }
  /** One window per command, round-robin over the sessions; returns the pane ids in order. */
  build(commands: string[]): string[] {
    return commands.map((cmd, i) => {
      const s = `bench${i % SESSIONS}`;
      const out = i < SESSIONS ? this.run('-f', '/dev/null', 'new-session', '-d', '-P', '-F', '#{pane_id}', '-s', s, '-x', String(COLS), '-y', String(ROWS), cmd) : this.run('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', s, cmd);
      if (i === 0) this.run('set-option', '-g', 'default-size', `${COLS}x${ROWS}`);
      return out.trim();
    });
  }
  pid(): number {
    return Number(this.run('display-message', '-p', '#{pid}').trim());
  }
  close(): void {
    try {
      this.run('kill-server');
    } catch {
      // gone already
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The daemon, started with the bench server's socket folder as its default tmux (the only server it sees). */
async function daemonFor(t: BenchTmux): Promise<DaemonProcess> {
  const saved = { dir: process.env['TMUX_TMPDIR'], tmux: process.env['TMUX'] };
  process.env['TMUX_TMPDIR'] = t.dir;
  delete process.env['TMUX'];
  try {
    return await startDaemonProcess({ tmux: true, ...daemonDiagnostics() });
  } finally {
    if (saved.dir === undefined) delete process.env['TMUX_TMPDIR'];
    else process.env['TMUX_TMPDIR'] = saved.dir;
    if (saved.tmux !== undefined) process.env['TMUX'] = saved.tmux;
  }
}

type View = { id: string; alive: boolean; attach: string };
type Tr = { to: string; at: number };

async function attached(d: DaemonProcess, n: number): Promise<void> {
  const deadline = Date.now() + ATTACH_TIMEOUT_MS;
  for (;;) {
    const views = (await (await fetch(`${d.url}/api/panes`)).json()) as View[];
    if (views.filter((v) => v.alive && v.attach === 'tmux').length >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${views.filter((v) => v.alive).length} of ${n} tmux panes attached after ${ATTACH_TIMEOUT_MS / 1000} s`);
    await sleep(500);
  }
}

export async function runTmuxBench(o: TmuxBenchOptions, progress: (msg: string) => void): Promise<TmuxBenchResult> {
  const idle = await idlePhase(o, progress);
  const stream = await streamPhase(o, progress);
  return { panes: o.panes, sessions: Math.min(SESSIONS, o.panes), idle, stream };
}

async function idlePhase(o: TmuxBenchOptions, progress: (msg: string) => void): Promise<TmuxBenchResult['idle']> {
  const t = new BenchTmux();
  let d: DaemonProcess | null = null;
  try {
    progress(`tmux idle: ${o.panes} bash panes in ${Math.min(SESSIONS, o.panes)} sessions`);
    t.build(Array.from({ length: o.panes }, () => "env PS1='$ ' bash --norc --noprofile"));
    d = await daemonFor(t);
    await attached(d, o.panes);
    progress(`tmux idle: all attached; settling ${SETTLE_S} s, then measuring ${o.idleSeconds} s`);
    await sleep(SETTLE_S * 1000);
    const tmuxPid = t.pid();
    const tmux0 = cpuSeconds(tmuxPid);
    const w = new CpuWindow(d.pid);
    await sleep(o.idleSeconds * 1000);
    const r = w.end();
    const tmuxCpu = ((cpuSeconds(tmuxPid) - tmux0) / r.wallS) * 100;
    return { seconds: round(r.wallS), cpuPct: round(r.pct, 3), wakeupsPerS: round(r.wakeupsPerS), rssMb: round(memoryKb(d.pid).rssKb / 1024), tmuxCpuPct: round(tmuxCpu, 3) };
  } finally {
    await d?.stop();
    t.close();
  }
}

async function streamPhase(o: TmuxBenchOptions, progress: (msg: string) => void): Promise<TmuxBenchResult['stream']> {
  const corpus = loadCorpus().recordings;
  const cfg = loadConfig();
  const t = new BenchTmux();
  let d: DaemonProcess | null = null;
  const fds: number[] = [];
  try {
    const plays: Array<{ name: string; cast: Cast; want: string[]; fifo: string; pane: string }> = [];
    for (let i = 0; i < o.panes; i++) {
      const rec = corpus[i % corpus.length]!;
      const cast: Cast = { ...rec.cast, events: rec.cast.events.filter((e) => e.code === 'o') };
      const want = (await replayCast(new ReplaySource(cast, rec.name), cfg, 'auto')).transitions.map((tr) => tr.to);
      const fifo = join(t.dir, `pane-${i}.fifo`);
      execFileSync('mkfifo', [fifo]);
      plays.push({ name: rec.name, cast, want, fifo, pane: '' });
    }
    // `cat` under the recorded program's name (what tmux reports as the pane's command), output bytes unchanged.
    const program = (name: string) => (name.startsWith('shell-') ? 'bash' : name.split('-')[0]!);
    const panes = t.build(plays.map((p) => `bash -c 'stty raw -echo; exec -a ${program(p.name)} cat ${p.fifo}'`));
    panes.forEach((pane, i) => (plays[i]!.pane = pane));
    progress(`tmux stream: ${o.panes} panes playing ${Math.min(o.panes, corpus.length)} recordings (cycled)`);
    d = await daemonFor(t);
    await attached(d, o.panes);
    await sleep(SEED_MARGIN_MS);
    for (const p of plays) fds.push(openSync(p.fifo, constants.O_WRONLY | constants.O_NONBLOCK));

    const started = Date.now();
    const w = new CpuWindow(d.pid);
    const { lastS: last, peakKb } = await playIntoFifos(plays, fds, d.pid);
    progress(`tmux stream: played ${last.toFixed(1)} s of recordings; ${STREAM_TAIL_S} s for the last decisions`);
    await sleep(STREAM_TAIL_S * 1000);
    const cpu = w.end();
    const mismatches: TmuxBenchResult['stream']['mismatches'] = [];
    // A tmux pane's id carries its server's run (`tmux:default@<pid>-<start>:%3`): found by its tmux pane id.
    const ids = ((await (await fetch(`${d.url}/api/panes`)).json()) as Array<{ id: string; alive: boolean }>).filter((p) => p.alive && p.id.startsWith('tmux:default@')).map((p) => p.id);
    const key = (pane: string) => encodeURIComponent(ids.find((id) => id.endsWith(`:${pane}`)) ?? `tmux:default:${pane}`);
    for (const p of plays) {
      const trs = (await (await fetch(`${d.url}/api/panes/${key(p.pane)}/transitions?limit=1000`)).json()) as Tr[];
      const got = trs.reverse().filter((tr) => tr.at >= started).map((tr) => tr.to);
      if (got.join() !== p.want.join()) mismatches.push({ pane: p.pane, recording: p.name, want: p.want, got });
    }
    return { seconds: round(cpu.wallS), cpuPct: round(cpu.pct, 2), rssMb: round(peakKb / 1024), matched: plays.length - mismatches.length, total: plays.length, mismatches };
  } finally {
    for (const fd of fds) closeSync(fd);
    await d?.stop();
    t.close();
  }
}

export function tmuxLines(r: TmuxBenchResult): string {
  const lines = [
    `tmux: a daemon watching ${r.panes} tmux panes in ${r.sessions} sessions (one control client per session)`,
    `  idle   ${r.idle.seconds} s: daemon ${r.idle.cpuPct}% of one core (target < ${TMUX_IDLE_TARGET_PCT}%), ${r.idle.wakeupsPerS} wakeups/s, RSS ${r.idle.rssMb} MB; tmux server ${r.idle.tmuxCpuPct}%`,
    `  stream ${r.stream.seconds} s: daemon ${r.stream.cpuPct}% of one core, peak RSS ${r.stream.rssMb} MB; states equal to replay in ${r.stream.matched}/${r.stream.total} panes`,
  ];
  for (const m of r.stream.mismatches) lines.push(`    ${m.pane} ${m.recording}: replay ${m.want.join(' ') || '(none)'} | tmux ${m.got.join(' ') || '(none)'}`);
  return lines.join('\n');
}

export function tmuxJson(r: TmuxBenchResult): Record<string, number | boolean> {
  return {
    tmux_panes: r.panes,
    tmux_idle_cpu_pct: r.idle.cpuPct,
    tmux_idle_wakeups_per_s: r.idle.wakeupsPerS,
    tmux_idle_rss_mb: r.idle.rssMb,
    tmux_server_idle_cpu_pct: r.idle.tmuxCpuPct,
    tmux_idle_meets_target: r.idle.cpuPct < TMUX_IDLE_TARGET_PCT,
    tmux_stream_cpu_pct: r.stream.cpuPct,
    tmux_stream_peak_rss_mb: r.stream.rssMb,
    tmux_stream_states_matched: r.stream.matched,
    tmux_stream_states_total: r.stream.total,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
