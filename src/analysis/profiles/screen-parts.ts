// Parts of an agent's screen found by their shape rather than their words: a selection menu, a status row that is
// still live. The words change from one version to the next; these shapes have not. Pure.
import { lastMatch, testRow, type Hit } from '../text.js';

/** An option row counts as the cursor row's sibling this many rows away at most (description rows between). */
const MENU_REACH = 3;

/** The bottom-most menu cursor row with an option row within MENU_REACH rows of it: a selection menu on screen.
 * `words`: a cursor row that is not `numbered` (its option opens with a word) needs `siblings` option rows instead. */
export function menuRow(lines: readonly string[], cursor: RegExp, option: RegExp, words?: { numbered: RegExp; siblings: number }): Hit | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!testRow(cursor, lines[i]!, i)) continue;
    const need = words && !testRow(words.numbered, lines[i]!, i) ? words.siblings : 1;
    let found = 0;
    for (let j = Math.max(0, i - MENU_REACH); j <= Math.min(lines.length - 1, i + MENU_REACH); j++) {
      if (j !== i && testRow(option, lines[j]!, j) && !testRow(cursor, lines[j]!, j) && ++found >= need) return { index: i, line: lines[i]! };
    }
  }
  return null;
}

/**
 * The bottom-most row matching `status`, unless a row below it starts a later message (any of the `later` lists):
 * a status row above the final answer is a frame left in scrollback, not the live status.
 */
export function liveStatusRow(lines: readonly string[], status: readonly RegExp[], ...later: ReadonlyArray<readonly RegExp[]>): Hit | null {
  const hit = lastMatch(lines, status);
  if (!hit) return null;
  const below = lines.slice(hit.index + 1);
  return later.some((list) => lastMatch(below, list) !== null) ? null : hit;
}

/** The rows with those already on screen at Enter blanked (as many of each text as were there then). */
export function newSince(rows: readonly string[], atEnter: ReadonlyMap<string, number> | undefined): string[] {
  if (!atEnter || atEnter.size === 0) return rows.slice();
  const seen = new Map<string, number>();
  return rows.map((l) => {
    const n = (seen.get(l) ?? 0) + 1;
    seen.set(l, n);
    return n <= (atEnter.get(l) ?? 0) ? '' : l;
  });
}
