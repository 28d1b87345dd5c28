// PaneChangeQueue: turns a stream of writes into coalesced, enriched screen changes. Writes only mark the pane
// dirty and count bytes; the screen is read at most once per coalescing window.
import type { ScreenSnapshot } from '../screen/types.js';
import { hashLines } from './normalize.js';
import { PaneHistory } from './pane-history.js';

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
  private lastHash = '';
  private lastMeaningfulAt = 0;
  private lastOutputAt = 0;
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
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  /** Whether a snapshot should be taken now: dirty and the coalescing window since the last one has passed. */
  due(t: number): boolean {
    return this.dirty && t - this.lastTakeAt >= this.timing.coalesce_s;
  }

  take(t: number, snapshot: ScreenSnapshot): PaneChange {
    // The cursor row is part of the content: Enter moving to a fresh empty row is a change the rows alone hide.
    const hash = `${hashLines(snapshot.lines, true)}:${snapshot.cursorY}`;
    const meaningful = hash !== this.lastHash && !this.echoOnlyChange();
    if (hash !== this.lastHash) this.lastHash = hash;
    if (meaningful) this.lastMeaningfulAt = t;
    this.rate.push([t, this.newlines]);
    while (this.rate.length && this.rate[0]![0] < t - this.timing.line_rate_window_s) this.rate.shift();
    const lines = this.rate.reduce((a, [, n]) => a + n, 0);
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
