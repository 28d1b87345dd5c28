// The stats view: pane counts and the signal counters (fired by tier and rule, suppressed by reason), refreshed
// every few seconds while it is shown.
import type { StatsView } from '../../src/web/api-types.js';
import { api, isAuthError, READ_ONLY } from './api.js';
import { el, table } from './dom.js';
import { duration, STATES } from './format.js';
import { groupCounters } from './stats-model.js';

const REFRESH_MS = 5000;

export class Stats {
  private timer = 0;

  constructor(private readonly root: HTMLElement) {}

  show(): void {
    this.root.hidden = false;
    void this.load();
    clearInterval(this.timer);
    this.timer = window.setInterval(() => void this.load(), REFRESH_MS);
  }

  hide(): void {
    this.root.hidden = true;
    clearInterval(this.timer);
  }

  private async load(): Promise<void> {
    try {
      this.render(await api.stats());
    } catch (e) {
      this.root.replaceChildren(el('p', 'error', isAuthError(e) ? READ_ONLY : `could not load the stats: ${(e as Error).message}`));
    }
  }

  private render(s: StatsView): void {
    const g = groupCounters(s.counters);
    const summary = el('p', 'stats-summary', `${s.panes.total} panes, ${s.panes.alive} attached · daemon up ${duration(s.uptimeS * 1000)}`);
    const byState = STATES.filter((st) => s.panes.byState[st]).map((st) => [st, s.panes.byState[st]!]);
    const tiers = el('div', 'stats-row');
    tiers.append(
      table('Panes by state', ['state', 'panes'], byState),
      table('Signals fired, by tier', ['tier', 'count'], g.firedByTier.map((r) => [r.tier, r.count])),
      table('Signals suppressed, by tier', ['tier', 'count'], g.suppressedByTier.map((r) => [r.tier, r.count])),
    );
    const parts: Node[] = [
      summary,
      tiers,
      table('Signals fired, by rule', ['tier', 'signal', 'rule', 'count'], g.fired.map((r) => [r.tier, r.signal, r.what, r.count])),
      table('Signals suppressed, by reason', ['tier', 'signal', 'reason', 'count'], g.suppressed.map((r) => [r.tier, r.signal, r.what, r.count])),
    ];
    if (g.other.length) parts.push(table('Other counters', ['counter', 'count'], g.other.map((r) => [r.key, r.count])));
    this.root.replaceChildren(...parts);
  }
}
