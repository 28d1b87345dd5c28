// Which tmux server: a socket name (tmux -L), a path (tmux -S), or the default one. Each server gets a key that
// is part of its panes' ids with the server's life (`tmux:<key>@<life>:%3`): a pane keeps its history across daemon
// restarts, and a restarted server's %3, an unrelated pane, gets a history of its own.
import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';

export interface TmuxSocket {
  /** What to pass to every tmux command: always an explicit -S, so $TMUX never picks another server. */
  args: string[];
  path: string;
  /** The name for sockets in tmux's own folder (`default`, `work`), else a hash of the path. */
  key: string;
}

/** tmux's socket folder: $TMUX_TMPDIR (else /tmp), then tmux-<uid>. */
export function tmuxSocketDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(env['TMUX_TMPDIR'] || '/tmp', `tmux-${uid}`);
}

/**
 * `spec`: a name (no slash) or a path; empty for the default server — the one this process runs inside ($TMUX),
 * else `default`, as plain `tmux` would pick.
 */
export function resolveTmuxSocket(spec: string, env: NodeJS.ProcessEnv = process.env): TmuxSocket {
  const dir = tmuxSocketDir(env);
  let path: string;
  if (spec.includes('/')) path = resolve(spec);
  else if (spec) path = join(dir, spec);
  else path = env['TMUX']?.split(',')[0] || join(dir, 'default');
  const key = dirname(path) === dir ? basename(path) : `s${createHash('sha256').update(path).digest('hex').slice(0, 12)}`;
  return { args: ['-S', path], path, key };
}

/** The daemon's pane id for a tmux pane (`%3`) of this run (`life`, pane-list.ts serverLife) of this server. */
export function tmuxPaneKey(socket: TmuxSocket, life: string, pane: string): string {
  return `tmux:${socket.key}@${life}:${pane}`;
}
