// Runs the official scorer (tests/fixtures/score.mjs, shipped with the fixtures) on a folder of recordings,
// auto-detected (`replay`) and forced (`replay --agent {agent}`), for the corpus tests. Two ways to make the lines it
// scores: the built CLI run once per recording (`via: 'cli'`, what a person runs), or the same pipeline replayed
// in this process beforehand (`replayCast` and the CLI's own jsonl printing), the scorer's command then printing the
// lines made for the cast it was handed (found by its bytes): the same lines, without starting a Node process per
// recording, which was most of `make test`'s corpus time (the zoo alone: 720 processes).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { BIN } from './build.js';
import { ROOT } from './screen.js';
import { AGENT_CHOICES, type AgentChoice } from '../../src/config/config.js';
import { ReplaySource } from '../../src/attach/replay-source.js';
import { replayCast } from '../../src/daemon/replay.js';
import { configFor } from '../../src/cli/load-config.js';
import { jsonl } from '../../src/cli/replay.js';
import { printableJson } from '../../src/cli/printable.js';

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

/** How the scored lines are made: the CLI per recording, or the pipeline in this process (see the top). */
export type ScoreVia = 'cli' | 'in-process';

/** `only`: the recordings whose names contain one of these words (the scorer's --only). */
export async function score(corpus: string, mode: ScoreMode, timeoutMs = 240_000, only?: readonly string[], via: ScoreVia = 'in-process'): Promise<Score> {
  const made = via === 'in-process' ? await replayInProcess(corpus, mode, only) : null;
  try {
    const cmd = made ? `cat "${made}/$(sha1sum < {cast} | cut -c1-40).jsonl"` : SCORE_MODES[mode];
    const args = [SCORER, '--corpus', corpus, '--json', '--cmd', cmd, ...(only ? ['--only', only.join(',')] : [])];
    const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 64 << 20, timeout: timeoutMs });
    return JSON.parse(stdout) as Score;
  } finally {
    if (made) rmSync(made, { recursive: true, force: true });
  }
}

/** The lines `replay <file> --agent <agent> --format jsonl` prints, made by the same pipeline in this process. */
export async function replayLines(file: string, agent: AgentChoice = 'auto', cfg = configFor(undefined)): Promise<string[]> {
  const lines: string[] = [];
  await replayCast(await ReplaySource.fromFile(file), cfg, agent, (tr) => lines.push(printableJson(jsonl(tr))));
  return lines;
}

/** Replays every recording the scorer will score, as `replay` would print it in `mode`, into a folder of
 * `<sha1 of the cast>.jsonl` files. A recording the CLI would refuse (a family no --agent names) gets no file: the
 * scorer's command fails for it, as the CLI's would. */
async function replayInProcess(corpus: string, mode: ScoreMode, only?: readonly string[]): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'ts-score-'));
  const cfg = configFor(undefined);
  for (const d of recordingNames(corpus).filter((n) => !only || only.some((o) => n.includes(o)))) {
    const file = join(corpus, d, 'session.cast');
    const agent = mode === 'forced' ? d.split('-')[0]! : mode;
    if (!(AGENT_CHOICES as readonly string[]).includes(agent)) continue;
    const lines = await replayLines(file, agent as AgentChoice, cfg);
    const sha = createHash('sha1').update(readFileSync(file)).digest('hex');
    writeFileSync(join(out, `${sha}.jsonl`), lines.map((l) => l + '\n').join(''));
  }
  return out;
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
