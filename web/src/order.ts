// The order of the cards: open panes that need the person first, then the rest, closed panes last; within a
// group the pane in its state longest comes first, so a card that changes state moves down and the top is calm.
import type { PaneView } from '../../src/web/api-types.js';

function group(p: PaneView): number {
  if (!p.alive) return 2;
  return p.needsYou ? 0 : 1;
}

export function comparePanes(a: PaneView, b: PaneView): number {
  return group(a) - group(b) || a.since - b.since || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Whether a change from `before` to `after` can move the card. */
export function orderKeyChanged(before: PaneView | undefined, after: PaneView): boolean {
  return !before || group(before) !== group(after) || before.since !== after.since || before.name !== after.name;
}
