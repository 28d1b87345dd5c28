// Clamps repeat counts of the CSI sequences xterm executes once per count (scroll S/T, insert/delete lines L/M,
// repeat b, tab I/Z, insert/delete/erase chars @/P/X): `ESC[2147483647S` would otherwise keep the parser busy for
// hours and freeze every pane of the daemon. A sequence split across chunks is held back until it is complete.

/** No screen needs more repeats than this (rows × cols of the largest pane is far less). */
export const MAX_CSI_REPEAT = 9999;
/** A CSI longer than this without a final byte is not held back any more (it is garbage; xterm drops it). */
const MAX_HELD_CSI = 64;

const LOOPING_CSI = /(\x1b\[|\x9b)([\d;:]*)([STLMbIZ@PX])/g;
const BIG_NUMBER = /\d{5,}/g;
/** Digits in one CSI parameter from which it may need clamping (MAX_CSI_REPEAT has fewer). */
const LONG_PARAM_DIGITS = 5;
/** Any run of that many digits: most chunks have none, and this one pass is cheaper than visiting every CSI. */
const LONG_DIGIT_RUN = new RegExp(`\\d{${LONG_PARAM_DIGITS}}`);
/** An unfinished CSI at the very end of a chunk: introducer plus parameters, no final byte yet. */
const TRAILING_CSI = /(?:\x1b\[[\d;:?<=>]*|\x9b[\d;:?<=>]*|\x1b)$/;

export class CsiClamp {
  private held = '';

  /** The chunk as it may be handed to the terminal (maybe without a trailing partial CSI, kept for next time). */
  filter(chunk: string): string {
    let data = this.held + chunk;
    this.held = '';
    // Only the end of the chunk can hold an unfinished sequence: look from its last ESC/CSI, if that is near.
    const end = data.length > MAX_HELD_CSI ? data.slice(-MAX_HELD_CSI) : data;
    const esc = Math.max(end.lastIndexOf('\x1b'), end.lastIndexOf('\x9b'));
    if (esc >= 0) {
      const tail = TRAILING_CSI.exec(end.slice(esc));
      if (tail) {
        this.held = tail[0];
        data = data.slice(0, data.length - tail[0].length);
      }
    }
    // Almost every chunk has CSIs, almost none has a five-digit parameter: test before rewriting.
    if (!LONG_DIGIT_RUN.test(data) || !hasLongCsiParam(data)) return data;
    return data.replace(LOOPING_CSI, (m, intro: string, params: string, final: string) =>
      /\d{5}/.test(params) ? intro + params.replace(BIG_NUMBER, (n) => String(Math.min(Number(n), MAX_CSI_REPEAT))) + final : m,
    );
  }
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
