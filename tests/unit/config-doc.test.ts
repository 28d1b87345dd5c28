// docs/config.md is generated from config/default.jsonc: it must be current, cover every key the loader knows,
// and a key without a comment must stop the generator (so new keys arrive documented).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDoc, commentedKeys, UndocumentedKeys } from '../../src/config/config-doc.js';
import { DEFAULT_CONFIG_PATH, readDefaultRaw } from '../../src/config/config.js';
import { ROOT } from '../e2e/harness.js';

const jsonc = readFileSync(DEFAULT_CONFIG_PATH, 'utf8');

function leafPaths(node: unknown, path = ''): string[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [path];
  return Object.entries(node).flatMap(([k, v]) => leafPaths(v, path ? `${path}.${k}` : k));
}

describe('docs/config.md', () => {
  it('is what the generator makes of config/default.jsonc (else: npm run build && node scripts/gen-config-doc.mjs)', () => {
    const current = readFileSync(join(ROOT, 'docs', 'config.md'), 'utf8');
    expect(current === configDoc(jsonc), 'docs/config.md is out of date with config/default.jsonc: run `npm run build && node scripts/gen-config-doc.mjs`').toBe(true);
  });

  it('lists every key the config loader knows, each with a meaning and its default', () => {
    const doc = configDoc(jsonc);
    const keys = commentedKeys(jsonc).map((e) => e.path);
    for (const leaf of leafPaths(readDefaultRaw())) {
      expect(keys, leaf).toContain(leaf);
      expect(doc, leaf).toContain(`- **\`${leaf}\`**`);
    }
    expect(doc).toContain('- **`thresholds.stability_s`** — default `1`: A ready-looking live edge must stay unchanged');
    expect(doc).toContain('- **`detection.codex.process`** — default `^(codex|codex-.*)$`: The foreground process name.');
  });

  it('refuses a key without a comment, naming it', () => {
    const text = '{\n  // Times.\n  "thresholds": {\n    // Documented.\n    "a_s": 1,\n\n    "b_s": 2\n  }\n}\n';
    expect(() => configDoc(text)).toThrow(UndocumentedKeys);
    expect(() => configDoc(text)).toThrow(/thresholds\.b_s/);
    expect(configDoc(text.replace('\n\n    "b_s"', '\n    // Also documented.\n    "b_s"'))).toContain('- **`thresholds.b_s`** — default `2`: Also documented.');
  });
});

describe('config/schema.json', () => {
  it('is what the generator makes of config/default.jsonc, and the defaults validate against it', async () => {
    const { configSchema, schemaText } = await import('../../src/config/config-schema.js');
    const { configProblems } = await import('../../src/config/config-validate.js');
    const published = readFileSync(join(ROOT, 'config', 'schema.json'), 'utf8');
    expect(published === schemaText(configSchema(jsonc)), 'config/schema.json is out of date: run `npm run build && node scripts/gen-config-doc.mjs`').toBe(true);
    expect(configProblems(readDefaultRaw())).toEqual([]);
    // Every key the loader knows is in the schema, typed, with its meaning.
    const schema = JSON.parse(published) as Record<string, unknown>;
    for (const leaf of leafPaths(readDefaultRaw())) {
      const node = leaf.split('.').reduce<Record<string, unknown>>((s, k) => (s['properties'] as Record<string, Record<string, unknown>>)[k]!, schema);
      expect(node['type'], leaf).toBeTruthy();
      expect(String(node['description']).length, leaf).toBeGreaterThan(0);
    }
  });

  it('a user file naming it ("$schema") loads; the file is in the published package', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    const cfg = loadConfig({ overrides: { $schema: './schema.json', thresholds: { stability_s: 2 } } });
    expect(cfg.thresholds.stability_s).toBe(2);
    expect((cfg as unknown as Record<string, unknown>)['$schema']).toBeUndefined();
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('config');
  });
});
