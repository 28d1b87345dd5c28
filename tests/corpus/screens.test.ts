// Screen tests of the agents we cannot record here (Crush, Cursor Agent, GitHub Copilot CLI, Cline, Amp, Aider, Kimi):
// frame scripts of their real screens at their real cadence (scripts/screens, sources in docs/agents.md), each an
// asciicast with the person's keys and a truth from the script's own timeline. None of these agents has a profile:
// the generic tier alone must read them (`replay --agent generic`), scored by the official scorer. The bar per
// recording: agreement ≥ 0.95, no missed or false DONE/WAIT.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { ROOT } from '../helpers/screen.js';
import { describeRow, recordingNames, score, type Score } from '../helpers/scorer.js';

const SCREENS = join(ROOT, 'tests', 'fixtures', 'screens');
const NAMES = recordingNames(SCREENS);
const MIN_AGREEMENT = 0.95;


let scored: Score;
beforeAll(async () => {
  ensureBuilt();
  scored = await score(SCREENS, 'generic');
}, 300_000);

describe('screen tests of agents without a profile, read by the generic tier (--agent generic)', () => {
  it('the fixtures are what the frame scripts write (node scripts/screens/generate.mjs)', () => {
    expect(() => execFileSync(process.execPath, [join(ROOT, 'scripts', 'screens', 'generate.mjs'), '--check'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  });

  it('scores every recording', () => {
    expect(NAMES.length).toBeGreaterThan(0);
    expect(scored.rows.map((r) => r.rec).sort()).toEqual(NAMES);
  });

  for (const name of NAMES) {
    it(`${name}: agreement ≥ ${MIN_AGREEMENT}, no missed or false DONE/WAIT`, () => {
      const r = scored.rows.find((x) => x.rec === name);
      expect(r, `${name} was not scored`).toBeDefined();
      const why = describeRow(r!);
      expect(r!.error, why).toBeNull();
      expect(r!.agreement!, why).toBeGreaterThanOrEqual(MIN_AGREEMENT);
      expect([r!.missed_done, r!.missed_wait, r!.false_done, r!.false_wait], why).toEqual([0, 0, 0, 0]);
    });
  }
});
