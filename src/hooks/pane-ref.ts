// Which pane a hook came from, as the hook process can tell from its environment: the `run` wrapper's pane id,
// else tmux's pane, else iTerm2's session, else the controlling terminal. The daemon matches it against its panes.
import { readFileSync, readlinkSync } from 'node:fs';

export interface PaneRef {
  /** TERMSUPERVISOR_PANE_ID: set by `termsupervisor run` in its child's environment. */
  id?: string;
  /** TMUX_PANE (`%3`) and the server's socket path (the first field of TMUX). */
  tmuxPane?: string;
  tmuxSocket?: string;
  /** ITERM_SESSION_ID (`w0t0p0:<uuid>`). */
  itermSession?: string;
  /** The controlling terminal (`/dev/pts/3`). */
  tty?: string;
}

/** Pseudo-terminal slaves have these major device numbers on Linux (Documentation/admin-guide/devices.txt). */
const PTS_MAJOR_FIRST = 136;
const PTS_MAJOR_LAST = 143;
const PTS_PER_MAJOR = 256;

export function paneRefFromEnv(env: NodeJS.ProcessEnv = process.env, tty: () => string | undefined = controllingTty): PaneRef {
  const ref: PaneRef = {};
  if (env['TERMSUPERVISOR_PANE_ID']) ref.id = env['TERMSUPERVISOR_PANE_ID'];
  if (env['TMUX_PANE']) {
    ref.tmuxPane = env['TMUX_PANE'];
    const socket = env['TMUX']?.split(',')[0];
    if (socket) ref.tmuxSocket = socket;
  }
  if (env['ITERM_SESSION_ID']) ref.itermSession = env['ITERM_SESSION_ID'];
  // Only asked for when nothing better names the pane: it reads /proc.
  if (!ref.id && !ref.tmuxPane && !ref.itermSession) {
    const t = tty();
    if (t) ref.tty = t;
  }
  return ref;
}

/**
 * The controlling terminal of this process (Linux: /proc/self/stat tty_nr, else a terminal on fd 0-2), or
 * undefined. A hook inherits its agent's session, so this is the pane's terminal.
 */
export function controllingTty(): string | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Field 7; the command name (field 2) is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const nr = Number(fields[4]);
    if (nr > 0) {
      const major = (nr >> 8) & 0xfff;
      const minor = (nr & 0xff) | ((nr >> 12) & 0xfff00);
      if (major >= PTS_MAJOR_FIRST && major <= PTS_MAJOR_LAST) return `/dev/pts/${(major - PTS_MAJOR_FIRST) * PTS_PER_MAJOR + minor}`;
    }
  } catch {
    // not Linux: try the descriptors
  }
  for (const fd of [0, 1, 2]) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (/^\/dev\/(pts\/\d+|tty\w+)$/.test(target)) return target;
    } catch {
      // no /proc, or not a link
    }
  }
  return undefined;
}
