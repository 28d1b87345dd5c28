// How many lines one pane may write to the daemon's log: a burst, then a steady pace. A pane whose output holds a
// flood of marks makes a signal per mark (46,000 lines for a 1 MB `cat`); past the budget they are counted, not
// written, and one line says so when the flood starts and when it ends (with how many were left out).

/** Signal lines a pane may log back to back (a shell's commands, an agent's turn: a few a second at most). */
export const SIGNAL_LOG_BURST = 100;
/** Then one more line per this many seconds (pane time). */
export const SIGNAL_LOG_REFILL_S = 1;

export type BudgetVerdict = 'write' | 'first-skipped' | 'skip';

export class LogBudget {
  private tokens: number;
  private refilledAt = 0;
  /** Lines skipped since the budget last ran out (0 while lines are written). */
  skipped = 0;

  constructor(
    private readonly burst = SIGNAL_LOG_BURST,
    private readonly refillS = SIGNAL_LOG_REFILL_S,
  ) {
    this.tokens = burst;
  }

  /** A line at pane time `t`: write it, or skip it (the first skipped one is the moment to say so). Once skipping,
   * lines are written again only when half the burst has come back, so a flood does not trickle out a line a second. */
  take(t: number): BudgetVerdict {
    const earned = Math.floor((t - this.refilledAt) / this.refillS);
    if (earned > 0) {
      this.tokens = Math.min(this.burst, this.tokens + earned);
      this.refilledAt += earned * this.refillS;
    }
    if (this.tokens >= 1 && (this.skipped === 0 || this.tokens >= this.burst / 2)) {
      this.tokens--;
      return 'write';
    }
    return ++this.skipped === 1 ? 'first-skipped' : 'skip';
  }

  /** Lines skipped before this one, now that lines are written again (and the count starts over). */
  resumed(): number {
    const n = this.skipped;
    this.skipped = 0;
    return n;
  }
}
