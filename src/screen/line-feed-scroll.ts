// A line feed on the bottom row of a scroll region (an agent that keeps its input box or footer below the region it
// prints into, as Codex's inline viewport does) scrolls the region: xterm's BufferService.scroll then clones its
// blank line into a new BufferLine, whose typed array is allocated outside V8's heap, and drops a line (the oldest
// scrollback line when the buffer is full, or the region's top row). On a synthetic agent stream that clone was a
// quarter of the pipeline's time, most of it allocating. Here the line xterm drops is refilled with the blank line's
// words instead (BufferLine.copyFrom: what xterm's own recycle path does when no region is set) and put exactly
// where xterm puts its clone, through the same list operations, so the screen, the scrollback, the markers' events
// and the scroll event are xterm's own. Every other case (no region, a buffer still growing) is xterm's.
//
// Internal API of @xterm/headless 6.0 (xterm-internals.ts): the buffer service's scroll, its active buffer's line
// list and its cached blank line. Public replacement: none (xterm's scroll is not pluggable).

interface Attr {
  fg: number;
  bg: number;
}

interface FeedLine {
  length: number;
  isWrapped: boolean;
  getFg(x: number): number;
  getBg(x: number): number;
  copyFrom(line: FeedLine): void;
}

interface FeedLines {
  readonly length: number;
  readonly isFull: boolean;
  get(i: number): FeedLine | undefined;
  set(i: number, line: FeedLine): void;
  splice(start: number, deleteCount: number, ...items: FeedLine[]): void;
  shiftElements(start: number, count: number, offset: number): void;
}

interface FeedBuffer {
  ybase: number;
  ydisp: number;
  scrollTop: number;
  scrollBottom: number;
  lines: FeedLines;
  getBlankLine(attr: Attr, isWrapped?: boolean): FeedLine;
}

/** The parts of xterm's BufferService a line-feed scroll reads and sets. */
export interface ScrollService {
  readonly buffer: FeedBuffer;
  cols: number;
  isUserScrolling: boolean;
  _cachedBlankLine?: FeedLine;
  _onScroll: { fire(ydisp: number): void };
  scroll(eraseAttr: Attr, isWrapped?: boolean): void;
}

/** The buffer service when it has the shape a recycling scroll needs (checked on a live terminal); else null. */
export function scrollServiceOf(core: Record<string, unknown>): ScrollService | null {
  const s = core._bufferService as Partial<ScrollService> | undefined;
  const b = s?.buffer as Partial<FeedBuffer> | undefined;
  const lines = b?.lines as Partial<FeedLines> | undefined;
  const line = lines?.get?.(0) as Partial<FeedLine> | undefined;
  const shaped =
    typeof s?.scroll === 'function' &&
    typeof s._onScroll?.fire === 'function' &&
    typeof s.isUserScrolling === 'boolean' &&
    typeof s.cols === 'number' &&
    typeof b?.ybase === 'number' &&
    typeof b.ydisp === 'number' &&
    typeof b.scrollTop === 'number' &&
    typeof b.scrollBottom === 'number' &&
    typeof b.getBlankLine === 'function' &&
    typeof lines?.isFull === 'boolean' &&
    typeof lines.splice === 'function' &&
    typeof lines.shiftElements === 'function' &&
    typeof lines.set === 'function' &&
    typeof line?.copyFrom === 'function' &&
    typeof line.getFg === 'function' &&
    typeof line.getBg === 'function';
  return shaped ? (s as ScrollService) : null;
}

/** Makes `service`'s line-feed scrolls inside a region reuse the line they drop (once per service). */
export function recycleRegionScrolls(service: ScrollService): void {
  if (Object.prototype.hasOwnProperty.call(service, 'scroll')) return;
  const own = service.scroll;
  service.scroll = function (this: ScrollService, eraseAttr: Attr, isWrapped = false): void {
    const buffer = this.buffer;
    const lines = buffer.lines;
    const bottomRow = buffer.ybase + buffer.scrollBottom;
    // No region below (the bottom row is the list's last: xterm already recycles), or a list still growing (the
    // new line is needed): xterm's own way.
    if (buffer.scrollTop === 0 && (bottomRow === lines.length - 1 || !lines.isFull)) return own.call(this, eraseAttr, isWrapped);
    // xterm's cached blank line, made again when the width or the erase colours changed (as its scroll does).
    let blank = this._cachedBlankLine;
    if (!blank || blank.length !== this.cols || blank.getFg(0) !== eraseAttr.fg || blank.getBg(0) !== eraseAttr.bg) {
      blank = buffer.getBlankLine(eraseAttr, isWrapped);
      this._cachedBlankLine = blank;
    }
    blank.isWrapped = isWrapped;
    if (buffer.scrollTop === 0) {
      // The list is full: inserting below the region trims its oldest line, which becomes the new row.
      const dropped = lines.get(0)!;
      dropped.copyFrom(blank);
      lines.splice(bottomRow + 1, 0, dropped);
      // Trimmed, so ybase stays; a person scrolled up keeps the same text in view (xterm's rule).
      if (this.isUserScrolling) buffer.ydisp = Math.max(buffer.ydisp - 1, 0);
    } else {
      // The region's top row leaves it: the rows below move up one and it comes back as the new bottom row.
      const topRow = buffer.ybase + buffer.scrollTop;
      const dropped = lines.get(topRow)!;
      lines.shiftElements(topRow + 1, bottomRow - topRow, -1);
      dropped.copyFrom(blank);
      lines.set(bottomRow, dropped);
    }
    if (!this.isUserScrolling) buffer.ydisp = buffer.ybase;
    this._onScroll.fire(buffer.ydisp);
  };
}
