// A pane's history as segments of a horizontal bar: each transition starts a segment of its `to` state that lasts
// until the next one (the last runs to `end`, now for an open pane). Pure.
import type { MachineState, TransitionView } from '../../src/web/api-types.js';

export interface Segment {
  state: MachineState;
  stalled: boolean;
  start: number;
  end: number;
  /** Share of the bar, 0..1. */
  frac: number;
}

export function segments(transitions: readonly TransitionView[], end: number): Segment[] {
  const sorted = [...transitions].sort((a, b) => a.at - b.at);
  if (sorted.length === 0) return [];
  const t0 = sorted[0]!.at;
  const span = Math.max(1, end - t0);
  const out: Segment[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const tr = sorted[i]!;
    const until = Math.max(tr.at, i + 1 < sorted.length ? sorted[i + 1]!.at : end);
    const prev = out.at(-1);
    // A stall mark keeps the state: it splits the segment only to show where the stall began.
    if (prev && prev.state === tr.to && prev.stalled === tr.stalled) prev.end = until;
    else out.push({ state: tr.to, stalled: tr.stalled, start: tr.at, end: until, frac: 0 });
  }
  for (const s of out) s.frac = (s.end - s.start) / span;
  return out;
}
