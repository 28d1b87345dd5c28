// Screen text normalisation for change detection: the parts of a screen that move without meaning progress
// (spinner frames, ticking timers, clocks, blinking bullets) are folded so a content hash goes quiet when the
// program does. Pure.

/** Braille spinners, Claude's star frames, half-circle title glyphs, ASCII spinners at the start of a row. */
const LEADING_SPINNER = /^(\s*)(?:[⠀-⣿]|[·✢✳✶✻✽*◐◑◒◓●]|[|/\\-](?=\s))\s?/u;
/** Any braille cell elsewhere on the row (spinners drawn mid-line, e.g. after a status word). */
const BRAILLE = /[⠀-⣿]/gu;
/** Live timers, a composite duration folded as one (59s → 1m 0s is no change): (12s), 6s, 1m 5s, 2h 3m, 12.3s,
 * and clocks 00:07, 12:07:33. */
const TIMERS = /\b\d+(?:\.\d+)?(?:ms|s|m|h)\b(?:\s\d+(?:\.\d+)?(?:ms|s|m|h)\b)*|\b\d{1,2}:\d{2}(?::\d{2})?\b/g;

/** Leading spinner or blinking bullet and the indentation around it: "● Creating" and "  Creating" are one row. */
export function normalizeLine(line: string): string {
  const trimmed = line.trimStart();
  // Most rows have nothing to fold: no leading glyph LEADING_SPINNER could take, no braille cell, no digit (every
  // timer and clock has one). One scan tells, instead of three regex passes that each find nothing.
  if (!SPINNER_FIRST.has(trimmed.charCodeAt(0)) && !hasDigitOrBraille(trimmed)) return trimmed;
  return foldLine(line);
}

/** The fold itself (normalizeLine without its shortcut; exported for the test that holds the two equal). */
export function foldLine(line: string): string {
  return line.replace(LEADING_SPINNER, '').trimStart().replace(BRAILLE, '').replace(TIMERS, '#');
}

/** The characters LEADING_SPINNER can start with after its indentation (keep in step with it). */
const SPINNER_FIRST = new Set([...'·✢✳✶✻✽*◐◑◒◓●|/\\-'].map((c) => c.charCodeAt(0)));

/** Whether a row holds an ASCII digit (TIMERS needs one) or a braille cell (BRAILLE, and LEADING_SPINNER's first
 * alternative). Leading blanks are already gone, so a braille spinner at the start is found here too. */
function hasDigitOrBraille(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x2800 && c <= 0x28ff)) return true;
  }
  return false;
}

/** Folded rows remembered before the memo starts afresh: a screen keeps most rows from one read to the next
 * (moved by scrolling or redrawn unchanged), and has far fewer rows than this. */
const FOLDED_MEMO_SIZE = 512;
/** Longer rows are folded afresh each time (they would make the memo's memory large, and are rare). */
const FOLDED_MEMO_MAX_CHARS = 512;
const foldedMemo = new Map<string, number>();

/** FNV-1a of one row (folded or raw). A row with nothing to fold (most rows) is hashed in one pass from its first
 * non-blank character, allocating nothing; a row to fold has its hash remembered by its text (folding costs three
 * regexes, and such rows, a status line with its timer, come back from read to read). */
export function hashRow(line: string, normalize: boolean): number {
  if (!normalize) return fnv(line);
  const h = plainRowHash(line);
  if (h >= 0) return h;
  if (line.length > FOLDED_MEMO_MAX_CHARS) return fnv(normalizeLine(line));
  let m = foldedMemo.get(line);
  if (m === undefined) {
    m = fnv(normalizeLine(line));
    if (foldedMemo.size >= FOLDED_MEMO_SIZE) foldedMemo.clear();
    foldedMemo.set(line, m);
  }
  return m;
}

/** fnv(normalizeLine(line)) when the row has nothing to fold (no leading glyph LEADING_SPINNER could take, no
 * digit, no braille cell), else -1. The same scan as normalizeLine's shortcut, fused with the hash. */
function plainRowHash(line: string): number {
  const n = line.length;
  let i = 0;
  while (i < n && isBlank(line.charCodeAt(i))) i++;
  if (i < n && SPINNER_FIRST.has(line.charCodeAt(i))) return -1;
  let h = 0x811c9dc5;
  for (; i < n; i++) {
    const c = line.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x2800 && c <= 0x28ff)) return -1;
    h ^= c;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The characters String.prototype.trimStart removes (ECMAScript WhiteSpace and LineTerminator: a regex's \s). */
export function isBlank(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Row hashes folded into one (order matters: the same rows in another order are another screen). */
export function combineRowHashes(rows: ArrayLike<number>): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    h ^= r;
    h = Math.imul(h, 0x01000193);
    h ^= r >>> 16;
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

/** Cheap, stable, good enough to tell "changed" from "same". */
export function hashLines(lines: readonly string[], normalize: boolean): string {
  return combineRowHashes(lines.map((l) => hashRow(l, normalize)));
}
