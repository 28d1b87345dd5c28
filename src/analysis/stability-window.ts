// A verdict that must hold still before it counts: the ready/failed candidate and its live edge. Any change of the
// live edge (or the cursor row, or the verdict) restarts the window, which is how a DONE is retracted before it is
// said. Pure.
import type { ScreenSnapshot } from '../screen/types.js';
import { hashLines } from '../queue/normalize.js';
import type { Classification } from './types.js';

export class StabilityWindow {
  private candidate: { since: number; edgeHash: string; verdict: Classification['verdict'] } | null = null;
  /** The live-edge hash, kept while the classification and the screen it read are the same objects (a stability
   * window is checked on every tick; the edge only changes with them). */
  private edgeHashOf: { cls: Classification; snap: ScreenSnapshot; hash: string } | null = null;

  get pending(): boolean {
    return this.candidate !== null;
  }

  reset(): void {
    this.candidate = null;
  }

  /** The verdict has held with an unchanged live edge for `window` seconds (a new edge starts the window now).
   * `typed`: the screen last changed by echoing the person's keys only — someone typing their next prompt into the
   * input that came back; the window goes on (the next change of the program's own restarts it, as before). */
  held(t: number, cls: Classification, snap: ScreenSnapshot, window: number, typed = false): boolean {
    const edgeHash = this.edgeHash(cls, snap);
    if (this.candidate && this.candidate.edgeHash !== edgeHash && typed && this.candidate.verdict === cls.verdict) {
      this.candidate.edgeHash = edgeHash;
    } else if (!this.candidate || this.candidate.edgeHash !== edgeHash) {
      this.candidate = { since: t, edgeHash, verdict: cls.verdict };
      return window <= 0;
    }
    return t - this.candidate.since >= window;
  }

  /** The live edge and the cursor row, folded, with the verdict: what must hold still through the window. */
  private edgeHash(cls: Classification, snap: ScreenSnapshot): string {
    const memo = this.edgeHashOf;
    if (memo && memo.cls === cls && memo.snap === snap) return memo.hash;
    const hash = hashLines([...cls.liveEdge, snap.lines[snap.cursorY] ?? ''], true) + cls.verdict;
    this.edgeHashOf = { cls, snap, hash };
    return hash;
  }
}
