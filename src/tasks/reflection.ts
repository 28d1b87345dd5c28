// Reflection without a judge: how much new the last turns wrote (novelty) and how much they repeated each other.
// Few new lines means slow progress; turns that say the same thing again are a loop. Pure.

/** Below this share of new lines over the window, progress is slow; below STUCK it is none. */
export const SLOW_NOVELTY = 0.3;
export const STUCK_NOVELTY = 0.1;
/** At least this share of the window's excerpts identical to another one: the turns are repeating. */
export const LOOPING_REPEATS = 0.5;

export interface Assessment {
  progress: 'good' | 'slow' | 'stuck';
  looping: boolean;
  novelty: number;
  repeated: number;
}

/** `window`: the region text after each of the last turns, oldest first; `before`: what earlier turns showed. */
export function assessProgress(window: string[], before: string[]): Assessment {
  const seen = new Set(before.flatMap(lines));
  let total = 0;
  let fresh = 0;
  for (const ex of window) {
    for (const l of lines(ex)) {
      total++;
      if (!seen.has(l)) fresh++;
      seen.add(l);
    }
  }
  const novelty = total === 0 ? 0 : fresh / total;
  const keys = window.map((ex) => lines(ex).join('\n'));
  const repeats = keys.filter((k, i) => keys.indexOf(k) !== i).length;
  const repeated = window.length === 0 ? 0 : repeats / window.length;
  const progress = novelty < STUCK_NOVELTY ? 'stuck' : novelty < SLOW_NOVELTY ? 'slow' : 'good';
  return { progress, looping: repeated >= LOOPING_REPEATS, novelty, repeated };
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/\d+/g, '#').trim())
    .filter((l) => l.length > 0);
}
