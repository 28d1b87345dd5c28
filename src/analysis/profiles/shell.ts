// Shells, REPLs and any other line-oriented program (Tier 2 "shell" and Tier 3 "generic"). Everything is read at
// the cursor: a prompt or a question only counts where the cursor waits right after it. The live edge is the
// output between the last command row and the cursor row.
import type { ScreenSnapshot } from '../../screen/types.js';
import { lastMatch } from '../text.js';
import { verdict, type ProfileContext } from './context.js';
import type { Classification } from '../types.js';
import type { ProgramId } from '../../config/config.js';

/** A row that starts with a prompt followed by a command: where the current command's output begins. */
const COMMAND_ROW = /^(?:\S*[$#%❯➜] \S|>>> \S|\.\.\. \S|In \[\d+\]: \S)/u;
/** The live edge never reaches further up than this many rows above the cursor. */
const LIVE_EDGE_MAX_ROWS = 12;

export function classifyShell(snap: ScreenSnapshot, ctx: ProfileContext, program: ProgramId = 'shell'): Classification {
  const g = ctx.cfg.patterns.generic;
  const useBp = program === 'shell' && ctx.cfg.patterns.shell.use_bracketed_paste && ctx.bracketedPasteSeen;
  const row = snap.lines[snap.cursorY] ?? '';
  const beforeCursor = row.slice(0, snap.cursorX);
  const afterCursor = row.slice(snap.cursorX).trim();
  let top = snap.cursorY - 1;
  while (top > 0 && snap.cursorY - top < LIVE_EDGE_MAX_ROWS && !COMMAND_ROW.test(snap.lines[top] ?? '')) top--;
  const edge = snap.lines.slice(Math.max(0, top + 1), snap.cursorY).filter((l) => l.trim() !== '');
  const v = (kind: Classification['verdict'], rule: string, line: string, explicit = false) =>
    verdict(program, kind, rule, line, edge, explicit);

  if (g.negative.some((n) => n.test(beforeCursor))) return v('unknown', 'negative_pattern', row);
  const atPrompt = afterCursor === '' && g.prompt_anchor.test(beforeCursor);
  const atRepl = afterCursor === '' && g.repl_prompt.test(beforeCursor);
  const ready = (rule: string, explicit: boolean): Classification => {
    const failure = lastMatch(edge, g.failure);
    if (failure) return { ...v('failed', 'failure_line', failure.line, explicit), atPrompt: true };
    return { ...v('ready', rule, row, explicit), atPrompt: true };
  };
  if (useBp && snap.bracketedPaste && atPrompt) return ready('prompt_bracketed_paste', true);
  if (atRepl) return ready('repl_prompt', false);
  if (afterCursor === '' && g.strong_interactivity.test(beforeCursor)) return v('waiting', 'yes_no_prompt', row, true);
  if (afterCursor === '' && g.approval.some((a) => a.test(beforeCursor))) return v('waiting', 'approval_keyword', row, true);
  if (useBp && !snap.bracketedPaste && !ctx.foregroundPrompted) {
    if (afterCursor === '' && beforeCursor.trim() && g.interactivity.test(beforeCursor) && !isSpinner(beforeCursor, g.spinner)) {
      return { ...v('waiting', 'question_at_cursor', row), weak: true };
    }
    return v('working', 'command_running', row);
  }
  if (atPrompt) return { ...ready('prompt_anchor', false), atPrompt: false };
  if (afterCursor === '' && beforeCursor.trim() && g.interactivity.test(beforeCursor) && !isSpinner(beforeCursor, g.spinner)) {
    return { ...v('waiting', 'question_at_cursor', row), weak: true };
  }
  const interrupt = lastMatch(snap.lines.slice(Math.max(0, snap.cursorY - 3), snap.cursorY + 2), g.interrupt);
  if (interrupt) return v('working', 'interrupt_keyword', interrupt.line);
  const spin = isSpinner(beforeCursor, g.spinner);
  if (spin) return v('working', 'spinner', row);
  return v('unknown', beforeCursor.trim() ? 'unrecognised_row' : 'empty_cursor_row', row);
}

function isSpinner(text: string, spinners: readonly RegExp[]): boolean {
  return spinners.some((s) => s.test(text));
}
