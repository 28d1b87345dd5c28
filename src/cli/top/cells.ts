// How many terminal cells a piece of text takes, and cutting/padding text to a column width. A row of `top` must
// fill its line exactly (no wrap, nothing left of the previous frame), and pane text may hold CJK or emoji (two
// cells) or combining marks (none). These are the common East Asian Wide and emoji ranges, not the whole of
// Unicode's tables: a rare mismatch costs one misaligned cell on that row, never a wrapped screen (autowrap is off).

/** Code points that take no cell: combining marks, zero-width spaces and joiners, variation selectors. */
const ZERO: ReadonlyArray<readonly [number, number]> = [
  [0x0300, 0x036f], [0x0483, 0x0489], [0x0591, 0x05bd], [0x0610, 0x061a], [0x064b, 0x065f], [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff], [0x200b, 0x200f], [0x20d0, 0x20ff], [0xfe00, 0xfe0f], [0xfe20, 0xfe2f], [0xe0100, 0xe01ef],
];
/** Code points that take two cells: Hangul Jamo, CJK, Hangul syllables, fullwidth forms, emoji blocks. */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
  [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
];

function inRanges(cp: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true;
  return false;
}

export function charCells(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0; // never shown raw: text passes through printable() first
  if (inRanges(cp, ZERO)) return 0;
  return inRanges(cp, WIDE) ? 2 : 1;
}

export function cells(s: string): number {
  let n = 0;
  for (const ch of s) n += charCells(ch.codePointAt(0)!);
  return n;
}

/** `s` cut to at most `width` cells (an ellipsis marks the cut). */
export function cut(s: string, width: number): string {
  if (width <= 0) return '';
  if (cells(s) <= width) return s;
  let out = '';
  let used = 0;
  for (const ch of s) {
    const w = charCells(ch.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return out + '…';
}

/** `s` cut or padded with spaces to exactly `width` cells. */
export function fit(s: string, width: number): string {
  const c = cut(s, width);
  return c + ' '.repeat(Math.max(0, width - cells(c)));
}

/** Right-aligned in exactly `width` cells. */
export function fitRight(s: string, width: number): string {
  const c = cut(s, width);
  return ' '.repeat(Math.max(0, width - cells(c))) + c;
}

/** The end of `s` in at most `width` cells, an ellipsis in front when cut (an input line longer than the row). */
export function tail(s: string, width: number): string {
  if (cells(s) <= width) return s;
  const chars = [...s];
  let out = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = charCells(chars[i]!.codePointAt(0)!);
    if (used + w > width - 1) break;
    out = chars[i] + out;
    used += w;
  }
  return '…' + out;
}
