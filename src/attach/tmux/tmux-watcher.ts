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
// A pane is seeded from capture-pane and then followed from %output (followed-panes.ts). New, closed and resized panes
// come from notifications (%layout-change, %window-add/close, %sessions-changed, …), each answered by one
// list-panes; the foreground command comes from a subscription (`refresh-client -B`, tmux ≥ 3.2) that tmux
// re-evaluates on its own once a second and reports only when it changes. Idle panes cost the daemon nothing.
//
// tmux does not report the keys the person types: turns in tmux panes are unanchored (see unanchored.test.ts).
import { ControlClient } from './control-client.js';
import { layoutPanes, type Reply } from './control-protocol.js';
import { LIST_PANES, LIST_SESSIONS_ARGS, parsePaneRows, parseSessionRows } from './pane-list.js';
import { OURS_OPTION } from './ours.js';
import { tmuxPaneKey, type TmuxSocket } from './tmux-socket.js';
import { MIN_TMUX_VERSION, tmuxVersionSupported } from './tmux-version.js';
import { localRunner, type TmuxRunner } from './tmux-runner.js';
import { commandLine } from './tmux-quote.js';
import { execTmux, type ExecResult } from './tmux-exec.js';
import { FollowedPanes } from './followed-panes.js';
import type { TmuxLog, TmuxSink, TmuxWatcherEvents } from './tmux-sink.js';
export type { TmuxWatcherEvents } from './tmux-sink.js';

/** Output a control client has not taken for this long pauses that pane for it (tmux `pause-after`), instead of
 * tmux buffering it without bound or holding the pane's program back: a flooding pane cannot stall the daemon,
 * nor the other panes of its session for longer than this. */
export const PAUSE_AFTER_S = 2;
/** First wait before looking for the server again (it went away, or an attach failed); doubled per failure… */
export const RECONNECT_MIN_MS = 250;
/** …up to this: a server that is not running costs one stat() of its socket this often. */
export const RECONNECT_MAX_MS = 10_000;
/** A remote host that cannot be reached is tried again after this long, doubled per failure… */
export const REMOTE_RECONNECT_MIN_MS = 1000;
/** …up to this: a host down for the night costs one ssh attempt a minute. */
export const REMOTE_RECONNECT_MAX_MS = 60_000;
/** Our subscription's name, echoed in each %subscription-changed. */
const SUB_COMMAND = 'termsupervisor-cmd';
/** The subscription to our own programs' pane mark (ours.ts). */
const SUB_OURS = 'termsupervisor-ours';

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
  /** What tmux presence (src/daemon/tmux-presence.ts) follows: where panes are, and what the clients show. */
  events?: TmuxWatcherEvents;
}

/** Notifications that say a client may now show another pane (tmux sends them to every control client). */
const VIEW_NOTIFICATIONS = new Set(['%client-session-changed', '%client-detached', '%session-window-changed', '%window-pane-changed']);

function lastLine(stderr: string): string {
  return stderr.trim().split('\n').pop() ?? '';
}

type Sync = 'idle' | 'running' | 'again';

export class TmuxWatcher {
  private readonly runner: TmuxRunner;
  private readonly env: NodeJS.ProcessEnv;
  /** Since when the remote host has been unreachable (its panes are marked), or null. */
  private unreachableSince: number | null = null;
  /** The last reason logged for a link that would not come up (logged once per reason, not per retry). */
  private lastRefusal = '';
  /** Session id → its control client. */
  private readonly clients = new Map<string, ControlClient>();
  /** The panes followed, each from one client's stream. */
  private readonly panes: FollowedPanes;
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
    // A remote's panes are `<host>:%N` (the contract of issue 16): its name stands for the server.
    this.panes = new FollowedPanes(o, (pane) => (this.runner.host !== null ? `${this.runner.host}:${pane}` : tmuxPaneKey(this.o.socket, this.life ?? '0-0', pane)), () => this.o.events?.topology());
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
    this.panes.closeAll(why);
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
        output: (pane, data) => this.panes.output(c, pane, data),
        notification: (name, args) => this.notification(c, name, args),
        attached: (ok, message) => this.attached(c, session, ok, message),
        chunkDone: () => this.panes.backPressure(c),
        exit: (why, code) => this.clientExit(session, c, why, code),
      },
    );
    this.clients.set(session, c);
    // Every pane of the session, reported when its foreground command changes (tmux checks once a second).
    c.command([`refresh-client -B '${SUB_COMMAND}:%*:#{pane_current_command}'`], () => {});
    // …and when one of our programs takes or leaves a pane (ours.ts): the pane list is read again.
    c.command([`refresh-client -B '${SUB_OURS}:%*:#{${OURS_OPTION}}'`], () => {});
    this.requestPaneSync();
  }

  private attached(c: ControlClient, session: string, ok: boolean, message: string): void {
    if (!ok) return void this.o.log.debug({ kind: 'daemon', tmux: this.key, session, why: message }, 'tmux attach refused');
    this.failures = 0;
    if (!this.up) {
      this.up = true;
      this.o.log.info({ kind: 'daemon', tmux: this.key, socket: this.o.socket.path }, 'tmux server found: watching its panes');
      this.o.events?.connected();
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
    this.panes.orphan(c);
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
    this.panes.closeAll('tmux server gone');
    this.retry();
  }

  /** Another run of the server answers (restarted, perhaps too quickly to be seen gone): its panes are not the old
   * ones even where the numbers match, so every old pane ends and the old clients go. */
  private newLife(life: string): void {
    if (this.life !== null) {
      this.o.log.info({ kind: 'daemon', tmux: this.key, from: this.life, to: life }, 'tmux server restarted: its old panes are closed');
      this.panes.closeAll('tmux server restarted');
      const old = [...this.clients.values()];
      this.clients.clear();
      for (const c of old) void c.close();
      this.o.events?.connected(); // a new server: nothing written to the old one is on it
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
      this.panes.markStale(this.unreachableSince, reason);
    }
    if (reason !== this.lastRefusal) {
      this.lastRefusal = reason;
      if (!this.panes.size) this.o.log.warn({ kind: 'daemon', tmux: this.key, why: reason }, `remote ${this.key}: ${reason}`);
    }
    this.retry();
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

  // ---- the pane list, commands and notifications -------------------------------------------------------------

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
      // A pane one of our own programs holds (ours.ts) is not followed: a `run` pane is the wrapper's, `top` no work.
      if (r?.ok) this.panes.reconcile(parsePaneRows(r.lines).filter((row) => !row.ours), this.clients);
      if (again) this.requestPaneSync();
    });
  }

  /** tmux's id (`%3`) of the pane the daemon knows as `id`, when this watcher follows it. */
  tmuxPane(id: string): string | null {
    return this.panes.tmuxPane(id);
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

  /**
   * Runs each command (argument lists) as a command list of its own, through one attached control client, written
   * together: one failing (a pane gone meanwhile) stops none of the others. Null when no client is attached.
   */
  runEach(commands: string[][]): Promise<Reply[]> | null {
    const c = [...this.clients.values()].find((x) => x.alive && x.attachedOk === true);
    if (!c) return null;
    return Promise.all(commands.map((argv) => new Promise<Reply>((resolve) => c.command([commandLine(argv)], ([r]) => resolve(r!)))));
  }

  /** Lists the panes again (something changed that tmux sends no notification for: a pane option we set). */
  resync(): void {
    this.requestPaneSync();
  }

  /** The followed panes and where they are (window, sessions). */
  places(): Array<{ id: string; pane: string; window: string; sessions: string[] }> {
    return this.panes.places();
  }

  /** Types text into a pane (a supervised task's prompt, a pane action's key) through its session's control client. */
  sendText(id: string, text: string): boolean {
    return this.panes.sendText(id, text);
  }

  private notification(c: ControlClient, name: string, args: string): void {
    if (VIEW_NOTIFICATIONS.has(name)) return this.o.events?.views();
    switch (name) {
      case '%layout-change': {
        // `@W LAYOUT VISIBLE-LAYOUT FLAGS`: sizes are applied at once, before the output redrawn for them.
        const [, layout = '', visible = ''] = args.split(' ');
        this.panes.layout(c, layoutPanes(visible || layout));
        return this.requestPaneSync();
      }
      case '%window-add':
      case '%window-close':
      case '%unlinked-window-add':
      case '%unlinked-window-close':
      case '%session-renamed':
      case '%window-renamed':
        return this.requestPaneSync();
      case '%sessions-changed':
        this.connect();
        this.o.events?.views();
        return this.requestPaneSync();
      case '%session-changed':
        // Its session ended and tmux moved the client to another (detach-on-destroy off): that one has its own.
        if (args.split(' ')[0] !== c.opts.session) void c.close();
        return;
      case '%subscription-changed': {
        // `NAME $S @W IDX %P : VALUE`
        const m = /^(\S+) \S+ \S+ \S+ (%\d+) : (.*)$/.exec(args);
        if (m && m[1] === SUB_COMMAND) this.panes.commandReported(c, m[2]!, m[3]!);
        if (m && m[1] === SUB_OURS) this.requestPaneSync();
        return;
      }
      case '%pause':
        return this.panes.paused(c, args.trim());
      default:
        return;
    }
  }

  // ---- one-shot commands -------------------------------------------------------------------------------------

  private describe(stderr: string): string {
    return (this.o.describeFailure ?? lastLine)(stderr);
  }

  private exec(args: string[], withSocket = true): Promise<ExecResult> {
    return execTmux(this.runner, args, withSocket, this.env, (stderr) => this.describe(stderr));
  }
}
