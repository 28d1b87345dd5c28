// How big an iTerm2 session may be in the daemon. The protocol accepts up to 1000×1000 per screen and 256 sessions
// (a corrupt message beyond that); each accepted session is a headless terminal of that size, so a bridge sending
// 30 such screens held 820 MB. A pane is cut to a size no real window reaches, keeping its bottom rows (the live
// edge, where prompts and input boxes are), and a bridge gets only so many panes; the rest are logged, not watched.

/** Cells per pane: a full-screen iTerm2 window on a 5K display at a 12 pt font is about 400×120 = 48k cells. */
export const MAX_SCREEN_CELLS = 1 << 16;
/** Columns per pane: wider rows are cut (no program lays out a screen wider than this). */
export const MAX_SCREEN_COLS = 512;
/** Sessions watched per bridge: a heavy iTerm2 workspace has a few dozen; past this, sessions are not opened. */
export const MAX_BRIDGE_SESSIONS = 64;
/** Characters kept of one row per column: combining marks and emoji take several code points per cell. */
const CHARS_PER_CELL = 4;

export interface Size {
  cols: number;
  rows: number;
}

/** The size a session is given: within MAX_SCREEN_COLS and MAX_SCREEN_CELLS. */
export function fitSize(s: Size): Size {
  const cols = Math.min(s.cols, MAX_SCREEN_COLS);
  return { cols, rows: Math.max(1, Math.min(s.rows, Math.floor(MAX_SCREEN_CELLS / cols))) };
}

export function oversize(s: Size): boolean {
  const f = fitSize(s);
  return f.cols !== s.cols || f.rows !== s.rows;
}

/** A screen cut to `size`: its bottom rows, each row's text bounded, the cursor moved with the rows kept. */
export function fitScreen(rows: readonly string[], cursor: { x: number; y: number }, size: Size): { rows: string[]; cursor: { x: number; y: number } } {
  const dropped = Math.max(0, rows.length - size.rows);
  const maxChars = size.cols * CHARS_PER_CELL;
  return {
    rows: rows.slice(dropped).map((r) => (r.length > maxChars ? r.slice(0, maxChars) : r)),
    cursor: { x: Math.min(cursor.x, size.cols - 1), y: Math.max(0, cursor.y - dropped) },
  };
}
