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
