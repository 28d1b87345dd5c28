#!/usr/bin/env node
// Prints a zoo cast's screen at given times (a real headless xterm), for looking at a variant by eye.
//   node tests/zoo/show.mjs tests/fixtures/zoo/ink-000 3.5 [7 ...]
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const { Terminal } = require('@xterm/headless');
const [dir, ...times] = process.argv.slice(2);
const gz = join(dir, 'session.cast.gz');
const text = existsSync(gz) ? gunzipSync(readFileSync(gz)).toString('utf8') : readFileSync(join(dir, 'session.cast'), 'utf8');
const [head, ...lines] = text.trim().split('\n');
const hd = JSON.parse(head);
const events = lines.map((l) => JSON.parse(l)).filter((e) => e[1] === 'o');
for (const at of times.map(Number)) {
  const term = new Terminal({ cols: hd.width, rows: hd.height, allowProposedApi: true });
  for (const [t, , d] of events) if (t <= at) term.write(d);
  await new Promise((r) => term.write('', r));
  const b = term.buffer.active;
  console.log(`--- t=${at} cursor=(${b.cursorX},${b.cursorY}) ${b.type}`);
  for (let y = 0; y < hd.height; y++) console.log(`${String(y).padStart(2)}|${b.getLine(b.viewportY + y)?.translateToString(true) ?? ''}`);
}
