// Clamps repeat counts of the CSI sequences xterm executes once per count (scroll S/T, insert/delete lines L/M,
// repeat b, tab I/Z, insert/delete/erase chars @/P/X): `ESC[2147483647S` would otherwise keep the parser busy for
// hours and freeze every pane of the daemon. A sequence split across chunks is held back until it is complete.

/** No screen needs more repeats than this (rows × cols of the largest pane is far less). */
export const MAX_CSI_REPEAT = 9999;
/** A CSI longer than this without a final byte is not held back any more (it is garbage; xterm drops it). */
const MAX_HELD_CSI = 64;

const LOOPING_CSI = /(\x1b\[|\x9b)([\d;:]*)([STLMbIZ@PX])/g;
const BIG_NUMBER = /\d{5,}/g;
/** A CSI whose first (or a later) parameter has five digits or more: cheap to scan for, rare in real output. */
const FIVE_DIGIT_PARAM = /(?:\x1b\[|\x9b)\d{5}|;\d{5}/;
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
    if (!FIVE_DIGIT_PARAM.test(data)) return data;
    return data.replace(LOOPING_CSI, (m, intro: string, params: string, final: string) =>
      /\d{5}/.test(params) ? intro + params.replace(BIG_NUMBER, (n) => String(Math.min(Number(n), MAX_CSI_REPEAT))) + final : m,
    );
  }
}
