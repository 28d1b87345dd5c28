// A small line diff for `hooks install --dry-run`: what would be added (+) and removed (-), with a line of context.
// Settings files are small; past MAX_CELLS the diff just shows both versions' changed middle.

/** Above this many line pairs the longest-common-subsequence table is not built. */
const MAX_CELLS = 4_000_000;
/** Unchanged lines shown around each change. */
const CONTEXT = 1;

export function lineDiff(before: string, after: string): string {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  // Common head and tail first: most edits touch a few lines in the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const ops: Array<[' ' | '-' | '+', string]> = [];
  for (const l of a.slice(Math.max(0, head - CONTEXT), head)) ops.push([' ', l]);
  if (am.length * bm.length > MAX_CELLS) {
    for (const l of am) ops.push(['-', l]);
    for (const l of bm) ops.push(['+', l]);
  } else {
    ops.push(...middle(am, bm));
  }
  for (const l of a.slice(a.length - tail, Math.min(a.length, a.length - tail + CONTEXT))) ops.push([' ', l]);
  return ops.map(([op, l]) => `${op} ${l}`).join('\n');
}

function middle(a: string[], b: string[]): Array<[' ' | '-' | '+', string]> {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: longest common subsequence of a[i..] and b[j..]
  const lcs = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Array<[' ' | '-' | '+', string]> = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push([' ', a[i]!]);
      i++;
      j++;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) out.push(['+', b[j++]!]);
    else out.push(['-', a[i++]!]);
  }
  return out;
}
