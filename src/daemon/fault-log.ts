// The daemon's record of exceptions caught in panes' pipelines (src/daemon/pane-fault.ts): each one is logged at
// error on the pane's logger, with its stage, step, profile and stack, and counted for /metrics. A profile that
// throws on every screen would write a line per read: a repeat of the same error is logged again only after
// FAULT_LOG_REPEAT_S, with how many were not logged in between.
import type { Logger } from 'pino';
import type { PaneFault } from './pane-fault.js';

/** The same error from the same pane is logged at most once in this many seconds (every one is still counted). */
const FAULT_LOG_REPEAT_S = 60;
/** Panes whose last logged error is remembered at most (a long-lived daemon meets many panes). */
const MAX_REMEMBERED = 1000;

export class FaultLog {
  /** `stage\tprogram` → errors caught. */
  readonly counts = new Map<string, number>();
  /** Per pane id: the last error logged, when, and how many repeats were left out since. */
  private readonly last = new Map<string, { key: string; at: number; skipped: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  record(pane: string, log: Logger, f: PaneFault): void {
    const count = `${f.stage}\t${f.program}`;
    this.counts.set(count, (this.counts.get(count) ?? 0) + 1);
    const key = `${f.stage}\t${f.step}\t${f.program}\t${f.error.name}\t${f.error.message}`;
    const prev = this.last.get(pane);
    const now = this.now();
    if (prev && prev.key === key && now - prev.at < FAULT_LOG_REPEAT_S * 1000) {
      prev.skipped++;
      return;
    }
    log.error({ kind: 'pane', event: 'analysis_error', stage: f.stage, step: f.step, rule: `${f.stage}.${f.step}`, profile: f.program, t: f.t, err: f.error, ...(prev?.key === key && { repeats: prev.skipped }) }, 'analysis error: the pane goes on');
    this.last.delete(pane);
    this.last.set(pane, { key, at: now, skipped: 0 });
    if (this.last.size > MAX_REMEMBERED) this.last.delete(this.last.keys().next().value!);
  }
}
