// Small matching helpers over rendered rows. Pure (the memos only remember what a pattern said about a row).

export interface Hit {
  index: number;
  line: string;
}

/** One alternation per pattern list: a row is tested once per list instead of once per pattern. */
const combined = new WeakMap<readonly RegExp[], RegExp>();

function anyOf(patterns: readonly RegExp[]): RegExp {
  let re = combined.get(patterns);
  if (!re) {
    re = patterns.length ? new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'), 'u') : /(?!)/u;
    combined.set(patterns, re);
  }
  return re;
}

/** Rows remembered per pattern before its memo starts afresh: from one read to the next most rows are the same,
 * and a screen has far fewer rows than this. */
const ROW_MEMO_SIZE = 256;
/** Longer rows are tested afresh each time: they would make the memos' memory large, and are rare. */
const ROW_MEMO_MAX_CHARS = 512;
/** Scans remember their answer per row position up to this row (a scan re-reads the same rows of the same screen
 * on every classification: a position whose row is the very same string answers without a hash look-up). */
const POSITION_MEMO_ROWS = 256;

/** What a pattern said about rows: by row text, and by position in the last scans (`at` holds the row string last
 * tested there, `hit` its answer). */
interface RowMemo {
  byText: Map<string, boolean>;
  at: Array<string | undefined>;
  hit: Uint8Array;
}
const memos = new WeakMap<RegExp, RowMemo>();

/** `re.test(row)`, remembered per pattern and row text: a classification re-reads rows that did not change.
 * `at`: the row's position in the rows a scan walks (remembered there too). */
export function testRow(re: RegExp, row: string, at?: number): boolean {
  return at === undefined ? testIn(memoOf(re), re, row) : testAt(memoOf(re), re, row, at);
}

/** A pattern's memo (null for a stateful pattern: global or sticky). Looked up once per scan, not per row. */
function memoOf(re: RegExp): RowMemo | null {
  if (re.global || re.sticky) return null;
  let memo = memos.get(re);
  if (!memo) memos.set(re, (memo = { byText: new Map(), at: [], hit: new Uint8Array(POSITION_MEMO_ROWS) }));
  return memo;
}

function testIn(memo: RowMemo | null, re: RegExp, row: string): boolean {
  if (memo === null || row.length > ROW_MEMO_MAX_CHARS) return re.test(row);
  const byText = memo.byText;
  let hit = byText.get(row);
  if (hit === undefined) {
    hit = re.test(row);
    if (byText.size >= ROW_MEMO_SIZE) byText.clear();
    byText.set(row, hit);
  }
  return hit;
}

/** testIn for the row at position i of a scan: the same string there as last time answers at once. */
function testAt(memo: RowMemo | null, re: RegExp, row: string, i: number): boolean {
  if (memo === null || i >= POSITION_MEMO_ROWS) return testIn(memo, re, row);
  if (memo.at[i] === row) return memo.hit[i] === 1;
  const hit = testIn(memo, re, row);
  memo.at[i] = row;
  memo.hit[i] = hit ? 1 : 0;
  return hit;
}

/** The last row (bottom-most) matching any of the patterns. */
export function lastMatch(lines: readonly string[], patterns: readonly RegExp[]): Hit | null {
  const re = anyOf(patterns);
  const memo = memoOf(re);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line && testAt(memo, re, line, i)) return { index: i, line };
  }
  return null;
}

export function lastIndex(lines: readonly string[], pattern: RegExp, before = lines.length): number {
  const memo = memoOf(pattern);
  for (let i = Math.min(before, lines.length) - 1; i >= 0; i--) if (testAt(memo, pattern, lines[i]!, i)) return i;
  return -1;
}

/** Whole-word, case-insensitive token search ("INCOMPLETE" does not contain "complete"). */
export function hasWholeWord(line: string, tokens: readonly string[]): string | null {
  const lower = line.toLowerCase();
  for (const tok of tokens) {
    const t = tok.toLowerCase();
    let i = lower.indexOf(t);
    while (i >= 0) {
      const before = i === 0 ? '' : lower[i - 1]!;
      const after = lower[i + t.length] ?? '';
      if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return tok;
      i = lower.indexOf(t, i + 1);
    }
  }
  return null;
}

/** Drop blank rows at the end (screens are mostly empty below the content). */
export function trimBottom(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return lines.slice(0, end);
}

export function clip(line: string, max = 200): string {
  const s = line.trim();
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
