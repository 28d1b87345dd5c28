// A pane's transitions in the order they happened. Several can share one `at` (a command's start and its failure
// read from one chunk of output: IDLE → RUNNING and RUNNING → FAILED at the same millisecond), so time alone cannot
// order them (issue 26: the detail view showed RUNNING for a FAILED pane). The daemon's history lists them newest
// first by time and then by the order they were stored; the feed sends them in the order they were stored. That
// order is kept: the list is sorted by time with a stable sort, ties staying in stored order.
import type { TransitionView } from '../../src/web/api-types.js';

/** Identifies a transition across the history and the feed. */
const key = (t: TransitionView): string => `${t.at}/${t.from}/${t.to}/${t.rule}`;

/** Oldest first: `stored` as GET /api/panes/:id/transitions answers it (newest first), then `live` (as the feed
 * brought them, in order) that the stored list does not already hold. */
export function mergeHistory(stored: readonly TransitionView[], live: readonly TransitionView[]): TransitionView[] {
  const seen = new Set(stored.map(key));
  return inOrder([...stored].reverse().concat(live.filter((t) => !seen.has(key(t)))));
}

/** Sorted by time; transitions of one time stay in the order given (Array.prototype.sort is stable). */
export function inOrder(list: TransitionView[]): TransitionView[] {
  return list.sort((a, b) => a.at - b.at);
}
