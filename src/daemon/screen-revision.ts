// The screen's revision (PaneView.rev): a counter a person's action is checked against. It grows when a read of the
// screen finds its folded content changed (a blink or an identical redraw folds to the same hash, so they do not
// count), and when something else makes the screen they saw stale (a new state, keys typed for them).
export class ScreenRevision {
  private n = 0;
  private hash = '';

  get value(): number {
    return this.n;
  }

  /** A screen read, by the change queue's folded hash of the visible rows and cursor row. */
  read(hash: string): void {
    if (hash === this.hash) return;
    this.hash = hash;
    this.n++;
  }

  /** What the person saw is stale without the screen showing it yet. */
  bump(): void {
    this.n++;
  }
}
