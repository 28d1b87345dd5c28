// Puts a frame on the terminal writing only the rows that differ from the previous frame: a once-a-second tick
// that changes one timer rewrites one row, not the screen (no flicker over ssh, little output for tmux to parse).
// Rows are exactly the terminal's width (render.ts), so a row is replaced by moving there and writing it. One write
// per frame, wrapped in synchronized-output marks so terminals that know them show it whole.
import type { Frame } from './render.js';

const SYNC_ON = '\x1b[?2026h';
const SYNC_OFF = '\x1b[?2026l';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

export class DiffWriter {
  private prev: string[] = [];
  private cursorShown = false;

  constructor(private readonly write: (s: string) => void) {}

  /** The terminal's content is unknown (a resize, a redraw request): the next frame is written whole. */
  invalidate(): void {
    this.prev = [];
  }

  /** Writes what changed; returns how many rows were written (0: nothing changed). */
  draw(frame: Frame): number {
    const full = this.prev.length !== frame.rows.length;
    let out = full ? '\x1b[H\x1b[2J' : '';
    let written = 0;
    frame.rows.forEach((row, i) => {
      if (!full && this.prev[i] === row) return;
      out += `\x1b[${i + 1};1H${row}\x1b[0m`;
      written++;
    });
    this.prev = frame.rows.slice();
    const cursorMoves = frame.cursor !== null && (written > 0 || !this.cursorShown);
    if (frame.cursor) out += (cursorMoves ? `\x1b[${frame.cursor.row + 1};${frame.cursor.col + 1}H` : '') + (this.cursorShown ? '' : SHOW_CURSOR);
    else if (this.cursorShown) out += HIDE_CURSOR;
    this.cursorShown = frame.cursor !== null;
    if (out) this.write(SYNC_ON + out + SYNC_OFF);
    return written;
  }
}
