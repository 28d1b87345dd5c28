// The committed test agent zoo (tests/fixtures/zoo/<agent>-<nnn>/: session.cast.gz + truth.json): unpacked into a
// temporary folder the official scorer can read (it wants session.cast), and scored there in parallel chunks.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, existsSync, writeFileSync, copyFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ROOT } from './screen.js';
import { score, type ScoreMode, type ScoreRow } from './scorer.js';

export const ZOO = join(ROOT, 'tests', 'fixtures', 'zoo');

/** Variant folders of the committed zoo. */
export function zooNames(dir = ZOO): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((d) => existsSync(join(dir, d, 'truth.json')) && (existsSync(join(dir, d, 'session.cast.gz')) || existsSync(join(dir, d, 'session.cast'))))
    .sort();
}

/** Copies the zoo into a fresh temporary folder with every cast unpacked; returns the folder. */
export function unpackZoo(dir = ZOO): string {
  const out = mkdtempSync(join(tmpdir(), 'zoo-'));
  for (const n of zooNames(dir)) {
    mkdirSync(join(out, n));
    copyFileSync(join(dir, n, 'truth.json'), join(out, n, 'truth.json'));
    const gz = join(dir, n, 'session.cast.gz');
    if (existsSync(gz)) writeFileSync(join(out, n, 'session.cast'), gunzipSync(readFileSync(gz)));
    else copyFileSync(join(dir, n, 'session.cast'), join(out, n, 'session.cast'));
  }
  return out;
}

/** Scorer processes at once: one per core (each runs one replay at a time). */
const PARALLEL = Math.max(1, availableParallelism());
/** Variants per scorer process: small enough that the chunks share the cores evenly to the end. */
const CHUNK = 20;

/** Scores every variant in `dir` (an unpacked zoo) in each mode, chunks in parallel across the modes. */
export async function scoreZoo(dir: string, modes: readonly ScoreMode[], timeoutMs = 300_000): Promise<Record<string, ScoreRow[]>> {
  const names = zooNames(dir);
  const jobs: { mode: ScoreMode; only: string[] }[] = [];
  for (let i = 0; i < names.length; i += CHUNK) for (const mode of modes) jobs.push({ mode, only: names.slice(i, i + CHUNK) });
  const rows: Record<string, ScoreRow[]> = Object.fromEntries(modes.map((m) => [m, []]));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const j = jobs[next++]!;
      const s = await score(dir, j.mode, timeoutMs, j.only);
      // `only` matches by substring: keep the chunk's own variants
      rows[j.mode]!.push(...s.rows.filter((r) => j.only.includes(r.rec)));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  for (const m of modes) rows[m]!.sort((a, b) => a.rec.localeCompare(b.rec));
  return rows;
}

export interface ZooSummary {
  recordings: number;
  mean_agreement: number;
  missed_done: number;
  missed_wait: number;
  false_done: number;
  false_wait: number;
  errors: number;
}

export function summarize(rows: readonly ScoreRow[]): ZooSummary {
  const sum = (k: 'missed_done' | 'missed_wait' | 'false_done' | 'false_wait'): number => rows.reduce((a, r) => a + r[k], 0);
  return {
    recordings: rows.length,
    mean_agreement: rows.length ? Number((rows.reduce((a, r) => a + (r.agreement ?? 0), 0) / rows.length).toFixed(4)) : 0,
    missed_done: sum('missed_done'),
    missed_wait: sum('missed_wait'),
    false_done: sum('false_done'),
    false_wait: sum('false_wait'),
    errors: rows.filter((r) => r.error).length,
  };
}

/** A variant's scenario line and options, from its truth.json. */
export function variantOf(dir: string, name: string): { scenario: string; options: unknown } {
  const t = JSON.parse(readFileSync(join(dir, name, 'truth.json'), 'utf8')) as { scenario: string; variant: { options: unknown } };
  return { scenario: t.scenario, options: t.variant.options };
}
