// The test agent zoo (tests/zoo/): a few hundred recorded sessions of a fake Ink agent whose look varies (screen,
// cursor, spinner, box, questions, errors, retries, OSC 133 marks, typing ahead), truth from the agent's own
// timeline. Scored with the generic tier alone (`replay --agent generic`: what a person gets from an agent we have
// no profile for) and auto-detected (plain `replay`), in parallel chunks. Prints both summaries and the worst
// variants with their options.
//
// Goal: mean agreement >= 0.97 with no false DONE and no missed WAIT. The asserted bars below are a ratchet at what
// the detector reaches today (the generic tier is being improved): raise them as it improves, never lower them.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { describeRow, type ScoreRow } from '../helpers/scorer.js';
import { scoreZoo, summarize, unpackZoo, variantOf, zooNames } from '../helpers/zoo.js';

/** The zoo holds at least this many variants (tests/zoo/generate.mjs --count). */
const ZOO_AT_LEAST = 350;
// Measured 2026-11-27 on the first 260 Ink variants (seed 1) before the generic tier's issue-24 work: generic mean
// 0.876, missed DONE 160, missed WAIT 47, false DONE 40 (all in the variants that wrap their messages in OSC 133
// marks); auto 0.5928 (start-up output read as a command in 178 variants). After it, on the 260 Ink and 100
// full-screen variants (seed 1, no real agent's signature in any of them): generic mean 0.9958, missed WAIT 0, false
// DONE 1, missed DONE 39 (a next prompt typed within a second of the answer); auto the same.
/** Ratchet: measured mean agreement (generic tier) minus 0.01. */
const GENERIC_MEAN_AT_LEAST = 0.985;
/** Ratchet: measured false DONE and missed WAIT sums (generic tier): not to grow. Goal: 0 and 0. */
const GENERIC_FALSE_DONE_AT_MOST = 1;
const GENERIC_MISSED_WAIT_AT_MOST = 0;
/** Ratchet: measured mean agreement auto-detected minus 0.01. */
const AUTO_MEAN_AT_LEAST = 0.985;
/** Agreement is sampled every 50 ms: a difference below this is one sample's rounding, not a worse reading. */
const SAME_AGREEMENT = 1e-3;
/** Variants printed as the worst. */
const WORST = 10;

let dir = '';
let rows: Record<string, ScoreRow[]> = {};
/** Variants auto-detected reads worse than the generic tier forced. */
let worse: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = unpackZoo();
  rows = await scoreZoo(dir, ['generic', 'auto']);
  for (const mode of ['generic', 'auto'] as const) {
    console.log(`zoo ${mode} SUMMARY ${JSON.stringify(summarize(rows[mode]!))}`);
    const worst = [...rows[mode]!].sort((a, b) => (a.agreement ?? 0) - (b.agreement ?? 0)).slice(0, WORST);
    for (const r of worst) {
      const v = variantOf(dir, r.rec);
      console.log(`  ${describeRow(r)}\n    ${v.scenario}\n    ${JSON.stringify(v.options)}`);
    }
  }
  const generic = new Map(rows.generic!.map((r) => [r.rec, r.agreement ?? 0]));
  worse = rows.auto!.filter((r) => (r.agreement ?? 0) < generic.get(r.rec)! - SAME_AGREEMENT).map((r) => r.rec);
  console.log(`zoo: auto agrees less than --agent generic on ${worse.length} variants: ${worse.join(' ')}`);
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the test agent zoo', () => {
  it(`holds at least ${ZOO_AT_LEAST} variants, every one scored without errors in both modes`, () => {
    expect(zooNames().length).toBeGreaterThanOrEqual(ZOO_AT_LEAST);
    for (const mode of ['generic', 'auto']) {
      expect(rows[mode]!.length).toBe(zooNames().length);
      for (const r of rows[mode]!) {
        expect(r.error, describeRow(r)).toBeNull();
        expect(r.agreement, describeRow(r)).not.toBeNull();
      }
    }
  });

  it('the generic tier holds its ratchet', () => {
    const s = summarize(rows.generic!);
    expect(s.mean_agreement).toBeGreaterThanOrEqual(GENERIC_MEAN_AT_LEAST);
    expect(s.false_done).toBeLessThanOrEqual(GENERIC_FALSE_DONE_AT_MOST);
    expect(s.missed_wait).toBeLessThanOrEqual(GENERIC_MISSED_WAIT_AT_MOST);
  });

  it('auto-detected holds its ratchet', () => {
    expect(summarize(rows.auto!).mean_agreement).toBeGreaterThanOrEqual(AUTO_MEAN_AT_LEAST);
  });

  it('auto mode on a program without a profile is never worse than --agent generic on the same variant', () => {
    expect(worse).toEqual([]);
  });
});
