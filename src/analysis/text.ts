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

/** Longer rows are tested afresh each time: they would make the memos' memory large, and are rare. */
const ROW_MEMO_MAX_CHARS = 512;
/** Scans remember their answer per row position up to this row (a scan re-reads the same rows of the same screen
 * on every classification: a position whose row is the very same string answers without a hash look-up). */
const POSITION_MEMO_ROWS = 256;
/** Patterns one row's facts have room for (bits of two small integers): more than a profile's lists together. */
const BITS_PER_WORD = 30;
const MAX_PATTERNS = 2 * BITS_PER_WORD;

/** What the patterns said about one row text: bit b of `known` set once pattern b was tested, of `hits` if it
 * matched. One entry per row for every pattern. */
interface RowFacts {
  known0: number;
  hits0: number;
  known1: number;
  hits1: number;
}
/** Row facts are kept in a direct-mapped table, slotted by a hash of a row's length and five of its characters: a
 * row that scrolled is the very same string at another position, found with one comparison and no hash table
 * (which cost more than the regexes: a screen's rows were looked up once per pattern and position). A row whose slot
 * another took is tested afresh: a screen's rows, in a table this many times larger, rarely share one. */
const FACT_SLOT_BITS = 10;
const FACT_SLOTS = 1 << FACT_SLOT_BITS;
const slotRows: Array<string | undefined> = new Array<string | undefined>(FACT_SLOTS);
const slotFacts: Array<RowFacts | undefined> = new Array<RowFacts | undefined>(FACT_SLOTS);

/** The facts remembered for a row text (a fresh entry if none). */
function factsOf(row: string): RowFacts {
  const n = row.length;
  const mixed = n ^ (row.charCodeAt(0) << 4) ^ (row.charCodeAt(n >> 2) << 8) ^ (row.charCodeAt(n >> 1) << 12) ^ (row.charCodeAt((3 * n) >> 2) << 16) ^ (row.charCodeAt(n - 1) << 20);
  // Fibonacci hashing: the product's top bits depend on every bit mixed in (NaN, from an empty row, mixes as 0).
  const slot = Math.imul(mixed, 0x9e3779b1) >>> (32 - FACT_SLOT_BITS);
  if (slotRows[slot] === row) return slotFacts[slot]!;
  const facts: RowFacts = { known0: 0, hits0: 0, known1: 0, hits1: 0 };
  slotRows[slot] = row;
  slotFacts[slot] = facts;
  return facts;
}

function forgetFacts(): void {
  slotRows.fill(undefined);
  slotFacts.fill(undefined);
}

/** A pattern's memo: its bit in RowFacts (which of the two words, which bit, handed out in which generation), and
 * its answers by position in the last scans (`at` holds the row string last tested there, `hit` its answer). */
interface RowMemo {
  generation: number;
  word: number;
  bit: number;
  at: Array<string | undefined>;
  hit: Uint8Array;
}
const memos = new WeakMap<RegExp, RowMemo>();
/** Bits are handed out per generation; once all are taken (patterns made anew by config reloads), the facts are
 * forgotten and every pattern gets a new bit when next used. */
let generation = 0;
let nextBit = 0;

/** `re.test(row)`, remembered per pattern and row text: a classification re-reads rows that did not change.
 * `at`: the row's position in the rows a scan walks (remembered there too). */
export function testRow(re: RegExp, row: string, at?: number): boolean {
  return at === undefined ? testIn(memoOf(re), re, row) : testAt(memoOf(re), re, row, at);
}

/** A pattern's memo (null for a stateful pattern: global or sticky). Looked up once per scan, not per row. */
function memoOf(re: RegExp): RowMemo | null {
  if (re.global || re.sticky) return null;
  let memo = memos.get(re);
  if (!memo) memos.set(re, (memo = { generation: -1, word: -1, bit: 0, at: [], hit: new Uint8Array(POSITION_MEMO_ROWS) }));
  if (memo.generation !== generation) assignBit(memo);
  return memo;
}

function assignBit(memo: RowMemo): void {
  if (nextBit >= MAX_PATTERNS) {
    generation++;
    nextBit = 0;
    forgetFacts();
  }
  memo.generation = generation;
  memo.word = nextBit < BITS_PER_WORD ? 0 : 1;
  memo.bit = 1 << nextBit % BITS_PER_WORD;
  nextBit++;
}

function testIn(memo: RowMemo | null, re: RegExp, row: string): boolean {
  if (memo === null || row.length > ROW_MEMO_MAX_CHARS) return re.test(row);
  const facts = factsOf(row);
  const bit = memo.bit;
  if (memo.word === 0) {
    if (facts.known0 & bit) return (facts.hits0 & bit) !== 0;
    const hit = re.test(row);
    facts.known0 |= bit;
    if (hit) facts.hits0 |= bit;
    return hit;
  }
  if (facts.known1 & bit) return (facts.hits1 & bit) !== 0;
  const hit = re.test(row);
  facts.known1 |= bit;
  if (hit) facts.hits1 |= bit;
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
