#!/usr/bin/env node
// Recomputes truth.json's segments from its events (after a change to scripts/record/truth.mjs), in place.
//   node scripts/record/resegment.mjs tests/fixtures/recordings/<name>...
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { segments } from './truth.mjs';

for (const dir of process.argv.slice(2)) {
  const file = join(dir, 'truth.json');
  const truth = JSON.parse(readFileSync(file, 'utf8'));
  truth.segments = segments(truth.events, truth.duration);
  writeFileSync(file, JSON.stringify(truth, null, 1) + '\n');
}
