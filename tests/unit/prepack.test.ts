// scripts/prepack.mjs on small real trees: dist/ counts as fresh only when every source has a newer output, no
// output lost its source, and the dashboard is newer than web/; when stale it runs the package's build script once
// (npm run build), when fresh it runs nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'prepack.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes `file` under `root` with the given age in seconds (older = larger). */
function put(root: string, file: string, ageS: number, text = ''): void {
  const f = join(root, file);
  mkdirSync(dirname(f), { recursive: true });
  writeFileSync(f, text);
  const t = new Date(Date.now() - ageS * 1000);
  utimesSync(f, t, t);
}

/** A built tree: sources older than their outputs. Its "build" only counts its runs and brings dist/ up to date. */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'ts-prepack-'));
  dirs.push(root);
  put(root, 'src/cli/main.ts', 100);
  put(root, 'src/web/auth.ts', 100);
  put(root, 'web/src/main.ts', 100);
  put(root, 'scripts/build-web.mjs', 100);
  put(root, 'src/native/malloc-trim/malloc_trim.c', 100);
  put(root, 'config/schema.json', 100);
  for (const f of ['dist/cli/main.js', 'dist/web/auth.js', 'dist/web/index.html', 'dist/web/app.js', 'dist/web/style.css', 'dist/native/malloc_trim.node', 'dist/config/schema-validator.cjs']) put(root, f, 50);
  put(root, 'build.mjs', 100, `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync('builds', 'x');
for (const f of ['dist/cli/main.js', 'dist/web/auth.js', 'dist/web/index.html', 'dist/web/app.js', 'dist/web/style.css', 'dist/native/malloc_trim.node', 'dist/config/schema-validator.cjs']) writeFileSync(f, '');
`);
  put(root, 'package.json', 100, JSON.stringify({ name: 't', version: '1.0.0', scripts: { build: 'node build.mjs' } }));
  return root;
}

function check(root: string): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [SCRIPT, '--check', '--root', root], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout.trim() };
}

describe('prepack freshness', () => {
  it('a built tree is fresh (the dashboard outputs are not mistaken for sourceless modules)', () => {
    expect(check(tree())).toEqual({ code: 0, out: 'fresh' });
  });

  it('is stale when a source is newer than its output, or its output is missing', () => {
    const a = tree();
    put(a, 'src/cli/main.ts', 10);
    expect(check(a)).toEqual({ code: 1, out: 'stale: src/cli/main.ts is newer than dist/cli/main.js' });
    const b = tree();
    put(b, 'src/cli/new.ts', 100);
    expect(check(b)).toEqual({ code: 1, out: 'stale: dist/cli/new.js is missing' });
  });

  it('is stale when a built module lost its source, or web/ changed after the dashboard was built', () => {
    const a = tree();
    put(a, 'dist/cli/gone.js', 50);
    expect(check(a)).toEqual({ code: 1, out: 'stale: dist/cli/gone.js has no source any more' });
    const b = tree();
    put(b, 'web/style.css', 10);
    expect(check(b)).toEqual({ code: 1, out: 'stale: web/style.css is newer than the built dashboard' });
  });

  // The outputs built by a script of their own, each from one source: stale when older than it, or missing.
  it.each([
    ['the native helper', 'src/native/malloc-trim/malloc_trim.c', 'dist/native/malloc_trim.node'],
    ['the built schema validator', 'config/schema.json', 'dist/config/schema-validator.cjs'],
  ])('is stale when %s is missing or older than its source', (_what, source, output) => {
    const a = tree();
    put(a, source, 10);
    expect(check(a)).toEqual({ code: 1, out: `stale: ${source} is newer than ${output}` });
    const b = tree();
    rmSync(join(b, output));
    expect(check(b)).toEqual({ code: 1, out: `stale: ${output} is missing` });
  });
});

describe('prepack', () => {
  it('builds a stale tree once and leaves a fresh one alone', () => {
    const root = tree();
    const run = () => spawnSync(process.execPath, [SCRIPT, '--root', root], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_execpath: '' } });
    expect(run().status).toBe(0);
    expect(existsSync(join(root, 'builds'))).toBe(false);

    put(root, 'src/cli/main.ts', 10);
    const r = run();
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(root, 'builds'), 'utf8')).toBe('x');
    expect(check(root).code).toBe(0);
    expect(run().status).toBe(0);
    expect(readFileSync(join(root, 'builds'), 'utf8')).toBe('x');
  });
});
