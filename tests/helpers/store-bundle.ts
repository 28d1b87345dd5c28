// Bundles a test's child-process script (and the store it imports) into one .mjs, straight from src/: the crash
// test then runs the code under test without waiting on, or being broken by, a build of the whole project.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

export async function bundleScript(entry: string, outDir: string): Promise<string> {
  const outfile = join(outDir, 'child.mjs');
  // the native module stays outside the bundle, imported from this checkout's node_modules by absolute URL
  const sqlite = pathToFileURL(require.resolve('better-sqlite3')).href;
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [{ name: 'native', setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })) }],
  });
  return outfile;
}
