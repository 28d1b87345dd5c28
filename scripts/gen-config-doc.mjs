#!/usr/bin/env node
// Writes config/schema.json and docs/config.md from config/default.jsonc (src/config/config-schema.ts and
// config-doc.ts, built into dist/). Run after changing a key or its comment:
// `npm run build && node scripts/gen-config-doc.mjs`. `--check` only compares (exit 1 if either is stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = (m) => import(pathToFileURL(join(root, 'dist', 'config', m)).href);
const { configDoc } = await load('config-doc.js');
const { configSchema, schemaText } = await load('config-schema.js');
const jsonc = readFileSync(join(root, 'config', 'default.jsonc'), 'utf8');
const outputs = [
  [join(root, 'config', 'schema.json'), schemaText(configSchema(jsonc))],
  [join(root, 'docs', 'config.md'), configDoc(jsonc)],
];
let stale = false;
for (const [target, text] of outputs) {
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {}
    if (current !== text) {
      process.stderr.write(`${target} is out of date with config/default.jsonc: run \`npm run build && node scripts/gen-config-doc.mjs\`\n`);
      stale = true;
    }
  } else {
    writeFileSync(target, text);
    process.stdout.write(`wrote ${target}\n`);
  }
}
if (stale) process.exit(1);
