// A `run` pane whose wrapper runs inside a tmux pane (its hello said which, and on which server): a jump to it is
// a jump to that tmux pane, through `tmux -S <its socket>`, whether or not the daemon watches that server.
import { execFile } from 'node:child_process';
import type { Reply } from '../attach/tmux/control-protocol.js';
import { focusTmuxPane } from '../attach/tmux/tmux-focus.js';
import type { FocusOutcome } from './pane-focus.js';

/** One tmux command may take this long: a wedged server must not hold a jump (the person is waiting). */
const TMUX_COMMAND_MS = 3000;

function tmuxAt(socket: string, argv: string[]): Promise<Reply> {
  return new Promise((resolve) => {
    execFile('tmux', ['-S', socket, ...argv], { timeout: TMUX_COMMAND_MS }, (err, stdout, stderr) => {
      if (err) resolve({ ok: false, flags: 1, lines: [String(stderr).trim() || err.message] });
      else resolve({ ok: true, flags: 1, lines: String(stdout).split('\n').filter(Boolean) });
    });
  });
}

export async function focusRunInTmux(socket: string, pane: string): Promise<FocusOutcome> {
  return focusTmuxPane(async (commands) => {
    const replies: Reply[] = [];
    // In order, stopping at the first failure (as a tmux command list does).
    for (const argv of commands) replies.push(replies.some((r) => !r.ok) ? { ok: false, flags: 1, lines: ['not run: an earlier command failed'] } : await tmuxAt(socket, argv));
    return replies;
  }, pane);
}
