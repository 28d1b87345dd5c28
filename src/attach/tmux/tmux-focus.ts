// "Jump to the pane" in tmux: the person's own client is made to show the pane — its window selected, the pane
// made active, and the client switched to the pane's session when it shows another one. Which client: the most
// recently active one of the server that is not in control mode (control clients are ours, or an iTerm2 -CC's
// plumbing, never a screen a person looks at). The commands go through whatever runs tmux commands for this
// server (the watcher's control client, else `tmux -S`), as argument lists.
import type { Reply } from './control-protocol.js';

/** Field separator in the formats below (as in pane-list.ts): no session or client name holds it in practice. */
const SEP = '\x1f';

export const CLIENT_FIELDS = ['client_name', 'client_activity', 'client_control_mode', 'client_session', 'client_tty'];
export const FOCUS_PANE_FIELDS = ['pane_id', 'session_id', 'session_name', 'window_id', 'window_index', 'pane_index'];

export type TmuxRun = (commands: string[][]) => Promise<Reply[]>;

export interface TmuxFocusResult {
  focused: boolean;
  /** What was done, or why nothing could be, for the person. */
  how: string;
}

interface ClientRow {
  name: string;
  activity: number;
  control: boolean;
  session: string;
  tty: string;
}

interface PaneAt {
  pane: string;
  session: string;
  sessionName: string;
  window: string;
  windowIndex: string;
  paneIndex: string;
}

export function parseClients(lines: string[]): ClientRow[] {
  return lines.map((l) => l.split(SEP)).filter((f) => f.length >= CLIENT_FIELDS.length).map((f) => ({
    name: f[0]!,
    activity: Number(f[1]) || 0,
    control: f[2] === '1',
    session: f[3]!,
    tty: f[4]!,
  }));
}

function parsePanes(lines: string[]): PaneAt[] {
  return lines.map((l) => l.split(SEP)).filter((f) => f.length >= FOCUS_PANE_FIELDS.length).map((f) => ({
    pane: f[0]!,
    session: f[1]!,
    sessionName: f[2]!,
    window: f[3]!,
    windowIndex: f[4]!,
    paneIndex: f[5]!,
  }));
}

/** The client a person looked at last: the most recent activity among the clients that are not control mode. */
export function personClient(clients: ClientRow[]): ClientRow | null {
  let best: ClientRow | null = null;
  for (const c of clients) if (!c.control && (!best || c.activity > best.activity)) best = c;
  return best;
}

/** Makes the person's client show tmux pane `pane` (`%3`). */
export async function focusTmuxPane(run: TmuxRun, pane: string): Promise<TmuxFocusResult> {
  const [clients, panes] = await run([
    ['list-clients', '-F', CLIENT_FIELDS.map((f) => `#{${f}}`).join(SEP)],
    ['list-panes', '-a', '-F', FOCUS_PANE_FIELDS.map((f) => `#{${f}}`).join(SEP)],
  ]);
  if (!clients?.ok || !panes?.ok) return { focused: false, how: `tmux did not answer: ${failure(clients, panes)}` };
  const rows = parsePanes(panes.lines).filter((p) => p.pane === pane);
  if (!rows.length) return { focused: false, how: `tmux pane ${pane} is gone` };
  const client = personClient(parseClients(clients.lines));
  const at0 = rows[0]!;
  if (!client) return { focused: false, how: `no tmux client is attached to show it: tmux attach -t ${at0.sessionName}` };
  // A window linked into several sessions: the client's own session is the one to show it in, if it has it.
  // (#{client_session} is the session's name, not its $id.)
  const at = rows.find((r) => r.sessionName === client.session) ?? at0;
  const switching = at.sessionName !== client.session;
  const cmds = [
    ['select-window', '-t', `${at.session}:${at.window}`],
    ['select-pane', '-t', pane],
    ...(switching ? [['switch-client', '-c', client.name, '-t', at.session]] : []),
  ];
  const replies = await run(cmds);
  const bad = replies.find((r) => !r.ok);
  if (bad) return { focused: false, how: `tmux refused: ${bad.lines.join(' ') || 'no reason given'}` };
  // What the person types in tmux (session:window.pane, all indexes), then the pane's id for scripts.
  const target = `${at.sessionName}:${at.windowIndex}.${at.paneIndex} (${pane})`;
  return { focused: true, how: `tmux client ${client.tty || client.name} shows ${target}${switching ? ' (switched session)' : ''}` };
}

function failure(...replies: Array<Reply | undefined>): string {
  return replies.find((r) => r && !r.ok)?.lines.join(' ') || 'no reply';
}
