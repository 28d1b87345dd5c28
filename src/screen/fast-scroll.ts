// Scroll up / down (CSI S / CSI T) done by moving line objects and copying one blank line's words, instead of
// xterm's way: per count, two CircularList splices (each moving every row below) and a new BufferLine built cell by
// cell. A storm of `ESC[9999S ESC[9999T` pairs (clamped to the pane's rows, csi-clamp.ts) cost xterm a pane's rows
// squared per sequence: 10 MB took a replay 42 s, 90% of it in those splices and constructors; here each sequence
// costs a row move and, for each blank row, one copy of its words. The screen left is the very same, word for word:
// the same rows in the same order, each blank row holding exactly the words xterm's own blank line would (copied
// from one xterm made), unwrapped, with no combined characters or extended attributes.
//
// Internal API of @xterm/headless (6.0; xterm-internals.ts explains why and how each shape is checked): the input
// handler's active buffer, its erase attributes and its dirty-row tracker. Whenever anything is off the usual shape
// (a line of another length, markers on the buffer that xterm's splices would move, attributes with extended
// data), it answers false and xterm's own handler runs.

import { BG_HAS_EXTENDED, copyBlank, type LineWords } from './blank-lines.js';

interface Attr {
  fg: number;
  bg: number;
  extended: unknown;
}

type ScrollLine = LineWords;

interface ScrollBuffer {
  ybase: number;
  scrollTop: number;
  scrollBottom: number;
  markers: unknown[];
  lines: { get(i: number): ScrollLine | undefined; set(i: number, line: ScrollLine): void; length: number };
  getNullCell(attr?: Attr): Attr;
  getBlankLine(attr: Attr, isWrapped?: boolean): ScrollLine;
}

/** The parts of xterm's input handler a scroll reads and marks. */
export interface ScrollHandler {
  _activeBuffer: ScrollBuffer;
  _eraseAttrData(): Attr;
  _dirtyRowTracker: { markRangeDirty(y1: number, y2: number): void };
  _bufferService: { cols: number };
}

/** The input handler when it has the shape a fast scroll needs (checked once, on a live terminal); else null. */
export function scrollHandlerOf(ih: Record<string, unknown> | undefined): ScrollHandler | null {
  const h = ih as Partial<ScrollHandler> | undefined;
  const b = h?._activeBuffer as Partial<ScrollBuffer> | undefined;
  const line = b?.lines?.get(0) as Partial<ScrollLine> | undefined;
  const shaped =
    typeof h?._eraseAttrData === 'function' &&
    typeof h._dirtyRowTracker?.markRangeDirty === 'function' &&
    typeof h._bufferService?.cols === 'number' &&
    typeof b?.ybase === 'number' &&
    typeof b.scrollTop === 'number' &&
    typeof b.scrollBottom === 'number' &&
    Array.isArray(b.markers) &&
    typeof b.lines?.set === 'function' &&
    typeof b.getNullCell === 'function' &&
    typeof b.getBlankLine === 'function' &&
    line?._data instanceof Uint32Array &&
    typeof line._combined === 'object' &&
    typeof line._extendedAttrs === 'object' &&
    typeof line.isWrapped === 'boolean';
  return shaped ? (h as ScrollHandler) : null;
}

/** xterm's DEFAULT_ATTR_DATA as scroll down blanks with it (its extended part is unused: no extended flag). */
const DEFAULT_ATTR: Attr = { fg: 0, bg: 0, extended: undefined };

export class FastScroll {
  /** One blank line per (width, fg, bg) last used: a storm alternates between at most two. */
  private blanks: ScrollLine[] = [];

  constructor(private readonly ih: ScrollHandler) {}

  /** Does CSI `final` (S or T) with `count` (0 means 1, as for xterm) as xterm would; false: it did nothing, and
   * xterm's own handler must run. */
  scroll(final: 'S' | 'T', count: number): boolean {
    const ih = this.ih;
    const b = ih._activeBuffer;
    if (b.markers.length) return false; // xterm's splices move markers: leave them to it
    const attr = final === 'S' ? ih._eraseAttrData() : DEFAULT_ATTR;
    if (attr.bg & BG_HAS_EXTENDED) return false;
    const top = b.ybase + b.scrollTop;
    const bottom = b.ybase + b.scrollBottom;
    const height = bottom - top + 1;
    if (height < 1 || bottom >= b.lines.length) return false;
    const n = Math.min(count || 1, height);
    const blank = this.blank(b, attr, ih._bufferService.cols);
    const width = blank.length;
    for (let y = top; y <= bottom; y++) if (b.lines.get(y)?.length !== width) return false;
    if (n === height) {
      // The whole region scrolls off: every row of it blank, each line cleared where it is (no row moves).
      for (let y = top; y <= bottom; y++) clear(b.lines.get(y)!, blank);
    } else if (final === 'S') {
      // The n rows scrolled off the region come back as its new blank rows, so no line is made.
      const off = offRows(b, top, n);
      for (let y = top; y + n <= bottom; y++) b.lines.set(y, b.lines.get(y + n)!);
      for (let k = 0; k < n; k++) b.lines.set(bottom - n + 1 + k, clear(off[k]!, blank));
    } else {
      const off = offRows(b, bottom - n + 1, n).reverse();
      for (let y = bottom; y - n >= top; y--) b.lines.set(y, b.lines.get(y - n)!);
      for (let k = 0; k < n; k++) b.lines.set(top + k, clear(off[k]!, blank));
    }
    ih._dirtyRowTracker.markRangeDirty(b.scrollTop, b.scrollBottom);
    return true;
  }

  /** xterm's own blank line for `attr` at the buffer's width (made by xterm, so its words are xterm's). */
  private blank(b: ScrollBuffer, attr: Attr, cols: number): ScrollLine {
    const cell = b.getNullCell(attr); // xterm's getBlankLine leaves its null cell set so: leave it the same
    for (const l of this.blanks) if (l.length === cols && l._data[1] === cell.fg && l._data[2] === cell.bg) return l;
    const line = b.getBlankLine(attr);
    this.blanks = [line, ...this.blanks.slice(0, 1)];
    return line;
  }
}

/** The n line objects from buffer row `from` on. */
function offRows(b: ScrollBuffer, from: number, n: number): ScrollLine[] {
  const off = new Array<ScrollLine>(n);
  for (let k = 0; k < n; k++) off[k] = b.lines.get(from + k)!;
  return off;
}

/** `line` made a copy of `blank`: its words, no combined strings or extended attributes, not wrapped. */
function clear(line: ScrollLine, blank: ScrollLine): ScrollLine {
  copyBlank(line, blank).isWrapped = false;
  return line;
}
