// Back-pressure on a pane's terminal write queue: a feeder (a replay, a link with a fast sender) waits once too
// many bytes or events are queued, and is woken when the terminal has caught up below half of either bound.

/** Bytes queued in the terminal beyond which a feeder should wait for drain(): a few parse slices' worth, enough to
 * keep the parser busy (xterm drops data past 50 MB); a replay running further ahead only holds its chunks through
 * young-generation collections (with 4 MB ahead the bench's 64 MiB replays peaked at 590 MB of heap, with 1 MB
 * at 280 MB). */
export const WRITE_HIGH_WATER = 1 << 20;
/** Events queued beyond which a feeder should wait too (a flood of one-byte events is cheap in bytes only). */
export const MAX_QUEUED_EVENTS = 2_000;

export class WriteBacklog {
  /** Bytes handed to the terminal and not parsed yet. */
  bytes = 0;
  private waiters: Array<() => void> = [];

  /** `events`: how many events are queued now. */
  constructor(private readonly events: () => number) {}

  get backlogged(): boolean {
    return this.bytes > WRITE_HIGH_WATER || this.events() > MAX_QUEUED_EVENTS;
  }

  /** Resolves once the terminal has caught up below half the high-water marks. */
  drain(): Promise<void> {
    if (this.caughtUp()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** After an event left the queue: wakes the waiting feeders once caught up. */
  settle(): void {
    // Runs after every parsed event: with nobody waiting (almost always) there is nothing to wake, nor a new list to make.
    if (this.waiters.length !== 0 && this.caughtUp()) this.release();
  }

  /** Wakes every waiting feeder (also when the pane stops: nothing will drain any more). */
  release(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }

  private caughtUp(): boolean {
    return this.bytes < WRITE_HIGH_WATER / 2 && this.events() < MAX_QUEUED_EVENTS / 2;
  }
}
