// What one pane's history says about reading it as an agent's TUI without a profile (the generic tier): whether a
// shell ever showed its prompt here (then a TUI is a program it ran, not an unknown agent), whether the program has
// drawn a TUI (then a frame caught mid-redraw is no line output), when its output began (its start-up screen), and
// whether this turn showed an interrupt hint (then its frames stopping ends it soon). Pure.
import type { ScreenSnapshot } from '../screen/types.js';
import type { Classification } from './types.js';
import { tuiLike } from './profiles/generic-tui.js';

/** The input area is read as its last non-blank rows (an input box's three, or a row and its footer). */
const INPUT_AREA_ROWS = 3;

/** The last non-blank rows of a screen, bottom first. */
function bottomRows(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let y = lines.length - 1; y >= 0 && out.length < INPUT_AREA_ROWS; y--) if (lines[y]!.trim() !== '') out.push(lines[y]!);
  return out;
}

export class TuiFacts {
  /** The input area as it looked at rest, when the person began to type (its placeholder, its footer). */
  private restInput: string[] | null = null;

  /** The program drew a TUI since it was detected. */
  private drawn = false;
  /** A shell's prompt has been read at the cursor of a line-oriented screen here. */
  private shellSeen = false;
  /** When the pane's first screen change was read. */
  private firstOutputAt = Infinity;
  /** This turn showed an agent's interrupt hint: its frames stopping (the hint gone) is its end, after turn_rest_s;
   * without a hint, frames stopping may be a pause between steps (a new session's page opening), as a pager's or a
   * monitor's may be a wait on keys: fullscreen_rest_s. */
  hinted = false;
  /** The program has redrawn rows above its cursor (see noteChange): an inline TUI, whatever the rows below show. */
  private inPlaceSeen = false;
  /** The last snapshot's scroll offset and absolute cursor row, to tell a redraw in place from lines appended. */
  private lastBaseY = -1;
  private lastCursorAbs = -1;
  /** The last snapshot was of the alternate screen: the main screen coming back is no redraw. */
  private lastAlt = false;

  constructor(private readonly startupS: number) {}

  /** A screen change was read; `cls` is the latest classification (a shell prompt at the cursor, or not). */
  noteChange(t: number, snap: ScreenSnapshot, cls: Classification | null): void {
    this.firstOutputAt = Math.min(this.firstOutputAt, t);
    if (cls?.atPrompt && !tuiLike(snap)) this.shellSeen = true;
    if (!this.inPlaceSeen && !snap.altScreen && !this.lastAlt) this.inPlaceSeen = this.redrawnAboveCursor(snap);
    this.lastAlt = snap.altScreen;
    this.lastBaseY = snap.baseY;
    this.lastCursorAbs = snap.baseY + snap.cursorY;
  }

  /** A line-oriented program only appends below its output (a progress bar rewrites its own row, the cursor's);
   * a TUI on the main screen redraws rows above its cursor: its spinner, its input box, a list it re-renders. A
   * row above both the cursor before and the cursor now, rewritten with text while nothing scrolled, is such a
   * redraw (a `clear` leaves no row above its new cursor; a scroll moves baseY). */
  private redrawnAboveCursor(snap: ScreenSnapshot): boolean {
    const rows = snap.changedRows;
    if (!rows || snap.baseY !== this.lastBaseY || this.lastCursorAbs < 0) return false;
    const above = Math.min(this.lastCursorAbs - snap.baseY, snap.cursorY);
    for (const y of rows) if (y < above && snap.lines[y]!.trim() !== '') return true;
    return false;
  }

  /** The person began typing at rest on this screen: its input area is how the program looks waiting for a prompt. */
  noteRestKey(snap: ScreenSnapshot): void {
    this.restInput = bottomRows(snap.lines);
  }

  /** The input area looks as it did at rest (an empty box with its placeholder, wherever the cursor is parked), but
   * for a row holding what the person is typing ahead (`typed`): keys typed ahead do not postpone a turn's end. */
  inputAsAtRest(snap: ScreenSnapshot, typed: string): boolean {
    const rest = this.restInput;
    if (!rest || rest.length < INPUT_AREA_ROWS) return false;
    const now = bottomRows(snap.lines);
    const ahead = typed.trim();
    return now.length === rest.length && now.every((l, i) => l === rest[i] || (ahead !== '' && l.includes(ahead)));
  }

  /** The program redraws rows above its cursor: an inline TUI (tuiLike's `inPlace`). */
  get inPlace(): boolean {
    return this.inPlaceSeen;
  }

  /** No shell ever showed itself here (its prompt, or shell integration: `tier1Seen`) and the screen is a TUI: an
   * agent nothing has named. */
  unnamedAgent(snap: ScreenSnapshot, tier1Seen: boolean): boolean {
    return !this.shellSeen && !tier1Seen && tuiLike(snap, this.inPlaceSeen);
  }

  /** The program without a profile has drawn a TUI (`tui`: it shows one now), or is drawing its start-up screen: a
   * frame caught mid-redraw (the cursor on a fresh row, the footer not drawn yet) is no line of output. */
  drawing(t: number, tui: boolean): boolean {
    if (t - this.firstOutputAt < this.startupS) return true;
    if (tui) this.drawn = true;
    return this.drawn;
  }

  /** Another program now: what was drawn was not its. */
  programChanged(): void {
    this.drawn = false;
    this.restInput = null;
    this.inPlaceSeen = false;
  }
}
