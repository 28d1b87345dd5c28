// Every runtime dependency is used by the shipped code (`npm ls --prod` lists nothing unused), and the hand-made
// parsers issue 17 replaced stay gone.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
