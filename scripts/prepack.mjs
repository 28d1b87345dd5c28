#!/usr/bin/env node
// npm's prepack (before `npm pack` / `npm publish`): the package ships dist/, so dist/ must be built from the
// sources being packed. Builds (`npm run build`) only when dist/ is stale, so packing a fresh tree costs a few stats:
//   - a src/**/*.ts newer than its dist/**/*.js, or with none;
//   - a dist/**/*.js whose source is gone (tsc never deletes it, so dist/ is removed and built whole);
//   - the dashboard (dist/web/index.html, app.js, style.css) missing or older than web/ or scripts/build-web.mjs;
//   - the native helper (dist/native/malloc_trim.node) missing or older than src/native/;
//   - the built schema validator (dist/config/schema-validator.cjs) missing or older than config/schema.json.
// `--check` only says whether it is stale (exit 1) or fresh (exit 0); `--root DIR` checks another tree (tests).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? args[rootAt + 1] : join(dirname(fileURLToPath(import.meta.url)), '..');
const checkOnly = args.includes('--check');

/** What build-web.mjs writes into dist/web/ (the rest of dist/web/ is tsc's, from src/web/). */
const WEB_OUTPUTS = ['index.html', 'app.js', 'style.css'];

function files(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

const mtime = (f) => statSync(f).mtimeMs;

/** Why dist/ must be built, and whether from scratch; null when it is fresh. */
function staleness() {
  const src = join(root, 'src');
  const dist = join(root, 'dist');
  // Orphans first: whatever else is stale, a build that leaves them would still ship them.
  for (const js of files(dist, (n) => n.endsWith('.js'))) {
    const rel = relative(dist, js);
    if (rel.startsWith('web/') && WEB_OUTPUTS.includes(rel.slice(4))) continue;
    if (!existsSync(join(src, rel).replace(/\.js$/, '.ts'))) return { why: `${relative(root, js)} has no source any more`, clean: true };
  }
  for (const ts of files(src, (n) => n.endsWith('.ts') && !n.endsWith('.d.ts'))) {
    const js = join(dist, relative(src, ts)).replace(/\.ts$/, '.js');
    if (!existsSync(js)) return { why: `${relative(root, js)} is missing` };
    if (mtime(js) < mtime(ts)) return { why: `${relative(root, ts)} is newer than ${relative(root, js)}` };
  }
  const webOut = WEB_OUTPUTS.map((n) => join(dist, 'web', n));
  const missing = webOut.find((f) => !existsSync(f));
  if (missing) return { why: `${relative(root, missing)} is missing` };
  const oldest = Math.min(...webOut.map(mtime));
  const newer = [...files(join(root, 'web'), () => true), join(root, 'scripts', 'build-web.mjs')].find((f) => existsSync(f) && mtime(f) > oldest);
  if (newer) return { why: `${relative(root, newer)} is newer than the built dashboard` };
  // The native helper (scripts/build-native.mjs): dist/native/malloc_trim.node, built from src/native/malloc-trim.
  const native = join(dist, 'native', 'malloc_trim.node');
  if (!existsSync(native)) return { why: `${relative(root, native)} is missing` };
  const nativeSrc = files(join(src, 'native'), (n) => n.endsWith('.c') || n.endsWith('.gyp')).find((f) => mtime(f) > mtime(native));
  if (nativeSrc) return { why: `${relative(root, nativeSrc)} is newer than ${relative(root, native)}` };
  // scripts/build-schema-validator.mjs: config/schema.json compiled once (a stale one is only ever a slower start).
  const validator = join(dist, 'config', 'schema-validator.cjs');
  if (!existsSync(validator)) return { why: `${relative(root, validator)} is missing` };
  const schema = join(root, 'config', 'schema.json');
  if (existsSync(schema) && mtime(schema) > mtime(validator)) return { why: `config/schema.json is newer than ${relative(root, validator)}` };
  return null;
}

const stale = staleness();
if (checkOnly) {
  process.stdout.write(stale ? `stale: ${stale.why}\n` : 'fresh\n');
  process.exit(stale ? 1 : 0);
}
if (!stale) {
  process.stderr.write('prepack: dist/ is up to date\n');
  process.exit(0);
}
process.stderr.write(`prepack: building (${stale.why})\n`);
if (stale.clean) rmSync(join(root, 'dist'), { recursive: true, force: true });
// npm sets npm_execpath for scripts; run the package's own build script with that same npm.
const npm = process.env.npm_execpath;
const r = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' }) : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
// tsc (incremental) does not rewrite an output whose source was only touched; after a good build every output is
// current, so mark it so, or the next pack would build again for nothing.
const now = new Date();
for (const ts of files(join(root, 'src'), (n) => n.endsWith('.ts') && !n.endsWith('.d.ts'))) {
  const js = join(root, 'dist', relative(join(root, 'src'), ts)).replace(/\.ts$/, '.js');
  if (existsSync(js) && mtime(js) < mtime(ts)) utimesSync(js, now, now);
}
const after = staleness();
if (after) {
  process.stderr.write(`prepack: still stale after the build: ${after.why}\n`);
  process.exit(1);
}
