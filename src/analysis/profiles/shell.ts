// Shells, REPLs and any other line-oriented program (Tier 2 "shell" and Tier 3 "generic"). Everything is read at
// the cursor: a prompt or a question only counts where the cursor waits right after it. The live edge is the
// output between the last command row and the cursor row.
import type { ScreenSnapshot } from '../../screen/types.js';
import { lastMatch, testRow } from '../text.js';
import { verdict, type ProfileContext } from './context.js';
import type { Classification } from '../types.js';
import type { ProgramId } from '../../config/config.js';

/** Without a known submit row: a row that starts with a prompt followed by a command (where output begins). */
export const COMMAND_ROW = /^(?:.{0,60}?[$#%❯➜] \S|>>> \S|\.\.\. \S|In \[\d+\]: \S)/u;
/** The live edge never reaches further up than this many rows above the cursor. */
const LIVE_EDGE_MAX_ROWS = 12;

export function classifyShell(snap: ScreenSnapshot, ctx: ProfileContext, program: ProgramId = 'shell'): Classification {
  const g = ctx.cfg.patterns.generic;
  const useBp = program === 'shell' && ctx.cfg.patterns.shell.use_bracketed_paste && ctx.bracketedPasteSeen;
  const row = snap.lines[snap.cursorY] ?? '';
  // Cells left blank before the cursor read as spaces: a prompt painted by cursor moves (a terminal seeded from
  // tmux's capture, whose rows lose their trailing spaces) is the same prompt.
  const beforeCursor = row.length < snap.cursorX ? row.padEnd(snap.cursorX) : row.slice(0, snap.cursorX);
  const afterCursor = row.slice(snap.cursorX).trim();
  let top = snap.cursorY - 1;
  if (ctx.anchorRow !== undefined && ctx.anchorRow - snap.baseY < snap.cursorY) {
    top = Math.max(-1, ctx.anchorRow - snap.baseY); // the row the command was submitted on
  } else {
    while (top > 0 && snap.cursorY - top < LIVE_EDGE_MAX_ROWS && !testRow(COMMAND_ROW, snap.lines[top] ?? '')) top--;
  }
  const edge = snap.lines.slice(Math.max(0, top + 1), snap.cursorY).filter((l) => l.trim() !== '');
  const v = (kind: Classification['verdict'], rule: string, line: string, explicit = false) =>
    verdict(program, kind, rule, line, edge, explicit);

  if (g.negative.some((n) => n.test(beforeCursor))) return v('unknown', 'negative_pattern', row);
  const atPrompt = afterCursor === '' && g.prompt_anchor.test(beforeCursor);
  const atRepl = afterCursor === '' && g.repl_prompt.test(beforeCursor);
  // A row reporting progress ("Downloading: ", "Checking database: ") ends in a colon without asking anything.
  const question =
    !snap.altScreen &&
    afterCursor === '' &&
    beforeCursor.trim() !== '' &&
    g.interactivity.test(beforeCursor) &&
    !isSpinner(beforeCursor, g.spinner) &&
    !g.status_label.some((p) => p.test(beforeCursor));
  const ready = (rule: string, explicit: boolean, promptWindow: boolean): Classification => {
    const failure = lastMatch(edge, g.failure);
    if (failure) return { ...v('failed', 'failure_line', failure.line, explicit), atPrompt: promptWindow };
    return { ...v('ready', rule, row, explicit), atPrompt: promptWindow };
  };
  // An explicit y/N question wins even over a line editor reading it (`read -e -p "Proceed? [y/N] "`).
  if (afterCursor === '' && g.strong_interactivity.test(beforeCursor)) return v('waiting', 'yes_no_prompt', row, true);
  // A full-screen program: a bare ":" or "?" at its cursor is its own command line (less, vim), not a question put
  // to the person; it animates by itself (working) or waits on the person's keys (resting, at rest).
  if (snap.altScreen && ctx.fullscreen === 'animating') return v('working', 'fullscreen_animating', row);
  if (snap.altScreen && ctx.fullscreen === 'resting') return v('resting', 'fullscreen_waiting_on_keys', row);
  // Bracketed paste on (outside full-screen apps) = a line editor is reading a command: the shell's own word that
  // it is at its prompt, whatever the prompt looks like (oh-my-zsh "➜  dir git:(main) ✗ " included).
  // (An empty cursor row is not a prompt yet: right after Enter the newline's echo can arrive before the shell
  // switches bracketed paste off.)
  if (useBp && snap.bracketedPaste && !snap.altScreen && beforeCursor.trim() !== '') return ready('prompt_bracketed_paste', true, true);
  if (afterCursor === '' && g.repl_continuation.test(beforeCursor)) return { ...v('ready', 'repl_continuation', row), atPrompt: true, continuation: true };
  if (atRepl) return ready('repl_prompt', false, true);
  if (afterCursor === '' && g.approval.some((a) => a.test(beforeCursor))) return v('waiting', 'approval_keyword', row, true);
  if (useBp && !snap.bracketedPaste && !ctx.foregroundPrompted) {
    // The shell accepted a command and nothing has taken over the prompt since: that command is running.
    if (question) return { ...v('waiting', 'question_at_cursor', row), weak: true };
    return v('working', 'command_running', row);
  }
  if (atPrompt) return ready('prompt_anchor', false, false);
  if (question) return { ...v('waiting', 'question_at_cursor', row), weak: true };
  const interrupt = lastMatch(snap.lines.slice(Math.max(0, snap.cursorY - 3), snap.cursorY + 2), g.interrupt);
  if (interrupt) return v('working', 'interrupt_keyword', interrupt.line);
  const spin = isSpinner(beforeCursor, g.spinner);
  if (spin) return v('working', 'spinner', row);
  return v('unknown', beforeCursor.trim() ? 'unrecognised_row' : 'empty_cursor_row', row);
}

function isSpinner(text: string, spinners: readonly RegExp[]): boolean {
  return spinners.some((s) => s.test(text));
}
