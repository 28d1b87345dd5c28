#!/usr/bin/env node
// Lists the recorded zoo variants (DIR/<name>/truth.json) whose texts carry a real agent's signature (a config
// `detection.*.screen` / `.title` regex): their options, typed prompts and drawn logo rows, as signatures.mjs reads them.
//   node tests/zoo/check-signatures.mjs [tests/fixtures/zoo]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { logoRows } from './agents/ink-look.mjs';
import { detectionRules, signaturesIn, stringsIn } from './signatures.mjs';

const dir = resolve(process.argv[2] ?? 'tests/fixtures/zoo');
const rules = await detectionRules();
let n = 0;
for (const name of readdirSync(dir).sort()) {
  const f = join(dir, name, 'truth.json');
  if (!existsSync(f)) continue;
  const truth = JSON.parse(readFileSync(f, 'utf8'));
  const v = truth.variant ?? { options: truth.options ?? {}, steps: [] };
  const o = v.options ?? {};
  const drawn = o.logo_lines ? logoRows(o.logo_lines, truth.cols, o.logo_kind) : [];
  const found = signaturesIn([...stringsIn(o), ...stringsIn(v.steps ?? []), ...drawn], rules);
  if (!found.length) continue;
  n++;
  console.log(`${name}\t${found.map((s) => `${JSON.stringify(s.text)} ~ detection.${s.agent}.${s.field}`).join('; ')}`);
}
console.log(`${n} variant(s) carry a signature`);
process.exitCode = n ? 1 : 0;
