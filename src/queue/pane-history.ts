// A bounded window of a pane's recent coalesced changes: enough to compute rates and explain decisions,
// never growing with the pane's age.
import type { PaneChange } from './pane-change-queue.js';

/** What history keeps of a change: its figures, not the screen (a window of full screens would be megabytes). */
export type PaneChangeRecord = Omit<PaneChange, 'snapshot'>;

export class PaneHistory {
  private readonly items: PaneChangeRecord[] = [];

  constructor(private readonly capacity: number) {}

  push(change: PaneChange): void {
    this.items.push({
      t: change.t,
      hash: change.hash,
      meaningful: change.meaningful,
      newlines: change.newlines,
      burst: change.burst,
      lineRate: change.lineRate,
      lastMeaningfulAt: change.lastMeaningfulAt,
      lastOutputAt: change.lastOutputAt,
      echoOnly: change.echoOnly,
      keystrokeTail: change.keystrokeTail,
      selfDriven: change.selfDriven,
    });
    // Trim in batches: one splice per `capacity` pushes instead of one shift per push.
    if (this.items.length >= this.capacity * 2) this.items.splice(0, this.items.length - this.capacity);
  }

  /** Changes at or after `since` (oldest first). */
  since(since: number): PaneChangeRecord[] {
    const first = Math.max(0, this.items.length - this.capacity);
    let i = this.items.length;
    while (i > first && this.items[i - 1]!.t >= since) i--;
    return this.items.slice(i);
  }

  get latest(): PaneChangeRecord | undefined {
    return this.items[this.items.length - 1];
  }

  get size(): number {
    return Math.min(this.items.length, this.capacity);
  }
}
