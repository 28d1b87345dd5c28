// A bounded window of a pane's recent coalesced changes: enough to compute rates and explain decisions,
// never growing with the pane's age.
import type { PaneChange } from './pane-change-queue.js';

export class PaneHistory {
  private readonly items: PaneChange[] = [];

  constructor(private readonly capacity: number) {}

  push(change: PaneChange): void {
    this.items.push(change);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
  }

  /** Changes at or after `since` (oldest first). */
  since(since: number): PaneChange[] {
    let i = this.items.length;
    while (i > 0 && this.items[i - 1]!.t >= since) i--;
    return this.items.slice(i);
  }

  get latest(): PaneChange | undefined {
    return this.items[this.items.length - 1];
  }

  get size(): number {
    return this.items.length;
  }
}
