// `npm run bench -- --only remote`: one daemon following N local tmux panes and N panes of another tmux server
// reached through a real sshd on 127.0.0.1 (ssh -> sshd -> tmux control mode), every pane playing a corpus
// recording (cycled) at its own timestamps, all in the same run. Reported: the daemon's CPU and peak RSS, the ssh
// processes' CPU (the price of the link, outside the daemon), and transition -> /ws latency p50/p99 for the local
// and the ssh panes separately. A measurement, never a test: nothing here asserts.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Cast } from '../attach/asciicast.js';
import { positiveIntOption } from './options.js';
import { playIntoFifos } from './fifo-player.js';
import { loadCorpus } from './corpus.js';
import { cpuSeconds, CpuWindow, startDaemonProcess, type DaemonProcess } from './daemon-proc.js';
import { FeedClient } from './daemon-feed.js';
import { percentile } from './daemon-report.js';
import { BenchSshd, sshdMissing } from './bench-sshd.js';

export const REMOTE_VALUE_OPTIONS = ['remote-panes'];
export const REMOTE_USAGE = `  --only remote: N local tmux panes and N panes of a tmux server reached through sshd on 127.0.0.1, streaming
  --remote-panes N  panes on each side (default 50)`;

const DEFAULT_PANES = 50;
/** Panes are spread over this many sessions per server (one control client each; sshd's MaxSessions is 10). */
const SESSIONS = 5;
const COLS = 120;
const ROWS = 40;
const ATTACH_TIMEOUT_MS = 90_000;
/** After every pane is attached, before the recordings start: the seeds' replies are in. */
const SEED_MARGIN_MS = 3000;
/** After the last recorded event: quiet windows and stability timers finish. */
const STREAM_TAIL_S = 8;

export interface RemoteBenchResult {
  panes: number;
  seconds: number;
  daemonCpuPct: number;
  daemonPeakRssMb: number;
  sshCpuPct: number;
  local: { transitions: number; p50Ms: number; p99Ms: number };
  ssh: { transitions: number; p50Ms: number; p99Ms: number };
}

export function remoteOptions(options: Map<string, string | true>): { panes: number } {
  return { panes: positiveIntOption(options, 'remote-panes', DEFAULT_PANES) };
}

/** A tmux server in a throw-away socket folder. */
class Server {
  readonly dir = mkdtempSync(join(tmpdir(), 'ts-bench-remote-'));
  /** Where tmux looks for its default server with TMUX_TMPDIR=dir: the daemon finds the local one there. */
  readonly socket = join(this.dir, `tmux-${process.getuid?.() ?? 0}`, 'default');
  constructor() {
    mkdirSync(dirname(this.socket), { mode: 0o700 });
  }
  run(...args: string[]): string {
    const env = { ...process.env };
    delete env['TMUX'];
    return execFileSync('tmux', ['-S', this.socket, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }
  build(commands: string[]): void {
    commands.forEach((cmd, i) => {
      const s = `bench${i % SESSIONS}`;
      if (i < SESSIONS) this.run('-f', '/dev/null', 'new-session', '-d', '-s', s, '-x', String(COLS), '-y', String(ROWS), cmd);
      else this.run('new-window', '-d', '-t', s, cmd);
      if (i === 0) this.run('set-option', '-g', 'default-size', `${COLS}x${ROWS}`);
    });
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

interface Play {
  cast: Cast;
  fifo: string;
}

function plays(server: Server, n: number): Play[] {
  const corpus = loadCorpus().recordings;
  return Array.from({ length: n }, (_, i) => {
    const rec = corpus[i % corpus.length]!;
    const fifo = join(server.dir, `pane-${i}.fifo`);
    execFileSync('mkfifo', [fifo]);
    return { cast: { ...rec.cast, events: rec.cast.events.filter((e) => e.code === 'o') }, fifo };
  });
}

function commands(ps: Play[], names: string[]): string[] {
  // `cat` under the recorded program's name (what tmux reports as the pane's command), output bytes unchanged.
  const program = (name: string) => (name.startsWith('shell-') ? 'bash' : name.split('-')[0]!);
  return ps.map((p, i) => `bash -c 'stty raw -echo; exec -a ${program(names[i]!)} cat ${p.fifo}'`);
}

async function attached(d: DaemonProcess, n: number): Promise<void> {
  const deadline = Date.now() + ATTACH_TIMEOUT_MS;
  for (;;) {
    const views = (await (await fetch(`${d.url}/api/panes`)).json()) as Array<{ alive: boolean; attach: string }>;
    const local = views.filter((v) => v.alive && v.attach === 'tmux').length;
    const ssh = views.filter((v) => v.alive && v.attach === 'ssh').length;
    if (local >= n && ssh >= n) return;
    if (Date.now() > deadline) throw new Error(`after ${ATTACH_TIMEOUT_MS / 1000} s only ${local} local and ${ssh} ssh panes of ${n} each attached`);
    await sleep(500);
  }
}

/** CPU seconds of every ssh process of this run (the shared master and its mux clients name the control folder). */
function sshCpuSeconds(marker: string): number {
  let total = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (!readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker)) continue;
      total += cpuSeconds(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export async function runRemoteBench(o: { panes: number }, progress: (msg: string) => void): Promise<RemoteBenchResult> {
  const missing = sshdMissing();
  if (missing) throw new Error(`the remote bench needs sshd: ${missing}`);
  const local = new Server();
  const remote = new Server();
  const sshDir = mkdtempSync(join(tmpdir(), 'ts-bench-sshd-'));
  let sshd: BenchSshd | null = null;
  let d: DaemonProcess | null = null;
  const feed = new FeedClient();
  const fds: number[] = [];
  try {
    sshd = await BenchSshd.start(sshDir);
    const names = loadCorpus().recordings.map((r) => r.name);
    const cycled = Array.from({ length: o.panes }, (_, i) => names[i % names.length]!);
    const lp = plays(local, o.panes);
    const rp = plays(remote, o.panes);
    local.build(commands(lp, cycled));
    remote.build(commands(rp, cycled));
    progress(`remote: ${o.panes} local tmux panes and ${o.panes} through sshd on 127.0.0.1:${sshd.port}`);
    const saved = process.env['TMUX_TMPDIR'];
    process.env['TMUX_TMPDIR'] = local.dir; // the daemon's default tmux server is found there…
    try {
      d = await startDaemonProcess({
        tmux: true,
        config: {
          ssh: { ssh_command: sshd.sshCommand },
          remotes: [{ name: 'benchhost', destination: sshd.destination, identity_file: sshd.key, socket: remote.socket }],
        },
      });
    } finally {
      if (saved === undefined) delete process.env['TMUX_TMPDIR'];
      else process.env['TMUX_TMPDIR'] = saved;
    }
    await attached(d, o.panes);
    await sleep(SEED_MARGIN_MS);
    await feed.connect(d.url);
    feed.group = (id) => (id.startsWith('benchhost:') ? 'ssh' : 'local');
    for (const p of [...lp, ...rp]) fds.push(openSync(p.fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    const all = [...lp, ...rp];
    feed.record('stream');
    const w = new CpuWindow(d.pid);
    const ssh0 = sshCpuSeconds(d.dir);
    const { lastS: last, peakKb } = await playIntoFifos(all, fds, d.pid);
    progress(`remote: played ${last.toFixed(1)} s of recordings; ${STREAM_TAIL_S} s for the last decisions`);
    await sleep(STREAM_TAIL_S * 1000);
    const cpu = w.end();
    const sshCpu = sshCpuSeconds(d.dir) - ssh0;
    feed.record(null);
    const figures = (xs: number[]) => ({ transitions: xs.length, p50Ms: round(percentile(xs, 50)), p99Ms: round(percentile(xs, 99)) });
    return {
      panes: o.panes,
      seconds: round(cpu.wallS),
      daemonCpuPct: round(cpu.pct, 2),
      daemonPeakRssMb: round(peakKb / 1024),
      sshCpuPct: round((sshCpu / cpu.wallS) * 100, 2),
      local: figures(feed.samples('stream:local')),
      ssh: figures(feed.samples('stream:ssh')),
    };
  } finally {
    feed.close();
    for (const fd of fds) closeSync(fd);
    await d?.stop();
    sshd?.stop();
    local.close();
    remote.close();
    rmSync(sshDir, { recursive: true, force: true });
  }
}

export function remoteLines(r: RemoteBenchResult): string {
  return [
    `remote: one daemon, ${r.panes} local tmux panes + ${r.panes} tmux panes through ssh (sshd on 127.0.0.1), ${r.seconds} s of recordings streamed`,
    `  daemon ${r.daemonCpuPct}% of one core, peak RSS ${r.daemonPeakRssMb} MB; ssh processes ${r.sshCpuPct}% of one core`,
    `  transition -> /ws  local: p50 ${r.local.p50Ms} ms, p99 ${r.local.p99Ms} ms (${r.local.transitions} transitions)`,
    `  transition -> /ws  ssh:   p50 ${r.ssh.p50Ms} ms, p99 ${r.ssh.p99Ms} ms (${r.ssh.transitions} transitions)`,
  ].join('\n');
}

export function remoteJson(r: RemoteBenchResult): Record<string, number> {
  return {
    remote_panes_each: r.panes,
    remote_daemon_cpu_pct: r.daemonCpuPct,
    remote_daemon_peak_rss_mb: r.daemonPeakRssMb,
    remote_ssh_cpu_pct: r.sshCpuPct,
    remote_local_ws_p50_ms: r.local.p50Ms,
    remote_local_ws_p99_ms: r.local.p99Ms,
    remote_ssh_ws_p50_ms: r.ssh.p50Ms,
    remote_ssh_ws_p99_ms: r.ssh.p99Ms,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
