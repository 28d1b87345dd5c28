// Issue 13: the generic tier (Tier 3, no profile: `replay --agent generic`) on every agent recording we have — the
// shared corpus's, ours, and the agents we only ever read generically — scored by the official scorer. Its rules know
// no agent's words (profiles/generic-tui.ts), so these figures are what a person gets from an agent we have never
// seen. The bar (issue 24): mean agreement at least 0.97, no false DONE and no missed WAIT. `unseen` holds the
// recordings of agents no profile was built for (grok-cli 0.0.34, recorded for issue 24).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { ROOT } from '../helpers/screen.js';
import { describeRow, score, type ScoreRow } from '../helpers/scorer.js';

const MEAN_AGREEMENT_AT_LEAST = 0.97;
const FALSE_DONE_AT_MOST = 0;
const MISSED_WAIT_AT_MOST = 0;

/** Agent recordings: everything but shells (a shell has its own profile; the generic tier is for agents). */
const AGENT = (name: string): boolean => !name.startsWith('shell-');
const FOLDERS = ['corpus', 'recordings', 'screens', 'unseen']
  .map((f) => join(ROOT, 'tests', 'fixtures', f))
  .filter((d) => existsSync(d) && readdirSync(d).some((n) => AGENT(n) && existsSync(join(d, n, 'truth.json'))));
let rows: ScoreRow[] = [];

beforeAll(async () => {
  ensureBuilt();
  const scores = await Promise.all(
    FOLDERS.map((d) => {
      const names = readdirSync(d).filter((n) => AGENT(n) && existsSync(join(d, n, 'truth.json')));
      return score(d, 'generic', 300_000, names);
    }),
  );
  rows = scores.flatMap((s) => s.rows);
}, 600_000);

describe('the generic tier on every agent recording (--agent generic)', () => {
  it('scores them all, without errors', () => {
    expect(rows.length).toBeGreaterThan(40);
    for (const r of rows) expect(r.error, describeRow(r)).toBeNull();
  });

  it(`mean agreement >= ${MEAN_AGREEMENT_AT_LEAST}, false DONE <= ${FALSE_DONE_AT_MOST}, missed WAIT <= ${MISSED_WAIT_AT_MOST}`, () => {
    const mean = rows.reduce((a, r) => a + (r.agreement ?? 0), 0) / rows.length;
    const falseDone = rows.reduce((a, r) => a + r.false_done, 0);
    const missedWait = rows.reduce((a, r) => a + r.missed_wait, 0);
    const worst = [...rows].sort((a, b) => (a.agreement ?? 0) - (b.agreement ?? 0)).slice(0, 5).map(describeRow).join('\n');
    expect(mean, worst).toBeGreaterThanOrEqual(MEAN_AGREEMENT_AT_LEAST);
    expect(falseDone, worst).toBeLessThanOrEqual(FALSE_DONE_AT_MOST);
    expect(missedWait, worst).toBeLessThanOrEqual(MISSED_WAIT_AT_MOST);
  });
});
