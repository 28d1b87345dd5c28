// Blank lines made by copying one blank line's words instead of xterm's constructor, which sets every cell one by
// one: xterm makes a blank line for each row an alternate screen opens with, each row a scroll or an insert brings
// in, and each line an erase rebuilds. Under the hostile bench's alternate-screen flapping and costliest-sequence
// storms that constructor was a tenth of the daemon's time (with the garbage it left another tenth). The line made
// is the one xterm's own getBlankLine makes, word for word: a copy (BufferLine.clone, xterm's own) of a line xterm
// made for the same width and attributes, then given its wrap flag, with the buffer's null cell left set as xterm
// leaves it. Attributes with extended data (underline colours and styles) take xterm's own way.
//
// Internal API of @xterm/headless 6.0 (xterm-internals.ts): the buffer set's two buffers and their getBlankLine,
// getNullCell and buffer service. A terminal reset (RIS) makes new buffers: they are given the copy again when the
// screen sees the buffer change (PaneScreen), and until then xterm's own way is taken (slower, the same lines).

/** xterm's BgFlags.HAS_EXTENDED. */
const BG_HAS_EXTENDED = 0x10000000;

interface Attr {
  fg: number;
  bg: number;
}

interface BlankLine {
  _data: Uint32Array;
  length: number;
  isWrapped: boolean;
  clone(): BlankLine;
}

interface BlankLineBuffer {
  getBlankLine(attr: Attr, isWrapped?: boolean): BlankLine;
  getNullCell(attr?: Attr): Attr;
  _bufferService: { cols: number };
}

export interface BufferPair {
  normal: BlankLineBuffer;
  alt: BlankLineBuffer;
}

/** The buffer set of `ih` (xterm's input handler) when its buffers have the shapes above; else null. */
export function bufferPairOf(ih: Record<string, unknown> | undefined): BufferPair | null {
  const set = (ih?._bufferService as { buffers?: Partial<BufferPair> } | undefined)?.buffers;
  const ok = (b: Partial<BlankLineBuffer> | undefined) =>
    typeof b?.getBlankLine === 'function' && typeof b.getNullCell === 'function' && typeof b._bufferService?.cols === 'number';
  return set && ok(set.normal) && ok(set.alt) ? (set as BufferPair) : null;
}

/** Buffers already given the copy (a reset's new buffers are not). */
const installed = new WeakSet<BlankLineBuffer>();

/** Gives both buffers of `pair` blank lines by copy (again after a reset made new ones; once per buffer). */
export function copyBlankLines(pair: BufferPair): void {
  for (const b of [pair.normal, pair.alt]) {
    if (installed.has(b)) continue;
    installed.add(b);
    const own = Object.getPrototypeOf(b).getBlankLine as BlankLineBuffer['getBlankLine'];
    if (typeof own !== 'function') continue;
    let made: BlankLine | null = null;
    b.getBlankLine = function (this: BlankLineBuffer, attr: Attr, isWrapped?: boolean): BlankLine {
      const cell = this.getNullCell(attr);
      if (cell.bg & BG_HAS_EXTENDED) return own.call(this, attr, isWrapped);
      const cols = this._bufferService.cols;
      if (made === null || made.length !== cols || cols === 0 || made._data[1] !== cell.fg || made._data[2] !== cell.bg) made = own.call(this, attr, false);
      const line = made.clone();
      line.isWrapped = isWrapped === undefined ? false : isWrapped;
      return line;
    };
  }
}
