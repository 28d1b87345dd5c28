// `npm run bench -- --only daemon`: a real daemon (child process) with N pane links replaying the corpus at real
// speed, measured for CPU, resident memory and how long a transition takes to reach a dashboard websocket; then
// the same panes silent, measured for CPU again. A measurement, never a test: nothing here asserts.
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { positiveIntOption } from './options.js';
import { loadCorpus } from './corpus.js';
import { FeedClient } from './daemon-feed.js';
import { commandFor, ReplayLink } from './daemon-panes.js';
import { CpuWindow, daemonDiagnostics, memoryKb, RssSampler, startDaemonProcess, type DaemonProcess } from './daemon-proc.js';
import type { DaemonResult } from './daemon-report.js';

export interface DaemonBenchOptions {
  panes: number;
  /** Measured load window (s), after every pane has started. */
  seconds: number;
  /** Measured idle window (s), after the panes stop sending and `settleS` passes. */
  idleSeconds: number;
  /** Pane starts are spread over this long (s), so 100 recordings do not draw their first screen at once. */
  staggerS: number;
  /** Between load and the idle window (s): V8 shrinks the heap with compacting GCs ~30 s after traffic stops, a
   * one-off aftermath of the load, not the cost of idle panes. Its CPU is reported on its own (settle_cpu_pct). */
  settleS: number;
  /** Node flags for the daemon only ($BENCH_DAEMON_NODE_FLAGS, space-separated, e.g. for --cpu-prof). */
  nodeFlags?: string[];
  /** Measure the daemon's event-loop delay during the load window (a preloaded probe; off: BENCH_DAEMON_PROBE=0). */
  probe: boolean;
  /** $BENCH_DAEMON_OUTPUT: a file that gets the daemon's stdout and stderr (diagnostics such as --trace-gc). */
  outputFile?: string;
}

/** The options bench.ts accepts for this workload (values). */
export const DAEMON_VALUE_OPTIONS = ['daemon-seconds', 'daemon-panes', 'idle-seconds'];
export const DAEMON_USAGE = `  --daemon-seconds N  daemon load window (default 60)   --daemon-panes N  pane links (default 100)
  --idle-seconds N    idle window (default 60, after a 45 s settle: it spans the 30 s idle re-emit)
  BENCH_DAEMON_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/ts-daemon-prof'  profiles the daemon (written when it stops)
  BENCH_DAEMON_OUTPUT=FILE  append the daemon's stdout/stderr to FILE (with BENCH_DAEMON_NODE_FLAGS=--trace-gc, say)
  BENCH_DAEMON_PROBE=0  no event-loop probe in the daemon (it costs one 20 ms timer during the load window)`;

const DEFAULTS = { panes: 100, seconds: 60, idleSeconds: 60, staggerS: 5, settleS: 45 };
const MB = 1024; // KiB per MiB
/** The idle window is also reported in slices of this many seconds. */
const IDLE_SLICE_S = 5;

export function daemonOptions(options: Map<string, string | true>, env: NodeJS.ProcessEnv = process.env): DaemonBenchOptions {
  const int = (name: string, fallback: number) => positiveIntOption(options, name, fallback);
  return {
    panes: int('daemon-panes', DEFAULTS.panes),
    seconds: int('daemon-seconds', DEFAULTS.seconds),
    idleSeconds: int('idle-seconds', DEFAULTS.idleSeconds),
    staggerS: DEFAULTS.staggerS,
    settleS: DEFAULTS.settleS,
    probe: env['BENCH_DAEMON_PROBE'] !== '0',
    ...daemonDiagnostics(env),
  };
}

export async function runDaemonBench(o: DaemonBenchOptions, progress: (msg: string) => void): Promise<DaemonResult> {
  const corpus = loadCorpus();
  const recordings = Math.min(o.panes, corpus.recordings.length);
  progress(`daemon: starting${o.nodeFlags ? ` with node ${o.nodeFlags.join(' ')}` : ''}`);
  const d = await startDaemonProcess({ probe: o.probe, ...(o.nodeFlags && { nodeFlags: o.nodeFlags }), ...(o.outputFile && { outputFile: o.outputFile }) });
  const feed = new FeedClient();
  const links: ReplayLink[] = [];
  const starts: NodeJS.Timeout[] = [];
  const rss = new RssSampler(d.pid);
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  try {
    rss.start();
    progress(`daemon: pid ${d.pid} at ${d.url}; connecting /ws and ${o.panes} pane links`);
    await feed.connect(d.url);
    for (let i = 0; i < o.panes; i++) {
      const rec = corpus.recordings[i % corpus.recordings.length]!;
      const { width, height } = rec.cast.header;
      links.push(
        new ReplayLink({
          url: d.url,
          token: d.token,
          hello: { id: `bench-${i}`, name: `${rec.name} #${i}`, agent: 'auto', command: commandFor(rec.name), cols: width || 80, rows: height || 24 },
          cast: rec.cast,
        }),
      );
    }
    await Promise.all(links.map((l) => l.connect()));

    progress(`daemon: ${o.panes} panes attached; starting replays over ${o.staggerS} s`);
    links.forEach((l, i) => starts.push(setTimeout(() => l.start(), (i * o.staggerS * 1000) / o.panes)));
    await watch(o.staggerS * 1000, d, feed);

    progress(`daemon: measuring ${o.seconds} s of load`);
    const sent0 = totals(links);
    const benchCpu0 = process.cpuUsage();
    const benchT0 = performance.now();
    feed.record('load');
    d.probeStart();
    loopDelay.enable();
    const cpu = new CpuWindow(d.pid);
    await watch(o.seconds * 1000, d, feed);
    const load = cpu.end();
    loopDelay.disable();
    feed.record(null);
    const benchCpu = process.cpuUsage(benchCpu0);
    const benchCpuPct = ((benchCpu.user + benchCpu.system) / 1000 / (performance.now() - benchT0)) * 100;
    const sent = totals(links);
    for (const l of links) l.stop();
    const daemonLoop = await d.probe();

    progress(`daemon: panes silent; settling ${o.settleS} s, then measuring ${o.idleSeconds} s idle`);
    const settleCpu = new CpuWindow(d.pid);
    await watch(o.settleS * 1000, d, feed);
    const settle = settleCpu.end();
    feed.record('idle');
    const idleCpu = new CpuWindow(d.pid);
    // In slices too: whether the daemon quiets down or wakes up more the longer its panes stay silent.
    const idleSlices: number[] = [];
    const idleSliceWakeups: number[] = [];
    for (let left = o.idleSeconds; left > 0; left -= IDLE_SLICE_S) {
      const slice = new CpuWindow(d.pid);
      await watch(Math.min(left, IDLE_SLICE_S) * 1000, d, feed);
      const r = slice.end();
      idleSlices.push(r.pct);
      idleSliceWakeups.push(r.wakeupsPerS);
    }
    const idle = idleCpu.end();
    feed.record(null);

    const metrics = await daemonMetrics(d);
    const { hwmKb } = memoryKb(d.pid);
    rss.stop();
    const latencies = feed.samples('load');
    return {
      panes: o.panes,
      recordings,
      seconds: load.wallS,
      staggerS: o.staggerS,
      cpuPct: load.pct,
      cpuS: load.cpuS,
      rssPeakMb: rss.peakKb / MB,
      rssHwmMb: hwmKb / MB,
      rssSamples: rss.samples,
      latencies,
      outputBytes: sent.outputBytes - sent0.outputBytes,
      outputEvents: sent.outputEvents - sent0.outputEvents,
      inputEvents: sent.inputEvents - sent0.inputEvents,
      passes: sent.passes - sent0.passes,
      idlePanes: links.filter((l) => l.closedEarly === null).length,
      idleSeconds: idle.wallS,
      settleS: o.settleS,
      settleCpuPct: settle.pct,
      idleCpuPct: idle.pct,
      idleCpuS: idle.cpuS,
      idleSlicesPct: idleSlices,
      idleSlicesWakeupsPerS: idleSliceWakeups,
      daemonLoopDelay: daemonLoop,
      wakeupsPerS: load.wakeupsPerS,
      idleWakeupsPerS: idle.wakeupsPerS,
      idleTransitions: feed.samples('idle').length,
      benchLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      benchCpuPct,
      maxLinkBufferedBytes: Math.max(0, ...links.map((l) => l.maxBuffered)),
      metrics,
      loadAvg1: loadavg()[0]!,
    };
  } finally {
    rss.stop();
    loopDelay.disable();
    for (const t of starts) clearTimeout(t);
    for (const l of links) l.close();
    feed.close();
    const stopped = await d.stop();
    if (stopped.killed) progress('daemon: did not stop within the grace period after SIGTERM; killed');
  }
}

function totals(links: ReplayLink[]) {
  let outputBytes = 0;
  let outputEvents = 0;
  let inputEvents = 0;
  let passes = 0;
  for (const l of links) {
    passes += l.schedule.passes;
    outputBytes += l.outputBytes;
    outputEvents += l.outputEvents;
    inputEvents += l.inputEvents;
  }
  return { outputBytes, outputEvents, inputEvents, passes };
}

/** Waits `ms`, failing early when the daemon dies or drops the feed (the figures would be meaningless). */
async function watch(ms: number, d: DaemonProcess, feed: FeedClient): Promise<void> {
  const end = performance.now() + ms;
  for (;;) {
    const why = d.exited() ?? (feed.closed !== null ? `the daemon closed the /ws feed (${feed.closed})` : null);
    if (why) throw new Error(why);
    const left = end - performance.now();
    if (left <= 0) return;
    await new Promise((r) => setTimeout(r, Math.min(left, 250)));
  }
}

/** A few counters from the daemon's /metrics (after the run: reading them costs the daemon CPU). */
async function daemonMetrics(d: DaemonProcess): Promise<Record<string, number>> {
  try {
    const res = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } });
    const text = await res.text();
    const one = (name: string) => {
      const m = new RegExp(`^${name}(?:\\{\\})? (\\S+)$`, 'm').exec(text);
      return m ? Number(m[1]) : NaN;
    };
    let transitions = 0;
    for (const m of text.matchAll(/^termsupervisor_transitions_total\{[^}]*\} (\S+)$/gm)) transitions += Number(m[1]);
    const out: Record<string, number> = {
      store_dropped: one('termsupervisor_store_dropped_total'),
      ws_dropped: one('termsupervisor_ws_dropped_total'),
      ws_skipped: one('termsupervisor_ws_skipped_total'),
      ws_messages: one('termsupervisor_ws_messages_total'),
      transitions,
    };
    // Panes by state at the end (the idle window's mix).
    for (const m of text.matchAll(/^termsupervisor_panes\{state="([A-Z_]+)"\} (\S+)$/gm)) out[`panes_${m[1]}`] = Number(m[2]);
    return Object.fromEntries(Object.entries(out).filter(([, v]) => Number.isFinite(v)));
  } catch {
    return {};
  }
}
