// What one pane's history says about reading it as an agent's TUI without a profile (the generic tier): whether a
// shell ever showed its prompt here (then a TUI is a program it ran, not an unknown agent), whether the program has
// drawn a TUI (then a frame caught mid-redraw is no line output), when its output began (its start-up screen), and
// whether this turn showed an interrupt hint (then its frames stopping ends it soon). Pure.
import type { ScreenSnapshot } from '../screen/types.js';
import type { Classification } from './types.js';
import { tuiLike } from './profiles/generic-tui.js';

export class TuiFacts {
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

  constructor(private readonly startupS: number) {}

  /** A screen change was read; `cls` is the latest classification (a shell prompt at the cursor, or not). */
  noteChange(t: number, snap: ScreenSnapshot, cls: Classification | null): void {
    this.firstOutputAt = Math.min(this.firstOutputAt, t);
    if (cls?.atPrompt && !tuiLike(snap)) this.shellSeen = true;
  }

  /** No shell ever showed itself here (its prompt, or shell integration: `tier1Seen`) and the screen is a TUI: an
   * agent nothing has named. */
  unnamedAgent(snap: ScreenSnapshot, tier1Seen: boolean): boolean {
    return !this.shellSeen && !tier1Seen && tuiLike(snap);
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
  }
}
