// A program blocked reading the terminal with a prompt at the cursor waits on the person's keys: whatever started
// it (`run`'s own program taken for one thing to do, a job a shell handed the terminal to), the turn it was read as
// has ended and the pane is at rest. The kernel says the program reads (src/attach/tty-read.ts, a source's fact);
// the screen says whether it reads at a prompt, and whether that prompt is a question (then it waits on an answer,
// the screen's WAITING_APPROVAL, not at rest). Pure.
import type { ScreenSnapshot } from '../screen/types.js';
import type { Classification } from './types.js';

/** The rule of the rest this tells (Tier 1: the process's own state). */
export const READS_TERMINAL_RULE = 'run.reads_terminal';

/** The one working verdict that is no sign on screen: a shell's bookkeeping (bracketed paste off since a line was
 * accepted), which a script's plain `read -p` prompt shows too. */
const COMMAND_RUNNING_RULE = '.command_running';

/**
 * The prompt row the program reads at, or null when its read is no rest: no text before the cursor on its row
 * (`cat` waiting on a blank line is fed, not asked), a full-screen program (its own keys, its own screen), a
 * question on screen, or a screen still showing the work (its spinner, its interrupt hint: the read was seen
 * before the bytes the program wrote ahead of it, its question or its prompt, reached the screen).
 */
export function restingPrompt(snap: ScreenSnapshot, cls: Classification): string | null {
  if (snap.altScreen || cls.verdict === 'waiting') return null;
  if (cls.verdict === 'working' && !cls.rule.endsWith(COMMAND_RUNNING_RULE)) return null;
  const row = snap.lines[snap.cursorY] ?? '';
  if (!row.slice(0, snap.cursorX).trim()) return null;
  return row.trim();
}
