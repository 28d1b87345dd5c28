// The daemon load bench's figures: targets, percentiles, the human lines and the keys merged into --json.
import type { ProbeFigures } from './daemon-probe.js';
import { round } from './report.js';

/** The targets (issue 30, "cheap to leave running": a laptop runs the daemon all day). */
export const DAEMON_TARGETS = {
  /** Daemon CPU with the panes replaying, % of one core. */
  cpuPct: 15,
  /** Daemon peak resident memory, MB. */
  rssMb: 200,
  /** Transition → dashboard websocket client, 99th percentile, ms. */
  latencyP99Ms: 50,
  /** Daemon CPU with the same panes connected and silent, % of one core: a silent pane costs nothing but memory. */
  idleCpuPct: 0.5,
} as const;

export interface DaemonResult {
  panes: number;
  recordings: number;
  /** Measured load window (wall seconds). */
  seconds: number;
  staggerS: number;
  cpuPct: number;
  cpuS: number;
  rssPeakMb: number;
  rssHwmMb: number;
  rssSamples: number;
  /** Transition delays (ms) received during the load window. */
  latencies: number[];
  /** Output sent by the panes during the load window. */
  outputBytes: number;
  outputEvents: number;
  inputEvents: number;
  /** Recording passes completed by all panes during the load window (loops). */
  passes: number;
  idlePanes: number;
  idleSeconds: number;
  settleS: number;
  /** CPU while settling between load and idle (the post-load heap shrink lands here). */
  settleCpuPct: number;
  idleCpuPct: number;
  idleCpuS: number;
  /** Idle CPU % per consecutive slice of the idle window. */
  idleSlicesPct: number[];
  idleSlicesWakeupsPerS: number[];
  /** The daemon's own event-loop delay during the load window (null: no probe). */
  daemonLoopDelay: ProbeFigures | null;
  /** The daemon's main thread going to sleep and waking again, per second (voluntary context switches). */
  wakeupsPerS: number;
  idleWakeupsPerS: number;
  idleTransitions: number;
  /** The bench process's own event-loop delay p99 during the window (ms): its share of any latency. */
  benchLoopDelayP99Ms: number;
  /** The bench process's own CPU during the load window (% of one core): it shares the machine. */
  benchCpuPct: number;
  /** Largest socket backlog of any pane link (bytes): the daemon not keeping up with reading. */
  maxLinkBufferedBytes: number;
  /** From the daemon's /metrics after the run. */
  metrics: Record<string, number>;
  loadAvg1: number;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length, Math.max(1, rank)) - 1]!;
}

export function daemonMeets(r: DaemonResult) {
  const p99 = percentile(r.latencies, 99);
  return {
    cpu: r.cpuPct < DAEMON_TARGETS.cpuPct,
    rss: r.rssPeakMb < DAEMON_TARGETS.rssMb,
    // No transitions at all is not a pass: nothing was measured.
    latency: r.latencies.length > 0 && p99 < DAEMON_TARGETS.latencyP99Ms,
    idleCpu: r.idleCpuPct < DAEMON_TARGETS.idleCpuPct,
  };
}

const num = (x: number, digits: number): number | null => (Number.isFinite(x) ? round(x, digits) : null);

/** The keys merged into `npm run bench -- --json`. */
export function daemonJson(r: DaemonResult): Record<string, number | boolean | null> {
  const meets = daemonMeets(r);
  return {
    daemon_panes: r.panes,
    daemon_seconds: round(r.seconds, 1),
    daemon_cpu_pct: round(r.cpuPct, 2),
    daemon_rss_peak_mb: round(r.rssPeakMb, 1),
    ws_latency_p50_ms: num(percentile(r.latencies, 50), 1),
    ws_latency_p99_ms: num(percentile(r.latencies, 99), 1),
    ws_latency_max_ms: num(percentile(r.latencies, 100), 1),
    ws_transitions: r.latencies.length,
    idle_panes: r.idlePanes,
    idle_cpu_pct: round(r.idleCpuPct, 2),
    daemon_cpu_target_pct: DAEMON_TARGETS.cpuPct,
    daemon_rss_target_mb: DAEMON_TARGETS.rssMb,
    ws_latency_p99_target_ms: DAEMON_TARGETS.latencyP99Ms,
    idle_cpu_target_pct: DAEMON_TARGETS.idleCpuPct,
    daemon_cpu_meets: meets.cpu,
    daemon_rss_meets: meets.rss,
    ws_latency_meets: meets.latency,
    idle_cpu_meets: meets.idleCpu,
    daemon_meets_targets: meets.cpu && meets.rss && meets.latency && meets.idleCpu,
    // Context for the figures above.
    daemon_recordings: r.recordings,
    daemon_stagger_s: r.staggerS,
    daemon_cpu_s: round(r.cpuS, 2),
    daemon_rss_hwm_mb: round(r.rssHwmMb, 1),
    daemon_output_mb: round(r.outputBytes / (1 << 20), 2),
    daemon_output_kb_s: round(r.outputBytes / 1024 / r.seconds, 1),
    daemon_output_events: r.outputEvents,
    daemon_input_events: r.inputEvents,
    daemon_recording_passes: r.passes,
    daemon_max_link_buffered_bytes: r.maxLinkBufferedBytes,
    idle_seconds: round(r.idleSeconds, 1),
    idle_settle_s: r.settleS,
    settle_cpu_pct: round(r.settleCpuPct, 2),
    idle_cpu_s: round(r.idleCpuS, 3),
    idle_transitions: r.idleTransitions,
    daemon_wakeups_per_s: round(r.wakeupsPerS, 1),
    idle_wakeups_per_s: round(r.idleWakeupsPerS, 1),
    ws_latency_mean_ms: num(r.latencies.reduce((a, b) => a + b, 0) / r.latencies.length, 1),
    bench_loop_delay_p99_ms: round(r.benchLoopDelayP99Ms, 1),
    daemon_loop_delay_p99_ms: r.daemonLoopDelay ? round(r.daemonLoopDelay.p99Ms, 1) : null,
    daemon_loop_delay_max_ms: r.daemonLoopDelay ? round(r.daemonLoopDelay.maxMs, 1) : null,
    bench_cpu_pct: round(r.benchCpuPct, 1),
    daemon_store_dropped: r.metrics['store_dropped'] ?? null,
    daemon_ws_dropped: r.metrics['ws_dropped'] ?? null,
    daemon_ws_skipped: r.metrics['ws_skipped'] ?? null,
    load_avg_1m: round(r.loadAvg1, 2),
  };
}

export function daemonLines(r: DaemonResult): string {
  const meets = daemonMeets(r);
  const mark = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');
  const p50 = percentile(r.latencies, 50);
  const p99 = percentile(r.latencies, 99);
  const max = percentile(r.latencies, 100);
  const w = 34;
  const row = (label: string, value: string, target: string, ok: boolean) => `${label.padEnd(w)} ${value.padStart(12)}  target ${target.padEnd(9)} ${mark(ok)}`;
  return [
    `daemon load: ${r.panes} pane links replaying ${r.recordings} corpus recordings at real speed (looped), ` +
      `starts staggered over ${r.staggerS} s, measured ${r.seconds.toFixed(1)} s; the daemon is a child process measured from /proc`,
    `  sent ${(r.outputBytes / (1 << 20)).toFixed(2)} MiB of output (${(r.outputBytes / 1024 / r.seconds).toFixed(0)} KiB/s) in ${r.outputEvents} output + ${r.inputEvents} input messages; ${r.passes} recordings ended and started over`,
    row('daemon CPU (% of one core)', `${r.cpuPct.toFixed(1)} %`, `< ${DAEMON_TARGETS.cpuPct} %`, meets.cpu),
    row('daemon RSS peak (0.5 s samples)', `${r.rssPeakMb.toFixed(0)} MB`, `< ${DAEMON_TARGETS.rssMb} MB`, meets.rss),
    row(`transition → /ws p99 (${r.latencies.length} seen)`, ms(p99), `< ${DAEMON_TARGETS.latencyP99Ms} ms`, meets.latency),
    `${'  p50 / max'.padEnd(w)} ${`${ms(p50)} / ${ms(max)}`.padStart(12)}`,
    `  settling ${r.settleS} s after the load (the one-off post-load heap shrink): ${r.settleCpuPct.toFixed(2)} %`,
    row(`idle: ${r.idlePanes} silent panes, ${r.idleSeconds.toFixed(0)} s`, `${r.idleCpuPct.toFixed(2)} %`, `< ${DAEMON_TARGETS.idleCpuPct} %`, meets.idleCpu),
    `  idle CPU per ${r.idleSlicesPct.length > 1 ? `${(r.idleSeconds / r.idleSlicesPct.length).toFixed(0)} s slice` : 'slice'}: ${r.idleSlicesPct.map((x) => x.toFixed(2)).join(' ')} %; ` +
      `daemon wakeups ${r.wakeupsPerS.toFixed(0)}/s under load, ${r.idleWakeupsPerS.toFixed(0)}/s idle (per slice: ${r.idleSlicesWakeupsPerS.map((x) => x.toFixed(0)).join(' ')})` +
      (paneStates(r.metrics) ? `; panes by state at the end: ${paneStates(r.metrics)}` : ''),
    `  context: daemon RSS high-water ${r.rssHwmMb.toFixed(0)} MB; event-loop delay p99 ${r.daemonLoopDelay ? `daemon ${r.daemonLoopDelay.p99Ms.toFixed(1)} ms (max ${r.daemonLoopDelay.maxMs.toFixed(0)}), ` : ''}` +
      `bench ${r.benchLoopDelayP99Ms.toFixed(1)} ms; bench process ${r.benchCpuPct.toFixed(0)} % CPU; ` +
      `load average ${r.loadAvg1.toFixed(2)}; largest link backlog ${r.maxLinkBufferedBytes} B; ${r.idleTransitions} transitions while idle` +
      (r.metrics['store_dropped'] ? `; store dropped ${r.metrics['store_dropped']} writes` : '') +
      (r.metrics['ws_dropped'] ? `; /ws clients dropped ${r.metrics['ws_dropped']}` : ''),
    ...(meets.cpu && meets.rss && meets.latency && meets.idleCpu
      ? []
      : [
          `a daemon target is missed. To see where the daemon's time goes:`,
          `  BENCH_DAEMON_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/ts-daemon-prof' node dist/bench/bench.js --only daemon --daemon-seconds 20`,
          `  node dist/bench/profile-summary.js /tmp/ts-daemon-prof/*.cpuprofile`,
        ]),
  ].join('\n');
}

function paneStates(metrics: Record<string, number>): string {
  return Object.entries(metrics)
    .filter(([k, v]) => k.startsWith('panes_') && v > 0)
    .map(([k, v]) => `${k.slice('panes_'.length)} ${v}`)
    .join(', ');
}
