// The panes of one tmux server, each read from one control client's stream. A pane is seeded from capture-pane
// (its visible screen and cursor, the normal screen behind a full-screen program) and then followed from %output.
// The capture runs in the owning client's own stream: output before its reply is already on the captured screen
// and is dropped; output after it is fed. A pane tmux paused for its client is resumed and re-read after a breather.
import { StringDecoder } from 'node:string_decoder';
import type { ControlClient } from './control-client.js';
import type { Reply } from './control-protocol.js';
import type { PaneWhereView } from '../../web/api-types.js';
import { paneName, parseSeedState, seedBytes, seedCommands, type PaneRow } from './pane-list.js';
import { tmuxKeyName } from './tmux-keys.js';
import { tmuxQuote } from './tmux-quote.js';
import type { TmuxLog, TmuxSink } from './tmux-sink.js';

/** A paused pane is resumed and re-read this long after the pause: a flood gets a breather rather than a loop
 * of pause, capture, pause. */
export const RESUME_AFTER_PAUSE_MS = 500;

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
  /** The pane's first process (pane_pid). */
  pid: number | null;
  dead: boolean;
  resumeTimer: NodeJS.Timeout | null;
  /** Marked unreachable: the next seed (a repaint from capture-pane) is what brings it back. */
  stale: boolean;
  /** Its window (`@2`) and the sessions that window is linked into, as the last list-panes said. */
  window: string;
  sessions: string[];
  /** `session:window index`, as last told to the sink. */
  where: string;
}

function whereOf(row: PaneRow): PaneWhereView {
  return { session: row.sessionName, window: String(row.windowIndex), pane: row.pane };
}

export class FollowedPanes {
  private readonly panes = new Map<string, Tracked>();
  /** Panes fed while one stdout chunk was handled (back-pressure is checked once per chunk). */
  private readonly fed = new Set<Tracked>();

  /** `paneId` names a newly seen tmux pane (`%3`) as the daemon knows it. */
  constructor(
    private readonly o: { sink: TmuxSink; log: TmuxLog },
    private readonly paneId: (pane: string) => string,
    /** After each list-panes answer was applied: which window and sessions hold each pane may have changed. */
    private readonly topology: () => void = () => {},
  ) {}

  get size(): number {
    return this.panes.size;
  }

  /** A list-panes answer: new panes are tracked, known ones updated, vanished ones closed. `clients` maps each
   * session id to its control client. */
  reconcile(rows: PaneRow[], clients: ReadonlyMap<string, ControlClient>): void {
    const byPane = new Map<string, PaneRow[]>();
    const inWindow = new Map<string, Set<string>>();
    for (const r of rows) {
      const list = byPane.get(r.pane);
      if (list) list.push(r);
      else byPane.set(r.pane, [r]);
      if (!inWindow.has(r.window)) inWindow.set(r.window, new Set());
      inWindow.get(r.window)!.add(r.pane);
    }
    for (const [pane, list] of byPane) {
      const t = this.panes.get(pane);
      const kept = t?.owner?.alive ? list.find((r) => clients.get(r.session) === t.owner) : undefined;
      const row = kept ?? list.find((r) => clients.get(r.session)?.attachedOk !== false && clients.has(r.session));
      if (!row) continue; // its session's client is on its way; the sync after its attach takes the pane
      const owner = clients.get(row.session)!;
      const shared = inWindow.get(row.window)?.size ?? 1;
      if (!t) this.track(row, owner, shared);
      else this.update(t, row, owner, shared);
      const tracked = this.panes.get(pane)!;
      tracked.window = row.window;
      tracked.sessions = [...new Set(list.map((r) => r.session))];
    }
    for (const t of [...this.panes.values()]) if (!byPane.has(t.pane)) this.closePane(t, 'pane closed');
    this.topology();
  }

  /** Each followed pane: the daemon's id, tmux's id, its window and the sessions showing that window. */
  places(): Array<{ id: string; pane: string; window: string; sessions: string[] }> {
    return [...this.panes.values()].filter((t) => t.window).map((t) => ({ id: t.id, pane: t.pane, window: t.window, sessions: t.sessions }));
  }

  /** tmux's id (`%3`) of the pane the daemon knows as `id`, when it is followed. */
  tmuxPane(id: string): string | null {
    for (const t of this.panes.values()) if (t.id === id) return t.pane;
    return null;
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

  /** Every pane ends (the server went, restarted, or the watcher stops). */
  closeAll(why: string): void {
    for (const t of [...this.panes.values()]) this.closePane(t, why);
  }

  /** `c` exited: its panes have no stream until another session's client (or this one, re-attached) takes them. */
  orphan(c: ControlClient): void {
    for (const t of this.panes.values()) {
      if (t.owner !== c) continue;
      t.owner = null;
      t.state = 'seeding';
      if (t.resumeTimer) clearTimeout(t.resumeTimer);
      t.resumeTimer = null;
    }
  }

  /** The host is unreachable (since `since`): every pane stays, marked stale, until its next seed. */
  markStale(since: number, reason: string): void {
    for (const t of this.panes.values()) {
      t.owner = null;
      t.state = 'seeding';
      t.held = [];
      t.stale = true;
      if (t.resumeTimer) clearTimeout(t.resumeTimer);
      t.resumeTimer = null;
      this.o.sink.unreachable?.(t.id, since, reason);
    }
  }

  private track(row: PaneRow, owner: ControlClient, panesInWindow: number): void {
    const t: Tracked = {
      pane: row.pane,
      id: this.paneId(row.pane),
      owner,
      state: 'seeding',
      seq: 0,
      seeded: false,
      decoder: new StringDecoder('utf8'),
      held: [],
      cols: row.cols,
      rows: row.rows,
      name: paneName(row, panesInWindow),
      command: row.command,
      pid: row.pid,
      dead: row.dead,
      resumeTimer: null,
      stale: false,
      window: row.window,
      sessions: [row.session],
      where: `${row.sessionName}:${row.windowIndex}`,
    };
    this.panes.set(row.pane, t);
    this.o.sink.open({ id: t.id, pane: t.pane, name: t.name, command: t.command, cols: t.cols, rows: t.rows, where: whereOf(row) });
    // The job gate and profile choice need the foreground job from the start, as a wrapper reports it.
    if (t.command) this.o.sink.process(t.id, t.command, t.pid ?? undefined);
    this.seed(t, owner);
    if (row.dead) this.o.sink.exit(t.id, row.deadStatus);
  }

  private update(t: Tracked, row: PaneRow, owner: ControlClient, panesInWindow: number): void {
    if (t.owner !== owner) this.seed(t, owner); // its client went away: re-read the screen from the new one
    if (t.cols !== row.cols || t.rows !== row.rows) this.resize(t, row.cols, row.rows);
    const name = paneName(row, panesInWindow);
    if (name !== t.name) {
      t.name = name;
      this.o.sink.rename(t.id, name);
    }
    // Where a jump finds it: session and window index (a named window's pane keeps its name when it moves).
    const where = `${row.sessionName}:${row.windowIndex}`;
    if (where !== t.where) {
      t.where = where;
      this.o.sink.where?.(t.id, whereOf(row));
    }
    t.pid = row.pid; // respawn-pane starts another first process
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
    if (command) this.o.sink.process(t.id, command, t.pid ?? undefined);
  }

  private closePane(t: Tracked, why: string): void {
    if (t.resumeTimer) clearTimeout(t.resumeTimer);
    this.panes.delete(t.pane);
    this.fed.delete(t);
    this.o.sink.close(t.id, why);
  }

  // ---- the streams -------------------------------------------------------------------------------------------

  output(c: ControlClient, pane: string, data: Buffer): void {
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
  backPressure(c: ControlClient): void {
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

  /** %layout-change: sizes are applied at once, before the output redrawn for them. */
  layout(c: ControlClient, sizes: Map<string, { cols: number; rows: number }>): void {
    for (const [pane, size] of sizes) {
      const t = this.panes.get(pane);
      if (t && t.owner === c && (t.cols !== size.cols || t.rows !== size.rows)) this.resize(t, size.cols, size.rows);
    }
  }

  /** Our subscription reports the pane's foreground command. */
  commandReported(c: ControlClient, pane: string, command: string): void {
    const t = this.panes.get(pane);
    if (t && t.owner === c && command !== t.command) this.process(t, command);
  }

  /** %pause: tmux paused the pane for `c`; it is resumed and re-read after RESUME_AFTER_PAUSE_MS. */
  paused(c: ControlClient, pane: string): void {
    const t = this.panes.get(pane);
    if (!t || t.owner !== c || t.state === 'paused') return; // another session's copy stays paused: unread
    t.state = 'paused';
    this.o.log.debug({ kind: 'pane', pane: t.id, event: 'tmux_paused' }, 'tmux paused a pane that outran the daemon');
    t.resumeTimer = setTimeout(() => {
      t.resumeTimer = null;
      if (t.owner === c && c.alive && this.panes.get(t.pane) === t) this.seed(t, c);
    }, RESUME_AFTER_PAUSE_MS);
  }
}
