#!/usr/bin/env node
// Writes docs/config.md from config/default.jsonc (src/config/config-doc.ts, built into dist/). Run after changing
// a key or its comment: `npm run build && node scripts/gen-config-doc.mjs`. `--check` only compares (exit 1 if stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { configDoc } = await import(pathToFileURL(join(root, 'dist', 'config', 'config-doc.js')).href);
const doc = configDoc(readFileSync(join(root, 'config', 'default.jsonc'), 'utf8'));
const target = join(root, 'docs', 'config.md');
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== doc) {
    process.stderr.write('docs/config.md is out of date with config/default.jsonc: run `npm run build && node scripts/gen-config-doc.mjs`\n');
    process.exit(1);
  }
} else {
  writeFileSync(target, doc);
  process.stdout.write(`wrote ${target}\n`);
}
