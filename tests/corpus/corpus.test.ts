// The bar on the recorded corpus, scored by the official scorer (tests/fixtures/score.mjs) running the built CLI on
// each recording: auto-detected profile and forced profile (--agent <family>), plus replay determinism.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../helpers/build.js';
import { castPath, CORPUS, corpusNames, ROOT } from '../helpers/screen.js';

const run = promisify(execFile);
const SCORER = join(ROOT, 'tests', 'fixtures', 'score.mjs');
const NAMES = corpusNames();

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
interface Summary {
  recordings: number;
  mean_agreement: number;
  done_latency_median: number | null;
  done_latency_max: number | null;
  missed_done: number;
  missed_wait: number;
  false_done: number;
  false_wait: number;
  errors: number;
}
interface Score {
  rows: Row[];
  summary: Summary;
}

async function score(cmd: string): Promise<Score> {
  const { stdout } = await run(process.execPath, [SCORER, '--corpus', CORPUS, '--json', '--cmd', cmd], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 150_000 });
  return JSON.parse(stdout) as Score;
}

const MODES = {
  auto: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --format jsonl`,
  forced: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --agent {agent} --format jsonl`,
} as const;
const scores: Partial<Record<keyof typeof MODES, Score>> = {};

beforeAll(async () => {
  ensureBuilt();
  // the two scorer runs are independent: run them side by side
  const [auto, forced] = await Promise.all([score(MODES.auto), score(MODES.forced)]);
  scores.auto = auto;
  scores.forced = forced;
}, 180_000);

function describeRow(r: Row): string {
  return `${r.rec}: agreement=${r.agreement} done_lat=${JSON.stringify(r.done_lat)} missed_done=${r.missed_done} wait_lat=${JSON.stringify(r.wait_lat)} missed_wait=${r.missed_wait} false_done=${r.false_done} false_wait=${r.false_wait}${r.error ? ` error=${r.error}` : ''}`;
}

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
