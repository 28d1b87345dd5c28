// One pass of a workload through the full pipeline: replayCast (ReplaySource → PaneMonitor → screen, change queue,
// analyzer, state machine) on a VirtualClock, exactly as `termsupervisor replay` runs it.
import type { Config } from '../config/config.js';
import { ReplaySource } from '../attach/replay-source.js';
import { replayCast } from '../daemon/replay.js';
import type { Workload } from './workload.js';

/** Replays every recording; returns the number of state transitions (proof the analysis really ran). */
export async function runPipeline(w: Workload, cfg: Config): Promise<number> {
  let transitions = 0;
  for (const { name, cast } of w.recordings) {
    const res = await replayCast(new ReplaySource(cast, name), cfg, 'auto');
    transitions += res.transitions.length;
  }
  return transitions;
}
