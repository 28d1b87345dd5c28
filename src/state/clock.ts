// Time for the pure core: a clock is injected, so a recording replays in virtual time (fast and deterministic)
// and a live pane runs on the wall clock. Milliseconds, with the setTimeout/clearTimeout shape XState's `clock`
// option expects.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  /**
   * A delay of at most `ms` that ends on a whole multiple of `ms` of the shared wall clock, so that many panes
   * resting on the same period wake the process once, together. Absent: no alignment (virtual time).
   */
  alignedDelay?(ms: number): number;
}

export class RealClock implements Clock {
  /** `origin`: Date.now() at pane time 0 (another thread's clock, to read the same pane time). */
  constructor(readonly origin = Date.now()) {}
  /** Milliseconds since this clock was made (pane time starts at 0, like a recording). */
  now(): number {
    return Date.now() - this.origin;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const h = setTimeout(fn, ms);
    h.unref?.();
    return h;
  }
  clearTimeout(id: unknown): void {
    clearTimeout(id as NodeJS.Timeout);
  }
  alignedDelay(ms: number): number {
    const now = Date.now();
    return Math.ceil((now + 1) / ms) * ms - now;
  }
}

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** A timer's callback once it has run or been cleared: the recycled timer keeps no closure alive. */
const SPENT = (): void => {};

/** Time moves only when told to; due timers run in time order (ties in creation order). */
export class VirtualClock implements Clock {
  private t = 0;
  private seq = 0;
  private timers: Timer[] = [];
  /** Timers that ran or were cleared, reused by setTimeout (a pane arms one after most writes and every tick). */
  private readonly spent: Timer[] = [];

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const at = this.t + Math.max(0, ms);
    const timer = this.spent.pop() ?? { id: 0, at, fn };
    timer.id = ++this.seq;
    timer.at = at;
    timer.fn = fn;
    // keep sorted by (at, id): insertion from the back, timers are mostly appended in order
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1]!.at > timer.at) i--;
    if (i === this.timers.length) this.timers.push(timer);
    else this.timers.splice(i, 0, timer);
    return timer.id;
  }

  clearTimeout(id: unknown): void {
    const timers = this.timers;
    for (let i = 0; i < timers.length; i++) {
      if (timers[i]!.id !== id) continue;
      this.recycle(timers.splice(i, 1)[0]!);
      return;
    }
  }

  private recycle(timer: Timer): void {
    timer.fn = SPENT;
    this.spent.push(timer);
  }

  /** Advance to `ms`, running every timer due on the way at its own time. */
  advanceTo(ms: number): void {
    while (this.timers.length && this.timers[0]!.at <= ms) {
      const timer = this.timers.shift()!;
      this.t = Math.max(this.t, timer.at);
      const fn = timer.fn;
      this.recycle(timer); // before fn runs: the timer it arms may reuse it
      fn();
    }
    this.t = Math.max(this.t, ms);
  }

  get pending(): number {
    return this.timers.length;
  }
}
