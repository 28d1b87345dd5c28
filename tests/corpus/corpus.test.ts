// The bar on the recorded corpus, scored by the official scorer (tests/fixtures/score.mjs) running the built CLI on
// each recording: auto-detected profile and forced profile (--agent <family>), plus replay determinism.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../helpers/build.js';
import { castPath, CORPUS, corpusNames, ROOT } from '../helpers/screen.js';
import { describeRow, score, SCORE_MODES, type Score, type ScoreMode } from '../helpers/scorer.js';

const run = promisify(execFile);
const NAMES = corpusNames();
const MODES = { auto: SCORE_MODES.auto, forced: SCORE_MODES.forced };
const scores: Partial<Record<ScoreMode, Score>> = {};

beforeAll(async () => {
  ensureBuilt();
  // the two scorer runs are independent: run them side by side
  const [auto, forced] = await Promise.all([score(CORPUS, 'auto', 150_000, undefined, 'cli'), score(CORPUS, 'forced', 150_000, undefined, 'cli')]);
  scores.auto = auto;
  scores.forced = forced;
}, 180_000);

for (const mode of Object.keys(MODES) as Array<keyof typeof MODES>) {
  describe(`corpus bar, ${mode === 'auto' ? 'auto-detected profile' : 'forced profile (--agent <family>)'}`, () => {
    it('scores every recording', () => {
      expect(NAMES.length).toBeGreaterThanOrEqual(27);
      expect(scores[mode]!.rows.map((r) => r.rec).sort()).toEqual(NAMES);
    });

    it('summary meets the bar', () => {
      const s = scores[mode]!.summary;
      const detail = `${JSON.stringify(s)}\n${scores[mode]!.rows.map(describeRow).join('\n')}`;
      expect(s.errors, detail).toBe(0);
      expect(s.mean_agreement, detail).toBeGreaterThanOrEqual(0.98);
      expect(s.missed_done, detail).toBe(0);
      expect(s.missed_wait, detail).toBe(0);
      expect(s.false_done, detail).toBe(0);
      expect(s.false_wait, detail).toBe(0);
      expect(s.done_latency_median, detail).not.toBeNull();
      expect(s.done_latency_median!, detail).toBeLessThanOrEqual(0.5);
      expect(s.done_latency_max!, detail).toBeLessThanOrEqual(3);
    });

    it.each(NAMES)('%s: agreement >= 0.95, no error', (name) => {
      const r = scores[mode]!.rows.find((x) => x.rec === name);
      expect(r, `${name} was not scored`).toBeDefined();
      expect(r!.error, describeRow(r!)).toBeNull();
      expect(r!.agreement, describeRow(r!)).not.toBeNull();
      expect(r!.agreement!, describeRow(r!)).toBeGreaterThanOrEqual(0.95);
    });
  });
}

describe('determinism', () => {
  it.each(['gemini-approval', 'claude-approval', 'shell-python-repl'])('%s: replaying twice gives identical JSONL', async (name) => {
    const args = [BIN, 'replay', castPath(name), '--format', 'jsonl'];
    const [a, b] = await Promise.all([run(process.execPath, args, { cwd: ROOT }), run(process.execPath, args, { cwd: ROOT })]);
    expect(a.stdout.length).toBeGreaterThan(0);
    expect(b.stdout).toBe(a.stdout);
  });
});
