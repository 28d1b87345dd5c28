// `termsupervisor status --format tmux`: one line for a tmux `#(…)` in status-right, for those who prefer a command
// to the options the daemon sets (docs/tmux.md): the same text as @termsupervisor_status, coloured with tmux's
// `#[fg=…]`; empty when nothing needs you and nothing runs.
import type { PaneView } from '../../web/api-types.js';
import { emptyCounts, markOf, statusText } from '../../attach/tmux/presence-marks.js';

export function tmuxStatusLine(panes: PaneView[]): string {
  const c = emptyCounts();
  for (const p of panes) {
    const m = markOf(p);
    if (m) c[m]++;
  }
  return statusText(c);
}
