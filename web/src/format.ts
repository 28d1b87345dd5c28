// How states and times read on the page. Pure: shared by the cards, the detail view and the unit tests.
import type { MachineState, PaneView, SignalSource, Tier } from '../../src/web/api-types.js';

export const STATES: MachineState[] = ['IDLE', 'RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL', 'DONE', 'FAILED'];

/** An icon per state, so state never rests on colour alone (the state's name is always shown beside it). */
export const STATE_ICON: Record<MachineState, string> = {
  IDLE: '○',
  RUNNING: '◐',
  LONG_RUNNING: '◕',
  WAITING_APPROVAL: '?',
  DONE: '✓',
  FAILED: '✗',
};
export const STALL_ICON = '⚠';

/** "4s", "3m 07s", "2h 05m", "3d 4h": coarse enough to read at a glance. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** "tier 2 · profile", or just the source when no tier decided it (timer, user). */
export function why(tier: Tier | 0, source: SignalSource): string {
  return tier ? `tier ${tier} · ${source}` : source;
}

/** Clock time of an epoch-ms stamp, to the second. */
export function clock(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour12: false });
}

/** What the card says about the pane's state, in words. */
export function stateText(p: Pick<PaneView, 'state' | 'stalled' | 'alive'>): string {
  return `${p.state}${p.stalled ? ', stalled' : ''}${p.alive ? '' : ', closed'}`;
}
