// Runs the official scorer (tests/fixtures/score.mjs, shipped with the fixtures) on a folder of recordings
// with the built CLI, auto-detected (`replay`) and forced (`replay --agent {agent}`), for the corpus tests.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { BIN } from './build.js';
import { ROOT } from './screen.js';

const run = promisify(execFile);
const SCORER = join(ROOT, 'tests', 'fixtures', 'score.mjs');

export interface ScoreRow {
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
export interface ScoreSummary {
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
export interface Score {
  rows: ScoreRow[];
  summary: ScoreSummary;
}

/** The detector commands the scorer runs: the profile detected, or the recording's family forced. */
export const SCORE_MODES = {
  auto: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --format jsonl`,
  forced: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --agent {agent} --format jsonl`,
  /** The generic tier alone, no profile (issue 13). */
  generic: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --agent generic --format jsonl`,
} as const;
export type ScoreMode = keyof typeof SCORE_MODES;

/** Recordings in `dir` that have a ground truth. */
export function recordingNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((d) => existsSync(join(dir, d, 'truth.json')) && existsSync(join(dir, d, 'session.cast')))
    .sort();
}

/** `only`: the recordings whose names contain one of these words (the scorer's --only). */
export async function score(corpus: string, mode: ScoreMode, timeoutMs = 240_000, only?: readonly string[]): Promise<Score> {
  const args = [SCORER, '--corpus', corpus, '--json', '--cmd', SCORE_MODES[mode], ...(only ? ['--only', only.join(',')] : [])];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 64 << 20, timeout: timeoutMs });
  return JSON.parse(stdout) as Score;
}

export function describeRow(r: ScoreRow): string {
  return `${r.rec}: agreement=${r.agreement} done_lat=${JSON.stringify(r.done_lat)} missed_done=${r.missed_done} wait_lat=${JSON.stringify(r.wait_lat)} missed_wait=${r.missed_wait} false_done=${r.false_done} false_wait=${r.false_wait}${r.error ? ` error=${r.error}` : ''}`;
}

/** Issue 12, item 6: a question at the cursor is WAITING within this long of the program blocking on it. */
export const WAIT_WITHIN_S = 0.5;

/**
 * The bar, per program family (the name's first word), for families whose truth runs ahead of anything the program
 * itself shows: the truth's ask is the backend's clock (the model finished streaming the tool call), and the program
 * draws its dialog (and fires its own permission hook) later. Qwen Code: 0.1-0.9 s later, the most on a loaded
 * machine (qwen-approval, qwen-approval-deny: 0.87 and 0.93 s); a menu is WAITING after wait_confirm_s and the next
 * tick, just past the scorer's 1 s grace. opencode 1.18 and its fork Kilo: 0.2-1.7 s later. No screen and no hook can say WAITING
 * before the program asks. Everything else holds for them too: nothing missed, no false alarm.
 */
const BARS: Record<string, { agreement: number; waitWithin: number }> = {
  qwen: { agreement: 0.99, waitWithin: 1.2 },
  opencode: { agreement: 0.95, waitWithin: 2 },
  // Its fork draws the same dialog as late (kilo-deny-then-prompt: 0.49 s after the backend, WAITING at 0.69 s).
  kilo: { agreement: 1, waitWithin: 2 },
};

/** The bar a recording named `name` is held to: agreement at least, and every question WAITING within. */
export function bar(name: string): { agreement: number; waitWithin: number } {
  return BARS[name.split('-')[0]!] ?? { agreement: 1, waitWithin: WAIT_WITHIN_S };
}
