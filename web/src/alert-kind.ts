// Which transitions the person is alerted to. Pure (unit-tested without a browser).
import type { TransitionView } from '../../src/web/api-types.js';

export type PaneAlertKind = 'WAITING_APPROVAL' | 'FAILED' | 'stalled' | 'DONE';
/** A supervised task that needs the person (paused, failed, exhausted) or finished: see task-model.ts. */
export type AlertKind = PaneAlertKind | 'task_needs' | 'task_finished';
export const ALERT_KINDS: AlertKind[] = ['WAITING_APPROVAL', 'FAILED', 'stalled', 'DONE', 'task_needs', 'task_finished'];

/** What a transition means for the person, if anything. A stall mark keeps the state (from === to). */
export function alertFor(tr: Pick<TransitionView, 'from' | 'to' | 'stalled'>): PaneAlertKind | null {
  if (tr.from === tr.to) return tr.stalled ? 'stalled' : null;
  if (tr.to === 'WAITING_APPROVAL' || tr.to === 'FAILED' || tr.to === 'DONE') return tr.to;
  return null;
}
