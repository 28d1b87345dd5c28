// The daemon's notification wiring: the channels notify.* asks for, the Notifier with its persisted question
// ledger (notify.sqlite beside the history) and its urgent notices kept until delivered (the history database's
// notify_pending: what a previous daemon left is resumed at start), the facts panes lend their notifications, and
// what the daemon tells about it all (GET /api/notify, /api/stats, the log). Kept out of daemon.ts so each stays
// one job.
import type { Config } from '../config/config.js';
import { AskedLedger, askedLedgerPath } from '../notify/asked-ledger.js';
import { channelsFromConfig } from '../notify/channels.js';
import { describeError } from '../notify/delivery.js';
import { Notifier } from '../notify/notifier.js';
import type { NotifyEvent } from '../notify/types.js';
import type { HistoryStore } from '../store/history-store.js';
import type { NotifyHealthView } from '../web/api-types.js';
import type { Logger } from './logger.js';
import { NotifyFacts } from './notify-facts.js';

export interface DaemonNotifyOptions {
  cfg: Config;
  store: HistoryStore;
  log: Logger;
  dbPath: string;
  /** Bytes for a `run` pane's own terminal (the bell channel). */
  paneWrite: (id: string, bytes: string) => void;
  /** "Jump to pane" clicked on a desktop notification. */
  focus: (paneId: string) => void;
  /** Whether a task drives the pane (its turns' DONEs are the task's business). */
  driving: (paneId: string) => boolean;
  /** A pane's state now, null when it is not attached. */
  paneState: (paneId: string) => string | null;
}

export class DaemonNotify {
  readonly notifier: Notifier;
  readonly facts: NotifyFacts;
  private readonly unavailable: Array<{ name: string; why: string }> = [];
  /** The dashboard's address (notify.dashboard_url, else the daemon's own once it listens). */
  private base = '';

  constructor(private readonly o: DaemonNotifyOptions) {
    const n = o.cfg.notify;
    const channels = channelsFromConfig(n, {
      paneWrite: o.paneWrite,
      desktop: { onAction: (paneId) => o.focus(paneId) },
      onUnavailable: (channel, why) => {
        this.unavailable.push({ name: channel, why });
        o.log.warn({ kind: 'notify', channel, why }, 'notification channel unavailable');
      },
    });
    const ledger = new AskedLedger(askedLedgerPath(o.dbPath), (e) => o.log.warn({ kind: 'notify', err: describeError(e) }, 'notified-questions ledger unavailable: kept in memory only'));
    this.notifier = new Notifier(n, channels, {
      ledger,
      onCount: (key) => o.store.addCounters({ [key]: 1 }),
      onError: (err, channel, note, final) => o.log.warn({ kind: 'notify', channel, pane: note.paneId, state: note.kind, final: final === true, err: describeError(err) }, final ? 'notification failed' : 'notification try failed (will retry)'),
      onLater: (ev, reason) => o.log.info({ kind: 'notify', pane: ev.paneId, state: ev.kind, sent: reason === 'sent', reason, held: true }, 'held notification'),
      link: (paneId) => (this.base ? `${this.base}/${paneId ? `#pane=${encodeURIComponent(paneId)}` : ''}` : undefined),
      pending: o.store.notifyPending,
      paneState: o.paneState,
      onResume: (ev, outcome, now) =>
        o.log.info({ kind: 'notify', pane: ev.paneId, name: ev.paneName, state: ev.kind, sent: outcome === 'resumed', reason: outcome, resumed: true, stateNow: now }, outcome === 'resumed' ? 'notification kept across a restart: delivered' : 'notification kept across a restart: dropped, no longer news'),
    });
    const left = o.store.notifyPending.load(Date.now());
    if (left.length) o.log.info({ kind: 'notify', event: 'resuming', count: left.length }, 'notifications kept from before the restart: waiting for their panes');
    this.notifier.resume(left);
    const patterns = o.cfg.patterns as unknown as Record<string, { interrupted?: RegExp[]; footer_interrupted?: RegExp } | undefined>;
    this.facts = new NotifyFacts(
      () => o.cfg.thresholds.stall_after_s,
      (program) => {
        const p = patterns[program];
        return [...(p?.interrupted ?? []), ...(p?.footer_interrupted ? [p.footer_interrupted] : [])];
      },
    );
  }

  /** The daemon listens at `url`: links in notifications point there unless notify.dashboard_url says otherwise. */
  listening(url: string): void {
    this.base = (this.o.cfg.notify.dashboard_url || url).replace(/\/+$/, '');
  }

  handle(ev: NotifyEvent): void {
    // A pane driven by a task finishes many turns on its way: the task's own end is what the person hears.
    if (ev.kind === 'DONE' && this.o.driving(ev.paneId)) return void this.o.store.addCounters({ 'notify.suppressed.supervised': 1 });
    const r = this.notifier.handle(ev);
    this.o.log.info({ kind: 'notify', pane: ev.paneId, name: ev.paneName, program: ev.program, state: ev.kind, rule: ev.rule, sent: r.sent, reason: r.reason }, 'notification');
  }

  health(): NotifyHealthView {
    const h = this.notifier.health();
    return { channels: h.channels, unavailable: [...this.unavailable], held: h.held };
  }

  forget(paneId: string): void {
    this.notifier.forget(paneId);
    this.facts.forget(paneId);
  }

  /** The daemon begins to stop: panes closing now are not answered questions, and what is pending stays kept. */
  stopping(): void {
    this.notifier.stopping();
  }

  async close(): Promise<void> {
    await this.notifier.settled();
    this.notifier.close();
  }
}
