// The zoo's recorder, live: fresh random variants of each zoo agent (three Ink, two full-screen) recorded in real PTYs, and what the
// recorder wrote checked for form (an asciicast v2 with output and the driver's keys; a truth.json in the corpus
// FORMAT) and for a consistent timeline (every turn submitted ends once, every question is answered, the segments
// cover the session). Not scoring-sensitive: no detector runs here.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs tools, no type declarations
import { recordVariant } from '../zoo/record-variant.mjs';
// @ts-expect-error plain .mjs tools, no type declarations
import { variant, ANSWER_KEYS } from '../zoo/variants.mjs';
// @ts-expect-error plain .mjs tools, no type declarations
import { FULLSCREEN_ANSWER_KEYS } from '../zoo/fullscreen-variants.mjs';

interface Ev {
  t: number;
  kind: string;
  queued?: boolean;
}
interface Seg {
  start: number;
  end: number;
  state: string;
}
const STATES = new Set(['IDLE', 'RUNNING', 'WAITING_APPROVAL', 'DONE', 'FAILED']);
const ENDS = new Set(['turn_complete', 'turn_failed']);
/** Per agent: the variants recorded, words its question always shows, its question style and the styles it knows. */
const AGENTS = [
  { agent: 'ink', indices: [0, 1, 2], asks: 'npm test', style: (o: { question: string }) => o.question, styles: Object.keys(ANSWER_KEYS) },
  { agent: 'fullscreen', indices: [0, 1], asks: 'rm -rf build', style: (o: { question_style: string }) => o.question_style, styles: Object.keys(FULLSCREEN_ANSWER_KEYS) },
];
/** Fresh variants each run (the seed is printed to record the same again). */
const SEED = Date.now() % 1_000_000;
const out = mkdtempSync(join(tmpdir(), 'zoo-live-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe(`the zoo recorder, live (seed ${SEED})`, () => {
  for (const { agent, indices, asks, style, styles } of AGENTS) for (const i of indices) {
    it(`records ${agent} variant ${i} well-formed, with a consistent timeline`, async () => {
      const v = variant(agent, SEED, i);
      const truth = await recordVariant(v, join(out, v.name));
      const text = gunzipSync(readFileSync(join(out, v.name, 'session.cast.gz'))).toString('utf8');
      const [head, ...lines] = text.trimEnd().split('\n');
      const header = JSON.parse(head!) as { version: number; width: number; height: number; duration: number };
      expect(header).toMatchObject({ version: 2, width: v.cols, height: v.rows });
      const cast = lines.map((l) => JSON.parse(l) as [number, string, string]);
      let last = 0;
      for (const [t, k, d] of cast) {
        expect(t).toBeGreaterThanOrEqual(last);
        expect(['o', 'i']).toContain(k);
        expect(typeof d).toBe('string');
        last = t;
      }
      expect(last).toBeLessThanOrEqual(truth.duration + 0.5);
      const typed = cast.filter((e) => e[1] === 'i').map((e) => e[2]).join('');
      expect(typed.split('\r').length - 1, 'an Enter per prompt at least').toBeGreaterThanOrEqual(1);
      const output = cast.filter((e) => e[1] === 'o').map((e) => e[2]).join('');
      expect(output.length).toBeGreaterThan(100);

      expect(truth).toMatchObject({ source: `zoo-${agent}`, cols: v.cols, rows: v.rows });
      const ev = truth.events as Ev[];
      for (let k = 1; k < ev.length; k++) expect(ev[k]!.t).toBeGreaterThanOrEqual(ev[k - 1]!.t);
      const ready = ev.find((e) => e.kind === 'ready');
      expect(ready, 'the agent said when its input box was drawn').toBeDefined();
      // every turn starts after ready, ends exactly once before the next starts (a queued one starts as it ends)
      let open = false;
      let turns = 0;
      let asking = false;
      for (const e of ev) {
        if (e.kind === 'prompt_submitted') {
          expect(open, JSON.stringify(ev)).toBe(false);
          expect(e.t).toBeGreaterThanOrEqual(ready!.t);
          open = true;
          turns++;
        } else if (ENDS.has(e.kind)) {
          expect(open, JSON.stringify(ev)).toBe(true);
          expect(asking, 'a turn ends with its question answered').toBe(false);
          open = false;
        } else if (e.kind === 'approval_requested') {
          expect(open).toBe(true);
          asking = true;
        } else if (e.kind === 'approval_given' || e.kind === 'approval_dismissed') {
          expect(asking).toBe(true);
          asking = false;
        } else if (e.kind === 'turn_interrupted') expect(open).toBe(true);
      }
      expect(open, 'the last turn ended before the agent exited').toBe(false);
      expect(turns, 'every scripted turn was used').toBe(v.options.turns.length);
      // a question's words reach the screen while it is asked
      const asked = ev.filter((e) => e.kind === 'approval_requested');
      for (const q of asked) {
        const shown = cast.filter((c) => c[1] === 'o' && c[0] >= q.t - 0.05).map((c) => c[2]).join('');
        expect(shown).toContain(asks);
      }
      expect(styles).toContain(style(v.options));

      const segs = truth.segments as Seg[];
      expect(segs[0]!.start).toBe(0);
      expect(segs[segs.length - 1]!.end).toBe(truth.duration);
      for (let k = 0; k < segs.length; k++) {
        expect(STATES.has(segs[k]!.state)).toBe(true);
        if (k > 0) expect(segs[k]!.start).toBe(segs[k - 1]!.end);
      }
      expect(segs.some((s) => s.state === 'RUNNING')).toBe(true);
      expect(['DONE', 'FAILED']).toContain(segs[segs.length - 1]!.state);
    }, 60_000);
  }
});
