// A fake npm package in a scratch dir, named like a real agent's (`@google/gemini-cli`), whose entry point is the
// fake Node agent (fake-node-agent.cjs): what `run` and the daemon see of an agent started by its path or through
// `node`, with nothing of the agent's own but its package's name and command.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const AGENT = join(dirname(fileURLToPath(import.meta.url)), 'fake-node-agent.cjs');

/** Lays out `<dir>/node_modules/<name>/` with a package.json (`bin`: `{[bin]: "dist/index.js"}`, a `type: module`
 * marker without a name in dist/, as real builds have) and the fake agent as dist/index.js; returns the entry's path. */
export function fakeAgentPackage(dir: string, name: string, bin: string): string {
  const root = resolve(dir, 'node_modules', name);
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, version: '0.0.1', bin: { [bin]: 'dist/index.js' } }));
  writeFileSync(join(root, 'dist', 'package.json'), JSON.stringify({ type: 'commonjs' }));
  const entry = join(root, 'dist', 'index.js');
  copyFileSync(AGENT, entry);
  chmodSync(entry, 0o755);
  return entry;
}
