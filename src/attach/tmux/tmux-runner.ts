// How a tmux command reaches its server: run here (`tmux -S PATH …`) or on another machine through ssh
// (`ssh … host -- tmux -L NAME …`, src/attach/ssh/). The watcher, its control clients and its helper commands all
// start tmux through one runner, so a remote server's panes are followed exactly as local ones are.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { shellQuote, sshArgs, type SshDestination, type SshSettings } from '../ssh/ssh-command.js';

export interface TmuxRunner {
  /** The program and arguments that run `tmux [server args] ARGS` (`withServer` false: no -L/-S, e.g. `-V`). */
  command(args: string[], withServer?: boolean): { file: string; args: string[] };
  /** Whether looking for the server is worth a process (a local server's socket file exists). */
  present(): boolean;
  /** The remote's name for a remote server; null for this machine's. */
  readonly host: string | null;
  /** An exit code that means the way there failed (ssh's 255), not tmux: the host is unreachable. */
  transportFailed(code: number | null): boolean;
  /** Ends what the runner keeps open (the shared ssh connection), when the watcher stops. */
  close?(env: NodeJS.ProcessEnv): Promise<void>;
}

/** `ssh -O exit` is a local request to the master: it never waits on the network, but is bounded all the same. */
const CLOSE_MASTER_TIMEOUT_MS = 2000;

export function localRunner(tmux: string, serverArgs: string[], socketPath: string): TmuxRunner {
  return {
    host: null,
    command: (args, withServer = true) => ({ file: tmux, args: withServer ? [...serverArgs, ...args] : args }),
    present: () => existsSync(socketPath),
    transportFailed: () => false,
  };
}

export interface RemoteTmux {
  /** The remote's name: the host part of its panes' ids (`devbox:%3`). */
  name: string;
  dest: SshDestination;
  ssh: SshSettings;
  /** `-L NAME` / `-S PATH` on the far side, or none for its default server. */
  serverArgs: string[];
  /** The tmux program on the far side. */
  tmux?: string;
}

export function sshRunner(r: RemoteTmux): TmuxRunner {
  return {
    host: r.name,
    command: (args, withServer = true) => {
      // -u: an ssh session often has no UTF-8 locale, and tmux would then replace control characters (the field
      // separator of our formats) and non-ASCII output with '_' for this client.
      const words = [r.tmux ?? 'tmux', '-u', ...(withServer ? r.serverArgs : []), ...args];
      return sshArgs(r.dest, r.ssh, words.map(shellQuote).join(' '));
    },
    present: () => true,
    transportFailed: (code) => code === 255,
    // The shared connection would otherwise outlive the daemon by ControlPersist.
    close: (env) =>
      new Promise((resolve) => {
        const c = sshArgs(r.dest, r.ssh, '', ['-O', 'exit']);
        execFile(c.file, c.args, { env, timeout: CLOSE_MASTER_TIMEOUT_MS }, () => resolve());
      }),
  };
}

/** A remote's tmux server: a socket name (no slash: -L) or a path on the far side (-S); empty: its default one. */
export function remoteServerArgs(socket: string): string[] {
  if (!socket) return [];
  return socket.includes('/') ? ['-S', socket] : ['-L', socket];
}
