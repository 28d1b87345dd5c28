// A command line submitted where typed keys are not seen (a tmux pane passes none on): the cursor comes back to a
// prompt on a lower row than the prompt it last sat at, and that row now holds a command after its prompt. The
// command ran between two reads (a REPL statement, a quick shell command): a turn, anchored at that row, whose
// live edge is what it printed. Pure.
import type { ScreenSnapshot } from '../screen/types.js';
import { COMMAND_ROW } from './profiles/shell.js';
import { testRow } from './text.js';
import type { Classification } from './types.js';

export interface UnseenCommand {
  /** Absolute row (baseY + cursorY) the command was typed on. */
  row: number;
  /** That row's text: the prompt and the command. */
  line: string;
}

/** A prompt recognised by its look alone (no line editor's word for it): a prompt all the same. */
const PROMPT_ANCHOR = '.prompt_anchor';
/** The rule a shell's verdict has while a command it accepted runs (bracketed paste switched off). */
const SHELL_RUNNING = 'shell.command_running';

export class UnseenSubmit {
  /** Absolute row of the prompt the cursor last sat at, and that row's text as last read (the command typed so far:
   * it may have scrolled away by the time the next prompt shows). */
  private promptRow: number | null = null;
  private promptText = '';
  /** The prompt row whose command was already seen starting (its end is then no second command). */
  private startedFrom: number | null = null;

  /** Follows one read of a line-oriented program's screen; a command that ran (or started) unseen since the last
   * prompt, or null. Every read is followed (a prompt reached while a turn was already running moves the mark). */
  observe(snap: ScreenSnapshot, cls: Classification): UnseenCommand | null {
    if (snap.altScreen) return null;
    const abs = snap.baseY + snap.cursorY;
    const row = snap.lines[snap.cursorY] ?? '';
    if (abs === this.promptRow) {
      this.promptText = row; // typing on the prompt's row
      return null;
    }
    const prev = this.promptRow;
    const atPrompt = (cls.atPrompt === true || cls.rule.endsWith(PROMPT_ANCHOR)) && !cls.continuation;
    if (prev === null || abs < prev) {
      // no prompt yet, or the screen was cleared: a prompt here is the new mark
      if (atPrompt) this.mark(abs, row);
      return null;
    }
    const y = prev - snap.baseY;
    const prevText = y >= 0 && y < snap.lines.length ? snap.lines[y]! : this.promptText;
    // A bare prompt left behind (Enter on an empty line) ran nothing.
    const command = testRow(COMMAND_ROW, prevText) ? { row: prev, line: prevText } : null;
    // The shell switched bracketed paste off below a command line: it accepted that line, the command runs.
    if (cls.verdict === 'working' && cls.rule === SHELL_RUNNING) {
      if (!command || this.startedFrom === prev) return null;
      this.startedFrom = prev;
      return command;
    }
    // A continuation prompt ("... ") is the same statement going on, not its end.
    if (!atPrompt) return null;
    const seenStarting = this.startedFrom === prev;
    this.mark(abs, row);
    return seenStarting ? null : command;
  }

  private mark(abs: number, row: string): void {
    this.promptRow = abs;
    this.promptText = row;
    this.startedFrom = null;
  }
}
