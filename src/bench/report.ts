// Bench results: the figures for one workload, the human table and the one-line JSON summary.
import type { SideName, SideTiming } from './measure.js';
import type { Workload } from './workload.js';

/** Issue 30's goals. The synthetic agent stream keeps at least this share of the bare parser's throughput (issue 14
 * set 0.8)... */
export const TARGET_RATIO = 0.85;
/** ...and recorded agent output (many small writes, each read and analysed) at least this share of xterm fed the
 * same way: what the pipeline's own work may cost. */
export const TARGET_VS_FED = 0.8;
const MB = 1 << 20;

export interface WorkloadResult {
  workload: Workload;
  pipeline: SideTiming;
  bare: SideTiming;
  /** The bare parser fed as a pane's screen feeds it (run-bare.ts `immediate`); NaN when not run. */
  fed: SideTiming;
  transitions: number;
  /** Warm-up passes per side. */
  warmUps: Partial<Record<SideName, number>>;
}

export const mb = (bytes: number): number => bytes / MB;
export const mbPerS = (bytes: number, ms: number): number => mb(bytes) / (ms / 1000);
export const ratio = (r: WorkloadResult): number => r.bare.medianMs / r.pipeline.medianMs;
/** What the pipeline's own work costs: against xterm fed exactly as the pipeline feeds it. */
export const ratioVsFed = (r: WorkloadResult): number => r.fed.medianMs / r.pipeline.medianMs;

const f = (x: number, digits = 1): string => x.toFixed(digits);

/** The goal a workload is judged by: recorded output by its cost over xterm fed the same way, the synthetic stream
 * by its share of the bare parser. */
export function goalOf(r: WorkloadResult): { figure: 'ratio' | 'vs fed'; value: number; target: number } {
  return r.workload.name === 'corpus' ? { figure: 'vs fed', value: ratioVsFed(r), target: TARGET_VS_FED } : { figure: 'ratio', value: ratio(r), target: TARGET_RATIO };
}

export const meetsGoal = (r: WorkloadResult): boolean => {
  const g = goalOf(r);
  return g.value >= g.target;
};

export function humanTable(results: WorkloadResult[]): string {
  const head = `${'workload'.padEnd(11)} ${'MB'.padStart(7)} ${'events'.padStart(8)} ${'virtual'.padStart(8)}  ${'pipeline MB/s'.padStart(13)} ${'bare MB/s'.padStart(10)} ${'ratio'.padStart(6)}  ${'fed MB/s'.padStart(9)} ${'vs fed'.padStart(6)}  goal`;
  const rows = results.map((r) => {
    const w = r.workload;
    const rt = ratio(r);
    return (
      `${w.name.padEnd(11)} ${f(mb(w.bytes)).padStart(7)} ${String(w.outputEvents).padStart(8)} ${`${f(w.virtualSeconds / 60, 0)} min`.padStart(8)}  ` +
      `${f(mbPerS(w.bytes, r.pipeline.medianMs)).padStart(13)} ${f(mbPerS(w.bytes, r.bare.medianMs)).padStart(10)} ${f(rt, 2).padStart(6)}  ` +
      `${f(mbPerS(w.bytes, r.fed.medianMs)).padStart(9)} ${f(ratioVsFed(r), 2).padStart(6)}  ${goalOf(r).figure} >= ${goalOf(r).target}: ${meetsGoal(r) ? 'meets' : 'BELOW'}`
    );
  });
  const runs = results.map(
    (r) => `  ${r.workload.name}: pipeline ${r.pipeline.ms.map((m) => f(m / 1000, 2)).join(' / ')} s, bare ${r.bare.ms.map((m) => f(m / 1000, 2)).join(' / ')} s, fed ${r.fed.ms.map((m) => f(m / 1000, 2)).join(' / ')} s, ${r.transitions} transitions per pipeline pass`,
  );
  return [head, ...rows, 'timed runs:', ...runs].join('\n');
}

/** Every figure of one workload under a key prefix ('' for the synthetic stream, 'corpus_' for the corpus). */
export function jsonFigures(r: WorkloadResult, prefix: string): Record<string, number | number[]> {
  const w = r.workload;
  const out: Record<string, number | number[]> = {
    mb: round(mb(w.bytes), 3),
    output_events: w.outputEvents,
    virtual_s: round(w.virtualSeconds, 1),
    pipeline_mb_s: round(mbPerS(w.bytes, r.pipeline.medianMs), 2),
    bare_mb_s: round(mbPerS(w.bytes, r.bare.medianMs), 2),
    ratio: round(ratio(r), 3),
    fed_mb_s: round(mbPerS(w.bytes, r.fed.medianMs), 2),
    ratio_vs_fed: round(ratioVsFed(r), 3),
    pipeline_best_mb_s: round(mbPerS(w.bytes, r.pipeline.bestMs), 2),
    bare_best_mb_s: round(mbPerS(w.bytes, r.bare.bestMs), 2),
    pipeline_ms: r.pipeline.ms.map((m) => Math.round(m)),
    bare_ms: r.bare.ms.map((m) => Math.round(m)),
    fed_ms: r.fed.ms.map((m) => Math.round(m)),
    transitions: r.transitions,
  };
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [`${prefix}${k}`, v]));
}

export function round(x: number, digits: number): number {
  const p = 10 ** digits;
  return Math.round(x * p) / p;
}
