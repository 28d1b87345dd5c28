// A mistyped command gets one line naming the command it most likely meant, not the whole help (60 lines that
// push the mistake off the screen).

/** Edits (insert, delete, substitute, swap two neighbours) within which a word is taken for a typo of a command:
 * 2 catches `stauts`, `wiat`, `dameon`; more would offer unrelated commands for short words. */
const MAX_TYPO_EDITS = 2;

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions (the commonest typo). */
export function typoDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known word closest to `word`, or null when none is a plausible typo of it (or a prefix it started). */
export function didYouMean(word: string, known: readonly string[]): string | null {
  const w = word.toLowerCase();
  const prefixed = known.filter((k) => w.length >= 2 && k.startsWith(w));
  if (prefixed.length === 1) return prefixed[0]!;
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = typoDistance(w, k);
    // Never more edits than half the word: `xy` is no typo of `ack`.
    if (d <= MAX_TYPO_EDITS && d < Math.max(2, Math.ceil(k.length / 2)) && d < bestD) [best, bestD] = [k, d];
  }
  return best;
}
