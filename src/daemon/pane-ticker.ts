// A pane's tick: fine (tick_s) while a time window can close (a stability candidate, a wait or quiet window, a
// Tier 1 silence) or a change waits to be read; otherwise coarse, waking at the analyzer's next deadline or on the
// shared rest beat at most every rest_tick_s, so a hundred resting panes cost one wake-up a second.
import type { Clock } from '../state/clock.js';

export interface TickerHost {
  clock: Clock;
  tickS: number;
  restTickS: number;
  nowS(): number;
  /** Whether a time window can close now (fine ticks wanted). */
  wantsTicks(nowS: number): boolean;
  /** Pane time at which the analyzer next needs a look. */
  nextDeadline(nowS: number): number;
  /** A screen change waits to be read. */
  dirty(): boolean;
  tick(): void;
  report(e: unknown): void;
}

export class PaneTicker {
  private timer: unknown = null;
  private coarse = false;
  private stopped = false;

  constructor(private readonly h: TickerHost) {}

  start(): void {
    this.schedule();
  }

  /** After anything happened: a pane ticking coarsely that now has a turn or a candidate goes back to fine ticks. */
  refresh(): void {
    if (!this.coarse || this.stopped || !this.h.wantsTicks(this.h.nowS())) return;
    if (this.timer !== null) this.h.clock.clearTimeout(this.timer);
    this.timer = null;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.h.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    const h = this.h;
    const now = h.nowS();
    // dirty() first: a streaming pane is dirty at almost every tick, and wantsTicks() reads every time window.
    this.coarse = !(h.dirty() || h.wantsTicks(now));
    // The next deadline only matters to a coarse tick (asked on every tick, so not asked for nothing).
    const rest = Math.max(h.tickS, h.restTickS);
    const delay = this.coarse ? Math.min(rest, Math.max(h.tickS, h.nextDeadline(now) - now + h.tickS / 2)) : h.tickS;
    // A resting pane with no deadline sooner wakes on the shared rest beat: 100 idle panes, one wake-up a second.
    const ms = delay === rest && h.clock.alignedDelay ? h.clock.alignedDelay(rest * 1000) : delay * 1000;
    this.timer = h.clock.setTimeout(this.fire, ms);
  }

  /** The timer's callback, made once (a pane ticks ten times a second of pane time). */
  private readonly fire = (): void => {
    this.timer = null;
    this.h.tick();
    try {
      this.schedule();
    } catch (e) {
      // The analyzer could not say when it next needs a look: look again at the resting pace, so the pane stays watched.
      this.h.report(e);
      if (!this.stopped) this.timer = this.h.clock.setTimeout(this.fire, Math.max(this.h.tickS, this.h.restTickS) * 1000);
    }
  };
}
