// Blank lines made by copying one blank line's words instead of xterm's constructor, which sets every cell one by
// one: xterm makes a blank line for each row an alternate screen opens with, each row a scroll or an insert brings
// in, and each line an erase rebuilds. Under the hostile bench's alternate-screen flapping and costliest-sequence
// storms that constructor was a tenth of the daemon's time (with the garbage it left another tenth). The line made
// is the one xterm's own getBlankLine makes, word for word: a copy (BufferLine.clone, xterm's own) of a line xterm
// made for the same width and attributes, then given its wrap flag, with the buffer's null cell left set as xterm
// leaves it. Attributes with extended data (underline colours and styles) take xterm's own way.
//
// The alternate buffer drops its lines each time it is left (xterm's Buffer.clear) and makes a screenful again each
// time it is entered: a program flapping between the two screens made and dropped a screenful of typed arrays per
// switch, and the allocator kept the holes (RSS 1.46 times its start 40 s after the bench's flapping storm, with
// the V8 heap back at its size). Its dropped lines are kept (up to MAX_POOL_BYTES) and filled with the blank
// line's words when it is entered again, so a flapping screen reuses the same lines.
//
// Internal API of @xterm/headless 6.0 (xterm-internals.ts): the buffer set's two buffers and their getBlankLine,
// getNullCell, clear, lines and buffer service. A terminal reset (RIS) makes new buffers: they are given the copy again when the
// screen sees the buffer change (PaneScreen), and until then xterm's own way is taken (slower, the same lines).

/** xterm's BgFlags.HAS_EXTENDED: a blank cell then carries an extended-attributes object, which is not copied. */
export const BG_HAS_EXTENDED = 0x10000000;

interface Attr {
  fg: number;
  bg: number;
}

/** Bytes of dropped alternate-screen lines kept per buffer for reuse: a screenful of a 200x60 pane (144 KB), a
 * fraction of the largest pane's. */
const MAX_POOL_BYTES = 256 << 10;

/** The parts of xterm's BufferLine a blank line is copied through (also fast-scroll.ts's). */
export interface LineWords {
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, unknown>;
  length: number;
  isWrapped: boolean;
}

interface BlankLine extends LineWords {
  clone(): BlankLine;
}

interface BlankLineBuffer {
  getBlankLine(attr: Attr, isWrapped?: boolean): BlankLine;
  getNullCell(attr?: Attr): Attr;
  clear(): void;
  lines: { length: number; get(i: number): BlankLine | undefined };
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
    typeof b?.getBlankLine === 'function' &&
    typeof b.getNullCell === 'function' &&
    typeof b.clear === 'function' &&
    typeof b.lines?.get === 'function' &&
    typeof b._bufferService?.cols === 'number';
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
    /** The alternate buffer's dropped lines, and their bytes (null: the normal buffer, whose lines are not dropped). */
    const pool: BlankLine[] | null = b === pair.alt ? [] : null;
    let pooled = 0;
    const take = (cols: number): BlankLine | undefined => {
      for (let line = pool?.pop(); line; line = pool!.pop()) {
        pooled -= line._data.byteLength;
        if (line.length === cols) return line; // else kept from before a resize: dropped
      }
      return undefined;
    };
    b.getBlankLine = function (this: BlankLineBuffer, attr: Attr, isWrapped?: boolean): BlankLine {
      const cell = this.getNullCell(attr);
      if (cell.bg & BG_HAS_EXTENDED) return own.call(this, attr, isWrapped);
      const cols = this._bufferService.cols;
      if (made === null || made.length !== cols || cols === 0 || made._data[1] !== cell.fg || made._data[2] !== cell.bg) made = own.call(this, attr, false);
      const kept = take(cols);
      const line = kept ? copyBlank(kept, made) : made.clone();
      line.isWrapped = isWrapped === undefined ? false : isWrapped;
      return line;
    };
    if (!pool) continue;
    const clear = Object.getPrototypeOf(b).clear as BlankLineBuffer['clear'];
    b.clear = function (this: BlankLineBuffer): void {
      // Leaving the alternate screen: its lines are kept for the next time it is entered (nothing else holds them).
      for (let i = 0; i < this.lines.length && pooled < MAX_POOL_BYTES; i++) {
        const line = this.lines.get(i);
        if (!line) continue;
        pool.push(line);
        pooled += line._data.byteLength;
      }
      clear.call(this);
    };
  }
}

/** `line` made a copy of `blank`'s words, with no combined characters or extended attributes (its wrap flag is
 * the caller's). */
export function copyBlank<L extends LineWords>(line: L, blank: LineWords): L {
  line._data.set(blank._data);
  if (hasKeys(line._combined)) line._combined = {};
  if (hasKeys(line._extendedAttrs)) line._extendedAttrs = {};
  return line;
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}
