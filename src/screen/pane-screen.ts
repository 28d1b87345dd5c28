// One headless terminal per pane: renders the bytes exactly as the person's terminal would, and lifts the
// in-band signals (shell integration, agent OSCs, title, bell, bracketed paste, alternate screen) out of the stream.
import type { RepaintInput } from './repaint.js';
import xtermHeadless from '@xterm/headless';
import type { Terminal as XTerminal, IBufferNamespace, IDisposable } from '@xterm/headless';
import { parseAgentState, parseIterm, parseNotification, parseShellIntegration } from './osc-parse.js';
import type { InBandSignal, ScreenSnapshot } from './types.js';
import { clampRepeatParams, CsiClamp, LOOPING_CSI_FINALS, type CsiParams } from './csi-clamp.js';
import { sharedParseBudget, type ParseBudget } from './parse-budget.js';
import { yieldOnCostly, type CoreHandlers } from './costly-sequences.js';
import { capPayloads } from './payload-cap.js';
import { RowText } from './row-text.js';
import { WritePump } from './write-pump.js';
import { FastScroll } from './fast-scroll.js';
import { leanXterm } from './lean-xterm.js';
import { xtermInternals, type CoreBuffer, type UserInputSwitch, type XtermInternals } from './xterm-internals.js';

export { MAX_WRITE_PIECE } from './write-pump.js';

const { Terminal } = xtermHeadless;

/** Scrollback kept per pane: enough for context in `screen` views, small enough for 100 panes. */
export const SCREEN_SCROLLBACK_LINES = 1000;
/** Titles longer than this are cut: a title is shown and compared often, and a program may set megabytes. */
export const MAX_TITLE_CHARS = 512;

export interface PaneScreenOptions {
  cols: number;
  rows: number;
  scrollback?: number;
  /** How long parsing may hold the thread (default: the one budget all panes of the process share). */
  budget?: ParseBudget;
  /** Use xterm's public API only, never its internals (xterm-internals.ts): the path taken when an xterm update
   * changes an internal shape, tested beside the fast one. */
  publicApiOnly?: boolean;
}

export type SignalListener = (signal: InBandSignal, cursorLine: string) => void;

export class PaneScreen {
  readonly term: XTerminal;
  /** The terminal's buffers, looked up once: `term.buffer` re-checks the proposed-API option on every call. */
  private readonly buffers: IBufferNamespace;
  private readonly disposables: IDisposable[] = [];
  private readonly listeners: SignalListener[] = [];
  private readonly faultListeners: Array<(e: unknown) => void> = [];
  private title = '';
  /** Inside a synchronized-output frame (CSI ?2026h … l) the screen is half drawn: do not read it. */
  private syncFrame = false;
  private readonly clamp = new CsiClamp();
  /** xterm's parser clamps the counts (clampInParser): chunks are only cut, not scanned. */
  private readonly clampsInParser: boolean;
  /** Made on the first byte chunk (most sources hand over strings; a decoder is costly to make per pane). */
  private decoder: InstanceType<typeof TextDecoder> | null = null;
  /** Rows as last read, and the range xterm reported changed since (empty when from > to). */
  private rowCache: string[] = [];
  private dirtyFrom = 0;
  private dirtyTo = Number.MAX_SAFE_INTEGER;
  private readonly tracksDirtyRows: boolean;
  /** xterm's active buffer, when its internals are reachable: rows are then read by rowText. */
  private readonly core: (() => CoreBuffer) | null;
  private readonly rowText = new RowText();
  private readonly budget: ParseBudget;
  /** xterm's write buffer, when reachable: see parseAtOnce(). */
  private readonly userInputSwitch: UserInputSwitch | null;
  private readonly pump: WritePump;

  constructor(opts: PaneScreenOptions) {
    this.budget = opts.budget ?? sharedParseBudget;
    this.term = new Terminal({
      cols: clampDim(opts.cols, 80),
      rows: clampDim(opts.rows, 24),
      scrollback: opts.scrollback ?? SCREEN_SCROLLBACK_LINES,
      allowProposedApi: true,
      logLevel: 'off', // xterm would dump its parser state to stderr (the user's terminal) on every bad byte
    });
    this.buffers = this.term.buffer;
    const internals = xtermInternals(this.term, opts.publicApiOnly === true);
    this.core = internals.buffer;
    this.tracksDirtyRows = this.hookDirtyRows(internals);
    this.userInputSwitch = internals.userInput;
    this.pump = new WritePump(this.term, () => this.parseAtOnce(), this.budget, internals.parser);
    this.disposables.push(leanXterm(this.term, internals));
    this.clampsInParser = this.clampInParser(internals.handlers, internals.scroll && new FastScroll(internals.scroll));
    const p = this.term.parser;
    // xterm's parser awaits a handler's Promise (5.5 does; its typings say boolean only).
    const registerOsc = (ident: number, h: (data: string) => boolean | Promise<boolean>) => p.registerOscHandler(ident, h as (data: string) => boolean);
    const osc = (ident: number, parse: (d: string) => InBandSignal | null) =>
      this.disposables.push(registerOsc(ident, (data) => {
        // Inside xterm's parser: an exception would stop this terminal's write queue for good.
        try {
          const s = parse(data);
          if (s) this.emit(s);
        } catch (e) {
          this.fault(e);
        }
        // A signal is judged where it is parsed (the analyzer, the state machine): a flood of marks, 180 to a
        // write piece, held the daemon 0.6 s in one piece. Counted against the slice like a costly sequence.
        const wait = this.budget.check();
        return wait ? wait.then(() => true) : true;
      }));
    osc(133, (d) => parseShellIntegration('osc133', d));
    osc(633, (d) => parseShellIntegration('osc633', d));
    osc(1337, parseIterm);
    osc(7501, parseAgentState);
    osc(9, (d) => parseNotification(9, d));
    osc(777, (d) => parseNotification(777, d));
    const modes = (final: 'h' | 'l') =>
      this.disposables.push(p.registerCsiHandler({ prefix: '?', final }, (params) => {
        const on = final === 'h';
        for (const param of params) {
          const n = Array.isArray(param) ? param[0] : param;
          if (n === 2004) this.emit({ kind: 'bracketed-paste', on });
          else if (n === 2026) this.syncFrame = on;
        }
        return false; // let xterm apply the mode itself
      }));
    modes('h');
    modes('l');
    // A title is judged as it changes (its kind, the pane's program): title spam yields like a costly sequence.
    // false (or a Promise of it): xterm's own handler then sets the title.
    for (const ident of [0, 2]) this.disposables.push(registerOsc(ident, () => this.budget.check()));
    this.disposables.push(
      this.term.onTitleChange((raw) => {
        const title = raw.length > MAX_TITLE_CHARS ? raw.slice(0, MAX_TITLE_CHARS) : raw;
        this.title = title;
        this.emit({ kind: 'title', title });
      }),
      this.term.onBell(() => this.emit({ kind: 'bell' })),
      this.buffers.onBufferChange((buf) => {
        this.markAllDirty();
        this.emit({ kind: 'alt-screen', on: buf.type === 'alternate' });
      }),
    );
    capPayloads(internals.payloadHandlers); // after every OSC/DCS handler is registered
  }

  /** xterm's input handler reports the rows each parse touched; with it a snapshot re-reads only those rows.
   * It is internal API (xterm-internals.ts): without it every snapshot reads every row. */
  private hookDirtyRows(internals: XtermInternals): boolean {
    if (!internals.onRefreshRows) return false;
    this.disposables.push(internals.onRefreshRows((from, to) => {
      if (from < this.dirtyFrom) this.dirtyFrom = from;
      if (to > this.dirtyTo) this.dirtyTo = to;
    }));
    return true;
  }

  /** Looping CSIs' counts clamped to the pane in xterm's parameter store right before its handler runs: the parser
   * already found the sequence, so no chunk is scanned for it. Each is also a point where a long parse yields the
   * thread (ParseBudget). Internal API (xterm-internals.ts: a handler's count store, and a Promise returned by a
   * handler pauses the parser): without it every chunk is clamped by CsiClamp.filter instead. */
  private clampInParser(core: CoreHandlers | null, fast: FastScroll | null): boolean {
    if (!core) return false;
    const term = this.term;
    for (const final of LOOPING_CSI_FINALS) {
      // Scrolls are done by moving lines (fast-scroll.ts) when xterm's buffer has the shape for it; true: done.
      const scroll = fast && (final === 'S' || final === 'T') ? (p: CsiParams) => this.guarded(() => fast.scroll(final, p.params[0]!)) : null;
      this.disposables.push(core.registerCsiHandler({ final }, (p: CsiParams) => {
        try {
          clampRepeatParams(p, final, term, final === 'b' ? this.precedingCellChars() : 1);
        } catch (e) {
          this.fault(e); // inside xterm's parser: thrown on, it would stop this terminal's write queue for good
        }
        const wait = this.budget.check(); // false: xterm's own handler runs next, on the clamped counts
        if (!scroll) return wait;
        return wait ? wait.then(() => scroll(p)) : scroll(p);
      }));
    }
    this.disposables.push(...yieldOnCostly(core, this.budget));
    return true;
  }

  /** `f()`, or false (xterm's own handler runs) if it threw: inside xterm's parser an exception would stop this
   * terminal's write queue for good. */
  private guarded(f: () => boolean): boolean {
    try {
      return f();
    } catch (e) {
      this.fault(e);
      return false;
    }
  }

  /** Characters in the cell before the cursor (what REP repeats): more than one for combining marks. */
  private precedingCellChars(): number {
    const buf = this.buffers.active;
    const line = buf.getLine(buf.baseY + buf.cursorY);
    let cell = line?.getCell(buf.cursorX - 1);
    if (cell && cell.getWidth() === 0) cell = line?.getCell(buf.cursorX - 2);
    return cell?.getChars().length || 1;
  }

  private markAllDirty(): void {
    this.dirtyFrom = 0;
    this.dirtyTo = Number.MAX_SAFE_INTEGER;
  }

  onSignal(listener: SignalListener): void {
    this.listeners.push(listener);
  }

  /** An exception in this screen's own handlers inside xterm's parser (caught there, so parsing goes on). */
  onFault(listener: (e: unknown) => void): void {
    this.faultListeners.push(listener);
  }

  private fault(e: unknown): void {
    for (const l of this.faultListeners) l(e);
  }

  /** Queue bytes for parsing; `done` runs once they are on the screen (in write order). */
  write(data: string | Uint8Array, done?: () => void): void {
    const text = typeof data === 'string' ? data : (this.decoder ??= new TextDecoder('utf-8')).decode(data, { stream: true });
    const out = !text.length ? text : this.clampsInParser ? this.clamp.hold(text) : this.clamp.filter(text, this.term);
    this.pump.write(out, done);
  }

  /**
   * xterm parses a write that finds its queue empty only on a later timer turn, unless the person just typed (its
   * "user input" path parses at once). Taking that path for every chunk spares a timer hop (>= 1 ms) per chunk and
   * keeps xterm's queue short: a replay of thousands of chunks ran 25% faster, with byte-identical transitions.
   * WritePump hands over one piece at a time and yields between them, so xterm's queue never holds more than one.
   * Only used when WritePump cannot reach xterm's parser to feed it directly (see write-pump.ts).
   * The write buffer's own switch when reachable (internal API, xterm-internals.ts); else the public
   * `input('', true)`, which sends nothing anywhere (no one listens to this headless terminal's onData) but logs
   * and fires an event per call.
   */
  private parseAtOnce(): void {
    if (this.userInputSwitch) this.userInputSwitch.handleUserInput();
    else this.term.input('', true);
  }

  resize(cols: number, rows: number): void {
    this.term.resize(clampDim(cols, this.term.cols), clampDim(rows, this.term.rows));
    this.markAllDirty();
  }

  get inSyncFrame(): boolean {
    return this.syncFrame;
  }

  /** Reading the visible rows costs O(rows×cols): call it per coalesced change, not per write. */
  snapshot(): ScreenSnapshot {
    const buf = this.buffers.active;
    const rows = this.term.rows;
    if (!this.tracksDirtyRows || this.rowCache.length !== rows) this.markAllDirty();
    if (this.rowCache.length !== rows) {
      this.rowCache = new Array<string>(rows).fill('');
      this.rowText.reset(rows);
    }
    const changedRows: number[] = [];
    const core = this.core?.();
    for (let y = Math.max(0, this.dirtyFrom), to = Math.min(rows - 1, this.dirtyTo); y <= to; y++) {
      const text = core ? this.rowText.read(y, core.lines.get(core.ydisp + y)) : (buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
      if (text !== this.rowCache[y]) {
        this.rowCache[y] = text;
        changedRows.push(y);
      }
    }
    this.dirtyFrom = Number.MAX_SAFE_INTEGER;
    this.dirtyTo = -1;
    const lines = this.rowCache.slice();
    return {
      changedRows,
      cols: this.term.cols,
      rows,
      lines,
      cursorX: buf.cursorX,
      cursorY: buf.cursorY,
      baseY: buf.viewportY,
      altScreen: buf.type === 'alternate',
      bracketedPaste: this.term.modes.bracketedPasteMode,
      title: this.title,
    };
  }

  /** The row the cursor is on: the "screen line" a signal is attributed to. */
  cursorLine(): string {
    const buf = this.buffers.active;
    return buf.getLine(buf.baseY + buf.cursorY)?.translateToString(true) ?? '';
  }

  /**
   * The live edge for a glance: the last `n` non-blank rows at or above the cursor (or the last written row,
   * if output went below it). Reads rows directly, so it never disturbs snapshot()'s dirty-row tracking.
   */
  edge(n: number): string[] {
    const buf = this.term.buffer.active;
    return this.edgeRows(n).map((y) => buf.getLine(y)?.translateToString(true) ?? '');
  }

  /** The buffer indexes of the rows edge(n) shows, top to bottom. */
  edgeRows(n: number): number[] {
    const buf = this.term.buffer.active;
    let bottom = buf.cursorY;
    for (let y = this.term.rows - 1; y > bottom; y--) {
      if (buf.getLine(buf.viewportY + y)?.translateToString(true)) {
        bottom = y;
        break;
      }
    }
    const out: number[] = [];
    for (let y = bottom; y >= 0 && out.length < n; y--) {
      const text = buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '';
      if (text.trim()) out.push(buf.viewportY + y);
    }
    return out.reverse();
  }

  /** The buffer index of the top visible row. */
  get viewportTop(): number {
    return this.term.buffer.active.viewportY;
  }

  /** Whether any of buffer rows [start, end) continues the row above (read without reading any row's text). */
  anyWrapped(start: number, end: number): boolean {
    const buf = this.term.buffer.active;
    for (let y = Math.max(0, start); y < Math.min(buf.length, end); y++) if (buf.getLine(y)?.isWrapped) return true;
    return false;
  }

  /**
   * Buffer rows [start, end) widened to whole logical lines (a row the terminal wrapped onto continues the row
   * above), at most WRAP_REACH rows further each way: each row's text and whether it continues the one above. For
   * masking secrets split by a wrap (src/daemon/redact-lines.ts).
   */
  wrappedRows(start: number, end: number): { start: number; rows: Array<{ text: string; wrapped: boolean }> } {
    const buf = this.term.buffer.active;
    let a = Math.max(0, start);
    let b = Math.min(buf.length, end);
    for (let k = 0; k < WRAP_REACH && a > 0 && buf.getLine(a)?.isWrapped; k++) a--;
    for (let k = 0; k < WRAP_REACH && b < buf.length && buf.getLine(b)?.isWrapped; k++) b++;
    const rows: Array<{ text: string; wrapped: boolean }> = [];
    for (let y = a; y < b; y++) {
      const line = buf.getLine(y);
      // Trimmed as edge() and text() read rows: only cells never written go (a space that was written stays, so a
      // wrapped "key = " keeps its blank).
      rows.push({ text: line?.translateToString(true) ?? '', wrapped: y > a && line?.isWrapped === true });
    }
    return { start: a, rows };
  }

  /** What repaint() needs, read without disturbing snapshot()'s dirty-row tracking. */
  drawing(): RepaintInput {
    const buf = this.buffers.active;
    return {
      lines: this.text().split('\n'),
      cursorX: buf.cursorX,
      cursorY: buf.cursorY,
      altScreen: buf.type === 'alternate',
      bracketedPaste: this.term.modes.bracketedPasteMode,
      title: this.title,
    };
  }

  /** Visible rows plus up to `history` rows of scrollback above them, for `screen` views. */
  text(history = 0): string {
    const buf = this.buffers.active;
    const start = Math.max(0, buf.viewportY - history);
    const out: string[] = [];
    for (let y = start; y < buf.viewportY + this.term.rows; y++) out.push(buf.getLine(y)?.translateToString(true) ?? '');
    return out.join('\n').replace(/\n+$/, '');
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.pump.dispose();
    this.term.dispose();
  }

  private emit(signal: InBandSignal): void {
    // The cursor row explains a command or agent signal; a title, bell or mode switch explains itself.
    const explains = signal.kind !== 'title' && signal.kind !== 'bell' && signal.kind !== 'bracketed-paste' && signal.kind !== 'alt-screen';
    const line = this.listeners.length && explains ? this.cursorLine() : '';
    // Listeners run inside xterm's parser (OSC, modes, title): one that throws must not stop the write queue.
    for (const l of this.listeners) {
      try {
        l(signal, line);
      } catch (e) {
        this.fault(e);
      }
    }
  }
}

/** Rows a logical line is followed above and below what is read (wrappedRows): a key is at most a few hundred
 * characters, a handful of rows even on a narrow pane. */
const WRAP_REACH = 16;

/** A pane size from an untrusted header or resize: whole, at least 2, at most 1000; else the fallback. */
function clampDim(n: number, fallback: number): number {
  if (!Number.isFinite(n) || n < 2) return fallback;
  return Math.min(1000, Math.floor(n));
}
