// Builds the dashboard assets (scripts/build-web.mjs) when dist/web/ is missing or older than web/; one builder at
// a time across test workers (a lock directory, as tests/helpers/build.ts does for tsc).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './screen.js';
import { withBuildLock } from './build.js';

const INDEX = join(ROOT, 'dist', 'web', 'index.html');
const LOCK = join(ROOT, 'node_modules', '.cache', 'termsupervisor-tests', 'web-build.lock');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const stale = () => !existsSync(INDEX) || Math.max(newest(join(ROOT, 'web')), statSync(join(ROOT, 'src', 'web', 'api-types.ts')).mtimeMs) > statSync(INDEX).mtimeMs;

export function ensureWebBuilt(): void {
  if (!stale()) return;
  withBuildLock(LOCK, () => {
    if (!stale()) return;
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-web.mjs'), '--quiet'], { cwd: ROOT, stdio: 'pipe' });
    } catch (e) {
      const err = e as { stderr?: Buffer; message: string };
      throw new Error(`node scripts/build-web.mjs failed:\n${err.stderr?.toString() ?? err.message}`);
    }
  });
}
