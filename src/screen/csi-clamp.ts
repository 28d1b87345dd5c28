// Clamps repeat counts of the CSI sequences xterm executes once per count (scroll S/T, insert/delete lines L/M,
// repeat b, tab I/Z, insert/delete/erase chars @/P/X): `ESC[2147483647S` would otherwise keep the parser busy for
// hours and freeze every pane of the daemon. A sequence split across chunks is held back until it is complete.

/** No screen needs more repeats than this (rows × cols of the largest pane is far less). */
export const MAX_CSI_REPEAT = 9999;
/** A CSI longer than this without a final byte is not held back any more (it is garbage; xterm drops it). */
const MAX_HELD_CSI = 64;

const LOOPING_CSI = /(\x1b\[|\x9b)([\d;:]*)([STLMbIZ@PX])/g;
/** The finals LOOPING_CSI matches: the CSIs xterm runs once per count (no prefix, no intermediates). */
export const LOOPING_CSI_FINALS = 'STLMbIZ@PX';
const BIG_NUMBER = /\d{5,}/g;
/** Digits in one CSI parameter from which it may need clamping (MAX_CSI_REPEAT has fewer). */
const LONG_PARAM_DIGITS = 5;
/** Any run of that many digits: most chunks have none, and this one pass is cheaper than visiting every CSI. */
const LONG_DIGIT_RUN = new RegExp(`\\d{${LONG_PARAM_DIGITS}}`);

export class CsiClamp {
  private held = '';

  /** The chunk as it may be handed to the terminal (maybe without a trailing partial CSI, kept for next time). */
  filter(chunk: string): string {
    const data = this.hold(chunk);
    // Almost every chunk has CSIs, almost none has a five-digit parameter: test before rewriting.
    if (!LONG_DIGIT_RUN.test(data) || !hasLongCsiParam(data)) return data;
    return data.replace(LOOPING_CSI, (m, intro: string, params: string, final: string) =>
      /\d{5}/.test(params) ? intro + params.replace(BIG_NUMBER, (n) => String(Math.min(Number(n), MAX_CSI_REPEAT))) + final : m,
    );
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
 * no scan of every chunk (see PaneScreen). */
export function clampRepeatParams(p: CsiParams): void {
  for (let i = 0; i < p.length; i++) if (p.params[i]! > MAX_CSI_REPEAT) p.params[i] = MAX_CSI_REPEAT;
}

/** Whether some CSI in `s` has a parameter of LONG_PARAM_DIGITS digits or more. A scan from introducer to
 * introducer: the regex it replaces tried every position of the chunk and cost more than the rest of the clamp. */
function hasLongCsiParam(s: string): boolean {
  for (let i = s.indexOf('\x1b['); i >= 0; i = s.indexOf('\x1b[', i + 2)) if (longParamAt(s, i + 2)) return true;
  for (let i = s.indexOf('\x9b'); i >= 0; i = s.indexOf('\x9b', i + 1)) if (longParamAt(s, i + 1)) return true;
  return false;
}

/** Whether the parameters starting at `i` ([\d;:]*) hold a run of LONG_PARAM_DIGITS digits. */
function longParamAt(s: string, i: number): boolean {
  for (let run = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++run >= LONG_PARAM_DIGITS) return true;
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
