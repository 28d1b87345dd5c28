// The built validator (ajv's standalone code, scripts/build-schema-validator.mjs) is used only when it was made from
// the very schema being checked, and says exactly what the run-time compiled one says.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_PATH } from '../../src/config/config-validate.js';
import { PRECOMPILED_NAME, schemaValidator, standaloneValidatorSource } from '../../src/config/schema-validator.js';

const schemaText = readFileSync(SCHEMA_PATH, 'utf8');
// Inside the checkout (its tmp/ is ignored): the built code requires ajv's runtime helpers from node_modules.
const tmp = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tmp');
mkdirSync(tmp, { recursive: true });
const dir = mkdtempSync(join(tmp, 'schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Configurations with every kind of problem the loader words (config-validate.ts). */
const CONFIGS: unknown[] = [
  {},
  { thresholds: { tick_s: 0.2 } },
  { thresholds: { tick_s: 'x', quiet_dne_s: 1 } },
  { thresholds: { stability_s: -1, history_size: 1.5 } },
  { peers: [{ url: 3 }, { name: 'bad name!', url: 'ws://x', token_file: '' }] },
  { patterns: { generic: { spinner: 7 } } },
  { nonsense: true },
  [],
  'text',
];

describe('schema validator', () => {
  const compiled = schemaValidator(schemaText, dir);
  writeFileSync(join(dir, PRECOMPILED_NAME), standaloneValidatorSource(schemaText));
  const built = schemaValidator(schemaText, dir);

  it('compiles at run time when nothing was built', () => {
    expect(compiled.precompiled).toBe(false);
  });

  it('uses the built validator made from this schema', () => {
    expect(built.precompiled).toBe(true);
  });

  it('reports exactly what the run-time compiled validator reports', () => {
    let invalid = 0;
    for (const c of CONFIGS) {
      const ok = built.validate(c);
      expect(ok).toBe(compiled.validate(c));
      expect(built.validate.errors ?? null).toEqual(compiled.validate.errors ?? null);
      if (!ok) invalid++;
    }
    expect(invalid).toBeGreaterThanOrEqual(6);
  });

  it('a built file that does not load is compiled past', () => {
    const broken = mkdtempSync(join(tmp, 'schema-broken-'));
    writeFileSync(join(broken, PRECOMPILED_NAME), 'module.exports = ;');
    const v = schemaValidator(schemaText, broken);
    expect(v.precompiled).toBe(false);
    expect(v.validate({ thresholds: { tick_s: 'x' } })).toBe(false);
    rmSync(broken, { recursive: true, force: true });
  });

  it('is not used for a schema edited since the build', () => {
    const edited = schemaText.replace('"tick_s": {', '"tick_s": { "maximum": 5,');
    expect(edited).not.toBe(schemaText);
    const v = schemaValidator(edited, dir);
    expect(v.precompiled).toBe(false);
    expect(v.validate({ thresholds: { tick_s: 9 } })).toBe(false);
    expect(built.validate({ thresholds: { tick_s: 9 } })).toBe(true);
  });
});
