// Clamps repeat counts of the CSI sequences xterm executes once per count (scroll S/T, insert/delete lines L/M,
// repeat b, tab I/Z, insert/delete/erase chars @/P/X) to what the pane can touch: xterm loops `count` times
// whatever the screen's size, so `ESC[9999S` cost 6 ms on an 80x24 pane (500 of them, 3.5 KB, froze the daemon for
// seconds) where 24 scrolls leave the very same screen. A sequence split across chunks is held back until complete.

/** The filter's bound when it does not know the pane (the largest pane is 1000x1000: see PaneScreen). */
export const MAX_CSI_REPEAT = 9999;
/** A CSI longer than this without a final byte is not held back any more (it is garbage; xterm drops it). */
const MAX_HELD_CSI = 64;

const LOOPING_CSI = /(\x1b\[|\x9b)([\d;:]*)([STLMbIZ@PX])/g;
/** The finals LOOPING_CSI matches: the CSIs xterm runs once per count (no prefix, no intermediates). */
export const LOOPING_CSI_FINALS = 'STLMbIZ@PX';
const NUMBER = /\d+/g;
/** Digits in one CSI parameter from which it may need clamping without a pane size (MAX_CSI_REPEAT has fewer). */
const LONG_PARAM_DIGITS = 5;
/** Any run of `n` digits: most chunks have none, and this one pass is cheaper than visiting every CSI. */
const DIGIT_RUNS = Array.from({ length: 8 }, (_, n) => new RegExp(`\\d{${Math.max(1, n)}}`));
const digitRun = (n: number): RegExp => DIGIT_RUNS[Math.min(n, DIGIT_RUNS.length - 1)]!;

/** The pane a count is clamped to. */
export interface PaneSize {
  rows: number;
  cols: number;
}

/** The largest count of a looping CSI that still changes the pane: lines for scrolls and line insert/delete,
 * columns for tabs and character insert/delete/erase, a screenful for REP. `n` past it leaves the same screen. */
export function repeatLimit(final: string, size: PaneSize): number {
  switch (final) {
    case 'S':
    case 'T':
    case 'L':
    case 'M':
      return size.rows;
    case 'b':
      return size.rows * size.cols;
    default:
      return size.cols;
  }
}

/** A REP count within its limit: past a screenful, the visible screen is full of the character either way, and
 * keeping the count's remainder modulo the width leaves the cursor in the same column as the whole count would. */
export function clampRepeat(n: number, final: string, size: PaneSize, unitChars = 1): number {
  // REP copies the preceding cell's whole text per count: a cell holding a thousand combining marks repeated a
  // screenful of times was a billion characters (3.5 s and 560 MB on a 1000x1000 pane).
  const limit = final === 'b' && unitChars > 1 ? Math.max(1, Math.floor((size.rows * size.cols) / unitChars)) : repeatLimit(final, size);
  if (n <= limit) return n;
  return final === 'b' && unitChars <= 1 ? limit + ((n - limit) % size.cols) : limit;
}

export class CsiClamp {
  private held = '';

  /** The chunk as it may be handed to the terminal (maybe without a trailing partial CSI, kept for next time).
   * Without `size` the counts are clamped to MAX_CSI_REPEAT. */
  filter(chunk: string, size?: PaneSize): string {
    const data = this.hold(chunk);
    // Almost every chunk has CSIs, few have a parameter as long as the smallest limit: test before rewriting.
    const digits = size ? String(Math.min(size.rows, size.cols)).length : LONG_PARAM_DIGITS;
    if (!digitRun(digits).test(data) || !hasLongCsiParam(data, digits)) return data;
    return data.replace(LOOPING_CSI, (m, intro: string, params: string, final: string) => {
      const clamped = params.replace(NUMBER, (n) => String(size ? clampRepeat(Number(n), final, size) : Math.min(Number(n), MAX_CSI_REPEAT)));
      return clamped === params ? m : intro + clamped + final;
    });
  }

  /** filter() without the clamping, for when xterm's parser clamps the counts (clampRepeatParams): the chunks reach
   * the terminal cut exactly as filter() cuts them, so signals keep the times of the chunks that complete them. */
  hold(chunk: string): string {
    let data = this.held + chunk;
    this.held = '';
    // Only the end of the chunk can hold an unfinished sequence.
    const held = trailingCsiLength(data);
    if (held) {
      this.held = data.slice(data.length - held);
      data = data.slice(0, data.length - held);
    }
    return data;
  }
}

/** xterm's parameter store as its CSI handlers see it (internal API of @xterm/headless 5.5). */
export interface CsiParams {
  length: number;
  params: Int32Array;
}

/** Clamps a looping CSI's counts in place, before xterm's own handler reads them: the same bound as filter(), with
 * no scan of every chunk (see PaneScreen). Only the first parameter is a count; the rest are clamped too, as
 * filter() does, so both paths leave the same screen. */
export function clampRepeatParams(p: CsiParams, final: string, size: PaneSize, unitChars = 1): void {
  for (let i = 0; i < p.length; i++) {
    const n = p.params[i]!;
    if (n > 0) p.params[i] = clampRepeat(n, final, size, unitChars);
  }
}

/** Whether some CSI in `s` has a parameter of `digits` digits or more. A scan from introducer to introducer: the
 * regex it replaces tried every position of the chunk and cost more than the rest of the clamp. */
function hasLongCsiParam(s: string, digits: number): boolean {
  for (let i = s.indexOf('\x1b['); i >= 0; i = s.indexOf('\x1b[', i + 2)) if (longParamAt(s, i + 2, digits)) return true;
  for (let i = s.indexOf('\x9b'); i >= 0; i = s.indexOf('\x9b', i + 1)) if (longParamAt(s, i + 1, digits)) return true;
  return false;
}

/** Whether the parameters starting at `i` ([\d;:]*) hold a run of `digits` digits. */
function longParamAt(s: string, i: number, digits: number): boolean {
  for (let run = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++run >= digits) return true;
    } else if (c === 0x3b || c === 0x3a) run = 0;
    else return false;
  }
  return false;
}

/** Length of an unfinished CSI at the very end of `data` (introducer and parameters, no final byte yet, or a lone
 * ESC), looked for from its last ESC/CSI if that is among the last MAX_HELD_CSI characters; 0 if none. A scan
 * rather than a regex: it runs on every chunk, and slicing and matching there allocated on every one. */
function trailingCsiLength(data: string): number {
  const stop = Math.max(0, data.length - MAX_HELD_CSI);
  for (let i = data.length - 1; i >= stop; i--) {
    const c = data.charCodeAt(i);
    if (c === 0x1b) {
      if (i === data.length - 1) return 1;
      return data.charCodeAt(i + 1) === 0x5b && onlyParamBytes(data, i + 2) ? data.length - i : 0;
    }
    if (c === 0x9b) return onlyParamBytes(data, i + 1) ? data.length - i : 0;
  }
  return 0;
}

/** Whether every character from `from` to the end is a CSI parameter byte (0-9 : ; < = > ?). */
function onlyParamBytes(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x3f) return false;
  }
  return true;
}
