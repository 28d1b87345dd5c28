// PaneChangeQueue: turns a stream of writes into coalesced, enriched screen changes. Writes only mark the pane
// dirty and count bytes; the screen is read at most once per coalescing window.
import type { ScreenSnapshot } from '../screen/types.js';
import { combineRowHashes, hashRow } from './normalize.js';
import { PaneHistory } from './pane-history.js';

/** The row-hash memo holds about this many screens' worth of row texts. */
const HASH_MEMO_SCREENS = 4;

export interface PaneChange {
  t: number;
  snapshot: ScreenSnapshot;
  /** Hash of the visible rows with spinners, timers and blinks folded away. */
  hash: string;
  /** The folded content differs from the previous change. */
  meaningful: boolean;
  /** Newlines written since the previous change (the newline gate). */
  newlines: number;
  /** Characters written since the previous change. */
  burst: number;
  /** Newlines per second over the rate window. */
  lineRate: number;
  lastMeaningfulAt: number;
  lastOutputAt: number;
  /** Everything written since the previous change came right after typed keys: an echo, not work. */
  echoOnly: boolean;
}

export interface QueueTiming {
  coalesce_s: number;
  steady_coalesce_s: number;
  steady_after_s: number;
  settle_s: number;
  line_rate_window_s: number;
  echo_window_s: number;
  history_size: number;
}

export class PaneChangeQueue {
  readonly history: PaneHistory;
  private dirty = false;
  private newlines = 0;
  private burst = 0;
  private echoOnly = true;
  private lastTakeAt = -Infinity;
  private lastInputAt = -Infinity;
  private lastEventAt = -Infinity;
  private lastHash = '';
  private lastMeaningfulAt = 0;
  private lastOutputAt = 0;
  /** Folded hash per visible row, recomputed only for the rows the screen reports changed. */
  private rowHashes: number[] = [];
  private readonly hashByText = new Map<string, number>();
  private rateSum = 0;
  /** (time, newlines) per taken change inside the rate window. */
  private readonly rate: Array<[number, number]> = [];

  constructor(private readonly timing: QueueTiming) {
    this.history = new PaneHistory(timing.history_size);
  }

  noteOutput(t: number, data: string | Uint8Array): void {
    this.dirty = true;
    this.lastOutputAt = t;
    this.burst += data.length;
    this.newlines += countNewlines(data);
    if (t - this.lastInputAt > this.timing.echo_window_s) this.echoOnly = false;
  }

  noteInput(t: number): void {
    this.lastInputAt = t;
    this.noteEvent(t);
  }

  /** Something other than plain output happened (keys, an in-band signal): read the screen promptly again. */
  noteEvent(t: number): void {
    this.lastEventAt = t;
  }

  /** Short coalescing around events; steady (long window, or a settled frame) while a pane only streams. */
  private steady(t: number): boolean {
    return t - this.lastEventAt >= this.timing.steady_after_s;
  }

  /** Pane-clock time at which the pending change becomes due (Infinity if nothing is pending). */
  dueAt(t: number): number {
    if (!this.dirty) return Infinity;
    const th = this.timing;
    if (!this.steady(t)) return this.lastTakeAt + th.coalesce_s;
    return Math.min(this.lastTakeAt + th.steady_coalesce_s, Math.max(this.lastTakeAt + th.coalesce_s, this.lastOutputAt + th.settle_s));
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  /** Whether a snapshot should be taken now: dirty and the coalescing window since the last one has passed. */
  due(t: number): boolean {
    return t >= this.dueAt(t);
  }

  take(t: number, snapshot: ScreenSnapshot): PaneChange {
    // The cursor row is part of the content: Enter moving to a fresh empty row is a change the rows alone hide.
    const hash = `${this.foldedHash(snapshot)}:${snapshot.cursorY}`;
    const meaningful = hash !== this.lastHash && !this.echoOnlyChange();
    if (hash !== this.lastHash) this.lastHash = hash;
    if (meaningful) this.lastMeaningfulAt = t;
    this.rate.push([t, this.newlines]);
    this.rateSum += this.newlines;
    while (this.rate.length && this.rate[0]![0] < t - this.timing.line_rate_window_s) this.rateSum -= this.rate.shift()![1];
    const lines = this.rateSum;
    const change: PaneChange = {
      t,
      snapshot,
      hash,
      meaningful,
      newlines: this.newlines,
      burst: this.burst,
      lineRate: lines / Math.max(this.timing.line_rate_window_s, 1e-3),
      lastMeaningfulAt: this.lastMeaningfulAt,
      lastOutputAt: this.lastOutputAt,
      echoOnly: this.echoOnly,
    };
    this.dirty = false;
    this.newlines = 0;
    this.burst = 0;
    this.echoOnly = true;
    this.lastTakeAt = t;
    this.history.push(change);
    return change;
  }

  private foldedHash(snapshot: ScreenSnapshot): string {
    const lines = snapshot.lines;
    const n = lines.length;
    const full = this.rowHashes.length !== n || !snapshot.changedRows;
    const rows = full ? lines.map((_, y) => y) : snapshot.changedRows!;
    if (full) this.rowHashes = new Array<number>(n).fill(0);
    // Scrolling moves rows rather than changing them: a row's hash depends only on its text, so remember recent
    // texts (a bounded memo, dropped whole when it outgrows a few screens).
    if (this.hashByText.size > HASH_MEMO_SCREENS * n) this.hashByText.clear();
    for (const y of rows) {
      const text = lines[y]!;
      let h = this.hashByText.get(text);
      if (h === undefined) {
        h = hashRow(text, true);
        this.hashByText.set(text, h);
      }
      this.rowHashes[y] = h;
    }
    return combineRowHashes(this.rowHashes);
  }

  private echoOnlyChange(): boolean {
    return this.echoOnly && this.burst > 0 && this.newlines === 0;
  }
}

function countNewlines(data: string | Uint8Array): number {
  let n = 0;
  if (typeof data === 'string') {
    for (let i = data.indexOf('\n'); i >= 0; i = data.indexOf('\n', i + 1)) n++;
  } else {
    for (let i = data.indexOf(10); i >= 0; i = data.indexOf(10, i + 1)) n++;
  }
  return n;
}
