// The same recordings played faster, slower, and with every output chunk split in two: the recordings we do not
// have differ in exactly such ways (pace, how a pty cuts a frame). The bar must hold on each variant.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { score, type Score } from '../helpers/scorer.js';
import { CORPUS, corpusNames } from '../helpers/screen.js';
import { Prng } from '../../src/bench/prng.js';

/** A split chunk's second half arrives this much later (a pty read boundary inside a frame). */
const SPLIT_DELAY_S = 0.004;

type Event = [number, string, string];
interface Variant {
  name: string;
  cast: (events: Event[]) => Event[];
  truthScale: number;
}

const scaled = (k: number): Variant => ({ name: `x${k}`, truthScale: k, cast: (ev) => ev.map(([t, c, d]) => [t * k, c, d]) });
const split: Variant = {
  name: 'split',
  truthScale: 1,
  cast: (ev) => {
    const r = new Prng(7);
    return ev.flatMap(([t, c, d]): Event[] => {
      if (c !== 'o' || d.length < 4) return [[t, c, d]];
      const k = r.int(1, d.length - 1);
      return [[t, c, d.slice(0, k)], [t + SPLIT_DELAY_S, c, d.slice(k)]];
    });
  },
};
const VARIANTS = [scaled(0.5), scaled(2), split];

let dir = '';
const results = new Map<string, Score>();

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ts-variants-'));
  for (const v of VARIANTS) {
    for (const name of corpusNames()) {
      const out = join(dir, v.name, name);
      mkdirSync(out, { recursive: true });
      const [head, ...lines] = readFileSync(join(CORPUS, name, 'session.cast'), 'utf8').split('\n').filter((l) => l.trim());
      const header = JSON.parse(head!) as { duration?: number };
      if (typeof header.duration === 'number') header.duration *= v.truthScale;
      const events = v.cast(lines.map((l) => JSON.parse(l) as Event));
      writeFileSync(join(out, 'session.cast'), [JSON.stringify(header), ...events.map((e) => JSON.stringify(e))].join('\n') + '\n');
      const truth = JSON.parse(readFileSync(join(CORPUS, name, 'truth.json'), 'utf8')) as { segments: Array<{ start: number; end: number }>; events: Array<{ t: number }> };
      for (const s of truth.segments) {
        s.start *= v.truthScale;
        s.end *= v.truthScale;
      }
      for (const e of truth.events) e.t *= v.truthScale;
      writeFileSync(join(out, 'truth.json'), JSON.stringify(truth));
    }
  }
  await Promise.all(VARIANTS.map(async (v) => results.set(v.name, await score(join(dir, v.name), 'auto', 170_000))));
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the bar on paced and re-chunked variants of the corpus', () => {
  for (const v of VARIANTS) {
    it(`${v.name}`, () => {
      const res = results.get(v.name)!;
      const s = res.summary;
      const bad = res.rows.filter((r) => r['agreement'] !== 1 || r['missed_done'] || r['missed_wait'] || r['false_done'] || r['false_wait']);
      const detail = `${JSON.stringify(s)}\n${bad.map((r) => JSON.stringify(r)).join('\n')}`;
      expect(s['errors'], detail).toBe(0);
      expect(s['mean_agreement'], detail).toBeGreaterThanOrEqual(0.98);
      expect(s['missed_done'], detail).toBe(0);
      expect(s['missed_wait'], detail).toBe(0);
      expect(s['false_done'], detail).toBe(0);
      expect(s['false_wait'], detail).toBe(0);
      expect(s['done_latency_median'], detail).toBeLessThanOrEqual(0.5);
      expect(s['done_latency_max'], detail).toBeLessThanOrEqual(3);
    });
  }
});
