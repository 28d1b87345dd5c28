// The daemon's panes: live ones (a LivePane each) and closed ones known from history. Implements what the web
// layer asks of the daemon, and fans every transition out to the store, the live feed, the log and the notifier.
import type { WebSocket } from 'ws';
import type { AgentChoice, Config } from '../config/config.js';
import type { HistoryStore } from '../store/history-store.js';
import type { AttachKind, Counters, PaneRecord, TransitionRecord, TurnRecord } from '../store/records.js';
import type { Transition } from '../state/pane-machine.js';
import type { ActionOrigin, ActionView, FocusResult, HistoryHealth, MachineState, PaneView, PaneWhereView, StatsView, TransitionView, WsMessage } from '../web/api-types.js';
import type { DaemonApi, HookReply, LinkKind, PaneActionApi, TaskApi } from '../web/daemon-api.js';
import type { PeerPanes } from './peer-panes.js';
import type { HookBody } from '../hooks/hook-body.js';
import { matchHookPane } from '../hooks/match-hook.js';
import type { NotifyEvent, NotifyKind } from '../notify/types.js';
import { StoreError } from '../store/store-error.js';
import { LivePane, paneView, type PaneState, type UntimedEvent } from './live-pane.js';
import { renderMetrics } from './metrics.js';
import { redactText } from './redact.js';
import { logIgnoredMark, logSignal, logTransition, paneLogger, type Logger } from './logger.js';
import { FaultLog } from './fault-log.js';
import { focusAction, focusPane, type FocusDoor } from './pane-focus.js';


export interface RegistryOptions {
  cfg: Config;
  store: HistoryStore;
  version: string;
  log: Logger;
  notify?: (ev: NotifyEvent) => void;
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
/** Counters of analyzers are folded into the store this often (ms): stats survive restarts, cheaply. */
const COUNTER_SYNC_MS = 5000;

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
  private readonly listeners = new Set<(m: WsMessage) => void>();
  /** Analyzer counters already written to the store, per live pane. */
  private readonly counted = new Map<string, Map<string, number>>();
  private readonly started = Date.now();
  private readonly transitionsByTo = new Map<string, number>();
  /** Codex thread id -> the pane its hooks land on (see src/hooks/match-hook.ts). */
  private readonly threads = new Map<string, string>();
  /** Exceptions caught in panes' pipelines: logged (repeats thinned) and counted for /metrics. */
  private readonly faults = new FaultLog();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly opts: RegistryOptions) {
    this.version = opts.version;
    this.timer = setInterval(() => this.syncCounters(), COUNTER_SYNC_MS);
    this.timer.unref();
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
        transition: (lp, rec, raw) => this.onTransition(lp, rec, raw),
        turn: (lp, turn) => this.onTurn(lp, turn),
        // A closed pane's terminal may still finish parsing what was queued: it must not show as live again.
        screen: (lp) => void (this.live.get(lp.id) === lp && this.emit({ type: 'pane', pane: lp.view() })),
      },
    });
    pane.where = p.where;
    this.live.set(p.id, pane);
    this.counted.set(p.id, new Map());
    const plog = paneLogger(this.opts.log, { id: p.id, name: p.name, program: pane.record.program });
    this.logs.set(p.id, plog);
    pane.monitor.onSignal((s) => logSignal(plog, s));
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
    this.syncCounters(id);
    this.live.delete(id);
    this.counted.delete(id);
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
    this.gapRow(pane, since, 'host.unreachable', reason);
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
    this.gapRow(pane, now, 'host.reachable', `unreachable for ${Math.round((now - since) / 1000)}s since ${new Date(since).toISOString()}`);
  }

  /** A history row for the link's gap: the state does not change (from = to), the row says why nothing was seen. */
  private gapRow(pane: LivePane, at: number, rule: string, line: string): void {
    const r = pane.record;
    const rec: TransitionRecord = { paneId: pane.id, at, from: r.state, to: r.state, tier: 0, source: 'process', rule, line: redactText(line), stalled: r.stalled, startedAt: r.startedAt, startedAtKept: true };
    this.opts.store.addTransition(rec, (saved) => {
      this.emit(saved ? { type: 'transition', transition: rec } : { type: 'transition', transition: rec, unsaved: true });
      if (this.live.get(pane.id) === pane) this.emit({ type: 'pane', pane: pane.view() });
    });
    this.opts.store.upsertPane(pane.record);
    this.emit({ type: 'pane', pane: pane.view() });
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
    clearInterval(this.timer);
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

  /** The screen as shown anywhere (the API, the dashboard): secrets masked line by line, as the edge is. */
  screen(id: string): string | null {
    return this.rawScreen(id)?.split('\n').map(redactText).join('\n') ?? null;
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

  /** A jump kept in the actions history like every action, and published once committed (as transitions are). */
  private recordAction(a: ActionView): void {
    (this.logs.get(a.paneId) ?? this.opts.log).info({ kind: 'pane', event: 'action', action: a.kind, origin: a.origin, from: a.from, detail: a.detail }, `action ${a.kind}`);
    this.opts.store.addAction(a, () => this.emit({ type: 'action', action: a }));
    this.opts.store.flush(); // committed now, so the reply and the history show it
  }

  stats(): StatsView {
    this.syncCounters();
    const byState: Partial<Record<MachineState, number>> = {};
    const all = this.panes();
    for (const p of all) if (p.alive) byState[p.state] = (byState[p.state] ?? 0) + 1;
    return { counters: this.opts.store.counters(), panes: { total: all.length, alive: this.live.size, byState }, uptimeS: Math.round((Date.now() - this.started) / 1000) };
  }

  history(): HistoryHealth {
    return this.opts.store.health();
  }

  metrics(): string {
    this.syncCounters();
    const views = [...this.live.values()].map((p) => p.view());
    const counters = this.stored(() => this.opts.store.counters(), {});
    return renderMetrics({ panes: views, counters, transitionsByTo: this.transitionsByTo, storeDropped: this.opts.store.dropped, history: this.opts.store.health(), analysisErrors: this.faults.counts }) + (this.peers?.metrics() ?? '');
  }

  subscribe(listener: (m: WsMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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

  /**
   * Publish after commit: the transition goes to the store first; the live feed, the log, the notifier and the
   * pane's view hear of it once its row is committed (the store commits a waited-on transition within
   * daemon.publish_flush_s). A client is never shown what a crash could take back. While history is degraded
   * (the disk refuses writes) it is published at once, marked unsaved: the person is still told.
   */
  private onTransition(pane: LivePane, rec: TransitionRecord, raw: Transition): void {
    const shown = pane.stateNow();
    this.opts.store.addTransition(rec, (saved) => this.publish(pane, rec, raw, shown, saved));
    this.opts.store.upsertPane(pane.record);
  }

  private publish(pane: LivePane, rec: TransitionRecord, raw: Transition, shown: PaneState, saved: boolean): void {
    pane.show(shown);
    this.transitionsByTo.set(rec.to, (this.transitionsByTo.get(rec.to) ?? 0) + 1);
    const plog = this.logs.get(pane.id);
    if (plog) logTransition(plog, rec);
    this.emit(saved ? { type: 'transition', transition: rec } : { type: 'transition', transition: rec, unsaved: true });
    const live = this.live.get(pane.id) === pane;
    this.emit({ type: 'pane', pane: live ? pane.view() : paneView({ ...pane.record, ...shown }, [], false) });
    const kind = notifyKind(raw);
    if (kind && this.opts.notify) {
      this.opts.notify({
        paneId: pane.id,
        paneName: pane.record.name,
        program: pane.record.program,
        kind,
        at: rec.at,
        tier: rec.tier,
        rule: rec.rule,
        line: rec.line,
        turnDurationS: kind === 'DONE' || kind === 'FAILED' ? (rec.at - rec.startedAt) / 1000 : null,
      });
    }
  }

  private onTurn(pane: LivePane, turn: TurnRecord): void {
    this.opts.store.saveTurn(turn);
    this.logs.get(pane.id)?.debug({ kind: 'pane', event: 'turn', result: turn.result, durationS: turn.durationS, prompt: turn.prompt }, 'turn');
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
    for (const l of this.listeners) l(m);
  }

  /** Writes the growth of each live pane's analyzer counters since the last sync. */
  private syncCounters(only?: string): void {
    const delta: Counters = {};
    let any = false;
    for (const [id, pane] of this.live) {
      if (only && id !== only) continue;
      const seen = this.counted.get(id)!;
      for (const [k, v] of pane.monitor.analyzer.counters) {
        const d = v - (seen.get(k) ?? 0);
        if (d > 0) {
          delta[k] = (delta[k] ?? 0) + d;
          seen.set(k, v);
          any = true;
        }
      }
    }
    if (any) this.opts.store.addCounters(delta);
  }
}

/** The transitions a person may want to hear about. */
function notifyKind(tr: Transition): NotifyKind | null {
  if (tr.stalled && tr.from === tr.to) return 'STALLED';
  if (tr.from === tr.to) return null;
  if (tr.to === 'WAITING_APPROVAL' || tr.to === 'FAILED' || tr.to === 'DONE') return tr.to;
  return null;
}
