// What the watcher asks tmux about its sessions and panes, and how a pane's visible screen is rebuilt in the
// daemon's own terminal (the seed) when it starts following it mid-session.

/** Field separator in the formats below: a control character no session or window name holds in practice. */
const SEP = '\x1f';

/** One row of list-panes: a pane as seen from one session (a window linked into two sessions gives two rows). */
export interface PaneRow {
  pane: string;
  session: string;
  sessionName: string;
  windowIndex: number;
  paneIndex: number;
  cols: number;
  rows: number;
  dead: boolean;
  deadStatus: number | null;
  command: string;
  /** The pane's first process (a shell, or the program it was started with), its terminal's session leader. */
  pid: number | null;
  /** Its window's id (`@2`). */
  window: string;
  /** Its window's name, and whether tmux names it (automatic-rename on: the foreground command) or the person did. */
  windowName: string;
  autoName: boolean;
  /** The name given with `termsupervisor name` (the pane option @termsupervisor_name), or ''. */
  ownName: string;
  /** The pane is held by one of our own programs (ours.ts: `run:<id>`, `top`); '' when not. */
  ours: string;
  /** Last: free text, may hold anything but a newline. */
  title: string;
}

const PANE_FIELDS = [
  'pane_id',
  'session_id',
  'session_name',
  'window_index',
  'pane_index',
  'pane_width',
  'pane_height',
  'pane_dead',
  'pane_dead_status',
  'pane_current_command',
  'pane_pid',
  'window_id',
  'window_name',
  'automatic-rename',
  '@termsupervisor_name',
  '@termsupervisor', // ours.ts OURS_OPTION
  'pane_title',
];

export const LIST_PANES = `list-panes -a -F '${PANE_FIELDS.map((f) => `#{${f}}`).join(SEP)}'`;

export function parsePaneRows(lines: string[]): PaneRow[] {
  const out: PaneRow[] = [];
  for (const line of lines) {
    const f = line.split(SEP);
    if (f.length < PANE_FIELDS.length || !f[0]!.startsWith('%')) continue;
    out.push({
      pane: f[0]!,
      session: f[1]!,
      sessionName: f[2]!,
      windowIndex: Number(f[3]),
      paneIndex: Number(f[4]),
      cols: Number(f[5]) || 80,
      rows: Number(f[6]) || 24,
      dead: f[7] === '1',
      deadStatus: f[8] === '' ? null : Number(f[8]),
      command: f[9]!,
      pid: /^\d+$/.test(f[10]!) ? Number(f[10]) : null,
      window: f[11]!,
      windowName: f[12]!,
      autoName: f[13] !== '0',
      ownName: f[14]!,
      ours: f[15]!,
      title: f.slice(16).join(SEP),
    });
  }
  return out;
}

export interface SessionRow {
  session: string;
  /** Last activity, epoch seconds. */
  activity: number;
  /** Which life of the server answered (serverLife): a restarted server numbers its panes from %0 again. */
  life: string;
}

/** The server's pid and start time name one run of it: a pid alone comes back after a reboot. */
export const LIST_SESSIONS_ARGS = ['list-sessions', '-F', `#{session_id}${SEP}#{session_activity}${SEP}#{pid}${SEP}#{start_time}`];

export function parseSessionRows(lines: string[]): SessionRow[] {
  const out: SessionRow[] = [];
  for (const line of lines) {
    const [session = '', activity = '', pid = '', start = ''] = line.split(SEP);
    if (session.startsWith('$')) out.push({ session, activity: Number(activity) || 0, life: serverLife(pid, start) });
  }
  return out;
}

/** A short token for one run of a tmux server: `<pid>-<start time in base 36>` (`4242-t3k9qx`). */
export function serverLife(pid: string, startTime: string): string {
  const start = Number(startTime);
  return `${/^\d+$/.test(pid) ? pid : '0'}-${Number.isFinite(start) && start > 0 ? Math.floor(start).toString(36) : '0'}`;
}

/** The option that names a pane (`termsupervisor name`), kept by tmux itself: the name outlives the daemon. */
export const PANE_NAME_OPTION = '@termsupervisor_name';

/** The pane's display name: the one given to it (`termsupervisor name`), else the target a person types, by the
 * window's name when the person named the window (`work:api`, `work:api.1` in a window of several panes), else by
 * its index (`work:1.0`). A name tmux gives a window by itself (automatic-rename: the foreground command) changes
 * with every command and names nothing the person chose. */
export function paneName(r: PaneRow, panesInWindow = 1): string {
  if (r.ownName) return r.ownName;
  if (!r.autoName && r.windowName) return `${r.sessionName}:${r.windowName}${panesInWindow > 1 ? `.${r.paneIndex}` : ''}`;
  return `${r.sessionName}:${r.windowIndex}.${r.paneIndex}`;
}

// ---- the seed -------------------------------------------------------------------------------------------------

/** Asked in the same command list as the captures, so cursor and screen are of one instant; the foreground
 * command too, as of the same point in the owning client's stream as the subscription reports after it. */
export const SEED_FIELDS = ['cursor_x', 'cursor_y', 'alternate_on', 'pane_current_command', 'host', 'pane_title'];

/** The commands that read a pane's screen: its state, the visible screen, and (in full-screen mode) the normal
 * screen behind it (`-a -q`: empty rather than an error when there is none). */
export function seedCommands(pane: string): string[] {
  return [
    `display-message -p -t ${pane} '${SEED_FIELDS.map((f) => `#{${f}}`).join(SEP)}'`,
    `capture-pane -p -e -t ${pane}`,
    `capture-pane -p -e -a -q -t ${pane}`,
  ];
}

export interface SeedState {
  cx: number;
  cy: number;
  alt: boolean;
  command: string;
  /** The pane's title, unless it is tmux's default (the host name), which says nothing about the program. */
  title: string | null;
}

export function parseSeedState(line: string | undefined): SeedState {
  const f = (line ?? '').split(SEP);
  const host = f[4] ?? '';
  const title = f.slice(5).join(SEP);
  return { cx: Number(f[0]) || 0, cy: Number(f[1]) || 0, alt: f[2] === '1', command: f[3] ?? '', title: title && title !== host ? title : null };
}

/**
 * Bytes that make an empty (or stale) terminal show what the pane shows: the normal screen, then the full-screen
 * one over it when the program is in one, the cursor where tmux has it, and the title. Each row is placed with
 * a cursor move, never a newline: the seed is no program's output, and newlines are what makes output look like
 * work nobody typed for (the newline gate); nor can a last row scroll the screen.
 */
export function seedBytes(state: SeedState, screen: string[], normal: string[], fresh: boolean): string {
  // A terminal seeded before may be in a full-screen mode the pane has left since.
  let s = (fresh ? '' : '\x1b[?1049l') + '\x1b[0m\x1b[H\x1b[2J';
  if (state.alt) s += rows(normal) + '\x1b[?1049h\x1b[H\x1b[2J';
  s += rows(screen);
  s += `\x1b[${state.cy + 1};${state.cx + 1}H`;
  if (state.title) s += `\x1b]2;${state.title.replace(/[\x00-\x1f\x7f]/g, '')}\x07`;
  return s;
}

function rows(lines: string[]): string {
  let s = '';
  // capture-pane -e carries attributes from row to row, as the rows are written here, in order.
  for (let y = 0; y < lines.length; y++) if (lines[y]) s += `\x1b[${y + 1}H${lines[y]}`;
  return s + '\x1b[0m';
}
