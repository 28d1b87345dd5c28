#!/usr/bin/env node
// Compiles config/schema.json once, at build time, into ajv's standalone validator (dist/config/schema-validator.cjs),
// so no command compiles it at run time (src/config/schema-validator.ts says why, and falls back when it is stale).
// Runs after tsc (it uses the built module, so the build and the run-time fallback share one set of ajv options).
// Skipped when the output is newer than the schema, the built module and this script.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schema = join(root, 'config', 'schema.json');
const compiler = join(root, 'dist', 'config', 'schema-validator.js');
const { PRECOMPILED_NAME, standaloneValidatorSource } = await import(pathToFileURL(compiler).href);
const out = join(root, 'dist', 'config', PRECOMPILED_NAME);

const newest = Math.max(...[schema, compiler, fileURLToPath(import.meta.url)].map((f) => statSync(f).mtimeMs));
if (existsSync(out) && statSync(out).mtimeMs >= newest) process.exit(0);
writeFileSync(out, standaloneValidatorSource(readFileSync(schema, 'utf8')));
