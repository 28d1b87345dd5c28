// Runs the two sides of a comparison (pipeline, bare parser): one warm-up each (on a head of the workload: it only
// has to get the JIT going), then `runs` timed rounds with the order alternating each round so neither side always
// runs on a warmer or a more fragmented heap.
import { collectGarbage, PeakMemory } from './memory.js';

export interface Side {
  name: 'pipeline' | 'bare';
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

export async function compare(sides: Side[], runs: number, progress: (msg: string) => void): Promise<Map<Side['name'], SideTiming>> {
  for (const s of sides) {
    progress(`warm-up ${s.name}`);
    await s.warmUp();
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
  return new Map([...ms].map(([name, list]) => [name, { ms: list, medianMs: median(list), bestMs: Math.min(...list) }]));
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
