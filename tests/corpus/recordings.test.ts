// The recordings made for this repository (tests/fixtures/recordings/<name>/: a real program in a real pty, truth
// from the driver's and the program's clocks), scored by the official scorer (tests/fixtures/score.mjs) running the
// built CLI, auto-detected profile and forced profile (--agent <family>): agreement 1.0, nothing missed, no false
// DONE or WAIT.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../helpers/build.js';
import { ROOT } from '../helpers/screen.js';

const run = promisify(execFile);
const SCORER = join(ROOT, 'tests', 'fixtures', 'score.mjs');
const RECORDINGS = join(ROOT, 'tests', 'fixtures', 'recordings');
const NAMES = readdirSync(RECORDINGS)
  .filter((d) => existsSync(join(RECORDINGS, d, 'truth.json')))
  .sort();

interface Row {
  rec: string;
  agreement: number | null;
  done_lat: number[];
  missed_done: number;
  wait_lat: number[];
  missed_wait: number;
  false_done: number;
  false_wait: number;
  error: string | null;
}
interface Score {
  rows: Row[];
  summary: { recordings: number; mean_agreement: number; missed_done: number; missed_wait: number; false_done: number; false_wait: number; errors: number };
}

const MODES = {
  auto: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --format jsonl`,
  forced: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --agent {agent} --format jsonl`,
} as const;
const scores: Partial<Record<keyof typeof MODES, Score>> = {};

async function score(cmd: string): Promise<Score> {
  const { stdout } = await run(process.execPath, [SCORER, '--corpus', RECORDINGS, '--json', '--cmd', cmd], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 150_000 });
  return JSON.parse(stdout) as Score;
}

beforeAll(async () => {
  ensureBuilt();
  const [auto, forced] = await Promise.all([score(MODES.auto), score(MODES.forced)]);
  scores.auto = auto;
  scores.forced = forced;
}, 180_000);

const describeRow = (r: Row) =>
  `${r.rec}: agreement=${r.agreement} done_lat=${JSON.stringify(r.done_lat)} missed_done=${r.missed_done} wait_lat=${JSON.stringify(r.wait_lat)} missed_wait=${r.missed_wait} false_done=${r.false_done} false_wait=${r.false_wait}${r.error ? ` error=${r.error}` : ''}`;

for (const mode of Object.keys(MODES) as Array<keyof typeof MODES>) {
  describe(`recordings bar, ${mode === 'auto' ? 'auto-detected profile' : 'forced profile (--agent <family>)'}`, () => {
    it('scores every recording, agreement 1.0, nothing missed, nothing false', () => {
      const s = scores[mode]!;
      const detail = `${JSON.stringify(s.summary)}\n${s.rows.map(describeRow).join('\n')}`;
      expect(NAMES.length).toBeGreaterThan(0);
      expect(s.rows.map((r) => r.rec).sort(), detail).toEqual(NAMES);
      expect(s.summary.errors, detail).toBe(0);
      expect(s.summary.mean_agreement, detail).toBe(1);
      expect(s.summary.missed_done, detail).toBe(0);
      expect(s.summary.missed_wait, detail).toBe(0);
      expect(s.summary.false_done, detail).toBe(0);
      expect(s.summary.false_wait, detail).toBe(0);
    });
  });
}
