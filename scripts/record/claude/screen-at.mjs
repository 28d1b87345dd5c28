#!/usr/bin/env node
// Prints a recording's screen at given times (what a headless terminal shows after every "o" event up to each time),
// with the hook calls and keys in between: for reading a recording while writing its scenario, never for truth.
//   node scripts/record/claude/screen-at.mjs session.cast 10.0 10.05 10.3
import { readFileSync } from 'node:fs';
import xterm from '@xterm/headless';

const [file, ...times] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const header = JSON.parse(lines[0]);
const events = lines.slice(1).map((l) => JSON.parse(l));
const term = new xterm.Terminal({ cols: header.width, rows: header.height, allowProposedApi: true });
const write = (d) => new Promise((r) => term.write(d, r));
let i = 0;
for (const t of times.map(Number).sort((a, b) => a - b)) {
  for (; i < events.length && events[i][0] <= t; i++) {
    const [et, code, data] = events[i];
    if (code === 'o') await write(data);
    else if (code === 'h') console.log(`${et.toFixed(3)} hook ${JSON.parse(data).event}`);
    else if (code === 'i') console.log(`${et.toFixed(3)} key ${JSON.stringify(data)}`);
  }
  const buf = term.buffer.active;
  const rows = [];
  for (let y = 0; y < header.height; y++) rows.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
  while (rows.length && rows[rows.length - 1] === '') rows.pop();
  console.log(`--- ${t} title=${JSON.stringify(term.title ?? '')}\n${rows.filter((r) => r.trim()).map((r) => `|${r}`).join('\n')}`);
}
