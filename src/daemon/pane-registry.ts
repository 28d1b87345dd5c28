// The daemon's panes: live ones (a LivePane each) and closed ones known from history. Implements what the web
// layer asks of the daemon; every transition is fanned out to the store, the live feed, the log and the notifier
// by transition-publisher.ts, and analyzer counters reach the store through counter-sync.ts.
import type { WebSocket } from 'ws';
import type { AgentChoice, Config } from '../config/config.js';
import type { HistoryStore } from '../store/history-store.js';
import type { AttachKind, PaneRecord, TurnRecord } from '../store/records.js';
import type { ActionOrigin, ActionView, FocusResult, HistoryHealth, MachineState, PaneView, PaneWhereView, StatsView, TransitionView, WsMessage } from '../web/api-types.js';
import type { DaemonApi, HookReply, LinkKind, PaneActionApi, TaskApi } from '../web/daemon-api.js';
import type { PeerPanes } from './peer-panes.js';
import type { HookBody } from '../hooks/hook-body.js';
import { matchHookPane } from '../hooks/match-hook.js';
import type { NotifyEvent } from '../notify/types.js';
import { StoreError } from '../store/store-error.js';
import { LivePane, paneView, type UntimedEvent } from './live-pane.js';
import { renderMetrics } from './metrics.js';
import { logIgnoredMark, logSignal, paneLogger, type Logger } from './logger.js';
import { LogBudget } from './log-budget.js';
import { FaultLog } from './fault-log.js';
import { focusAction, focusPane, type FocusDoor } from './pane-focus.js';
import { TransitionPublisher } from './transition-publisher.js';
import { CounterSync } from './counter-sync.js';
import type { NotifyFacts } from './notify-facts.js';
import type { NotifyHealthView } from '../web/api-types.js';

export interface RegistryOptions {
  cfg: Config;
  store: HistoryStore;
  version: string;
  log: Logger;
  notify?: (ev: NotifyEvent) => void;
  /** Every published transition, for the notifier (transition-publisher.ts). */
  noteState?: (paneId: string, to: string, rule: string, program: string) => void;
  notifyFacts?: NotifyFacts;
  /** The notification channels' health (GET /api/notify, /api/stats, doctor, the board). */
  notifyHealth?: () => NotifyHealthView;
  /** A pane was closed (its notification timers can go). */
  onClose?: (id: string) => void;
  /** Hands an accepted link socket to its protocol (the daemon wires it). */
  onLink?: (kind: LinkKind, ws: WebSocket, remote: string) => void;
  /** Types text into a live pane through its source, if the source can (the iTerm2 bridge); false otherwise. */
  sendText?: (id: string, text: string) => boolean;
  /** Why keys may not be typed into a pane (a remote that does not allow it), or null. */
  typingRefusal?: (id: string) => string | null;
  /** How each source shows a pane to the person ("jump"); a `run` pane needs none (it says where it runs). */
  focusDoors?: Partial<Record<AttachKind, FocusDoor>>;
  /** Sources that keep a pane's name themselves (tmux: a pane option); resolves false when it could not. */
  nameDoors?: Partial<Record<AttachKind, (id: string, name: string) => Promise<boolean>>>;
}

export interface OpenPane {
  id: string;
  name: string;
  attach: PaneRecord['attach'];
  command: string;
  cols: number;
  rows: number;
  agent: AgentChoice;
  /** The nonce on the marks of a shell started with integration (a `run` pane's): its marks without it are forged. */
  markNonce?: string | null;
  /** Where it runs, as its source says (see PaneWhereView). */
  where?: PaneWhereView;
}

/** Codex threads remembered at most (a thread of a closed pane is forgotten with it, or when this many are newer). */
const MAX_THREADS = 1000;
/** A closing pane's queued events are read within this long (a terminal is parsing megabytes): then it closes. */
const CLOSE_READ_MAX_MS = 2000;

export class PaneRegistry implements DaemonApi {
  readonly version: string;
  /** Supervised tasks, when the daemon runs them (it sets this once its TaskManager exists). */
  tasks?: TaskApi;
  /** Answer, reply, interrupt and their history (the daemon sets it: src/daemon/pane-actions.ts). */
  actions?: PaneActionApi;
  /** Panes of peer daemons, shown with this daemon's own (the daemon sets it when peers are configured). */
  peers?: PeerPanes;
  private readonly live = new Map<string, LivePane>();
  /** One child logger per live pane (pane id, name and program on every line). */
  private readonly logs = new Map<string, Logger>();
  private readonly started = Date.now();
  /** Codex thread id -> the pane its hooks land on (see src/hooks/match-hook.ts). */
  private readonly threads = new Map<string, string>();
  /** Exceptions caught in panes' pipelines: logged (repeats thinned) and counted for /metrics. */
  private readonly faults = new FaultLog();
  /** The store first, then the live feed, the log and the notifier. */
  private readonly publisher: TransitionPublisher;
  private readonly counters: CounterSync;

  constructor(private readonly opts: RegistryOptions) {
    this.version = opts.version;
    this.publisher = new TransitionPublisher(opts, this.live, this.logs);
    this.counters = new CounterSync(opts, this.live);
  }

  /** Attach a pane (a new one, or one coming back with the same id: its history continues). */
  open(p: OpenPane): LivePane {
    if (this.live.has(p.id)) this.close(p.id, 'replaced');
    // History unavailable (a damaged page): the pane is watched all the same, as a new one.
    const previous = this.stored(() => this.opts.store.pane(p.id), undefined) ?? null;
    const pane = new LivePane({
      ...p,
      cfg: this.opts.cfg,
      previous,
      hooks: {
        transition: (lp, rec, raw) => this.publisher.transition(lp, rec, raw),
        turn: (lp, turn) => this.publisher.turn(lp, turn),
        // A closed pane's terminal may still finish parsing what was queued: it must not show as live again.
        screen: (lp) => void (this.live.get(lp.id) === lp && this.emit({ type: 'pane', pane: lp.view() })),
      },
    });
    pane.where = p.where;
    this.live.set(p.id, pane);
    this.counters.track(p.id);
    const plog = paneLogger(this.opts.log, { id: p.id, name: p.name, program: pane.record.program });
    this.logs.set(p.id, plog);
    const signalLines = new LogBudget();
    pane.monitor.onSignal((s) => {
      const v = signalLines.take(s.t);
      if (v === 'first-skipped') plog.warn({ kind: 'pane', event: 'log_flood' }, 'signals faster than anyone can read: not logged until the pane calms');
      if (v !== 'write') return;
      const skipped = signalLines.resumed();
      if (skipped) plog.warn({ kind: 'pane', event: 'log_flood_end', skipped }, `${skipped} signal lines not logged`);
      logSignal(plog, s);
    });
    pane.monitor.onFault((f) => {
      this.faults.record(pane.id, plog, f);
      // The card shows "analysis error" at once, not at the next screen read.
      if (this.live.get(pane.id) === pane) this.emit({ type: 'pane', pane: pane.view() });
    });
    pane.monitor.onIgnoredMark((m) => logIgnoredMark(plog, m));
    this.opts.store.upsertPane(pane.record);
    plog.info({ kind: 'pane', attach: p.attach, event: previous ? 'reattached' : 'attached', command: p.command }, 'pane attached');
    this.emit({ type: 'pane', pane: pane.view() });
    return pane;
  }

  /** Feed an event to a live pane (ignored for an unknown or closed one). */
  feed(id: string, ev: UntimedEvent): void {
    this.live.get(id)?.handle(ev);
  }

  /** The pane's source went away: keep its history, show it as closed. */
  close(id: string, why: string): void {
    const pane = this.live.get(id);
    if (!pane) return;
    this.counters.sync(id);
    this.live.delete(id);
    this.counters.forget(id);
    for (const [thread, p] of this.threads) if (p === id) this.threads.delete(thread);
    (this.logs.get(id) ?? this.opts.log).info({ kind: 'pane', event: 'closed', why }, 'pane closed');
    this.logs.delete(id);
    this.opts.onClose?.(id);
    const cut = pane.close();
    if (cut) this.opts.store.saveTurn(cut);
    this.opts.store.upsertPane(pane.record);
    // The state shown so far: a transition still being committed updates the closed card once published.
    this.emit({ type: 'pane', pane: paneView({ ...pane.record, ...pane.view() }, [], false) });
  }

  /**
   * The source went away right after its last events (a wrapper's exit, then its link closing): they are read and
   * judged first, so a one-shot program's exit status is the closed pane's last state, not lost with the pane.
   */
  async closeWhenRead(id: string, why: string): Promise<void> {
    const pane = this.live.get(id);
    if (!pane) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([pane.monitor.flush(), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_READ_MAX_MS)))]);
    clearTimeout(timer);
    // A wrapper that came back meanwhile has a new pane under the same id: that one stays.
    if (this.live.get(id) === pane) this.close(id, why);
  }

  /** Type `text` into a live pane as if the person had (supervised runs). False when its source cannot. */
  sendText(id: string, text: string): boolean {
    // The one door keys take into a pane: a remote whose config does not allow typing is refused here, whoever asks.
    if (this.typingRefusal(id) !== null) return false;
    return this.live.has(id) && (this.opts.sendText?.(id, text) ?? false);
  }

  /** Why keys may not be typed into this pane, or null (the API answers 403 with it). */
  typingRefusal(id: string): string | null {
    return this.opts.typingRefusal?.(id) ?? null;
  }

  /** The pane's host cannot be reached: it keeps its last state, shown stale, and time alone decides nothing for
   * it; the gap starts in its history as a row of its own (`host.unreachable`, the reason as its line). */
  markUnreachable(id: string, since: number, reason: string): void {
    const pane = this.live.get(id);
    if (!pane || pane.unreachable) return;
    pane.unreachable = { since, reason };
    pane.monitor.hold(true);
    (this.logs.get(id) ?? this.opts.log).info({ kind: 'pane', event: 'unreachable', why: reason }, 'pane host unreachable');
    this.publisher.gap(pane, since, 'host.unreachable', reason);
  }

  /** Its host answers again (called right before the repaint that is read first): the gap ends in history. */
  markReachable(id: string): void {
    const pane = this.live.get(id);
    if (!pane?.unreachable) return;
    const { since } = pane.unreachable;
    pane.unreachable = null;
    pane.monitor.hold(false);
    const now = Date.now();
    (this.logs.get(id) ?? this.opts.log).info({ kind: 'pane', event: 'reachable', gapS: (now - since) / 1000 }, 'pane host reachable again');
    this.publisher.gap(pane, now, 'host.reachable', `unreachable for ${Math.round((now - since) / 1000)}s since ${new Date(since).toISOString()}`);
  }

  /** Its source says the pane is somewhere else now (a tmux window moved, an iTerm2 session's tty). */
  setWhere(id: string, where: PaneWhereView): void {
    const pane = this.live.get(id);
    if (pane) pane.where = { ...pane.where, ...where };
  }

  livePane(id: string): LivePane | undefined {
    return this.live.get(id);
  }

  get liveCount(): number {
    return this.live.size;
  }

  closeAll(why: string): void {
    for (const id of [...this.live.keys()]) this.close(id, why);
    this.counters.stop();
  }

  // ---- DaemonApi ----------------------------------------------------------------------------------------

  panes(): PaneView[] {
    const out: PaneView[] = [];
    for (const p of this.live.values()) out.push(p.view());
    out.push(...(this.peers?.views() ?? [])); // peer daemons' panes, as their daemons show them
    // Live panes are shown whatever the history's health; closed ones come from history when it can be read.
    for (const r of this.stored(() => this.opts.store.panes(), [])) if (!this.live.has(r.id) && !this.peers?.view(r.id)) out.push(paneView(r, [], false));
    return out;
  }

  pane(id: string): PaneView | null {
    const p = this.live.get(id);
    if (p) return p.view();
    const mirrored = this.peers?.view(id); // a peer daemon's pane
    if (mirrored) return mirrored;
    const r = this.stored(() => this.opts.store.pane(id), undefined);
    return r ? paneView(r, [], false) : null;
  }

  /** The screen as shown anywhere (the API, the dashboard): secrets masked on the logical line, as the edge is. */
  screen(id: string): string | null {
    return this.live.get(id)?.shownScreenText() ?? null;
  }

  /** The screen as the terminal has it, for what reads it but never shows it (a task's criteria). */
  rawScreen(id: string): string | null {
    return this.live.get(id)?.screenText() ?? null;
  }

  transitions(id: string, limit: number): TransitionView[] | null {
    if (!this.known(id)) return null;
    return this.opts.store.transitions(id, limit);
  }

  turns(id: string, limit: number): TurnRecord[] | null {
    if (!this.known(id)) return null;
    return this.opts.store.turns(id, limit);
  }

  ack(id: string, by: string): PaneView | null {
    const p = this.live.get(id);
    if (p) {
      p.ack(by);
      // The ack's transition is committed (and published) now, so the reply shows it.
      this.opts.store.flush();
      return p.view();
    }
    return this.pane(id);
  }

  async focus(id: string, origin: ActionOrigin, from: string): Promise<FocusResult | null> {
    const before = this.live.get(id)?.view();
    if (!before) return null;
    const outcome = await focusPane(before, this.opts.focusDoors ?? {});
    const pane = this.pane(id) ?? before;
    const action = focusAction(pane, outcome, origin, from, Date.now());
    this.recordAction(action);
    return { action, pane, focused: outcome.focused, how: outcome.how };
  }

  async rename(id: string, name: string): Promise<PaneView | string | null> {
    const p = this.live.get(id);
    if (!p) return null;
    const door = this.opts.nameDoors?.[p.record.attach];
    if (door) {
      // The source keeps it (and says it back with its next listing, '' then giving the source's own name).
      if (!(await door(id, name))) return `the pane's ${p.record.attach} server did not take the name`;
      if (name) this.renamed(id, name);
      return this.live.get(id)?.view() ?? null;
    }
    if (!name) return 'a name is needed';
    this.renamed(id, name);
    return p.view();
  }

  /** The pane's name changed (named here, or by its source: a tmux window renamed): kept, and shown at once. */
  renamed(id: string, name: string): void {
    const p = this.live.get(id);
    if (!p || p.record.name === name) return;
    (this.logs.get(id) ?? this.opts.log).info({ kind: 'pane', event: 'renamed', from: p.record.name, name }, 'pane renamed');
    p.record.name = name;
    this.opts.store.upsertPane(p.record);
    this.emit({ type: 'pane', pane: p.view() });
  }

  /** A jump kept in the actions history like every action, and published once committed (as transitions are). */
  private recordAction(a: ActionView): void {
    (this.logs.get(a.paneId) ?? this.opts.log).info({ kind: 'pane', event: 'action', action: a.kind, origin: a.origin, from: a.from, detail: a.detail }, `action ${a.kind}`);
    this.opts.store.addAction(a, () => this.emit({ type: 'action', action: a }));
    this.opts.store.flush(); // committed now, so the reply and the history show it
  }

  stats(): StatsView {
    this.counters.sync();
    const byState: Partial<Record<MachineState, number>> = {};
    const all = this.panes();
    for (const p of all) if (p.alive) byState[p.state] = (byState[p.state] ?? 0) + 1;
    const notify = this.opts.notifyHealth?.();
    return { counters: this.opts.store.counters(), panes: { total: all.length, alive: this.live.size, byState }, uptimeS: Math.round((Date.now() - this.started) / 1000), ...(notify ? { notify } : {}) };
  }

  history(): HistoryHealth {
    return this.opts.store.health();
  }

  notifyHealth(): NotifyHealthView | null {
    return this.opts.notifyHealth?.() ?? null;
  }

  metrics(): string {
    this.counters.sync();
    const views = [...this.live.values()].map((p) => p.view());
    const counters = this.stored(() => this.opts.store.counters(), {});
    return renderMetrics({ panes: views, counters, transitionsByTo: this.publisher.byTo, storeDropped: this.opts.store.dropped, history: this.opts.store.health(), analysisErrors: this.faults.counts }) + (this.peers?.metrics() ?? '');
  }

  subscribe(listener: (m: WsMessage) => void): () => void {
    return this.publisher.subscribe(listener);
  }

  acceptLink(kind: LinkKind, socket: WebSocket, remote: string): void {
    if (!this.opts.onLink) return void socket.close(1011, 'no link handler');
    this.opts.onLink(kind, socket, remote);
  }

  /** An agent's hook event: to the pane it belongs to (tier 1, source `hook`), or counted as unmatched. */
  hook(body: HookBody): HookReply {
    const facts = [...this.live.values()].map((p) => ({ id: p.id, program: p.monitor.analyzer.currentProgram.program, state: p.record.state, since: p.record.since, prompt: p.prompt }));
    const m = matchHookPane(body, facts, this.threads, Date.now(), this.opts.cfg.daemon.hook_recent_turn_s * 1000, (id) => this.live.get(id)?.cwd());
    const pane = m.pane === null ? undefined : this.live.get(m.pane);
    if (!pane) {
      this.opts.store.addCounters({ 'hook.unmatched': 1 });
      this.opts.log.debug({ kind: 'hook', agent: body.agent, event: body.event, pane: body.pane, session: body.session, how: m.how }, 'hook matched no pane');
      return { matched: false };
    }
    // A Codex thread stays with the pane it was first matched to (its later hooks need no running turn to land).
    if (body.agent === 'codex' && body.session) this.bindThread(body.session, pane.id);
    this.opts.store.addCounters({ 'hook.matched': 1 });
    this.logs.get(pane.id)?.debug({ kind: 'hook', agent: body.agent, event: body.event, detail: body.detail, session: body.session, how: m.how }, 'hook');
    pane.monitor.hook(pane.t, { kind: 'hook', agent: body.agent, event: body.event, detail: body.detail, session: body.session, input: body.input }, body.message);
    return { matched: true, pane: pane.id };
  }

  // ---- internals ----------------------------------------------------------------------------------------

  private bindThread(thread: string, pane: string): void {
    this.threads.delete(thread);
    this.threads.set(thread, pane);
    // Oldest first out: a long-lived daemon meets many threads.
    if (this.threads.size > MAX_THREADS) this.threads.delete(this.threads.keys().next().value!);
  }

  private known(id: string): boolean {
    return this.live.has(id) || this.opts.store.pane(id) !== undefined;
  }

  /** A history read that may fail (history degraded): what to show without it. */
  private stored<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch (e) {
      if (e instanceof StoreError) return fallback;
      throw e;
    }
  }

  /** A supervised task's end or pause, through the same notification policy and channels as the panes'. */
  notifyTask(ev: NotifyEvent): void {
    this.opts.notify?.(ev);
  }

  /** A message for every live-feed subscriber (supervised tasks report through here). */
  broadcast(m: WsMessage): void {
    this.emit(m);
  }

  private emit(m: WsMessage): void {
    this.publisher.emit(m);
  }
}
