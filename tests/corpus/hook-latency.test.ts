// Our recordings that carry hook calls ("h" events) stamp each call when the hook command ran; the daemon hears of
// it later (the hook is a process that starts Node and posts), while the screen moves on. So each one is also scored
// with its hook calls 0.1 s and 0.3 s late, and with none at all (hooks not installed, the screen alone): the same
// bar, agreement 1.0, nothing missed, no false alarm. The variants are written to a scratch folder and scored by the
// official scorer (on lines replayed in this process, tests/helpers/scorer.ts).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { ROOT } from '../helpers/screen.js';
import { bar, score } from '../helpers/scorer.js';

const RECORDINGS = join(ROOT, 'tests', 'fixtures', 'recordings');
/** Hook delivery delays tried (seconds): a quick hook process, a slow one on a busy machine. */
const DELAYS = [0.1, 0.3];

const withHooks = readdirSync(RECORDINGS)
  .filter((d) => existsSync(join(RECORDINGS, d, 'session.cast')) && /^\[[^\]]*,\s*"h",/m.test(readFileSync(join(RECORDINGS, d, 'session.cast'), 'utf8')))
  .sort();

/** The cast with every hook call `delay` seconds later (null: without hook calls), events in time order. */
function variant(cast: string, delay: number | null): string {
  const [header, ...lines] = cast.split('\n').filter((l) => l.trim());
  const events = lines.map((l) => JSON.parse(l) as [number, string, string]);
  const kept = delay === null ? events.filter((e) => e[1] !== 'h') : events.map((e): [number, string, string] => (e[1] === 'h' ? [e[0] + delay, e[1], e[2]] : e));
  // stable: a hook moved onto an output's time stays after it
  kept.sort((a, b) => a[0] - b[0]);
  return [header, ...kept.map((e) => JSON.stringify(e))].join('\n') + '\n';
}

interface Row {
  rec: string;
  agreement: number | null;
  missed_done: number;
  missed_wait: number;
  false_done: number;
  false_wait: number;
  error: string | null;
}

const dir = mkdtempSync(join(tmpdir(), 'ts-hook-latency-'));
const names: string[] = [];
let rows: Row[] = [];

beforeAll(async () => {
  ensureBuilt();
  for (const rec of withHooks) {
    const cast = readFileSync(join(RECORDINGS, rec, 'session.cast'), 'utf8');
    for (const delay of [...DELAYS, null]) {
      const name = `${rec}-${delay === null ? 'no-hooks' : `late-${delay}s`}`;
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'session.cast'), variant(cast, delay));
      copyFileSync(join(RECORDINGS, rec, 'truth.json'), join(dir, name, 'truth.json'));
      names.push(name);
    }
  }
  rows = (await score(dir, 'auto')).rows;
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recordings with hook calls, the calls late or absent', () => {
  it('there are such recordings, and every variant was scored', () => {
    expect(withHooks.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.rec).sort()).toEqual([...names].sort());
  });

  it("every variant: agreement 1.0 (or its family's bar), nothing missed, no false alarm", () => {
    const bad = rows.filter((r) => r.error !== null || (r.agreement ?? 0) < bar(r.rec).agreement || r.missed_done + r.missed_wait + r.false_done + r.false_wait > 0);
    expect(bad.map((r) => JSON.stringify(r))).toEqual([]);
  });
});
