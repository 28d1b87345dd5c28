// Publish after commit: a pane's transition goes to the store first; the live feed, the log, the notifier and the
// pane's view hear of it once its row is committed (the store commits a waited-on transition within
// daemon.publish_flush_s). A client is never shown what a crash could take back. While history is degraded (the
// disk refuses writes) it is published at once, marked unsaved: the person is still told.
import type { HistoryStore } from '../store/history-store.js';
import type { TransitionRecord, TurnRecord } from '../store/records.js';
import type { Transition } from '../state/pane-machine.js';
import type { WsMessage } from '../web/api-types.js';
import { transitionEvent, type NotifyEvent, type NotifyKind } from '../notify/types.js';
import { paneView, type LivePane, type PaneState } from './live-pane.js';
import type { NotifyFacts } from './notify-facts.js';
import { redactText } from './redact.js';
import { isNews } from '../state/needs-you.js';
import { logTransition, type Logger } from './logger.js';

/** The registry's options (read when used, as the registry itself does). */
export interface PublisherOptions {
  store: HistoryStore;
  notify?: (ev: NotifyEvent) => void;
  /** Every published transition, for the notifier's memory of where each pane is (answered, at rest, …). */
  noteState?: (paneId: string, to: string, rule: string, program: string) => void;
  /** What the pane knows beyond the transition, put in its notification. */
  notifyFacts?: NotifyFacts;
}

export class TransitionPublisher {
  /** Transitions published, by the state they went to (/metrics). */
  readonly byTo = new Map<string, number>();
  private readonly listeners = new Set<(m: WsMessage) => void>();

  /** `live` and `logs` are the registry's own maps: a pane no longer live is shown closed. */
  constructor(
    private readonly opts: PublisherOptions,
    private readonly live: ReadonlyMap<string, LivePane>,
    private readonly logs: ReadonlyMap<string, Logger>,
  ) {}

  subscribe(listener: (m: WsMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A message for every live-feed subscriber. */
  emit(m: WsMessage): void {
    for (const l of this.listeners) l(m);
  }

  transition(pane: LivePane, rec: TransitionRecord, raw: Transition): void {
    const shown = pane.stateNow();
    // Taken now: a later transition may come before this one is committed.
    const news = isNews(pane.lastAttention);
    this.opts.store.addTransition(rec, (saved) => this.publish(pane, rec, raw, shown, saved, news));
    this.opts.store.upsertPane(pane.record);
  }

  /** A history row for the link's gap: the state does not change (from = to), the row says why nothing was seen. */
  gap(pane: LivePane, at: number, rule: string, line: string): void {
    const r = pane.record;
    const rec: TransitionRecord = { paneId: pane.id, at, from: r.state, to: r.state, tier: 0, source: 'process', rule, line: redactText(line), stalled: r.stalled, startedAt: r.startedAt, startedAtKept: true };
    this.opts.store.addTransition(rec, (saved) => {
      if (this.live.get(pane.id) === pane) this.emit({ type: 'pane', pane: pane.view() });
      this.emit(saved ? { type: 'transition', transition: rec } : { type: 'transition', transition: rec, unsaved: true });
    });
    this.opts.store.upsertPane(pane.record);
    this.emit({ type: 'pane', pane: pane.view() });
  }

  turn(pane: LivePane, turn: TurnRecord): void {
    this.opts.store.saveTurn(turn);
    this.logs.get(pane.id)?.debug({ kind: 'pane', event: 'turn', result: turn.result, durationS: turn.durationS, prompt: turn.prompt }, 'turn');
  }

  private publish(pane: LivePane, rec: TransitionRecord, raw: Transition, shown: PaneState, saved: boolean, news: boolean): void {
    pane.show(shown);
    this.byTo.set(rec.to, (this.byTo.get(rec.to) ?? 0) + 1);
    const plog = this.logs.get(pane.id);
    if (plog) logTransition(plog, rec);
    // The pane's new snapshot first: the feed sends a transition together with the snapshot waiting for its pane
    // (ws-hub flushPane), which must be this one, not the one from before it (a card RUNNING beside a DONE event).
    const live = this.live.get(pane.id) === pane;
    this.emit({ type: 'pane', pane: live ? pane.view() : paneView({ ...pane.record, ...shown }, [], false) });
    this.emit(saved ? { type: 'transition', transition: rec } : { type: 'transition', transition: rec, unsaved: true });
    const kind = notifyKind(raw);
    // The facts and the event are read before the notifier hears of the state (it compares with the last rest).
    const facts = kind && live ? this.opts.notifyFacts?.facts(pane, rec) : undefined;
    this.opts.notifyFacts?.note(pane.id, rec);
    // Only what needs the person (src/state/needs-you.ts) is news: not a program starting up, their own interrupt,
    // or a reconnection's replayed screen. The notifier hears of the rest too, to say why it stayed quiet.
    if (kind && this.opts.notify) {
      const ev = transitionEvent(pane.id, pane.record.name, pane.record.program, kind, rec);
      const told = facts ? { ...ev, facts } : ev;
      this.opts.notify(news ? told : { ...told, notNews: pane.lastAttention.why });
    }
    this.opts.noteState?.(pane.id, rec.to, rec.rule, pane.record.program);
  }
}

/** The transitions a person may want to hear about. */
function notifyKind(tr: Transition): NotifyKind | null {
  if (tr.stalled && tr.from === tr.to) return 'STALLED';
  if (tr.from === tr.to) return null;
  if (tr.to === 'WAITING_APPROVAL' || tr.to === 'FAILED' || tr.to === 'DONE') return tr.to;
  return null;
}
