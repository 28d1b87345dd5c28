// Bounds how long parsing may hold the process's only thread. xterm parses a write() in one go and yields only
// between writes, so a chunk of sequences that each touch a whole screen (scrolls, erases, alternate-screen
// switches on a 1000x1000 pane) held the daemon — every pane, the API, the dashboard — until it was all parsed.
// The screen calls check() in its handlers of those sequences; once parsing has held the thread for SLICE_MS in
// this event-loop turn, check() returns a Promise, which pauses xterm's parser (internal support of @xterm/headless
// 5.5: its parse stack resumes where it stopped), resolved after the event loop has served I/O and timers. Between
// writes, WritePump asks spent() and yields the same way.
//
// Parsers that yielded go on in a later turn in a fair order (later()): those that got no parsing in the spent
// slice first, the one that spent it last. With one setImmediate each, the pane that spent the slice queued itself
// first (it was the one running) and took the next slice too: a storming pane's queue starved every other pane
// that had more than one piece waiting, for as long as the storm lasted.

/** How long the parsing of all panes together may hold the thread before the next write or expensive sequence
 * yields: well under the 100 ms an API call or another pane may wait, with room for one write piece and one
 * sequence. */
export const PARSE_SLICE_MS = 8;

export interface ParseBudgetOptions {
  /** The slice length (tests pass 0: every expensive sequence then yields, which they count). */
  sliceMs?: number;
  now?: () => number;
}

export class ParseBudget {
  private readonly sliceMs: number;
  private readonly now: () => number;
  /** When the first checked sequence of this turn ran; -1 outside a slice. */
  private sliceStart = -1;
  /** This turn's slice is spent: every later ask in the turn gets true without reading the clock (a replay asks
   * tens of thousands of times per turn while its feeder runs ahead of a yielded pump). */
  private exhausted = false;
  /** Times parsing was paused, for tests and metrics. */
  yields = 0;
  /** Waiting for a later turn: those that got no parsing in the last slice, and those that parsed in it. */
  private starved: Array<() => void> = [];
  private served: Array<() => void> = [];
  private drainScheduled = false;

  constructor(opts: ParseBudgetOptions = {}) {
    this.sliceMs = opts.sliceMs ?? PARSE_SLICE_MS;
    this.now = opts.now ?? (() => performance.now());
  }

  /** false: go on parsing. A Promise: pause until the event loop has gone round (it resolves to false, so
   * xterm's own handler of the sequence runs next). */
  readonly check = (): false | Promise<boolean> => (this.spent() ? new Promise<boolean>((resolve) => this.later(() => resolve(false), true)) : false);

  /** Runs `go` in a later turn, after the I/O and timers of this one: before every parser that parsed in the spent
   * slice if `parsed` is false (it got none of it), else after them. */
  later(go: () => void, parsed: boolean): void {
    (parsed ? this.served : this.starved).push(go);
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(this.drain);
  }

  /** Whether parsing has held the thread for the slice in this event-loop turn (opening a slice if none is open):
   * checked between writes (WritePump), which then yield. */
  spent(): boolean {
    if (this.exhausted) {
      this.yields++;
      return true;
    }
    const now = this.now();
    if (this.sliceStart < 0) {
      this.sliceStart = now;
      setImmediate(this.endSlice); // the turn is over once the loop reaches its check phase
      return false;
    }
    if (now - this.sliceStart < this.sliceMs) return false;
    this.exhausted = true;
    this.yields++;
    return true;
  }

  private readonly drain = (): void => {
    this.drainScheduled = false;
    const starved = this.starved;
    const served = this.served;
    this.starved = [];
    this.served = [];
    for (const go of starved) go();
    for (const go of served) go();
  };

  private readonly endSlice = (): void => {
    this.sliceStart = -1;
    this.exhausted = false;
  };
}

/** One budget for every pane of the process: they share one thread. */
export const sharedParseBudget = new ParseBudget();
