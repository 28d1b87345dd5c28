// PaneChangeQueue: turns a stream of writes into coalesced, enriched screen changes. Writes only mark the pane
// dirty and count bytes; the screen is read at most once per coalescing window.
import type { ScreenSnapshot } from '../screen/types.js';
import { combineRowHashes, hashRow } from './normalize.js';
import { PaneHistory } from './pane-history.js';

/** Scroll detection compares this many top rows; only worth it when more rows than this changed. */
const SCROLL_CHECK_ROWS = 3;

/** How many rows the screen scrolled up since `prev` (0 if it did not, or the top rows do not line up). */
function scrollShift(prev: readonly string[], next: readonly string[]): number {
  const n = next.length;
  for (let k = 1; k < n - SCROLL_CHECK_ROWS; k++) {
    let ok = true;
    for (let i = 0; i < SCROLL_CHECK_ROWS; i++) {
      if (next[i] !== prev[i + k]) {
        ok = false;
        break;
      }
    }
    if (ok) return k;
  }
  return 0;
}

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
  /** The last write before this change was keystroke-sized (a character or two on the cursor's row, no newline):
   * where typed keys are not seen (a tmux pane), what typing echo looks like. A program's question is written
   * whole. */
  keystrokeTail: boolean;
  /** Some output since the previous change came with no key to answer (later than key_response_s after one). */
  selfDriven: boolean;
}

export interface QueueTiming {
  coalesce_s: number;
  steady_coalesce_s: number;
  steady_after_s: number;
  settle_s: number;
  line_rate_window_s: number;
  echo_window_s: number;
  key_response_s: number;
  history_size: number;
}

export class PaneChangeQueue {
  readonly history: PaneHistory;
  private dirty = false;
  private newlines = 0;
  private burst = 0;
  private echoOnly = true;
  /** The last key typed submitted a line (Enter): its echo is the line break alone. */
  private submitted = false;
  /** Printable characters of a line typed whole with its Enter (a paste, scripted input) not echoed yet: the
   * program echoes them after the Enter, and that echo is not its work. */
  private echoLeft = 0;
  private keystrokeTail = false;
  private selfDriven = false;
  private lastTakeAt = -Infinity;
  private lastInputAt = -Infinity;
  private lastEventAt = -Infinity;
  private firstDirtyAt = 0;
  private lastHash = '';
  private lastMeaningfulAt = 0;
  private lastOutputAt = 0;
  /** Folded hash per visible row, recomputed only for the rows the screen reports changed. */
  private rowHashes = new Uint32Array(0);
  private prevLines: readonly string[] = [];
  private rateSum = 0;
  /** (time, newlines) per taken change inside the rate window. */
  private readonly rate: Array<[number, number]> = [];

  constructor(private readonly timing: QueueTiming) {
    this.history = new PaneHistory(timing.history_size);
  }

  noteOutput(t: number, data: string | Uint8Array): void {
    if (!this.dirty) this.firstDirtyAt = t;
    this.dirty = true;
    this.lastOutputAt = t;
    this.burst += data.length;
    const nl = countNewlines(data);
    this.newlines += nl;
    if (t - this.lastInputAt > this.timing.echo_window_s) this.echoOnly = false;
    // After Enter the echo is the line break (and mode switches): text the program prints on the rows below, a
    // question within milliseconds of the Enter included, is output, not echo.
    // The scan for printable characters is skipped when nothing below would read it (most writes of a stream hold
    // a newline and come long after any key).
    const needPrintable = nl === 0 || (this.submitted && this.echoOnly);
    const printable = needPrintable ? printableChars(data, KEYSTROKE_MAX_CHARS + 1 + this.echoLeft) : 0;
    const echoed = this.submitted ? Math.min(this.echoLeft, printable) : 0;
    this.echoLeft -= echoed;
    if (this.submitted && printable > echoed) this.echoOnly = false;
    // (a write of escape sequences alone, a colour reset or a mode switch, says nothing either way)
    if (nl > 0 || printable > KEYSTROKE_MAX_CHARS) this.keystrokeTail = false;
    else if (printable > 0) this.keystrokeTail = true;
    if (t - this.lastInputAt > this.timing.key_response_s) this.selfDriven = true;
  }

  /** Keys typed: their echo is not work; a control key (Enter, Esc…) also makes the next reads prompt. `keys`: what
   * was typed, when it submitted a line (the line's own characters, typed in the same write, are echoed after it). */
  noteInput(t: number, control = true, submit = false, keys = ''): void {
    this.lastInputAt = t;
    this.submitted = submit;
    this.echoLeft = submit ? printableChars(lastLine(keys), Infinity) : 0;
    if (control) this.noteEvent(t);
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
    // A stream is read steady_coalesce_s after it began to change, a burst settle_s after its last write; the
    // first write after a quiet spell waits for its frame too (it rarely comes alone).
    const since = Math.max(this.firstDirtyAt, this.lastTakeAt);
    return Math.min(since + th.steady_coalesce_s, Math.max(this.lastTakeAt + th.coalesce_s, this.lastOutputAt + th.settle_s));
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  /** Whether a snapshot should be taken now: dirty and the coalescing window since the last one has passed. */
  due(t: number): boolean {
    return t >= this.dueAt(t);
  }

  /** The read just taken was a baseline (the screen as a key arrived), not a frame: output right after it is
   * read at once rather than after a coalescing window. */
  releaseWindow(): void {
    this.lastTakeAt = -Infinity;
  }

  take(t: number, snapshot: ScreenSnapshot): PaneChange {
    // The cursor row is part of the content: Enter moving to a fresh empty row is a change the rows alone hide.
    const hash = `${this.foldedHash(snapshot)}:${snapshot.cursorY}`;
    const meaningful = hash !== this.lastHash && !this.echoOnlyChange();
    if (hash !== this.lastHash) this.lastHash = hash;
    // The content changed with some write since the last read: date it by the last write, not by the read
    // (coalescing must not stretch quiet windows).
    if (meaningful) this.lastMeaningfulAt = Math.min(t, this.lastOutputAt);
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
      keystrokeTail: this.keystrokeTail,
      selfDriven: this.selfDriven,
    };
    this.dirty = false;
    this.newlines = 0;
    this.burst = 0;
    this.echoOnly = true;
    this.selfDriven = false;
    this.lastTakeAt = t;
    this.history.push(change);
    return change;
  }

  private foldedHash(snapshot: ScreenSnapshot): string {
    const lines = snapshot.lines;
    const n = lines.length;
    const prev = this.prevLines;
    const prevHashes = this.rowHashes;
    const sameSize = prev.length === n && prevHashes.length === n;
    const rows = sameSize && snapshot.changedRows ? snapshot.changedRows : lines.map((_, y) => y);
    // Scrolling moves rows rather than changing them: find by how much, then reuse a moved row's hash (a hash
    // depends only on the row's text, so any row with equal text may lend it: equality is all that is checked).
    const shift = sameSize && rows.length > SCROLL_CHECK_ROWS ? scrollShift(prev, lines) : 0;
    // Updated in place: rows come in ascending order and a scroll only lends from rows below (from > y), which
    // are either unchanged or updated after they lent.
    const hashes = sameSize ? prevHashes : new Uint32Array(n);
    for (const y of rows) {
      const text = lines[y]!;
      const from = y + shift;
      hashes[y] = shift && from < n && prev[from] === text ? prevHashes[from]! : hashRow(text, true);
    }
    this.rowHashes = hashes;
    this.prevLines = lines;
    return combineRowHashes(hashes);
  }

  private echoOnlyChange(): boolean {
    return this.echoOnly && this.burst > 0 && this.newlines === 0;
  }
}

/** A write of at most this many printable characters, without a newline, looks like the echo of a keystroke (a
 * key, or a key and the character a line editor redraws after it). */
const KEYSTROKE_MAX_CHARS = 2;

/** Printable characters in a write (escape sequences and control bytes left out), counted up to `max`. */
function printableChars(data: string | Uint8Array, max: number): number {
  const text = typeof data === 'string' ? data : Buffer.from(data).toString('latin1');
  let n = 0;
  for (let i = 0; i < text.length && n < max; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x1b) {
      // CSI: ESC [ params final; OSC: ESC ] ... BEL or ST; other escapes are two bytes
      const next = text[i + 1];
      if (next === '[') {
        i += 2;
        while (i < text.length && (text.charCodeAt(i) < 0x40 || text.charCodeAt(i) > 0x7e)) i++;
      } else if (next === ']') {
        i += 2;
        while (i < text.length && text.charCodeAt(i) !== 0x07 && !(text[i] === '\\' && text[i - 1] === '\x1b')) i++;
      } else i++;
      continue;
    }
    if (c >= 0x20 && c !== 0x7f) n++;
  }
  return n;
}

/** The line a write of keys submitted: what it typed between its last two line breaks (or before the last one). */
function lastLine(keys: string): string {
  const end = Math.max(keys.lastIndexOf('\r'), keys.lastIndexOf('\n'));
  if (end <= 0) return '';
  const start = Math.max(keys.lastIndexOf('\r', end - 1), keys.lastIndexOf('\n', end - 1)) + 1;
  return keys.slice(start, end);
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
