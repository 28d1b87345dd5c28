// Every place termsupervisor reaches into @xterm/headless's internals (`_core`), in one module. Each is found by its
// shape at run time and is null when the shape is missing: the caller then takes the public-API path, which is
// tested too (tests/unit/xterm-internals.test.ts runs both). package.json pins @xterm/headless to an exact version,
// and the contract tests fail loudly when an update changes a shape. For each: why it is used, and what public API
// would replace it.
//
// Checked against @xterm/headless 5.5.0 and 6.0.0 (XTERM_VERSIONS_CHECKED).
import type { IDisposable, Terminal } from '@xterm/headless';
import type { CoreHandlers } from './costly-sequences.js';
import { scrollHandlerOf, type ScrollHandler } from './fast-scroll.js';
import { bufferPairOf, type BufferPair } from './blank-lines.js';
import { scrollServiceOf, type ScrollService } from './line-feed-scroll.js';

/** The versions the shapes below were read from (and the contract tests pass on). */
export const XTERM_VERSIONS_CHECKED = ['5.5.0', '6.0.0'] as const;

/** xterm's input handler's parse(): its write queue calls it for each queued write, and again with a handler's
 * answer when a handler's Promise paused the parse. Used by the write pump to hand pieces to the parser straight
 * (xterm's queue, fed a piece at a time, read the clock twice and regrew two arrays per piece).
 * Public replacement: none; a synchronous write (xtermjs/xterm.js#1650, "writeSync method", open since 2018). */
export interface XtermParser {
  parse(data: string, promiseResult?: boolean): void | Promise<boolean>;
}

/** xterm's write buffer: handleUserInput() makes the next write parse at once instead of on a later timer turn.
 * Public replacement: none (the same synchronous-write request). */
export interface UserInputSwitch {
  handleUserInput(): void;
}

/** The parts of an internal BufferLine that row-text.ts reads (three words per cell; the first holds the code point,
 * the combined-string flag and the width). Public replacement: IBufferLine.translateToString(true), which builds a
 * new string per call: row-text.ts keeps a row's string while its words are unchanged. */
export interface CoreLine {
  readonly _data: Uint32Array;
  readonly length: number;
  translateToString(trimRight: boolean): string;
}

export interface CoreBuffer {
  readonly ydisp: number;
  readonly lines: { get(i: number): CoreLine | undefined };
}

/** xterm's buffering OSC/DCS handler (OscHandler, DcsHandler): its payload so far and its limit flag. */
export interface BufferingHandler {
  put(data: Uint32Array, start: number, end: number): void;
  _data?: string;
  _hitLimit?: boolean;
}

/** One terminal's internals, each null when not reachable (or when the public path is asked for). */
export interface XtermInternals {
  /** Public replacement: none; see XtermParser. */
  parser: XtermParser | null;
  /** Public replacement: none; see UserInputSwitch. */
  userInput: UserInputSwitch | null;
  /** The rows each parse touched, so a snapshot re-reads only those. Public replacement: Terminal.onRender exists
   * only in the browser build; headless has no dirty-row event (onWriteParsed says only that something changed). */
  onRefreshRows: ((cb: (from: number, to: number) => void) => IDisposable) | null;
  /** Handlers that see (and may change) a CSI's parameter store before xterm's own, and may return a Promise that
   * pauses the parser (ParseBudget yields there). Public replacement: term.parser.registerCsiHandler passes a copy
   * of the params and takes no Promise in headless; clamping then happens on the bytes (CsiClamp.filter). */
  handlers: CoreHandlers | null;
  /** The active buffer's lines. Public replacement: term.buffer.active.getLine(y).translateToString(true). */
  buffer: (() => CoreBuffer) | null;
  /** The OSC and DCS handler tables, to bound what one unterminated payload may buffer. Public replacement: none
   * (a payload-size option; xterm's own limit is 10 M characters). */
  payloadHandlers: Array<Record<number, BufferingHandler[]>> | null;
  /** The input handler's active buffer, erase attributes and dirty rows, for scrolls done by moving lines
   * (fast-scroll.ts). Public replacement: none (xterm's scroll builds a line and splices twice per count). */
  scroll: ScrollHandler | null;
  /** The normal and alternate buffers, whose blank lines are then made by copy (blank-lines.ts). Public
   * replacement: none (xterm builds each blank line cell by cell). */
  buffers: (() => BufferPair | null) | null;
  /** The buffer service, whose line-feed scroll inside a region then reuses the line it drops (line-feed-scroll.ts).
   * Public replacement: none (xterm clones a new line for each row a region scrolls). Read from 6.0.0's scroll only. */
  lineFeeds: ScrollService | null;
}

/** UTF-16 code units decode as they are only on a little-endian machine; elsewhere rows are read by xterm. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const NONE: XtermInternals = { parser: null, userInput: null, onRefreshRows: null, handlers: null, buffer: null, payloadHandlers: null, scroll: null, buffers: null, lineFeeds: null };

/** The internals of `term` that have the shapes above; `publicOnly` gives none (the public-API path). */
export function xtermInternals(term: Terminal, publicOnly = false): XtermInternals {
  if (publicOnly) return NONE;
  const core = (term as unknown as { _core?: Record<string, unknown> })._core;
  if (!core) return NONE;
  return {
    parser: parserOf(core),
    userInput: userInputOf(core),
    onRefreshRows: refreshRowsOf(core),
    handlers: typeof core.registerCsiHandler === 'function' && typeof core.registerEscHandler === 'function' ? (core as unknown as CoreHandlers) : null,
    buffer: bufferOf(core),
    payloadHandlers: payloadHandlersOf(core),
    scroll: scrollHandlerOf(inputHandler(core)),
    buffers: bufferPairOf(inputHandler(core)) ? () => bufferPairOf(inputHandler(core)) : null,
    lineFeeds: scrollServiceOf(core),
  };
}

function inputHandler(core: Record<string, unknown>): Record<string, unknown> | undefined {
  const ih = core._inputHandler;
  return typeof ih === 'object' && ih !== null ? (ih as Record<string, unknown>) : undefined;
}

function parserOf(core: Record<string, unknown>): XtermParser | null {
  const ih = inputHandler(core);
  return typeof ih?.parse === 'function' ? (ih as unknown as XtermParser) : null;
}

function userInputOf(core: Record<string, unknown>): UserInputSwitch | null {
  const wb = core._writeBuffer as Partial<UserInputSwitch> | undefined;
  return typeof wb?.handleUserInput === 'function' ? (wb as UserInputSwitch) : null;
}

/** 5.5 fires onRequestRefreshRows(start, end); 6.0 fires it with one `{start, end}` (and a second argument). */
function refreshRowsOf(core: Record<string, unknown>): XtermInternals['onRefreshRows'] {
  const ih = inputHandler(core) as { onRequestRefreshRows?: (cb: (a: unknown, b: unknown) => void) => IDisposable } | undefined;
  if (typeof ih?.onRequestRefreshRows !== 'function') return null;
  const event = ih.onRequestRefreshRows.bind(ih);
  return (cb) =>
    event((a, b) => {
      if (typeof a === 'number' && typeof b === 'number') cb(a, b);
      else if (typeof a === 'object' && a !== null && typeof (a as { start?: unknown }).start === 'number') {
        const r = a as { start: number; end: number };
        cb(r.start, r.end);
      } else cb(0, Number.MAX_SAFE_INTEGER); // an unknown shape: every row is dirty (never a missed row)
    });
}

function bufferOf(core: Record<string, unknown>): (() => CoreBuffer) | null {
  if (!LITTLE_ENDIAN) return null;
  const buf = core.buffer as Partial<CoreBuffer> | undefined;
  const line = buf?.lines?.get(0) as Partial<CoreLine> | undefined;
  const shaped = typeof buf?.ydisp === 'number' && line !== undefined && line._data instanceof Uint32Array && typeof line.length === 'number' && typeof line.translateToString === 'function';
  return shaped ? () => core.buffer as CoreBuffer : null;
}

function payloadHandlersOf(core: Record<string, unknown>): XtermInternals['payloadHandlers'] {
  const parser = inputHandler(core)?._parser as { _oscParser?: { _handlers?: Record<number, BufferingHandler[]> }; _dcsParser?: { _handlers?: Record<number, BufferingHandler[]> } } | undefined;
  const tables = [parser?._oscParser?._handlers, parser?._dcsParser?._handlers];
  return tables.every((t) => typeof t === 'object' && t !== null) ? (tables as Array<Record<number, BufferingHandler[]>>) : null;
}
