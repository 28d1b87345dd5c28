// A pane's coalescing timer: output is read once it has settled for coalesce_s, not per write. One timer per pane
// for the pending change; when it fires early (output went on) it re-arms itself for the change's due time.
import type { Clock } from '../state/clock.js';
import type { Config } from '../config/config.js';
import type { FaultTracker } from './pane-fault.js';

export interface CoalesceHost {
  clock: Clock;
  /** Its thresholds.coalesce_s is read at each arming. */
  cfg: Config;
  /** The pane's fault tracker: a read that throws is reported, and the pane goes on. */
  faults: FaultTracker;
  nowS(): number;
  /** A screen change waits to be read. */
  dirty(): boolean;
  /** Pane time at which the waiting change is due to be read. */
  dueAt(nowS: number): number;
  /** Reads the screen if the change is due. */
  read(nowS: number): void;
}

export class CoalesceTimer {
  private timer: unknown = null;
  private stopped = false;

  constructor(private readonly h: CoalesceHost) {}

  /** After output at pane time `t`: a timer for the change it left, unless one is already armed. */
  arm(t: number): void {
    if (!this.h.dirty() || this.timer !== null || this.stopped) return;
    // Never less than one coalescing window: a change held back (mid sync frame) must not spin the timer.
    const wait = Math.max(this.h.cfg.thresholds.coalesce_s, this.h.dueAt(t) - t);
    this.timer = this.h.clock.setTimeout(this.fire, wait * 1000);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.h.clock.clearTimeout(this.timer);
  }

  /** The timer's callback, made once (it is armed after most writes). */
  private readonly fire = (): void => {
    this.timer = null;
    const now = this.h.nowS();
    // faults.guard inlined (no closure per firing: it fires after most writes).
    const f = this.h.faults;
    f.begin('read');
    try {
      this.h.read(now);
    } catch (e) {
      f.report(e);
    }
    this.arm(now);
  };
}
