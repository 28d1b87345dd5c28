// Each live pane's analyzer counters, folded into the store as they grow: stats survive restarts, cheaply (one
// write of the deltas every COUNTER_SYNC_MS, not one per counted event).
import type { HistoryStore } from '../store/history-store.js';
import type { Counters } from '../store/records.js';
import type { LivePane } from './live-pane.js';

/** Counters of analyzers are folded into the store this often (ms). */
const COUNTER_SYNC_MS = 5000;

export class CounterSync {
  /** Analyzer counters already written to the store, per live pane. */
  private readonly counted = new Map<string, Map<string, number>>();
  private readonly timer: NodeJS.Timeout;

  /** `live` is the registry's own map of live panes. */
  constructor(
    private readonly opts: { store: HistoryStore },
    private readonly live: ReadonlyMap<string, LivePane>,
  ) {
    this.timer = setInterval(() => this.sync(), COUNTER_SYNC_MS);
    this.timer.unref();
  }

  /** A pane opened: nothing of its counters is written yet. */
  track(id: string): void {
    this.counted.set(id, new Map());
  }

  forget(id: string): void {
    this.counted.delete(id);
  }

  /** Writes the growth of each live pane's analyzer counters since the last sync (only one pane's, given `only`). */
  sync(only?: string): void {
    const delta: Counters = {};
    let any = false;
    for (const [id, pane] of this.live) {
      if (only && id !== only) continue;
      const seen = this.counted.get(id)!;
      for (const [k, v] of pane.monitor.analyzer.counters) {
        const d = v - (seen.get(k) ?? 0);
        if (d > 0) {
          delta[k] = (delta[k] ?? 0) + d;
          seen.set(k, v);
          any = true;
        }
      }
    }
    if (any) this.opts.store.addCounters(delta);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
