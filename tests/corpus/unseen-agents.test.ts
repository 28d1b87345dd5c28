// Issue 24: real agents no profile was built for (tests/fixtures/unseen: grok-cli 0.0.34 in nine scenarios, see
// docs/recordings-new-agents.md), as a person gets them: auto-detected (plain `replay`), and with the generic tier
// forced. The held-back bar for agents never seen: mean agreement >= 0.95, at most two missed DONE, no missed WAIT,
// no false DONE; and auto mode on a program without a profile is never worse than `--agent generic` on the same
// recording.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { ROOT } from '../helpers/screen.js';
import { describeRow, recordingNames, score, type Score } from '../helpers/scorer.js';

const UNSEEN = join(ROOT, 'tests', 'fixtures', 'unseen');
const MEAN_AGREEMENT_AT_LEAST = 0.95;
const MISSED_DONE_AT_MOST = 2;
/** Agreement is sampled every 50 ms: a difference below this is one sample's rounding, not a worse reading. */
const SAME_AGREEMENT = 1e-3;
let auto: Score;
let generic: Score;

beforeAll(async () => {
  ensureBuilt();
  [auto, generic] = await Promise.all([score(UNSEEN, 'auto'), score(UNSEEN, 'generic')]);
}, 300_000);

describe('agents without a profile (tests/fixtures/unseen)', () => {
  it('every recording scored in both modes, without errors', () => {
    const names = recordingNames(UNSEEN);
    expect(names.length).toBeGreaterThanOrEqual(9);
    for (const s of [auto, generic]) {
      expect(s.rows.map((r) => r.rec).sort()).toEqual(names);
      for (const r of s.rows) expect(r.error, describeRow(r)).toBeNull();
    }
  });

  for (const mode of ['auto', 'generic'] as const) {
    it(`${mode}: mean agreement >= ${MEAN_AGREEMENT_AT_LEAST}, missed DONE <= ${MISSED_DONE_AT_MOST}, no missed WAIT, no false DONE`, () => {
      const s = mode === 'auto' ? auto : generic;
      const why = s.rows.map(describeRow).join('\n');
      expect(s.summary.mean_agreement, why).toBeGreaterThanOrEqual(MEAN_AGREEMENT_AT_LEAST);
      expect(s.summary.missed_done, why).toBeLessThanOrEqual(MISSED_DONE_AT_MOST);
      expect(s.summary.missed_wait, why).toBe(0);
      expect(s.summary.false_done, why).toBe(0);
    });
  }

  it('auto mode is never worse than --agent generic on the same recording', () => {
    for (const g of generic.rows) {
      const a = auto.rows.find((r) => r.rec === g.rec)!;
      expect(a.agreement ?? 0, `${describeRow(a)}\n${describeRow(g)}`).toBeGreaterThanOrEqual((g.agreement ?? 0) - SAME_AGREEMENT);
    }
  });
});
