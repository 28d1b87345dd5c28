// Our own recordings (tests/fixtures/recordings: real programs in real terminals, truth from the driver's and the
// program's clocks, see docs/recording.md), scored by the official scorer running the built CLI, auto-detected and
// forced (--agent <family>). The bar is the shared corpus's: agreement 1.0, nothing missed, no false alarm.
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
  .filter((d) => existsSync(join(RECORDINGS, d, 'truth.json')) && existsSync(join(RECORDINGS, d, 'session.cast')))
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
  const { stdout } = await run(process.execPath, [SCORER, '--corpus', RECORDINGS, '--json', '--cmd', cmd], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 240_000 });
  return JSON.parse(stdout) as Score;
}

beforeAll(async () => {
  ensureBuilt();
  const [auto, forced] = await Promise.all([score(MODES.auto), score(MODES.forced)]);
  scores.auto = auto;
  scores.forced = forced;
}, 300_000);

function describeRow(r: Row): string {
  return `${r.rec}: agreement=${r.agreement} done_lat=${JSON.stringify(r.done_lat)} missed_done=${r.missed_done} wait_lat=${JSON.stringify(r.wait_lat)} missed_wait=${r.missed_wait} false_done=${r.false_done} false_wait=${r.false_wait}${r.error ? ` error=${r.error}` : ''}`;
}

for (const mode of Object.keys(MODES) as Array<keyof typeof MODES>) {
  describe(`our recordings, ${mode === 'auto' ? 'auto-detected profile' : 'forced profile (--agent <family>)'}`, () => {
    it('scores every recording', () => {
      expect(NAMES.length).toBeGreaterThan(0);
      expect(scores[mode]!.rows.map((r) => r.rec).sort()).toEqual(NAMES);
    });

    it.each(NAMES)('%s: agreement 1.0, nothing missed, no false alarm', (name) => {
      const r = scores[mode]!.rows.find((x) => x.rec === name);
      expect(r, `${name} was not scored`).toBeDefined();
      const why = describeRow(r!);
      expect(r!.error, why).toBeNull();
      expect(r!.agreement, why).toBe(1);
      expect([r!.missed_done, r!.missed_wait, r!.false_done, r!.false_wait], why).toEqual([0, 0, 0, 0]);
    });
  });
}
