#!/usr/bin/env node
// Builds the dashboard (web/) into dist/web/, which the daemon serves: GET / → index.html, GET /assets/<file>.
// Type-checks web/src (esbuild only strips types), bundles it with esbuild into one minified script with a source
// map, minifies the stylesheet, and stamps index.html's asset links with a content hash so a browser never mixes
// an old script with a new page. tsc writes the server's modules into the same folder: the daemon serves only the
// dashboard's file names (src/web/static-files.ts), so no name here may be one of theirs.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const out = join(root, 'dist', 'web');
const quiet = process.argv.includes('--quiet');

try {
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(web, 'tsconfig.json')], { cwd: root, stdio: 'pipe' });
} catch (e) {
  process.stderr.write(`build-web: type errors in web/src:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  process.exit(1);
}

mkdirSync(out, { recursive: true });
const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', target: ['es2022', 'chrome110', 'firefox115', 'safari16'] };
await Promise.all([
  build({ ...common, entryPoints: [join(web, 'src', 'main.ts')], outfile: join(out, 'app.js'), format: 'esm', sourcemap: 'linked' }),
  build({ ...common, entryPoints: [join(web, 'style.css')], outfile: join(out, 'style.css') }),
]);

const hash = (file) => createHash('sha256').update(readFileSync(join(out, file))).digest('hex').slice(0, 10);
const html = readFileSync(join(web, 'index.html'), 'utf8').replace(/\/assets\/(app\.js|style\.css)"/g, (_, f) => `/assets/${f}?v=${hash(f)}"`);
if (!html.includes('?v=')) throw new Error('build-web: index.html no longer links /assets/app.js and /assets/style.css');
writeFileSync(join(out, 'index.html'), html);

if (!quiet) {
  const size = (f) => `${f} ${(statSync(join(out, f)).size / 1024).toFixed(1)} kB`;
  console.log(`build-web: dist/web/ ${['index.html', 'app.js', 'style.css', 'app.js.map'].map(size).join(', ')}`);
}
