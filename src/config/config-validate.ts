// A user's configuration checked against config/schema.json by ajv (the validator fastify already brings), every
// problem reported at once with its key path, in words a person reads: "thresholds.quiet_dne_s: unknown key (did
// you mean "quiet_done_s"?)", "thresholds.stability_s: expected a number, got string "1"".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './config-schema.js';
import { schemaValidator } from './schema-validator.js';

/** The published schema, next to the defaults it was made from. */
export const SCHEMA_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'config', 'schema.json');

let compiled: { validate: ValidateFunction; schema: JsonSchema } | null = null;

function validator(): { validate: ValidateFunction; schema: JsonSchema } {
  if (!compiled) {
    const text = readFileSync(SCHEMA_PATH, 'utf8');
    compiled = { validate: schemaValidator(text).validate, schema: JSON.parse(text) as JsonSchema };
  }
  return compiled;
}

/** The problems of a user's (partial) configuration, each "key.path: what is wrong"; empty when it is valid. */
export function configProblems(user: unknown): string[] {
  const { validate, schema } = validator();
  if (validate(user)) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    const problem = describeError(e, user, schema);
    const key = problem.slice(0, problem.indexOf(':'));
    // One problem per key: a list with a wrong element, or a value of the wrong type, is said once.
    if (problem && !seen.has(key)) {
      seen.add(key);
      out.push(problem);
    }
  }
  return out;
}

function describeError(e: ErrorObject, user: unknown, schema: JsonSchema): string {
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  // An element of a list is reported as the list.
  const listAt = parts.findIndex((p) => /^\d+$/.test(p));
  const keyParts = listAt >= 0 ? parts.slice(0, listAt) : parts;
  // ...except in a list of objects (config `peers`): there the element's own key is named, `peers[0].url`.
  const items = (schemaAt(schema, keyParts)['items'] as JsonSchema | undefined) ?? {};
  if (listAt >= 0 && items['type'] === 'object') return describeItemError(e, user, `${keyParts.join('.')}[${parts[listAt]}]`, parts.slice(0, listAt + 1), parts.slice(listAt + 1), items);
  const path = keyParts.join('.');
  const value = valueAt(user, keyParts);
  const at = schemaAt(schema, keyParts);
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys((at['properties'] as JsonSchema | undefined) ?? {}).filter((k) => k !== '$schema');
      return `${path ? `${path}.` : ''}${extra}: unknown key${suggest(extra, known)}`;
    }
    case 'type':
    case 'items':
      return `${path || '(top)'}: expected ${expected(at)}, got ${describe(value)}`;
    case 'minimum':
      return `${path}: expected a non-negative number, got ${JSON.stringify(value)}`;
    case 'enum': {
      const bad = listAt >= 0 ? valueAt(user, parts) : value;
      return `${path}: ${JSON.stringify(bad)} is not one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
    }
    case 'pattern':
      return at['x-expected'] ? `${path}: expected ${String(at['x-expected'])}, got ${JSON.stringify(value)}` : `${path}: ${JSON.stringify(value)} does not match ${String(at['pattern'])}`;
    case 'maximum':
    case 'multipleOf':
      return at['x-expected'] ? `${path}: expected ${String(at['x-expected'])}, got ${JSON.stringify(value)}` : `${path}: ${e.message ?? 'invalid'}`;
    default:
      return `${path || '(top)'}: ${e.message ?? 'invalid'}`;
  }
}

/** A problem inside one object of a list: `item` is the element's path in words, `rest` the key within it. */
function describeItemError(e: ErrorObject, user: unknown, item: string, itemParts: string[], rest: string[], items: JsonSchema): string {
  const path = [item, ...rest].join('.');
  const value = valueAt(user, [...itemParts, ...rest]);
  const at = rest.length ? ((items['properties'] as JsonSchema)[rest[0]!] as JsonSchema | undefined) ?? {} : items;
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      return `${path}.${extra}: unknown key${suggest(extra, Object.keys((items['properties'] as JsonSchema) ?? {}))}`;
    }
    case 'required':
      return `${path}.${(e.params as { missingProperty: string }).missingProperty}: must be set`;
    case 'type':
      return `${path}: expected ${expected(at)}, got ${describe(value)}`;
    case 'minLength':
      return `${path}: must be set`;
    case 'pattern':
      return `${path}: ${JSON.stringify(value)} is not a usable name (letters, digits, ".", "_", "-")`;
    default:
      return `${path}: ${e.message ?? 'invalid'}`;
  }
}

function expected(s: JsonSchema): string {
  switch (s['type']) {
    case 'object':
      return 'an object';
    case 'array':
      return (s['items'] as JsonSchema | undefined)?.['type'] === 'object' ? 'a list of objects' : 'a list of strings';
    case 'integer':
      return typeof s['x-expected'] === 'string' ? s['x-expected'] : 'a whole number';
    default:
      return `a ${String(s['type'])}`;
  }
}

function schemaAt(schema: JsonSchema, parts: string[]): JsonSchema {
  let s = schema;
  for (const p of parts) s = ((s['properties'] as JsonSchema | undefined)?.[p] as JsonSchema | undefined) ?? {};
  return s;
}

function valueAt(v: unknown, parts: string[]): unknown {
  return parts.reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
}

function describe(x: unknown): string {
  if (Array.isArray(x)) return 'a list';
  if (x === null) return 'null';
  return `${typeof x} ${JSON.stringify(x)?.slice(0, 40)}`;
}

function suggest(k: string, known: string[]): string {
  const near = known.find((c) => c.toLowerCase() === k.toLowerCase() || c.replace(/_/g, '') === k.replace(/[_-]/g, '').toLowerCase());
  return near ? ` (did you mean "${near}"?)` : ` (known: ${known.join(', ')})`;
}
