// Peak memory while a phase runs: heap used and RSS sampled on a timer (xterm yields to the event loop every few
// ms, so samples keep coming during a replay), plus the process-wide RSS high-water mark from the OS.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often memory is sampled during a run. */
const SAMPLE_MS = 25;
const MB = 1 << 20;

export class PeakMemory {
  heapUsed = 0;
  rss = 0;
  private timer: NodeJS.Timeout | null = null;

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  stop(): void {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  sample(): void {
    const m = process.memoryUsage();
    this.heapUsed = Math.max(this.heapUsed, m.heapUsed);
    this.rss = Math.max(this.rss, m.rss);
  }

  get heapUsedMb(): number {
    return this.heapUsed / MB;
  }
}

/** The process's peak resident set since it started (the kernel's count, in MB). */
export function peakRssMb(): number {
  return (process.resourceUsage().maxRSS * 1024) / MB;
}

type Gc = (opts?: { type: 'minor' | 'major' }) => void;
let gc: Gc | undefined | null = null;

/**
 * A young-generation GC between measured runs, so one run's short-lived garbage is not collected on the next one's
 * clock. Not a full one: a forced full GC (V8's testing GC) also throws away the compiled code and inline caches
 * of what ran before, so every run after it would be measured cold — measured here: both sides ~1.7× slower, and
 * the side with more code (the pipeline) more so. A daemon never runs cold like that.
 */
export function collectGarbage(): void {
  if (gc === null) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc | undefined;
  }
  gc?.({ type: 'minor' });
}
