// Finds and follows every pane of one tmux server, without polling and without changing what the person sees.
//
// Why one control client per session: tmux sends a control client the %output of the panes in its own session's
// windows only, and nothing else can stream a pane's bytes without touching it (pipe-pane would take the pane's
// one pipe from the person; linking every window into a session of ours would show up in their session list and
// window sizes). So each session gets a `tmux -C attach-session -t $ID -f ignore-size,pause-after=N` client:
//   - ignore-size (and never `refresh-client -C`): the client has no size, so no window is resized for it;
//   - pause-after: output this client has not taken for N seconds pauses that pane for this client alone (tmux
//     drops it instead of buffering it); the watcher resumes it and re-reads the pane's screen. The daemon stops
//     reading a client while a pane's pipeline is backlogged, so a flood ends in a pause, never in a stall or an
//     unbounded buffer. (A session no one else is attached to is read by tmux no faster than its control clients
//     take the output: there a flood is slowed to the daemon's pace instead, and nothing is lost.);
//   - nothing is resized or killed: the commands sent are list-panes, display-message, capture-pane,
//     refresh-client -B (subscriptions) and refresh-client -A (resume a paused pane); keys only for a task or an
//     action the person asked for (sendText), and a jump's select-window / select-pane / switch-client (run()).
// Sessions are attached oldest-activity first, so attaching does not change which session plain `tmux attach`
// picks (the most recently active one). A pane in a window linked into several sessions is read from one of them.
//
// A pane is seeded from capture-pane (its visible screen and cursor, the normal screen behind a full-screen
// program) and then followed from %output. The capture runs in the owning client's own stream: output before its
// reply is already on the captured screen and is dropped; output after it is fed. New, closed and resized panes
// come from notifications (%layout-change, %window-add/close, %sessions-changed, …), each answered by one
// list-panes; the foreground command comes from a subscription (`refresh-client -B`, tmux ≥ 3.2) that tmux
// re-evaluates on its own once a second and reports only when it changes. Idle panes cost the daemon nothing.
//
// tmux does not report the keys the person types: turns in tmux panes are unanchored (see unanchored.test.ts).
import { execFile } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { ControlClient } from './control-client.js';
import { layoutPanes, type Reply } from './control-protocol.js';
import type { PaneWhereView } from '../../web/api-types.js';
import { LIST_PANES, LIST_SESSIONS_ARGS, paneName, parsePaneRows, parseSeedState, parseSessionRows, seedBytes, seedCommands, type PaneRow } from './pane-list.js';
import { tmuxPaneKey, type TmuxSocket } from './tmux-socket.js';
import { MIN_TMUX_VERSION, tmuxVersionSupported } from './tmux-version.js';
import { localRunner, type TmuxRunner } from './tmux-runner.js';
import { tmuxKeyName } from './tmux-keys.js';

/** Output a control client has not taken for this long pauses that pane for it (tmux `pause-after`), instead of
 * tmux buffering it without bound or holding the pane's program back: a flooding pane cannot stall the daemon,
 * nor the other panes of its session for longer than this. */
export const PAUSE_AFTER_S = 2;
/** A paused pane is resumed and re-read this long after the pause: a flood gets a breather rather than a loop
 * of pause, capture, pause. */
export const RESUME_AFTER_PAUSE_MS = 500;
/** First wait before looking for the server again (it went away, or an attach failed); doubled per failure… */
export const RECONNECT_MIN_MS = 250;
/** …up to this: a server that is not running costs one stat() of its socket this often. */
export const RECONNECT_MAX_MS = 10_000;
/** A remote host that cannot be reached is tried again after this long, doubled per failure… */
export const REMOTE_RECONNECT_MIN_MS = 1000;
/** …up to this: a host down for the night costs one ssh attempt a minute. */
export const REMOTE_RECONNECT_MAX_MS = 60_000;
/** A one-shot tmux command (list-sessions, -V) taking longer is given up: a wedged server must not hang us. */
const EXEC_TIMEOUT_MS = 5000;
/** Our subscription's name, echoed in each %subscription-changed. */
const SUB_COMMAND = 'termsupervisor-cmd';

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
  /** The pane's foreground command changed. */
  process(id: string, name: string): void;
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

export interface TmuxWatcherOptions {
  socket: TmuxSocket;
  sink: TmuxSink;
  log: TmuxLog;
  /** The tmux binary (default `tmux` on PATH). */
  tmux?: string;
  env?: NodeJS.ProcessEnv;
  /** Runs tmux on another machine (ssh): its panes' ids are `<host>:%N`, and a failed link marks them unreachable
   * instead of closing them. Default: `tmux` here, on `socket`. */
  runner?: TmuxRunner;
  /** ssh's stderr made into the reason shown (the remote's host key advice); default: its last line. */
  describeFailure?: (stderr: string) => string;
}

function lastLine(stderr: string): string {
  return stderr.trim().split('\n').pop() ?? '';
}

interface Tracked {
  pane: string;
  id: string;
  /** The client whose stream this pane is read from; null while its session has none. */
  owner: ControlClient | null;
  /** seeding: output is dropped until the capture's reply; absorbing: the seed is being read, output is held;
   * paused: tmux paused it, a resume is scheduled. */
  state: 'seeding' | 'absorbing' | 'live' | 'paused';
  /** Output that came while absorbing, in order. */
  held: Buffer[];
  /** Seed generation: a reply for an older seed is ignored. */
  seq: number;
  seeded: boolean;
  decoder: StringDecoder;
  cols: number;
  rows: number;
  name: string;
  command: string;
  dead: boolean;
  resumeTimer: NodeJS.Timeout | null;
  /** Marked unreachable: the next seed (a repaint from capture-pane) is what brings it back. */
  stale: boolean;
}

type Sync = 'idle' | 'running' | 'again';

/** Text for a tmux command line, double-quoted: tmux expands `$` and backslash escapes there, so both are escaped,
 * and line breaks and tabs are written as the escapes tmux turns back into the keys. */
export function tmuxQuote(text: string): string {
  return '"' + text.replace(/[\\"$]/g, '\\$&').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t') + '"';
}

/** A tmux command line for a control client: the command's name, then each argument double-quoted. */
function commandLine(argv: string[]): string {
  return [argv[0]!, ...argv.slice(1).map(tmuxQuote)].join(' ');
}

function whereOf(row: PaneRow): PaneWhereView {
  return { session: row.sessionName, window: String(row.windowIndex), pane: row.pane };
}

export class TmuxWatcher {
  private readonly runner: TmuxRunner;
  private readonly env: NodeJS.ProcessEnv;
  /** Since when the remote host has been unreachable (its panes are marked), or null. */
  private unreachableSince: number | null = null;
  /** The last reason logged for a link that would not come up (logged once per reason, not per retry). */
  private lastRefusal = '';
  /** Session id → its control client. */
  private readonly clients = new Map<string, ControlClient>();
  private readonly panes = new Map<string, Tracked>();
  /** Panes fed while one stdout chunk was handled (back-pressure is checked once per chunk). */
  private readonly fed = new Set<Tracked>();
  private stopped = false;
  private up = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private sessionSync: Sync = 'idle';
  private paneSync: Sync = 'idle';
  /** The run of the server the panes belong to (its pid and start time), once one answered. */
  private life: string | null = null;

  constructor(private readonly o: TmuxWatcherOptions) {
    this.runner = o.runner ?? localRunner(o.tmux ?? 'tmux', o.socket.args, o.socket.path);
    const env = { ...(o.env ?? process.env) };
    // We are not nested in the person's session even when the daemon runs inside tmux (-S names the server).
    delete env['TMUX'];
    delete env['TMUX_PANE'];
    this.env = env;
  }

  get key(): string {
    return this.runner.host ?? this.o.socket.key;
  }

  /** The remote's name, or null for a server on this machine. */
  get host(): string | null {
    return this.runner.host;
  }

  /** Checks the tmux version once, then connects (or keeps looking for the server). False when tmux is missing
   * or too old: nothing is watched. */
  async start(): Promise<boolean> {
    const v = await this.exec(['-V'], false);
    if (!v.ok && this.runner.transportFailed(v.code)) {
      // A remote that cannot be reached yet is not a remote without tmux: keep trying, with the reason logged.
      if (this.stopped) return false;
      this.unreachable(v.message);
      return true;
    }
    if (!v.ok) {
      this.o.log.info({ kind: 'daemon', tmux: this.key, why: v.message }, 'tmux not available: tmux panes are not watched');
      return false;
    }
    if (!tmuxVersionSupported(v.lines[0] ?? '')) {
      this.o.log.warn({ kind: 'daemon', tmux: this.key, version: v.lines[0] }, `tmux older than ${MIN_TMUX_VERSION}: tmux panes are not watched`);
      return false;
    }
    if (this.stopped) return false;
    this.connect();
    return true;
  }

  /** Detach every client; the panes are closed with `why` (their history stays). */
  async stop(why = 'daemon stopping'): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const clients = [...this.clients.values()];
    this.clients.clear();
    for (const t of [...this.panes.values()]) this.closePane(t, why);
    await Promise.all(clients.map((c) => c.close()));
    await this.runner.close?.(this.env);
  }

  // ---- sessions and clients ---------------------------------------------------------------------------------

  /** Lists the server's sessions and attaches a client to each new one (coalesced: one listing at a time). */
  private connect(): void {
    if (this.stopped) return;
    if (this.sessionSync !== 'idle') return void (this.sessionSync = 'again');
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // No socket, no server: not even a process is started to find that out.
    if (!this.runner.present()) return this.down('no server socket');
    this.sessionSync = 'running';
    void this.exec(LIST_SESSIONS_ARGS).then((r) => {
      const again = this.sessionSync === 'again';
      this.sessionSync = 'idle';
      if (this.stopped) return;
      if (!r.ok && this.runner.transportFailed(r.code)) return this.unreachable(r.message);
      this.reachable();
      const sessions = r.ok ? parseSessionRows(r.lines) : [];
      if (!sessions.length) return this.down(r.ok ? 'no sessions' : r.message);
      if (sessions[0]!.life !== this.life) this.newLife(sessions[0]!.life);
      // Oldest activity first: the most recently used session stays the most recent (see the top).
      sessions.sort((a, b) => a.activity - b.activity);
      for (const s of sessions) if (!this.clients.has(s.session)) this.attach(s.session);
      if (again) this.connect();
    });
  }

  private attach(session: string): void {
    const c: ControlClient = new ControlClient(
      { tmux: this.o.tmux ?? 'tmux', socketArgs: this.o.socket.args, runner: this.runner, session, flags: `ignore-size,pause-after=${PAUSE_AFTER_S}`, env: this.env },
      {
        output: (pane, data) => this.output(c, pane, data),
        notification: (name, args) => this.notification(c, name, args),
        attached: (ok, message) => this.attached(c, session, ok, message),
        chunkDone: () => this.backPressure(c),
        exit: (why, code) => this.clientExit(session, c, why, code),
      },
    );
    this.clients.set(session, c);
    // Every pane of the session, reported when its foreground command changes (tmux checks once a second).
    c.command([`refresh-client -B '${SUB_COMMAND}:%*:#{pane_current_command}'`], () => {});
    this.requestPaneSync();
  }

  private attached(c: ControlClient, session: string, ok: boolean, message: string): void {
    if (!ok) return void this.o.log.debug({ kind: 'daemon', tmux: this.key, session, why: message }, 'tmux attach refused');
    this.failures = 0;
    if (!this.up) {
      this.up = true;
      this.o.log.info({ kind: 'daemon', tmux: this.key, socket: this.o.socket.path }, 'tmux server found: watching its panes');
    }
    this.o.log.debug({ kind: 'daemon', tmux: this.key, session, pid: c.pid }, 'tmux session attached');
  }

  private clientExit(session: string, c: ControlClient, why: string, code: number | null): void {
    if (this.clients.get(session) === c) this.clients.delete(session);
    if (this.stopped) return;
    this.o.log.debug({ kind: 'daemon', tmux: this.key, session, why }, 'tmux control client exited');
    // The link to the host failed under an attached client: its panes are marked at once (the keep-alives have
    // already spent their seconds), not after another connection attempt times out.
    if (c.attachedOk === true && this.runner.transportFailed(code)) this.unreachable(this.describe(c.stderr) || `the ssh connection to ${this.key} was lost`);
    for (const t of this.panes.values()) {
      if (t.owner !== c) continue;
      t.owner = null;
      t.state = 'seeding'; // no stream until another session's client (or this one, re-attached) takes it
      if (t.resumeTimer) clearTimeout(t.resumeTimer);
      t.resumeTimer = null;
    }
    // The host is down: the backoff's timer looks again, not every client that goes.
    if (this.unreachableSince !== null) return this.retry();
    // A client that never attached failed (a refused attach, a crash): try again later, not in a loop. One that
    // was attached left because its session ended, the server exited, or someone detached it: look now.
    if (c.attachedOk !== true) this.retry();
    else this.connect();
    this.requestPaneSync();
  }

  /** The server is not there (or has no session): close its panes, look again later. */
  private down(why: string): void {
    if (this.clients.size > 0) return; // clients are attached: the server is plainly up
    if (this.up || this.panes.size) this.o.log.info({ kind: 'daemon', tmux: this.key, why }, 'tmux server gone: its panes are closed until it is back');
    this.up = false;
    for (const t of [...this.panes.values()]) this.closePane(t, 'tmux server gone');
    this.retry();
  }

  /** Another run of the server answers (restarted, perhaps too quickly to be seen gone): its panes are not the old
   * ones even where the numbers match, so every old pane ends and the old clients go. */
  private newLife(life: string): void {
    if (this.life !== null) {
      this.o.log.info({ kind: 'daemon', tmux: this.key, from: this.life, to: life }, 'tmux server restarted: its old panes are closed');
      for (const t of [...this.panes.values()]) this.closePane(t, 'tmux server restarted');
      const old = [...this.clients.values()];
      this.clients.clear();
      for (const c of old) void c.close();
    }
    this.life = life;
  }

  /** The link to the remote host failed (ssh exited 255): its panes stay, marked unreachable with ssh's reason,
   * and the host is tried again with backoff. A restarted server is found by its new life once it answers. */
  private unreachable(reason: string): void {
    if (this.unreachableSince === null) {
      this.unreachableSince = Date.now();
      this.o.log.warn({ kind: 'daemon', tmux: this.key, why: reason, panes: this.panes.size }, 'remote host unreachable: its panes are kept, marked stale, until it is back');
      for (const c of [...this.clients.values()]) void c.close();
      this.clients.clear();
      for (const t of this.panes.values()) this.markStale(t, reason);
    }
    if (reason !== this.lastRefusal) {
      this.lastRefusal = reason;
      if (!this.panes.size) this.o.log.warn({ kind: 'daemon', tmux: this.key, why: reason }, `remote ${this.key}: ${reason}`);
    }
    this.retry();
  }

  private markStale(t: Tracked, reason: string): void {
    t.owner = null;
    t.state = 'seeding';
    t.held = [];
    t.stale = true;
    if (t.resumeTimer) clearTimeout(t.resumeTimer);
    t.resumeTimer = null;
    this.o.sink.unreachable?.(t.id, this.unreachableSince!, reason);
  }

  /** The host answered again: its panes come back as each is repainted (seeded). */
  private reachable(): void {
    if (this.unreachableSince === null && !this.lastRefusal) return;
    if (this.unreachableSince !== null) this.o.log.info({ kind: 'daemon', tmux: this.key, gapS: (Date.now() - this.unreachableSince) / 1000 }, 'remote host reachable again');
    this.unreachableSince = null;
    this.lastRefusal = '';
    this.failures = 0;
  }

  private retry(): void {
    if (this.stopped || this.retryTimer) return;
    const [min, max] = this.runner.host === null ? [RECONNECT_MIN_MS, RECONNECT_MAX_MS] : [REMOTE_RECONNECT_MIN_MS, REMOTE_RECONNECT_MAX_MS];
    const ms = Math.min(max, min * 2 ** Math.min(this.failures++, 16));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, ms);
    this.retryTimer.unref();
  }

  // ---- panes -------------------------------------------------------------------------------------------------

  /** One list-panes, through any attached client (coalesced: a burst of notifications costs one or two). */
  private requestPaneSync(): void {
    if (this.stopped) return;
    if (this.paneSync !== 'idle') return void (this.paneSync = 'again');
    const c = [...this.clients.values()].find((x) => x.alive && x.attachedOk !== false);
    if (!c) return;
    this.paneSync = 'running';
    c.command([LIST_PANES], ([r]) => {
      const again = this.paneSync === 'again';
      this.paneSync = 'idle';
      if (this.stopped) return;
      if (r?.ok) this.reconcile(parsePaneRows(r.lines));
      if (again) this.requestPaneSync();
    });
  }

  private reconcile(rows: PaneRow[]): void {
    const byPane = new Map<string, PaneRow[]>();
    for (const r of rows) {
      const list = byPane.get(r.pane);
      if (list) list.push(r);
      else byPane.set(r.pane, [r]);
    }
    for (const [pane, list] of byPane) {
      const t = this.panes.get(pane);
      const kept = t?.owner?.alive ? list.find((r) => this.clients.get(r.session) === t.owner) : undefined;
      const row = kept ?? list.find((r) => this.clients.get(r.session)?.attachedOk !== false && this.clients.has(r.session));
      if (!row) continue; // its session's client is on its way; the sync after its attach takes the pane
      const owner = this.clients.get(row.session)!;
      if (!t) this.track(row, owner);
      else this.update(t, row, owner);
    }
    for (const t of [...this.panes.values()]) if (!byPane.has(t.pane)) this.closePane(t, 'pane closed');
  }

  /** tmux's id (`%3`) of the pane the daemon knows as `id`, when this watcher follows it. */
  tmuxPane(id: string): string | null {
    for (const t of this.panes.values()) if (t.id === id) return t.pane;
    return null;
  }

  /**
   * Runs tmux commands (argument lists) on this server: through an attached control client as one command list
   * (a failed command ends it, as tmux does), else one `tmux -S` per command, stopping at the first failure.
   */
  async run(commands: string[][]): Promise<Reply[]> {
    const c = [...this.clients.values()].find((x) => x.alive && x.attachedOk === true);
    if (c) return new Promise((resolve) => c.command(commands.map(commandLine), resolve));
    const replies: Reply[] = [];
    for (const argv of commands) {
      const r = replies.some((x) => !x.ok) ? { ok: false, lines: ['not run: an earlier command failed'], message: '' } : await this.exec(argv);
      replies.push({ ok: r.ok, flags: 1, lines: r.ok ? r.lines : [r.message || r.lines.join(' ')] });
    }
    return replies;
  }

  /** Types text into a pane (a supervised task's prompt, a pane action's key) through its session's control client. */
  sendText(id: string, text: string): boolean {
    // One named key (Esc, Ctrl-C, an arrow: a pane action's) by tmux's name; other control keys cannot be given.
    const key = tmuxKeyName(text);
    if (!key && /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return false;
    for (const t of this.panes.values()) {
      if (t.id !== id) continue;
      if (t.dead || !t.owner?.alive) return false;
      t.owner.command([key ? `send-keys -t ${t.pane} ${key}` : `send-keys -t ${t.pane} -l -- ${tmuxQuote(text)}`], () => {});
      return true;
    }
    return false;
  }

  private track(row: PaneRow, owner: ControlClient): void {
    const t: Tracked = {
      pane: row.pane,
      // A remote's panes are `<host>:%N` (the contract of issue 16): its name stands for the server.
      id: this.runner.host !== null ? `${this.runner.host}:${row.pane}` : tmuxPaneKey(this.o.socket, this.life ?? '0-0', row.pane),
      owner,
      state: 'seeding',
      seq: 0,
      seeded: false,
      decoder: new StringDecoder('utf8'),
      held: [],
      cols: row.cols,
      rows: row.rows,
      name: paneName(row),
      command: row.command,
      dead: row.dead,
      resumeTimer: null,
      stale: false,
    };
    this.panes.set(row.pane, t);
    this.o.sink.open({ id: t.id, pane: t.pane, name: t.name, command: t.command, cols: t.cols, rows: t.rows, where: whereOf(row) });
    // The job gate and profile choice need the foreground job from the start, as a wrapper reports it.
    if (t.command) this.o.sink.process(t.id, t.command);
    this.seed(t, owner);
    if (row.dead) this.o.sink.exit(t.id, row.deadStatus);
  }

  private update(t: Tracked, row: PaneRow, owner: ControlClient): void {
    if (t.owner !== owner) this.seed(t, owner); // its client went away: re-read the screen from the new one
    if (t.cols !== row.cols || t.rows !== row.rows) this.resize(t, row.cols, row.rows);
    const name = paneName(row);
    if (name !== t.name) {
      t.name = name;
      this.o.sink.rename(t.id, name);
      this.o.sink.where?.(t.id, whereOf(row)); // the name is session:window.pane: where it is changed with it
    }
    if (row.command !== t.command) this.process(t, row.command);
    if (row.dead && !t.dead) this.o.sink.exit(t.id, row.deadStatus);
    t.dead = row.dead;
  }

  /** Reads the pane's screen through `owner` and feeds it, then follows its output. Every seed also resumes the
   * pane for this client (a no-op unless tmux had paused it). */
  private seed(t: Tracked, owner: ControlClient): void {
    t.owner = owner;
    t.state = 'seeding';
    t.held = [];
    if (t.resumeTimer) clearTimeout(t.resumeTimer);
    t.resumeTimer = null;
    const seq = ++t.seq;
    owner.command([`refresh-client -A '${t.pane}:continue'`, ...seedCommands(t.pane)], (replies) => this.seeded(t, seq, replies));
  }

  private seeded(t: Tracked, seq: number, [, state, screen, normal]: Reply[]): void {
    if (t.seq !== seq || this.panes.get(t.pane) !== t) return;
    // A pane that vanished meanwhile fails here; the sync its notification asks for closes it.
    if (!state?.ok || !screen?.ok) return;
    t.decoder = new StringDecoder('utf8'); // output resumes on a fresh line: nothing half-decoded carries over
    const st = parseSeedState(state.lines[0]);
    // Back from unreachable: the mark goes with this repaint, read before anything else of the pane.
    if (t.stale) {
      t.stale = false;
      this.o.sink.reachable?.(t.id);
    }
    const absorbed = this.o.sink.seed(t.id, seedBytes(st, screen.lines, normal?.ok ? normal.lines : [], !t.seeded));
    t.seeded = true;
    // A subscription report that came before the pane was known is lost: this reading stands in for it.
    if (st.command && st.command !== t.command) this.process(t, st.command);
    if (!absorbed) return void (t.state = 'live');
    t.state = 'absorbing';
    t.held = [];
    void absorbed.then(() => {
      if (t.seq !== seq || t.state !== 'absorbing' || this.panes.get(t.pane) !== t) return;
      t.state = 'live';
      const held = t.held;
      t.held = [];
      const text = held.map((b) => t.decoder.write(b)).join('');
      if (text) this.o.sink.output(t.id, text);
    });
  }

  private resize(t: Tracked, cols: number, rows: number): void {
    t.cols = cols;
    t.rows = rows;
    this.o.sink.resize(t.id, cols, rows);
  }

  private process(t: Tracked, command: string): void {
    t.command = command;
    if (command) this.o.sink.process(t.id, command);
  }

  private closePane(t: Tracked, why: string): void {
    if (t.resumeTimer) clearTimeout(t.resumeTimer);
    this.panes.delete(t.pane);
    this.fed.delete(t);
    this.o.sink.close(t.id, why);
  }

  // ---- the streams -------------------------------------------------------------------------------------------

  private output(c: ControlClient, pane: string, data: Buffer): void {
    const t = this.panes.get(pane);
    if (!t || t.owner !== c) return;
    if (t.state === 'absorbing') return void t.held.push(Buffer.from(data)); // data may be a view of the chunk
    if (t.state !== 'live') return;
    // Bytes, not text: a character split across two %output lines is joined here.
    const text = t.decoder.write(data);
    if (!text) return;
    this.o.sink.output(t.id, text);
    this.fed.add(t);
  }

  /** A pane that cannot take more stops this client's stream until it can: tmux holds the rest and, past
   * PAUSE_AFTER_S, pauses the panes behind it (%pause) instead of growing without bound. */
  private backPressure(c: ControlClient): void {
    if (this.fed.size === 0) return;
    let waits: Array<Promise<void>> | null = null;
    for (const t of this.fed) {
      const w = this.o.sink.backlog(t.id);
      if (w) (waits ??= []).push(w);
    }
    this.fed.clear();
    if (!waits) return;
    c.pauseReading();
    void Promise.all(waits).then(() => c.resumeReading());
  }

  private notification(c: ControlClient, name: string, args: string): void {
    switch (name) {
      case '%layout-change': {
        // `@W LAYOUT VISIBLE-LAYOUT FLAGS`: sizes are applied at once, before the output redrawn for them.
        const [, layout = '', visible = ''] = args.split(' ');
        for (const [pane, size] of layoutPanes(visible || layout)) {
          const t = this.panes.get(pane);
          if (t && t.owner === c && (t.cols !== size.cols || t.rows !== size.rows)) this.resize(t, size.cols, size.rows);
        }
        return this.requestPaneSync();
      }
      case '%window-add':
      case '%window-close':
      case '%unlinked-window-add':
      case '%unlinked-window-close':
      case '%session-renamed':
        return this.requestPaneSync();
      case '%sessions-changed':
        this.connect();
        return this.requestPaneSync();
      case '%session-changed':
        // Its session ended and tmux moved the client to another (detach-on-destroy off): that one has its own.
        if (args.split(' ')[0] !== c.opts.session) void c.close();
        return;
      case '%subscription-changed': {
        // `NAME $S @W IDX %P : VALUE`
        const m = /^(\S+) \S+ \S+ \S+ (%\d+) : (.*)$/.exec(args);
        const t = m && m[1] === SUB_COMMAND ? this.panes.get(m[2]!) : undefined;
        if (t && t.owner === c && m![3] !== t.command) this.process(t, m![3]!);
        return;
      }
      case '%pause': {
        const t = this.panes.get(args.trim());
        if (!t || t.owner !== c || t.state === 'paused') return; // another session's copy stays paused: unread
        t.state = 'paused';
        this.o.log.debug({ kind: 'pane', pane: t.id, event: 'tmux_paused' }, 'tmux paused a pane that outran the daemon');
        t.resumeTimer = setTimeout(() => {
          t.resumeTimer = null;
          if (t.owner === c && c.alive && this.panes.get(t.pane) === t) this.seed(t, c);
        }, RESUME_AFTER_PAUSE_MS);
        return;
      }
      default:
        return;
    }
  }

  // ---- one-shot commands -------------------------------------------------------------------------------------

  private describe(stderr: string): string {
    return (this.o.describeFailure ?? lastLine)(stderr);
  }

  private exec(args: string[], withSocket = true): Promise<{ ok: boolean; code: number | null; lines: string[]; message: string }> {
    const cmd = this.runner.command(args, withSocket);
    return new Promise((resolve) => {
      execFile(cmd.file, cmd.args, { env: this.env, timeout: EXEC_TIMEOUT_MS }, (err, stdout, stderr) => {
        if (!err) return resolve({ ok: true, code: 0, lines: String(stdout).split('\n').filter(Boolean), message: '' });
        const e = err as Error & { code?: number | string; killed?: boolean };
        // A command that hangs past the timeout is a link that does not answer, as ssh's own failure is.
        const code = e.killed ? 255 : typeof e.code === 'number' ? e.code : null;
        resolve({ ok: false, code, lines: [], message: this.describe(String(stderr)) || (e.killed ? `no answer within ${EXEC_TIMEOUT_MS / 1000}s` : err.message) });
      });
    });
  }
}
