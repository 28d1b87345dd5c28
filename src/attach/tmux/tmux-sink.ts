// What a TmuxWatcher reports to (the daemon's registry, or a test's recorder), and the log it writes to.
import type { PaneWhereView } from '../../web/api-types.js';

export interface TmuxPaneOpen {
  /** The daemon's id: `tmux:<server key>@<server life>:%3`. */
  id: string;
  /** tmux's pane id. */
  pane: string;
  name: string;
  /** The foreground command (pane_current_command). */
  command: string;
  cols: number;
  rows: number;
  /** Its session, window index and pane id, for a jump. */
  where: PaneWhereView;
}

/** Where panes go (the daemon's registry, or a test's recorder). */
export interface TmuxSink {
  open(p: TmuxPaneOpen): void;
  output(id: string, data: string): void;
  /** The pane's screen as it stands (capture-pane), to be read as one change of its own: when a promise comes
   * back, the pane's next output is held until it resolves, so the seed's bytes never join a burst of real output
   * (a seed followed at once by a one-line echo would otherwise look like work nobody typed for). */
  seed(id: string, data: string): Promise<void> | null;
  /** The pane's foreground command changed. `panePid`: the pane's first process (its terminal's session leader,
   * whose terminal's foreground job /proc tells on the server's own host), when tmux said. */
  process(id: string, name: string, panePid?: number): void;
  resize(id: string, cols: number, rows: number): void;
  rename(id: string, name: string): void;
  /** The pane's session or window changed (move-window, a renamed session): where a jump finds it. */
  where?(id: string, where: PaneWhereView): void;
  /** The pane's program ended but tmux keeps the pane (remain-on-exit). */
  exit(id: string, code: number | null): void;
  close(id: string, why: string): void;
  /** The pane's host cannot be reached (the ssh link failed): the pane stays, its last state kept but stale. */
  unreachable?(id: string, since: number, reason: string): void;
  /** Its host answers again; called just before the pane's repaint (its seed). */
  reachable?(id: string): void;
  /** A promise when the pane cannot take more output yet (reading stops until it resolves), else null. */
  backlog(id: string): Promise<void> | null;
}

export interface TmuxLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  debug(fields: object, msg: string): void;
}

/** What tmux presence (src/daemon/tmux-presence.ts) follows of a server: where panes are, what clients show. */
export interface TmuxWatcherEvents {
  /** The panes, their windows or their sessions may have changed (a list-panes answer was applied). */
  topology(): void;
  /** A client may show another pane (it attached, detached, switched session, window or pane). */
  views(): void;
  /** The server was found (first, again after it was gone, or another run of it): what was set on the old one is
   * not on it. */
  connected(): void;
}
