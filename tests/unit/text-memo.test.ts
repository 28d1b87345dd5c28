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
});
