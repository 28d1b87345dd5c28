// How states and times read on the page. Pure: shared by the cards, the detail view and the unit tests.
import type { PaneView, SignalSource, Tier } from '../../src/web/api-types.js';

export { duration, EXIT_CODE_UNKNOWN, STALL_ICON, STATE_ICON, STATES } from '../../src/web/state-words.js';

/** "tier 2 · profile", or just the source when no tier decided it (timer, user). */
export function why(tier: Tier | 0, source: SignalSource): string {
  return tier ? `tier ${tier} · ${source}` : source;
}

/** The clock's formatter, built once: `toLocaleTimeString` builds one per call, and a card update asks for the time
 * (its tooltip) every time (issue 26: at 100 panes that was most of an update's cost on a phone). The same fields as
 * `toLocaleTimeString(undefined, { hour12: false })`. */
let clockFormat: Intl.DateTimeFormat | null = null;

/** Clock time of an epoch-ms stamp, to the second. */
export function clock(at: number): string {
  clockFormat ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: false });
  return clockFormat.format(at);
}

/** What the card says about the pane's state, in words. */
export function stateText(p: Pick<PaneView, 'state' | 'stalled' | 'alive'>): string {
  return `${p.state}${p.stalled ? ', stalled' : ''}${p.alive ? '' : ', closed'}`;
}
