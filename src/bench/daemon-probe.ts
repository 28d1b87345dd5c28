// Loaded into the benchmarked daemon with `node --import` (bench-only; the daemon's code is untouched): measures
// the daemon's own event-loop delay during the load window, so a slow transition can be placed on the daemon's
// side or not. The first SIGUSR2 starts it (the window begins); the second writes its figures to
// $BENCH_DAEMON_PROBE_FILE and stops it, so the idle window that follows runs without it; a third starts a new
// window (the hostile bench measures one per storm), and so on. Its cost while on: one timer every RESOLUTION_MS.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 20;

export interface ProbeFigures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

const file = process.env['BENCH_DAEMON_PROBE_FILE'];
if (file) {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let signals = 0;
  process.on('SIGUSR2', () => {
    // Odd signals open a window (the hostile bench opens one per storm), even ones close it.
    if (++signals % 2 === 1) {
      h.reset();
      return h.enable();
    }
    h.disable();
    // Each recorded value is the whole interval between two firings of the timer: the delay is what exceeds it.
    const ms = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
    const out: ProbeFigures = { p50Ms: ms(h.percentile(50)), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max), meanMs: ms(h.mean) };
    writeFileSync(file, JSON.stringify(out));
  });
}
