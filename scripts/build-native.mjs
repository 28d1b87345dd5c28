#!/usr/bin/env node
// Builds the daemon's one native helper (src/native/malloc-trim: malloc_trim and mallinfo2 through Node-API) with
// node-gyp, the same toolchain node-pty is built with, and copies it to dist/native/malloc_trim.node, where
// src/daemon/malloc-trim.ts loads it. Skipped when the copy is newer than its sources. node-gyp is npm's own (npm
// puts it on PATH and in $npm_config_node_gyp for scripts), so this runs through `npm run build`.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'src', 'native', 'malloc-trim');
const sources = ['binding.gyp', 'malloc_trim.c'].map((f) => join(dir, f));
const out = join(root, 'dist', 'native', 'malloc_trim.node');

const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
if (existsSync(out) && statSync(out).mtimeMs >= newest) process.exit(0);

const gyp = process.env.npm_config_node_gyp;
const [cmd, args] = gyp ? [process.execPath, [gyp]] : ['node-gyp', []];
try {
  execFileSync(cmd, [...args, 'rebuild', '--directory', dir], { cwd: dir, stdio: 'pipe' });
} catch (e) {
  process.stderr.write(`build-native: node-gyp could not build ${dir} (run through \`npm run build\`, which provides node-gyp; it needs python3, make and a C compiler, as node-pty does):\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  process.exit(1);
}
mkdirSync(dirname(out), { recursive: true });
copyFileSync(join(dir, 'build', 'Release', 'malloc_trim.node'), out);
