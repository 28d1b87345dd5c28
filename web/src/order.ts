// The order of the cards. Open panes that need the person come first, by urgency: a question waiting
// (WAITING_APPROVAL), then a failure, then a stall, then a finished turn; newest first within each, so the thing
// that just happened is on top. The other open panes follow in a fixed order, by name (a calm list: a busy pane going
// RUNNING → IDLE → RUNNING ten times a second must not move its card, or the board never holds still).
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
  // needing the person or closed: newest first; the rest: by name only
  const since = ua === 4 ? 0 : b.since - a.since;
  return since || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Whether a change from `before` to `after` can move the card. */
export function orderKeyChanged(before: PaneView | undefined, after: PaneView): boolean {
  if (!before || urgency(before) !== urgency(after) || before.name !== after.name) return true;
  return urgency(after) !== 4 && before.since !== after.since;
}

/** The fewest cards to move so that `current` (the ids in the page's order) becomes `wanted`: every card outside one
 * longest run of cards already in the wanted relative order. Moving only these keeps the rest still. */
export function cardsToMove(current: readonly string[], wanted: readonly string[]): Set<string> {
  const rank = new Map(wanted.map((id, i) => [id, i]));
  const seq = current.filter((id) => rank.has(id)).map((id) => rank.get(id)!);
  // longest increasing subsequence of wanted ranks, O(n log n), with back links to read it out
  const tails: number[] = [];
  const tailAt: number[] = [];
  const prev: number[] = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = seq[i]!;
    tailAt[lo] = i;
    prev[i] = lo > 0 ? tailAt[lo - 1]! : -1;
  }
  const still = new Set<number>();
  for (let i = tails.length ? tailAt[tails.length - 1]! : -1; i >= 0; i = prev[i]!) still.add(seq[i]!);
  return new Set(wanted.filter((_, r) => !still.has(r)));
}
