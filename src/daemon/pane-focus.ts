// "Jump to the pane", the daemon's side: by the pane's source, make the person's terminal show it (tmux: their
// attached client selects it; iTerm2: the bridge activates the session) or say where it runs (a `run` pane runs in
// a terminal the daemon cannot reach: its host, tty and pid). The doors are the sources' own (daemon.ts wires them).
import type { ActionOrigin, ActionView, AttachKind, PaneView, PaneWhereView } from '../web/api-types.js';
import { cut, redactText } from './redact.js';
import { ACTION_DETAIL_MAX } from './pane-actions.js';
import { focusRunInTmux } from './run-in-tmux.js';

export interface FocusOutcome {
  focused: boolean;
  how: string;
}

/** A source's way to show a pane: null when that source does not have the pane. */
export type FocusDoor = (paneId: string) => Promise<FocusOutcome> | null;

/** Where a `run` pane runs, for the person to find it: "runs on HOST in /dev/pts/3 (pid 4242)". */
export function whereItRuns(w: PaneWhereView | undefined): string {
  if (!w || (!w.host && !w.tty && w.pid === undefined)) return 'runs in a `termsupervisor run` wrapper that did not say where (an older version)';
  const host = w.host ? ` on ${w.host}` : '';
  const tty = w.tty ? ` in ${w.tty}` : ' with no terminal';
  const pid = w.pid !== undefined ? ` (pid ${w.pid})` : '';
  return `runs${host}${tty}${pid}`;
}

export async function focusPane(view: PaneView, doors: Partial<Record<AttachKind, FocusDoor>>): Promise<FocusOutcome> {
  if (view.attach === 'run') {
    // A wrapper inside tmux: its tmux pane is where it runs (issue 26 item 4).
    const w = view.where;
    if (w?.pane && w.tmuxSocket) {
      try {
        return await focusRunInTmux(w.tmuxSocket, w.pane);
      } catch (e) {
        return { focused: false, how: `failed: ${(e as Error).message}` };
      }
    }
    return { focused: false, how: whereItRuns(view.where) };
  }
  const door = doors[view.attach]?.(view.id);
  if (!door) return { focused: false, how: `its ${view.attach} source cannot show it now` };
  try {
    return await door;
  } catch (e) {
    return { focused: false, how: `failed: ${(e as Error).message}` };
  }
}

export function focusAction(view: PaneView, outcome: FocusOutcome, origin: ActionOrigin, from: string, at: number): ActionView {
  return {
    paneId: view.id,
    at,
    kind: 'focus',
    origin,
    from,
    keys: '',
    detail: cut(redactText(outcome.how), ACTION_DETAIL_MAX),
    rev: view.rev ?? null,
  };
}
