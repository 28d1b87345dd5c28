#!/usr/bin/env node
// Writes the screen tests of agents we cannot record here: tests/fixtures/screens/<agent>-<what>/{session.cast,
// truth.json}, one per scenario of scripts/screens/agents/*.mjs. Deterministic: the same scripts write the same
// files. `--check` writes nothing and fails when a file differs from what the scripts make (a stale fixture).
// Usage: node scripts/screens/generate.mjs [--check] [--only name,...]
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const OUT = join(root, 'tests', 'fixtures', 'screens');
export const AGENTS = ['crush', 'cursor', 'copilot', 'cline', 'amp', 'aider', 'kimi'];

const args = process.argv.slice(2);
const check = args.includes('--check');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1].split(',') : null;

let stale = 0;
for (const agent of AGENTS) {
  const { scenarios } = await import(join(here, 'agents', `${agent}.mjs`));
  for (const { name, script } of scenarios) {
    if (only && !only.includes(name)) continue;
    if (!name.startsWith(`${agent}-`)) throw new Error(`${name}: a scenario's name starts with its agent (the scorer's {agent})`);
    const dir = join(OUT, name);
    const files = { 'session.cast': script.cast(), 'truth.json': JSON.stringify(script.truthJson(), null, 1) + '\n' };
    for (const [file, text] of Object.entries(files)) {
      const path = join(dir, file);
      if (check) {
        if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
          console.error(`stale: ${name}/${file}`);
          stale++;
        }
        continue;
      }
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, text);
    }
    if (!check) console.log(`${name}: ${script.truthJson().duration}s, ${script.events.length} events`);
  }
}
if (stale) process.exit(1);
