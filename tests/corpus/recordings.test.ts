// The bar on our own recordings (tests/fixtures/recordings, made by scripts/record: real programs in a real PTY or
// a private tmux pane, truth from the driver's and the programs' clocks), scored by the official scorer with the
// built CLI in auto and forced (--agent <family>) modes; plus what the scorer does not look at: a failure the
// screen shows must be FAILED (not DONE), a success must never be FAILED, and every question must be WAITING
// within half a second.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
/** Issue 12, item 6: a question at the cursor is WAITING within this long of the program blocking on it. */
const WAIT_WITHIN_S = 0.5;

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
interface TruthEvent {
  t: number;
  kind: string;
  silent_failure?: boolean;
}
interface Segment {
  start: number;
  end: number;
  state: string;
}
interface Truth {
  events: TruthEvent[];
  segments: Segment[];
}
interface Line {
  t: number;
  state: string;
}

async function score(cmd: string): Promise<Score> {
  const { stdout } = await run(process.execPath, [SCORER, '--corpus', RECORDINGS, '--json', '--cmd', cmd], { cwd: ROOT, maxBuffer: 64 << 20, timeout: 150_000 });
  return JSON.parse(stdout) as Score;
}

const MODES = {
  auto: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --format jsonl`,
  forced: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} replay {cast} --agent {agent} --format jsonl`,
} as const;
const scores: Partial<Record<keyof typeof MODES, Score>> = {};
const timelines = new Map<string, Line[]>();

beforeAll(async () => {
  ensureBuilt();
  const [auto, forced] = await Promise.all([score(MODES.auto), score(MODES.forced)]);
  scores.auto = auto;
  scores.forced = forced;
  for (const name of NAMES) {
    const { stdout } = await run(process.execPath, [BIN, 'replay', join(RECORDINGS, name, 'session.cast'), '--format', 'jsonl'], { cwd: ROOT, maxBuffer: 16 << 20 });
    timelines.set(
      name,
      stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line),
    );
  }
}, 240_000);

function describeRow(r: Row): string {
  return `${r.rec}: agreement=${r.agreement} done_lat=${JSON.stringify(r.done_lat)} missed_done=${r.missed_done} wait_lat=${JSON.stringify(r.wait_lat)} missed_wait=${r.missed_wait} false_done=${r.false_done} false_wait=${r.false_wait}${r.error ? ` error=${r.error}` : ''}`;
}

function truthOf(name: string): Truth {
  return JSON.parse(readFileSync(join(RECORDINGS, name, 'truth.json'), 'utf8')) as Truth;
}

function stateAt(tl: Line[], t: number): string {
  let s = 'IDLE';
  for (const l of tl) {
    if (l.t > t) break;
    s = l.state;
  }
  return s;
}

for (const mode of Object.keys(MODES) as Array<keyof typeof MODES>) {
  describe(`recordings bar, ${mode === 'auto' ? 'auto-detected profile' : 'forced profile (--agent <family>)'}`, () => {
    it('scores every recording', () => {
      expect(NAMES.length).toBeGreaterThanOrEqual(20);
      expect(scores[mode]!.rows.map((r) => r.rec).sort()).toEqual(NAMES);
    });

    it('summary: agreement 1.0, nothing missed, nothing false', () => {
      const s = scores[mode]!.summary;
      const detail = `${JSON.stringify(s)}\n${scores[mode]!.rows.map(describeRow).join('\n')}`;
      expect(s.errors, detail).toBe(0);
      expect(s.mean_agreement, detail).toBe(1);
      expect(s.missed_done, detail).toBe(0);
      expect(s.missed_wait, detail).toBe(0);
      expect(s.false_done, detail).toBe(0);
      expect(s.false_wait, detail).toBe(0);
    });

    it.each(NAMES)(`%s: every question WAITING within ${WAIT_WITHIN_S} s`, (name) => {
      const r = scores[mode]!.rows.find((x) => x.rec === name)!;
      expect(r.missed_wait, describeRow(r)).toBe(0);
      for (const lat of r.wait_lat) expect(lat, describeRow(r)).toBeLessThanOrEqual(WAIT_WITHIN_S);
    });
  });
}

describe('failed or done, as the exit status says (where the screen can tell)', () => {
  it.each(NAMES)('%s', (name) => {
    const truth = truthOf(name);
    const tl = timelines.get(name)!;
    const detail = `${name}\n${tl.map((l) => `${l.t} ${l.state}`).join('\n')}`;
    for (const seg of truth.segments) {
      if (seg.state !== 'FAILED' && seg.state !== 'DONE') continue;
      // the command this end belongs to: the last one submitted before it
      const submitted = truth.events.filter((e) => e.kind === 'prompt_submitted' && e.t <= seg.start).pop();
      const at = stateAt(tl, seg.end - 0.05);
      if (seg.state === 'DONE') expect(at, `${detail}\nsuccess at ${seg.start} read as ${at}`).not.toBe('FAILED');
      else if (!submitted?.silent_failure) expect(at, `${detail}\nfailure at ${seg.start} read as ${at}`).toBe('FAILED');
      else expect(['DONE', 'FAILED'], `${detail}\nsilent failure at ${seg.start} read as ${at}`).toContain(at);
    }
  });
});
