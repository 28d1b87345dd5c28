// Row text read straight from xterm's internal buffer lines, remembered per row: a snapshot re-reads every row
// in the range xterm reports dirty (a scroll or a one-cell redraw reports a whole region), and most of those
// rows hold the same characters as last time. Internal API (xterm-internals.ts: CoreLine); PaneScreen falls back to
// the public translateToString when the shape is missing.

import type { CoreLine } from './xterm-internals.js';

export type { CoreBuffer, CoreLine } from './xterm-internals.js';

/** Words per cell in a line's data. */
const CELL_WORDS = 3;
/** Content word layout (xterm's Content enum). */
const CODEPOINT_MASK = 0x1fffff;
const IS_COMBINED = 0x200000;
const HAS_CONTENT = 0x3fffff;
const WIDTH_SHIFT = 22;
/** What an empty cell reads as (xterm's WHITESPACE_CELL_CHAR). */
const SPACE = 0x20;
/** Code units a row can need: two per cell (astral characters). */
const MAX_UNITS = 2 * 1000;

/** One scratch buffer and decoder for every pane: rows are built one at a time, synchronously. (A decoder is
 * costly to make, and panes come and go.) ignoreBOM: a row starting with U+FEFF keeps it, as xterm's does. */
const units = new Uint16Array(MAX_UNITS);
const decoder = new TextDecoder('utf-16le', { ignoreBOM: true });
/** Views of `units` by length, made once each: a view per row built was most of what building a row allocated. */
const views: Uint16Array[] = [];
const unitsOf = (k: number): Uint16Array => (views[k] ??= units.subarray(0, k));

export class RowText {
  /** Per row: the line object last read there, the content words its text was built from, how many of them count,
   * and the text. An entry is moved with its line object when scrolling moves the line to another row. */
  private lines: Array<CoreLine | undefined> = [];
  private words: Uint32Array[] = [];
  /** -1: never reused (a combined cell's text lives outside its word). */
  private ends: number[] = [];
  private texts: string[] = [];
  /** By how many rows the last moved line had moved: the next one has usually moved as far (one scroll). */
  private shift = 0;

  /** Forget every row (the screen changed size). */
  reset(rows: number): void {
    this.lines = new Array<CoreLine | undefined>(rows);
    this.words = new Array<Uint32Array>(rows);
    this.ends = new Array<number>(rows).fill(-1);
    this.texts = new Array<string>(rows).fill('');
    this.shift = 0;
  }

  /** Row y's text, exactly as line.translateToString(true) gives it. */
  read(y: number, line: CoreLine | undefined): string {
    if (!line) {
      this.ends[y] = -1;
      this.lines[y] = undefined;
      return '';
    }
    // A scroll shows the same line objects on other rows: take the entry along, so a moved row's text (the same
    // string, whose hash the memos downstream have already computed) is reused instead of built again.
    if (this.lines[y] !== line) this.follow(y, line);
    const data = line._data;
    const end = trimmedLength(line);
    let words = this.words[y];
    if (words && this.ends[y] === end && sameWords(data, words, end)) return this.texts[y]!;
    if (!words || words.length < line.length) words = this.words[y] = new Uint32Array(line.length);
    let reusable = true;
    for (let x = 0; x < end; x++) {
      const w = data[x * CELL_WORDS]!;
      words[x] = w;
      if (w & IS_COMBINED) reusable = false;
    }
    const text = (reusable ? this.build(data, end) : null) ?? line.translateToString(true);
    this.ends[y] = reusable ? end : -1;
    this.texts[y] = text;
    return text;
  }

  /** Row y now shows `line`: if another row's entry was read from that line object, swap the two entries (the
   * other row gets y's old one, which is checked like any entry when it is read: an entry only ever holds a text
   * and the words it was built from, so a stale one is rebuilt, never believed). */
  private follow(y: number, line: CoreLine): void {
    const n = this.lines.length;
    let j = y + this.shift;
    if (j < 0 || j >= n || this.lines[j] !== line) {
      j = -1;
      for (let k = 0; k < n; k++) {
        if (this.lines[k] === line) {
          j = k;
          break;
        }
      }
    }
    if (j < 0) {
      this.lines[y] = line;
      return;
    }
    this.shift = j - y;
    this.lines[j] = this.lines[y];
    this.lines[y] = line;
    swap(this.words, y, j);
    swap(this.ends, y, j);
    swap(this.texts, y, j);
  }

  /** The row's characters as one string, or null when only xterm can spell them (combined or invalid ones). */
  private build(data: Uint32Array, end: number): string | null {
    if (end * 2 > MAX_UNITS) return null;
    let k = 0;
    for (let x = 0; x < end; ) {
      const w = data[x * CELL_WORDS]!;
      const cp = w & CODEPOINT_MASK;
      if (cp === 0) units[k++] = SPACE;
      else if (cp <= 0xffff) {
        if (cp >= 0xd800 && cp <= 0xdfff) return null; // a lone surrogate: the decoder would replace it
        units[k++] = cp;
      } else {
        if (cp > 0x10ffff) return null;
        const c = cp - 0x10000;
        units[k++] = 0xd800 + (c >> 10);
        units[k++] = 0xdc00 + (c % 1024);
      }
      x += w >> WIDTH_SHIFT || 1;
    }
    return k === 0 ? '' : decoder.decode(unitsOf(k));
  }
}

/** Columns up to the last one with content (xterm's getTrimmedLength). */
function trimmedLength(line: CoreLine): number {
  const data = line._data;
  for (let x = line.length - 1; x >= 0; x--) {
    const w = data[x * CELL_WORDS]!;
    if (w & HAS_CONTENT) return x + (w >> WIDTH_SHIFT);
  }
  return 0;
}

function swap<T>(a: T[], i: number, j: number): void {
  const x = a[i]!;
  a[i] = a[j]!;
  a[j] = x;
}

function sameWords(data: Uint32Array, words: Uint32Array, end: number): boolean {
  for (let x = 0; x < end; x++) if (data[x * CELL_WORDS] !== words[x]) return false;
  return true;
}
