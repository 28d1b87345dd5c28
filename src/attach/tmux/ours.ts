// Our own programs in a tmux pane say so on the pane itself: a tmux user option (`@termsupervisor`, tmux >= 3.2
// pane options) set by `run` ("run:<its pane id>") and `top` ("top") while they hold the pane, unset when they
// leave. The daemon's tmux watcher reads it with each pane list and leaves such a pane alone: a `run` pane is one
// card (the wrapper's, read through its own signals), not two; `top` is our view, not work.
import { spawnSync } from 'node:child_process';

export const OURS_OPTION = '@termsupervisor';

/** How long the one tmux call may take: a wedged server must not hold up the person's command. */
const TMUX_CALL_MS = 2000;

/** The tmux pane this process runs in, from the environment tmux gives its panes; null outside tmux. */
export function ownTmuxPane(env: NodeJS.ProcessEnv = process.env): { socket: string; pane: string } | null {
  const tmux = env['TMUX'];
  const pane = env['TMUX_PANE'];
  // $TMUX is "socket-path,server-pid,session-index".
  if (!tmux || !pane || !/^%\d+$/.test(pane)) return null;
  const socket = tmux.split(',')[0];
  return socket ? { socket, pane } : null;
}

/** Marks our tmux pane as held by `value`; returns what unmarks it (a no-op outside tmux, or when tmux refused). */
export function markOwnTmuxPane(value: string, env: NodeJS.ProcessEnv = process.env): () => void {
  const at = ownTmuxPane(env);
  if (!at) return () => {};
  const tmux = (args: string[]) => spawnSync('tmux', ['-S', at.socket, ...args], { env, stdio: 'ignore', timeout: TMUX_CALL_MS });
  const r = tmux(['set-option', '-p', '-t', at.pane, OURS_OPTION, value]);
  if (r.error || r.status !== 0) return () => {};
  let done = false;
  return () => {
    if (done) return;
    done = true;
    tmux(['set-option', '-p', '-u', '-t', at.pane, OURS_OPTION]);
  };
}
