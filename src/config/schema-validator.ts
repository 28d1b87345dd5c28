// The configuration schema's validator. ajv turns config/schema.json into code; doing that at run time cost every
// command run with a configuration file (the person's own, or --config) 110-120 ms and 29 MB of garbage (loading
// one: 132-142 ms, against 21-30 ms built). In the daemon that was half of its start-up allocation, and V8's memory
// reducer waits until the allocation rate it averages over the last collections is low: with the start-up burst
// that big, its collection slipped from 8 s to 16 s after start, into a quiet daemon's first idle minute. So the
// build compiles the schema once (scripts/build-schema-validator.mjs writes ajv's standalone code to
// dist/config/schema-validator.cjs), stamped with the schema's sha256. A schema edited since the build, a built file
// that does not load, or no build (tests run the sources): compiled here, as before, with the same options.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv, ValidateFunction } from 'ajv';

/** The build's output, next to this module in dist/config/. */
export const PRECOMPILED_NAME = 'schema-validator.cjs';
const HERE = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export function schemaDigest(schemaText: string): string {
  return createHash('sha256').update(schemaText).digest('hex');
}

/** ajv as the schema is checked with, run-time or built (`source`: keep the code for the standalone module). */
function newAjv(source: boolean): Ajv {
  // Loaded only when compiling: a built validator needs none of ajv's compiler.
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
  const ajv = new AjvClass({ allErrors: true, strict: true, ...(source && { code: { source: true } }) });
  ajv.addKeyword({ keyword: 'x-regex', schemaType: 'boolean' }); // marks regex strings: compiled by the loader
  ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' }); // what a refusal says the value should be
  return ajv;
}

/** The validator for `schemaText`: the built one in `dir` when it was made from this very text, else compiled now. */
export function schemaValidator(schemaText: string, dir = HERE): { validate: ValidateFunction; precompiled: boolean } {
  const file = join(dir, PRECOMPILED_NAME);
  if (existsSync(file)) {
    let built: (ValidateFunction & { schemaSha256?: string }) | null = null;
    try {
      built = require(file) as ValidateFunction & { schemaSha256?: string };
    } catch {
      // A damaged build output costs a slower start, never the configuration.
    }
    if (typeof built === 'function' && built.schemaSha256 === schemaDigest(schemaText)) return { validate: built, precompiled: true };
  }
  return { validate: newAjv(false).compile(JSON.parse(schemaText) as object), precompiled: false };
}

/** The CommonJS module the build writes: ajv's standalone validator for `schemaText`, stamped with its digest. */
export function standaloneValidatorSource(schemaText: string): string {
  const ajv = newAjv(true);
  const validate = ajv.compile(JSON.parse(schemaText) as object);
  const standaloneCode = (require('ajv/dist/standalone') as { default: (a: Ajv, v: ValidateFunction) => string }).default;
  return `${standaloneCode(ajv, validate)}\nmodule.exports.schemaSha256 = ${JSON.stringify(schemaDigest(schemaText))};\n`;
}
