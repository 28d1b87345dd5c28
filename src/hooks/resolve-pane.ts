// Finds the daemon's pane a hook came from. In order: the `run` pane id the wrapper put in its child's environment;
// tmux's pane (panes attached from tmux have ids `tmux:<server>@<its run>:%N`); iTerm2's session (`iterm2:…<uuid>`); the
// terminal. A reference that names no live pane, or more than one, is unmatched: a hook never lands on a guess.
import { createHash } from 'node:crypto';
import type { PaneRef } from './pane-ref.js';

export interface HookCandidate {
  id: string;
  /** The pane's terminal device, when its source knows it. */
  tty?: string;
}

export function resolveHookPane(ref: PaneRef, panes: readonly HookCandidate[]): string | null {
  if (ref.id && panes.some((p) => p.id === ref.id)) return ref.id;
  if (ref.tmuxPane) {
    const hit = tmuxMatch(ref.tmuxPane, ref.tmuxSocket, panes);
    if (hit) return hit;
  }
  if (ref.itermSession) {
    // ITERM_SESSION_ID is `w0t0p0:<uuid>`: the uuid is the session's identity, the prefix its current position.
    const uuid = ref.itermSession.slice(ref.itermSession.indexOf(':') + 1).toLowerCase();
    const hit = only(panes.filter((p) => p.id.startsWith('iterm2:') && uuid.length > 0 && p.id.toLowerCase().endsWith(uuid)));
    if (hit) return hit;
  }
  if (ref.tty) {
    const hit = only(panes.filter((p) => p.tty === ref.tty));
    if (hit) return hit;
  }
  return null;
}

function tmuxMatch(pane: string, socket: string | undefined, panes: readonly HookCandidate[]): string | null {
  const same = panes.filter((p) => p.id.startsWith('tmux:') && p.id.endsWith(`:${pane}`));
  if (same.length <= 1) return only(same);
  // Several tmux servers have a pane with this number: the socket tells them apart. The tmux source keys a server
  // by its socket's name when it lives in tmux's own folder, else by `s` + a hash of its path
  // (src/attach/tmux/tmux-socket.ts); a path is accepted as it is too.
  if (!socket) return null;
  const keys = [socket, socket.slice(socket.lastIndexOf('/') + 1), `s${createHash('sha256').update(socket).digest('hex').slice(0, 12)}`];
  // The id's server part is `<key>@<life>` (the server's run): the key names the socket.
  return only(same.filter((p) => keys.includes(p.id.slice('tmux:'.length, p.id.length - pane.length - 1).split('@')[0]!)));
}

function only(ps: readonly HookCandidate[]): string | null {
  return ps.length === 1 ? ps[0]!.id : null;
}
