// Every runtime dependency is used by the shipped code (`npm ls --prod` lists nothing unused), and the hand-made
// parsers issue 17 replaced stay gone.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/harness.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('dependencies', () => {
  it('each one in package.json is imported by src/', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const text = sources(join(ROOT, 'src')).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const dep of Object.keys(pkg.dependencies)) expect(text, dep).toMatch(new RegExp(`from '${dep.replace(/[/.]/g, '\\$&')}'`));
    for (const want of ['jsonc-parser', 'smol-toml', 'ajv']) expect(Object.keys(pkg.dependencies)).toContain(want);
  });

  it('the standard parsers are the ones in use', () => {
    expect(readFileSync(join(ROOT, 'src', 'cli', 'args.ts'), 'utf8')).toContain("from 'node:util'");
    expect(readFileSync(join(ROOT, 'src', 'config', 'jsonc.ts'), 'utf8')).toContain("from 'jsonc-parser'");
    expect(readFileSync(join(ROOT, 'src', 'hooks', 'codex-toml.ts'), 'utf8')).toContain("from 'smol-toml'");
    expect(existsSync(join(ROOT, 'config', 'schema.json'))).toBe(true);
  });
});

// Issue 26 item 19: `npm ci` warned EBADENGINE (cookie@2 wants Node 22, pulled by fastify's light-my-request) while
// package.json promised Node 20. Every package the lock installs must run on the oldest Node our `engines` admits.
describe('engines', () => {
  it('each installed package supports the oldest Node package.json promises', () => {
    // semver is in the tree (node-abi's) without types of its own: read through require, typed here.
    const semver = createRequire(import.meta.url)('semver') as { minVersion(r: string): { version: string } | null; satisfies(v: string, r: string): boolean };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const promised = (lock.packages[''].engines as { node: string }).node;
    const oldest = semver.minVersion(promised)!.version;
    // Optional platform builds (another OS's or Node's native binary) are skipped by npm, not warned about.
    const refused = Object.entries(lock.packages)
      .filter(([name, p]) => name !== '' && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name} wants node ${(p.engines as { node: string }).node}`);
    expect(refused, `oldest promised Node ${oldest}`).toEqual([]);
  });
});
