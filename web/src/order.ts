// The order of the cards. Open panes that need the person come first, by urgency: a question waiting
// (WAITING_APPROVAL), then a failure, then a stall, then a finished turn; newest first within each, so the thing
// that just happened is on top. The other open panes follow, the one in its state longest first (a calm list).
// Closed panes live in their own section (`isClosedSection`), newest first there too.
import type { PaneView } from '../../src/web/api-types.js';

/** 0..3: how urgent a pane that needs the person is; 4: any other open pane; 5: closed. */
export function urgency(p: Pick<PaneView, 'alive' | 'needsYou' | 'state' | 'stalled'>): number {
  if (!p.alive) return 5;
  if (!p.needsYou) return 4;
  if (p.state === 'WAITING_APPROVAL') return 0;
  if (p.state === 'FAILED') return 1;
  if (p.stalled) return 2;
  return 3; // DONE
}

export function isClosedSection(p: Pick<PaneView, 'alive'>): boolean {
  return !p.alive;
}

export function comparePanes(a: PaneView, b: PaneView): number {
  const ua = urgency(a);
  const d = ua - urgency(b);
  if (d) return d;
  // needing the person or closed: newest first; the rest: longest in its state first
  const since = ua === 4 ? a.since - b.since : b.since - a.since;
  return since || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Whether a change from `before` to `after` can move the card. */
export function orderKeyChanged(before: PaneView | undefined, after: PaneView): boolean {
  return !before || urgency(before) !== urgency(after) || before.since !== after.since || before.name !== after.name;
}
