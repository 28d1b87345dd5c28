// tmux presence (issue 29): the panes' states shown where tmux users look, and "looking is seeing".
//
// Shown: the daemon sets user options on the person's tmux server as states change (presence-marks.ts says which),
// through the watcher's control client; their status-right and window-status-format show them with `#{…}` formats
// (tmux/termsupervisor.conf), so nothing polls. Writes go only for values that changed, gathered for
// PRESENCE_BATCH_MS into one write of command lines: a burst of transitions costs one write, an idle server none.
//
// Seen: a DONE or FAILED pane that a person's client shows (the active pane of the active window of an attached
// client that is not in control mode, whose terminal has focus as far as tmux knows) for LOOK_DWELL_MS is
// acknowledged (`by: focus`), as the iTerm2 bridge does when a session gets focus. A WAITING_APPROVAL pane is not:
// it waits for its answer. What the clients show is asked (one list-clients) when tmux says it may have changed
// (%client-session-changed, %session-window-changed, %window-pane-changed, %client-detached, %sessions-changed),
// never on a timer; focus, which comes with no notification, is asked once more when a look has lasted.
import type { Reply } from '../attach/tmux/control-protocol.js';
import { markOf, optionNames, presenceOptions, setOptionArgs, type Mark, type OptionTable, type PaneStateLike } from '../attach/tmux/presence-marks.js';
import type { TmuxLog } from '../attach/tmux/tmux-sink.js';

/** Changes within this long are written together: 50 panes ending at once cost one write, and a mark still shows
 * well inside the half second a person notices. */
export const PRESENCE_BATCH_MS = 50;
/** A DONE or FAILED pane shown this long has been seen: a client passing over it on its way elsewhere (prefix n n n)
 * does not acknowledge it. */
export const LOOK_DWELL_MS = 1000;
/** Clearing the options when the daemon stops waits at most this long for tmux (a wedged server must not hold stop). */
const CLEAR_MAX_MS = 1000;
/** Field separator of the list-clients format (as in pane-list.ts). */
const SEP = '\x1f';
const CLIENTS_FORMAT = ['#{client_name}', '#{client_control_mode}', '#{pane_id}', '#{client_flags}', '#{version}'].join(SEP);
/** From this tmux on a client's flags say whether its terminal has focus (`focused`: it starts so, and loses it
 * when the terminal reports focus-out, with focus-events on). Older ones say nothing: every client counts as looking. */
const FOCUS_FLAG_SINCE = 3.3;

/** What presence needs of a tmux server (a TmuxWatcher). */
export interface PresenceServer {
  places(): Array<{ id: string; pane: string; window: string; sessions: string[] }>;
  runEach(commands: string[][]): Promise<Reply[]> | null;
  run(commands: string[][]): Promise<Reply[]>;
}

export interface PresenceHost {
  /** A pane's state as the daemon shows it, or null when it is not live. */
  state(id: string): PaneStateLike | null;
  /** The person has seen the pane. */
  ack(id: string): void;
  log: TmuxLog;
}

export class TmuxPresence {
  /** Each followed pane's mark, by the daemon's id. */
  private readonly marks = new Map<string, Mark | null>();
  /** tmux pane id ↔ daemon id, from the last topology. */
  private idOf = new Map<string, string>();
  private paneOf = new Map<string, string>();
  /** The option values last written, by target; a target absent here is unknown (written in full next time). */
  private written: OptionTable = new Map();
  private flushTimer: NodeJS.Timeout | null = null;
  private writing = false;
  private again = false;
  /** tmux panes a person's client shows now. */
  private shown = new Set<string>();
  private readonly lookTimers = new Map<string, NodeJS.Timeout>();
  private viewsAsked: 'idle' | 'running' | 'again' = 'idle';
  private stopped = false;

  constructor(private readonly server: PresenceServer, private readonly host: PresenceHost) {}

  /** Whether this server follows the pane. */
  follows(id: string): boolean {
    return this.paneOf.has(id);
  }

  // ---- from the watcher -----------------------------------------------------------------------------------------

  topology(): void {
    this.idOf = new Map();
    this.paneOf = new Map();
    for (const p of this.server.places()) {
      this.idOf.set(p.pane, p.id);
      this.paneOf.set(p.id, p.pane);
      if (!this.marks.has(p.id)) this.marks.set(p.id, this.markNow(p.id));
    }
    for (const id of [...this.marks.keys()]) if (!this.paneOf.has(id)) this.marks.delete(id);
    this.schedule();
  }

  /** The server was found (new, back, or restarted): every option is written again, once a client is attached. */
  connected(): void {
    this.written = new Map();
    this.schedule();
    this.views();
  }

  /** What the clients show may have changed: asked once (a burst of notifications costs one or two asks). */
  views(): void {
    if (this.stopped) return;
    if (this.viewsAsked !== 'idle') return void (this.viewsAsked = 'again');
    this.viewsAsked = 'running';
    void this.server.run([['list-clients', '-F', CLIENTS_FORMAT]]).then(([r]) => {
      const again = this.viewsAsked === 'again';
      this.viewsAsked = 'idle';
      if (this.stopped) return;
      if (r?.ok) this.shownNow(personPanes(r.lines));
      if (again) this.views();
    });
  }

  // ---- from the registry ---------------------------------------------------------------------------------------

  /** A pane's view changed (any change: only its mark matters here). */
  paneChanged(id: string, view: PaneStateLike): void {
    if (!this.paneOf.has(id)) return;
    const mark = markOf(view);
    if (this.marks.get(id) === mark) return;
    this.marks.set(id, mark);
    this.schedule();
    const pane = this.paneOf.get(id)!;
    if (this.shown.has(pane)) this.look(pane);
  }

  /** Every option this daemon set is removed (it stops: marks nobody keeps current must not stay). */
  async clear(): Promise<void> {
    this.stopped = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    for (const t of this.lookTimers.values()) clearTimeout(t);
    this.lookTimers.clear();
    const cmds: string[][] = [];
    for (const [target, values] of this.written) for (const name of values.keys()) cmds.push(setOptionArgs(target, name, null));
    this.written = new Map();
    const sent = cmds.length ? this.server.runEach(cmds) : null;
    if (!sent) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([sent, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLEAR_MAX_MS)))]);
    clearTimeout(timer);
  }

  // ---- writing -------------------------------------------------------------------------------------------------

  private markNow(id: string): Mark | null {
    const s = this.host.state(id);
    return s ? markOf(s) : null;
  }

  private schedule(): void {
    if (this.stopped || this.flushTimer) return;
    if (this.writing) return void (this.again = true);
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, PRESENCE_BATCH_MS);
  }

  private flush(): void {
    const desired = presenceOptions(this.server.places(), (pane) => {
      const id = this.idOf.get(pane);
      return id === undefined ? null : (this.marks.get(id) ?? null);
    });
    const cmds = diffOptions(this.written, desired);
    if (!cmds.length) return;
    const sent = this.server.runEach(cmds);
    if (!sent) {
      this.written = new Map(); // no client to write through: all of it again once one attaches (connected())
      return;
    }
    this.writing = true;
    void sent.then((replies) => {
      this.writing = false;
      const failed = replies.filter((r) => !r.ok).length;
      if (failed) this.host.log.debug({ kind: 'daemon', event: 'tmux_presence', failed, sent: cmds.length }, 'tmux refused some presence options (panes gone meanwhile)');
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    });
  }

  // ---- looking is seeing ---------------------------------------------------------------------------------------

  private shownNow(panes: Set<string>): void {
    const before = this.shown;
    this.shown = panes;
    for (const [pane, t] of this.lookTimers) {
      if (panes.has(pane)) continue;
      clearTimeout(t);
      this.lookTimers.delete(pane);
    }
    for (const pane of panes) if (!before.has(pane)) this.look(pane);
  }

  /** A shown pane: once it has been shown LOOK_DWELL_MS while DONE or FAILED, it is acknowledged. */
  private look(pane: string): void {
    const id = this.idOf.get(pane);
    if (id === undefined || this.lookTimers.has(pane) || !seeable(this.marks.get(id) ?? null)) return;
    const t = setTimeout(() => {
      this.lookTimers.delete(pane);
      if (this.stopped || !this.shown.has(pane)) return;
      // Focus changes come with no notification: asked now, once, whether a client that shows it has focus.
      void this.server.run([['list-clients', '-F', CLIENTS_FORMAT]]).then(([r]) => {
        const now = this.idOf.get(pane);
        if (this.stopped || now === undefined || !r?.ok || !personPanes(r.lines, true).has(pane)) return;
        // Its state now, not the one that started the look: a new turn meanwhile is not what the person saw.
        if (seeable(this.markNow(now))) this.host.ack(now);
      });
    }, LOOK_DWELL_MS);
    t.unref();
    this.lookTimers.set(pane, t);
  }
}

/** Marks a look acknowledges: a turn's end. A question waits for its answer; a stall for its pane to move. */
function seeable(m: Mark | null): boolean {
  return m === 'done' || m === 'failed';
}

/** The panes shown by clients a person looks at (not control mode: ours, or an iTerm2 -CC's plumbing); with
 * `focused`, only by those whose terminal has focus, where tmux can say (FOCUS_FLAG_SINCE). */
export function personPanes(lines: string[], focused = false): Set<string> {
  const out = new Set<string>();
  for (const l of lines) {
    const [, control = '', pane = '', flags = '', version = ''] = l.split(SEP);
    if (control === '1' || !pane.startsWith('%')) continue;
    const knowsFocus = (parseFloat(version.replace(/^next-/, '')) || 0) >= FOCUS_FLAG_SINCE;
    if (focused && knowsFocus && !flags.split(',').includes('focused')) continue;
    out.add(pane);
  }
  return out;
}

/** The set-option commands that take `written` to `desired` (and update `written` to it). A target unknown so far
 * has every option written (set or unset): a previous daemon's marks are not left behind. */
export function diffOptions(written: OptionTable, desired: OptionTable): string[][] {
  const cmds: string[][] = [];
  for (const [target, want] of desired) {
    const had = written.get(target);
    for (const name of optionNames(target)) {
      const v = want.get(name) ?? null;
      const was = had ? (had.get(name) ?? null) : undefined;
      if (v !== was) cmds.push(setOptionArgs(target, name, v));
    }
    written.set(target, new Map(want));
  }
  for (const [target, had] of [...written]) {
    if (desired.has(target)) continue;
    written.delete(target);
    // A window or session that no longer holds a followed pane (its panes moved, closed): its marks go. A pane that
    // is gone takes its options with it.
    if (target[0] !== 'p') for (const name of had.keys()) cmds.push(setOptionArgs(target, name, null));
  }
  return cmds;
}
