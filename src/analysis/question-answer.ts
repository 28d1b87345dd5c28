// Whether the person has answered the question a pane waits on (an approval menu, a y/n): from the keys they typed
// and from the screen. Once they have, what the screen plainly shows next (the agent working again, the turn ended,
// interrupted) is the news: a Tier 1 signal from before the answer (the hook that opened the menu, a reminder of
// it) does not silence it. Pure.
import type { Classification } from './types.js';

/** Keys that dismiss a question without submitting anything: a lone Esc, Ctrl-C. */
const DISMISS_KEYS = new Set(['\x1b', '\x03']);
/** Keys that submit an answer (Enter). */
const SUBMIT_KEY = /[\r\n]/;
/** Keys that answer a question whatever its shape: Enter, Esc, Ctrl-C, Tab, Space, y/n, a digit (arrows only move a
 * selection). */
const ANSWER_KEY = /^(?:[\r\n\x1b\x03\t ]|[yYnNaA0-9])$/;

export class QuestionAnswer {
  /** When the current wait began. */
  private since = 0;
  /** Enter typed during this wait. */
  private submittedAt = -Infinity;
  /** Esc or Ctrl-C typed during this wait. */
  private dismissedAt = -Infinity;
  /** This wait's question was read on screen as an explicit menu or question. */
  private menuSeen = false;
  /** The pane has waited in this turn and the wait has ended (the question was answered). */
  waitAnswered = false;

  /** A wait begins (the pane went to WAITING_APPROVAL), with the screen as last read (a hook may come after the
   * menu was drawn). */
  begin(t: number, cls: Classification | null): void {
    this.since = t;
    this.submittedAt = -Infinity;
    this.dismissedAt = -Infinity;
    this.menuSeen = false;
    this.redrawnAfterAnswer = false;
    if (cls) this.noteScreen(cls);
  }

  /** The pane left WAITING for work or rest: the question was answered. */
  leave(): void {
    this.waitAnswered = true;
  }

  /** The pane is at rest: the next turn has waited for nothing yet. */
  rest(): void {
    this.waitAnswered = false;
  }

  /** When an answering key was last typed during this wait, and the rows on screen then (see answeredRows). */
  private answerKeyAt = -Infinity;
  private rowsAtAnswer: readonly string[] | null = null;

  /** Keys typed while the pane waits; `rows`: the screen as they were typed. */
  noteKey(t: number, data: string, rows?: readonly string[]): void {
    if (SUBMIT_KEY.test(data)) this.submittedAt = t;
    else if (DISMISS_KEYS.has(data)) this.dismissedAt = t;
    if (ANSWER_KEY.test(data) || SUBMIT_KEY.test(data)) {
      this.answerKeyAt = t;
      this.rowsAtAnswer = rows ?? null;
    }
  }

  /** The wait ends (the pane went on): the rows shown as an answering key was typed during it, if one was and the
   * program's redraw after it was not read as such (it came with the work that followed, in one read). Those rows
   * asked their question and were answered: left drawn above what came next (issue 26 item 9), they ask nothing. */
  rowsAnsweredAtLeave(): readonly string[] | null {
    if (this.answerKeyAt < this.since || !this.rowsAtAnswer) return null;
    const rows = this.rowsAtAnswer;
    this.rowsAtAnswer = null;
    return rows;
  }

  /** The program changed its screen after an answering key: the rows shown as the key was typed are the answered
   * question's (its text may stay in the transcript, "Run `rm`? (y/n)" above "⎿ Denied."), no longer a question. */
  answeredRows(t: number): readonly string[] | null {
    if (this.answerKeyAt < this.since || t <= this.answerKeyAt || !this.rowsAtAnswer) return null;
    const rows = this.rowsAtAnswer;
    this.rowsAtAnswer = null;
    this.redrawnAfterAnswer = true;
    return rows;
  }

  /** The program redrew its screen after an answering key typed during this wait (a TUI's redraw right after a key
   * reads as that key's echo, so the change is not "meaningful": this is how the answer shows). */
  private redrawnAfterAnswer = false;
  get keyAnswered(): boolean {
    return this.redrawnAfterAnswer && this.answerKeyAt >= this.since;
  }

  /** The screen read while the pane waits. */
  noteScreen(cls: Classification): void {
    if (cls.verdict === 'waiting' && cls.explicit) this.menuSeen = true;
  }

  /** Esc or Ctrl-C at the question: it was answered even though the redraw right after the key reads as its echo
   * and no Enter armed a turn. */
  get dismissed(): boolean {
    return this.dismissedAt >= this.since;
  }

  /**
   * The person answered and the screen now plainly shows what came of it: the agent at work, the turn over, an
   * error. Answered = Enter, Esc or Ctrl-C typed during the wait, or (where keys are not seen, as in tmux) the menu
   * that was on screen has gone. A screen still asking, or saying nothing clear, has not moved on.
   */
  movedOn(cls: Classification): boolean {
    if (cls.verdict !== 'working' && cls.verdict !== 'ready' && cls.verdict !== 'failed') return false;
    return this.submittedAt >= this.since || this.dismissed || this.menuSeen;
  }
}
