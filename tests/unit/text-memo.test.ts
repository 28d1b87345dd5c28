// The row scans (lastMatch, lastIndex, testRow) remember what a pattern said about a row, by its text and by its
// position in the last scan; whatever the rows do between scans (change in place, scroll, come back), the answer is
// always what the pattern says about the row now.
import { describe, expect, it } from 'vitest';
import { lastIndex, lastMatch, testRow } from '../../src/analysis/text.js';

describe('row scan memos', () => {
  it('answer for the rows as they are now, scan after scan, against a memo-less scan', () => {
    const done = [/^● Done\b/u, /finished$/u];
    const echo = /^❯ \S/u;
    const words = ['● Done here', 'still working', '❯ fix it', 'all finished', '', 'x', '● Doner', '❯ ', 'not finished yet'];
    const plainLast = (rows: string[]) => {
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i] && done.some((re) => re.test(rows[i]!))) return i;
      return -1;
    };
    const plainIndex = (rows: string[]) => {
      for (let i = rows.length - 1; i >= 0; i--) if (echo.test(rows[i]!)) return i;
      return -1;
    };
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    let rows = Array.from({ length: 12 }, () => words[next(words.length)]!);
    for (let step = 0; step < 3000; step++) {
      const r = next(4);
      // in place, scrolled up by a few rows, shortened or grown (slices as the profiles take them)
      if (r === 0) rows[next(rows.length)] = words[next(words.length)]!;
      else if (r === 1) rows = [...rows.slice(1 + next(3)), ...Array.from({ length: 2 }, () => words[next(words.length)]!)];
      else if (r === 2) rows = rows.slice(0, Math.max(1, rows.length - 1));
      else rows = [...rows, words[next(words.length)]!];
      const hit = lastMatch(rows, done);
      expect(hit?.index ?? -1, JSON.stringify(rows)).toBe(plainLast(rows));
      if (hit) expect(hit.line).toBe(rows[hit.index]);
      expect(lastIndex(rows, echo)).toBe(plainIndex(rows));
      const at = next(rows.length);
      expect(testRow(echo, rows[at]!, at)).toBe(echo.test(rows[at]!));
    }
  });

  it('keep answering right when more patterns are in use than the shared row memo has bits for', () => {
    // Each pattern made anew, as a config reload makes them: bits run out and are handed out again.
    const rows = ['a1', 'b22', 'c333', '', 'a1 b22', 'zzz'];
    for (let round = 0; round < 3; round++) {
      const patterns = Array.from({ length: 70 }, (_, k) => new RegExp(['a', 'b', 'c', '\\d{2}', '^z', ' '][k % 6]! + `|q{${k + 1}}`, 'u'));
      for (let pass = 0; pass < 2; pass++) {
        for (const re of patterns) for (const [i, row] of rows.entries()) expect(testRow(re, row, i)).toBe(re.test(row));
      }
    }
  });

  it('answer right for more distinct rows than the memo has room for, however they share its slots', () => {
    const re = /^row \d*7\b/u;
    const other = /5$/u;
    const rows = Array.from({ length: 5000 }, (_, i) => `row ${i}`);
    for (let pass = 0; pass < 2; pass++) {
      for (const [i, row] of rows.entries()) {
        expect(testRow(re, row)).toBe(re.test(row));
        expect(testRow(other, rows[(i * 7919) % rows.length]!)).toBe(other.test(rows[(i * 7919) % rows.length]!));
      }
    }
  });
});
