// A catastrophic pattern in the config is refused (issue 27, item 3): `(a+)+$` for generic.interactivity hung the
// daemon on one row of `a`s. The checker (src/config/regex-safety.ts) finds the two shapes that backtrack
// exponentially and passes their linear neighbours; the loader refuses a user's pattern with its key path; and every
// built-in pattern, which the loader does not re-check at each start, passes the checker and runs in bounded time on
// rows built to set backtracking off (the fuzz half: seeded rows of repeated characters from each pattern's own
// alphabet, as wide as a big pane).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { catastrophicShape } from '../../src/config/regex-safety.js';
import { Prng } from '../../src/bench/prng.js';

/** Catastrophic: each of these takes seconds or more on a row of 30-40 characters in V8. */
const CATASTROPHIC = ['(a+)+$', '(a*)*b', '(\\s*\\w+)*$', '^(\\w+\\s?)*$', '(\\d+\\.?)+x', '(a|aa)+$', '(\\w|\\d)*!', '([a-z]+)*$', '(?:\\p{L}+\\s?)+$', '(.*a){12}', '(x+x+)+y'];
/** Linear (or low polynomial on a pane's row): passed. */
const FINE = ['(,\\s*\\w+)*$', '(?:[^x]*x)*', '\\d+(?:\\.\\d+)?%', '(?:a+){2}', '^\\s*\\$\\s*$', '(?:\\r\\n|\\n)+', '^[\\s│┃|]*(?:\\d+[.)]\\s+\\S)'];
/** A row as wide as a large pane. */
const ROW = 400;
/** A built-in pattern on one such row: far above what a linear match takes (microseconds), far below a hang. */
const MAX_MATCH_MS = 50;

describe('catastrophic patterns', () => {
  it.each(CATASTROPHIC)('%s is found', (src) => {
    expect(catastrophicShape(src)).toMatch(/repetition/);
  });

  it.each(FINE)('%s passes', (src) => {
    expect(catastrophicShape(src)).toBeNull();
  });

  it('the flagged shapes really are slow and the passed ones fast (what the checker claims, measured)', () => {
    const time = (src: string, row: string) => {
      const re = new RegExp(src, 'u');
      const t0 = performance.now();
      re.test(row);
      return performance.now() - t0;
    };
    // 20 `a`s and a character that fails the match: (a+)+$ tries about 2^20 splits (each `a` more doubles it).
    expect(time('(a+)+$', `${'a'.repeat(20)}!`)).toBeGreaterThan(MAX_MATCH_MS / 10);
    for (const src of FINE) expect(time(src, `${'a'.repeat(ROW)}!`), src).toBeLessThan(MAX_MATCH_MS);
  });

  it('a user config holding one is refused, naming the key and the pattern', () => {
    let err: unknown;
    try {
      loadConfig({ overrides: { patterns: { generic: { interactivity: '(a+)+$' } } } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems.join('\n')).toMatch(/patterns\.generic\.interactivity: the regular expression "\(a\+\)\+\$" can take exponential time/);
  });

  it('every built-in pattern passes the checker and runs in bounded time on rows made to backtrack', () => {
    const cfg = loadConfig();
    const patterns: RegExp[] = [];
    const walk = (n: unknown): void => {
      if (n instanceof RegExp) patterns.push(n);
      else if (Array.isArray(n)) n.forEach(walk);
      else if (n && typeof n === 'object') Object.values(n).forEach(walk);
    };
    walk(cfg);
    expect(patterns.length).toBeGreaterThan(100);
    const r = new Prng(27);
    for (const re of patterns) {
      expect(catastrophicShape(re.source), re.source).toBeNull();
      // Rows of the characters the pattern names (its literals), repeated, with a tail that fails the match.
      const alphabet = [...new Set(re.source.replace(/\\[a-zA-Z]/g, '').split('').filter((c) => c.trim() && !'()[]{}|?*+^$.\\'.includes(c)))];
      const pool = [...alphabet, ' ', 'a', '1', '─', '│'];
      for (let k = 0; k < 4; k++) {
        const unit = Array.from({ length: r.int(1, 3) }, () => r.pick(pool)).join('');
        const row = unit.repeat(Math.ceil(ROW / unit.length)).slice(0, ROW) + r.pick(['!', '\u0000', '?', ' x']);
        const t0 = performance.now();
        re.test(row);
        expect(performance.now() - t0, `${re.source} on ${JSON.stringify(row.slice(0, 20))}…`).toBeLessThan(MAX_MATCH_MS);
      }
    }
  });
});
