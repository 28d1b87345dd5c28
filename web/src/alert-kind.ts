// Which transitions the person is alerted to. Pure (unit-tested without a browser).
import type { TransitionView } from '../../src/web/api-types.js';

export type AlertKind = 'WAITING_APPROVAL' | 'FAILED' | 'stalled' | 'DONE';
export const ALERT_KINDS: AlertKind[] = ['WAITING_APPROVAL', 'FAILED', 'stalled', 'DONE'];

/** What a transition means for the person, if anything. A stall mark keeps the state (from === to). */
export function alertFor(tr: Pick<TransitionView, 'from' | 'to' | 'stalled'>): AlertKind | null {
  if (tr.from === tr.to) return tr.stalled ? 'stalled' : null;
  if (tr.to === 'WAITING_APPROVAL' || tr.to === 'FAILED' || tr.to === 'DONE') return tr.to;
  return null;
}
