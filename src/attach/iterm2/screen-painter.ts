// iTerm2 hands the bridge its screen as text rows, not as the byte stream that drew them. The daemon's pipeline reads
// a headless terminal, so each screen is turned back into bytes that reproduce it: each row that changed since the
// last frame is rewritten in place (cursor to the row, its text, erase to the end of the line), then the cursor is
// put where iTerm2 has it. Rows that did not change cost nothing, so the terminal's dirty-row tracking still works.

/** C0 and C1 controls (and DEL): a row is text; an escape inside it could forge a Tier 1 mark or move the cursor. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Autowrap off: a row wider than the pane overwrites its last cell instead of wrapping and scrolling the screen. */
const NO_AUTOWRAP = '\x1b[?7l';

export class ScreenPainter {
  private last: string[] = [];
  private cursor = '';

  /** Forget what was drawn (a resize, a new terminal): the next frame repaints every row. */
  reset(): void {
    this.last = [];
    this.cursor = '';
  }

  /** Bytes that turn the previous frame into this one; '' when nothing changed. */
  paint(rows: readonly string[], cursor: { x: number; y: number }, size: { cols: number; rows: number }): string {
    let out = this.last.length === 0 ? NO_AUTOWRAP : '';
    const height = Math.min(rows.length, size.rows);
    const next: string[] = new Array<string>(size.rows).fill('');
    for (let y = 0; y < size.rows; y++) {
      const text = y < height ? rows[y]!.replace(CONTROLS, '').trimEnd() : '';
      next[y] = text;
      if (this.last.length !== 0 && this.last[y] === text) continue;
      out += `\x1b[${y + 1};1H${text}\x1b[K`;
    }
    this.last = next;
    const at = `\x1b[${Math.min(cursor.y, size.rows - 1) + 1};${Math.min(cursor.x, size.cols - 1) + 1}H`;
    if (out === '' && at === this.cursor) return '';
    this.cursor = at;
    return out + at;
  }
}
