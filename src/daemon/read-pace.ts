// Bounds the share of the thread one pane's screen reads may take. A read (snapshot and analysis) costs little on
// a sane screen; on a pathological one (rows that make a pattern backtrack, a huge pane) it must not take the thread
// from every other pane and the API. After a slow read, the pane's next read that nothing forces (a key, a
// command's end, a hook: those are read at once) waits until its reads have held the thread for at most
// SLOW_READ_SHARE of the time since. Live panes only: a replay runs on a virtual clock and must not depend on how
// fast the machine is.

/** A read that took this long (ms) or more makes the pane a slow one. */
export const SLOW_READ_MS = 20;
/** The share of the thread a slow pane's reads may hold. */
export const SLOW_READ_SHARE = 0.25;

export class ReadPace {
  /** Pane time before which an unforced read waits; 0 while reads are quick. */
  private notBefore = 0;
  private started = 0;

  constructor(private readonly timed: boolean) {}

  /** An unforced read at pane time `t` should wait. */
  waits(t: number): boolean {
    return t < this.notBefore;
  }

  start(): void {
    if (this.timed) this.started = performance.now();
  }

  /** The read begun by start() is over, at pane time `t`. */
  done(t: number): void {
    if (!this.timed) return;
    const ms = performance.now() - this.started;
    this.notBefore = ms >= SLOW_READ_MS ? t + (ms / 1000) * (1 / SLOW_READ_SHARE - 1) : 0;
  }
}
