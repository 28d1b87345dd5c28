#!/usr/bin/env node
// Records a zoo: N variants of one zoo agent (tests/zoo/variants.mjs), two at a time at most, into
// OUT/<agent>-<nnn>/ (session.cast.gz + truth.json).
//   node tests/zoo/generate.mjs --agent ink|fullscreen --count 250 --seed 1 --out tests/fixtures/zoo [--start 0]
//     [--only 9,10,23] (just these indices, e.g. to re-record some) [--resume] (skip recorded ones) [--plain]
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recordVariant } from './record-variant.mjs';
import { variant, variants } from './variants.mjs';

/** Variants recorded at once: each is a real agent in a real PTY, on a machine shared with others. */
const PARALLEL = 2;
/** A variant whose recording fails (the driver timed out on a loaded machine) is tried this many times in all. */
const ATTEMPTS = 2;

const args = process.argv.slice(2);
const opt = (k, d) => {
  const i = args.indexOf(k);
  return i >= 0 ? args[i + 1] : d;
};
const agent = opt('--agent', 'ink');
const count = Number(opt('--count', '10'));
const seed = Number(opt('--seed', '1'));
const start = Number(opt('--start', '0'));
const out = resolve(opt('--out', 'tests/fixtures/zoo'));
const skipDone = args.includes('--resume');
const only = opt('--only', '') ? opt('--only').split(',').map(Number) : null;
const all = only ? only.map((i) => variant(agent, seed, i)) : variants(agent, seed, count, start);
const list = all.filter((v) => !(skipDone && existsSync(join(out, v.name, 'truth.json'))));

const failed = [];
let next = 0;
async function worker() {
  while (next < list.length) {
    const v = list[next++];
    const t = Date.now();
    for (let a = 1; a <= ATTEMPTS; a++) {
      try {
        const truth = await recordVariant(v, join(out, v.name), { gzip: !args.includes('--plain') });
        console.log(`${v.name} ${((Date.now() - t) / 1000).toFixed(1)}s ${truth.segments.map((s) => s.state[0]).join('')} ${v.scenario}`);
        break;
      } catch (e) {
        console.error(`${v.name} attempt ${a}: ${e.message.split('\n')[0]}`);
        if (a === ATTEMPTS) failed.push(v.name);
      }
    }
  }
}
await Promise.all(Array.from({ length: PARALLEL }, worker));
if (failed.length) {
  console.error(`failed: ${failed.join(' ')}`);
  process.exit(1);
}
