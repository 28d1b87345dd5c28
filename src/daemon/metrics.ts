// GET /metrics: Prometheus text exposition of pane states, transitions, signal counters and the process.
import type { Counters } from '../store/records.js';
import type { HistoryHealth, PaneView } from '../web/api-types.js';

const STATES = ['IDLE', 'RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL', 'DONE', 'FAILED'] as const;

export interface MetricsInput {
  panes: PaneView[];
  counters: Counters;
  transitionsByTo: Map<string, number>;
  storeDropped: number;
  /** Exceptions caught in panes' pipelines since the daemon started, by `stage\tprogram` (see FaultLog). */
  analysisErrors?: ReadonlyMap<string, number>;
  history?: HistoryHealth;
}

export function renderMetrics(m: MetricsInput): string {
  const out: string[] = [];
  const metric = (name: string, type: string, help: string, samples: Array<[Record<string, string | number>, number]>) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, v] of samples) out.push(`${name}${fmtLabels(labels)} ${v}`);
  };
  const byState = new Map<string, number>(STATES.map((s) => [s, 0]));
  for (const p of m.panes) byState.set(p.state, (byState.get(p.state) ?? 0) + 1);
  metric('termsupervisor_panes', 'gauge', 'Attached panes by state.', [...byState].map(([state, n]) => [{ state }, n]));
  metric('termsupervisor_panes_stalled', 'gauge', 'Attached panes whose turn shows no progress.', [[{}, m.panes.filter((p) => p.stalled).length]]);
  metric('termsupervisor_transitions_total', 'counter', 'State transitions since the daemon started, by new state.', [...m.transitionsByTo].map(([to, n]) => [{ to }, n]));
  // Counter keys: fired.tier2.done.claude.done_marker / suppressed.tier3.run.debounce / notify.sent ...
  const signals: Array<[Record<string, string>, number]> = [];
  const other: Array<[Record<string, string>, number]> = [];
  for (const [key, n] of Object.entries(m.counters)) {
    const [outcome, tier, type, ...rest] = key.split('.');
    if ((outcome === 'fired' || outcome === 'suppressed') && tier && type) signals.push([{ outcome, tier: tier.replace('tier', ''), type, [outcome === 'fired' ? 'rule' : 'reason']: rest.join('.') }, n]);
    else other.push([{ key }, n]);
  }
  metric('termsupervisor_signals_total', 'counter', 'Detector signals fired or suppressed, by tier, type and rule or reason (kept across restarts).', signals);
  metric('termsupervisor_events_total', 'counter', 'Other counted events (notifications, links), kept across restarts.', other);
  metric('termsupervisor_store_dropped_total', 'counter', 'History writes dropped because the database could not keep up.', [[{}, m.storeDropped]]);
  const faults: Array<[Record<string, string>, number]> = [];
  for (const [key, n] of m.analysisErrors ?? []) {
    const [stage = '', program = ''] = key.split('\t');
    faults.push([{ stage, program }, n]);
  }
  metric('termsupervisor_analysis_errors_total', 'counter', "Exceptions caught in a pane's screen, analysis or state code since the daemon started (the pane went on), by stage and profile.", faults);
  if (m.history) {
    const h = m.history;
    metric('termsupervisor_history_degraded', 'gauge', 'History is not being kept (1), with the failing operation and cause; 0 when writes go through.', [[h.status === 'degraded' ? { op: h.op ?? '', cause: h.cause ?? '' } : {}, h.status === 'degraded' ? 1 : 0]]);
    metric('termsupervisor_history_queued', 'gauge', 'History writes waiting in memory for the database.', [[{}, h.queued]]);
    metric('termsupervisor_history_failures_total', 'counter', 'History operations the database refused since the daemon started.', [[{}, h.failures]]);
    metric('termsupervisor_history_recoveries_total', 'counter', 'Degraded stretches of history that ended by themselves since the daemon started.', [[{}, h.recoveries]]);
  }
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  metric('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [[{}, mem.rss]]);
  // Resident memory that stays high with the heap in use back down is pages kept, not a leak (memory-return.ts).
  metric('nodejs_heap_size_total_bytes', 'gauge', 'V8 heap size in bytes.', [[{}, mem.heapTotal]]);
  metric('nodejs_heap_size_used_bytes', 'gauge', 'V8 heap in use in bytes.', [[{}, mem.heapUsed]]);
  metric('nodejs_external_memory_bytes', 'gauge', 'Memory of C++ objects bound to JavaScript objects (buffers) in bytes.', [[{}, mem.external]]);
  metric('process_cpu_seconds_total', 'counter', 'User and system CPU time spent in seconds.', [[{}, (cpu.user + cpu.system) / 1e6]]);
  return out.join('\n') + '\n';
}

function fmtLabels(l: Record<string, string | number>): string {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}
