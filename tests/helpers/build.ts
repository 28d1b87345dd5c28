// The CLI tests run bin/termsupervisor, which runs dist/. Build it when it is missing or older than src/ (the
// test files that need it may run in parallel workers: a lock directory keeps to one tsc at a time).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './screen.js';

const STAMP = join(ROOT, 'dist', '.tsbuildinfo');
const ENTRY = join(ROOT, 'dist', 'cli', 'main.js');
const CACHE = join(ROOT, 'node_modules', '.cache', 'termsupervisor-tests');
const LOCK = join(CACHE, 'build.lock');
/** Touched after each successful build: tsc leaves .tsbuildinfo alone when a source's mtime moved but not its text. */
const BUILT = join(CACHE, 'built');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  if (!existsSync(ENTRY) || !existsSync(STAMP)) return true;
  const built = Math.max(statSync(STAMP).mtimeMs, existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0);
  return newestSource(join(ROOT, 'src')) > built;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export function ensureBuilt(): void {
  if (!stale()) return;
  withBuildLock(LOCK, () => {
    if (!stale()) return;
    const started = Date.now();
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'pipe' });
    } catch (e) {
      const err = e as { stdout?: Buffer; message: string };
      throw new Error(`npx tsc -p tsconfig.json failed:\n${err.stdout?.toString() ?? err.message}`);
    }
    writeFileSync(BUILT, '');
    utimesSync(BUILT, new Date(started), new Date(started));
  });
}

/** Runs `build` holding a lock directory: test workers run in parallel, one of them builds at a time. */
export function withBuildLock(lock: string, build: () => void): void {
  mkdirSync(join(lock, '..'), { recursive: true });
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // another worker is building; a lock older than two minutes is left over from a killed run
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      if (i > 1200) throw new Error(`could not take the build lock ${lock}`);
      sleep(100);
    }
  }
  try {
    build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export const BIN = join(ROOT, 'bin', 'termsupervisor');
