// Runs the two sides of a comparison (pipeline, bare parser): a warm-up each (passes over a head of the workload
// until WARMUP_MIN_MS have gone by), then `runs` timed rounds with the order alternating each round so neither side
// always runs on a warmer or a more fragmented heap.
import { collectGarbage, PeakMemory } from './memory.js';

/**
 * Each side warms up for at least this long. A daemon runs for hours, so the figure wanted is steady-state
 * throughput, once V8 has finished tiering up the code that keeps running; the pipeline has far more of it than the
 * bare parser (analyzer, profiles, state machine). Measured on the corpus, six bench runs each, alternating: after
 * a single warm-up pass the ratio was 0.66-0.76 (median 0.71), the pipeline's first timed run ~1.5x its later ones;
 * after 2 s of passes (about 12 for the pipeline, 20 for the bare parser) 0.74-0.78 (median 0.77), with the bare
 * parser's throughput unchanged.
 */
export const WARMUP_MIN_MS = 2000;

/** pipeline; bare: xterm fed by plain write(); fed: xterm fed as a pane's screen feeds it (run-bare.ts). */
export type SideName = 'pipeline' | 'bare' | 'fed';

export interface Side {
  name: SideName;
  run: () => Promise<unknown>;
  warmUp: () => Promise<unknown>;
  memory: PeakMemory;
}

export interface SideTiming {
  /** Wall-clock milliseconds of each timed run. */
  ms: number[];
  medianMs: number;
  bestMs: number;
}

export interface Comparison {
  timings: Map<Side['name'], SideTiming>;
  /** Warm-up passes each side ran. */
  warmUps: Map<Side['name'], number>;
}

export async function compare(sides: Side[], runs: number, progress: (msg: string) => void): Promise<Comparison> {
  const warmUps = new Map<Side['name'], number>();
  for (const s of sides) {
    const until = performance.now() + WARMUP_MIN_MS;
    let passes = 0;
    do {
      await s.warmUp();
      passes++;
    } while (performance.now() < until);
    warmUps.set(s.name, passes);
    progress(`warm-up ${s.name}: ${passes} pass(es)`);
  }
  const ms = new Map<Side['name'], number[]>(sides.map((s) => [s.name, []]));
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      const t = await timed(s);
      ms.get(s.name)!.push(t);
      progress(`run ${i + 1}/${runs} ${s.name}: ${(t / 1000).toFixed(2)} s`);
    }
  }
  const timings = new Map([...ms].map(([name, list]) => [name, { ms: list, medianMs: median(list), bestMs: Math.min(...list) }]));
  return { timings, warmUps };
}

async function timed(s: Side): Promise<number> {
  collectGarbage();
  s.memory.start();
  const t0 = performance.now();
  await s.run();
  const t = performance.now() - t0;
  s.memory.stop();
  return t;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
